// Readable names of work methods and types, from __PRETTY_FUNCTION__ text: what the
// recorder writes into the IR, skip_if predicates describe themselves with, and the
// emulator's step hooks report (implemented in src/schedule/names.cpp).
#pragma once
#include <string>
#include <string_view>

#include "ts/core/work_traits.hpp"

namespace ts {

// Readable names from __PRETTY_FUNCTION__ text (implemented in src/schedule/names.cpp).
std::string member_name_from_pretty(std::string_view pretty);  // "&A::f<1>" -> "A::f<1>"
std::string type_name_from_pretty(std::string_view pretty);    // for type template parameters

template <auto M>
std::string member_name() {
  return member_name_from_pretty(detail::raw_pretty_name<M>());
}
namespace detail {
template <class T>
constexpr std::string_view raw_type_pretty_name() {
  return __PRETTY_FUNCTION__;
}
}  // namespace detail
template <class T>
std::string type_name() {
  return type_name_from_pretty(detail::raw_type_pretty_name<T>());
}

}  // namespace ts
