// Results<Ts...>: a work method that returns several values declares one task-local
// slot per element (SPEC S2.2). Usable on device (no std::tuple) and with structured
// bindings.
#pragma once
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ts/core/macros.hpp"

namespace ts {

namespace detail {
template <std::size_t I, class T>
struct ResultLeaf {
  T value;
};
template <class Seq, class... Ts>
struct ResultStorage;
template <std::size_t... Is, class... Ts>
struct ResultStorage<std::index_sequence<Is...>, Ts...> : ResultLeaf<Is, Ts>... {
  ResultStorage() = default;
  TS_HD constexpr explicit ResultStorage(Ts... vs) : ResultLeaf<Is, Ts>{vs}... {}
};

template <std::size_t I, class T>
TS_HD constexpr T& leaf(ResultLeaf<I, T>& l) { return l.value; }
template <std::size_t I, class T>
TS_HD constexpr T const& leaf(ResultLeaf<I, T> const& l) { return l.value; }
}  // namespace detail

template <class... Ts>
struct Results : detail::ResultStorage<std::index_sequence_for<Ts...>, Ts...> {
  using Base = detail::ResultStorage<std::index_sequence_for<Ts...>, Ts...>;
  static constexpr std::size_t size = sizeof...(Ts);
  Results() = default;
  TS_HD constexpr Results(Ts... vs) : Base(vs...) {}
  template <std::size_t I>
  TS_HD constexpr auto& get() { return detail::leaf<I>(*this); }
  template <std::size_t I>
  TS_HD constexpr auto const& get() const { return detail::leaf<I>(*this); }

};

template <class T>
struct is_results : std::false_type {};
template <class... Ts>
struct is_results<Results<Ts...>> : std::true_type {};

}  // namespace ts

template <class... Ts>
struct std::tuple_size<ts::Results<Ts...>> : std::integral_constant<std::size_t, sizeof...(Ts)> {};
template <std::size_t I, class... Ts>
struct std::tuple_element<I, ts::Results<Ts...>> {
  using type = std::tuple_element_t<I, std::tuple<Ts...>>;
};
