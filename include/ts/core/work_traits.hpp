// Compile-time introspection of work methods named by member pointer:
//   ts::work<&InputGmem::get_item>(in)
// The role comes from the first parameter's type (ProducerStage / ConsumerStage /
// AuxStage); the return type gives the task-local slots; the remaining parameters
// are the tokens the method consumes. Anything else is rejected with one message.
#pragma once
#include <string_view>
#include <type_traits>

#include "ts/core/results.hpp"
#include "ts/core/stage_info.hpp"

namespace ts {

enum class WorkRole { Producer, Consumer, Auxiliary };

// A compile-time work argument (SPEC S2.5). A work method declares trailing tag
// parameters `ts::Ct<V>`; the schedule names the instantiation, e.g.
//   template <int I> int load(ts::ConsumerStage const&, ts::Ct<I>) const;
//   auto v = ts::work<&Smem::load<1>>(smem);
// The value is part of the member pointer's type, so the recorder reads it without
// parsing compiler-specific names, and the executor passes the tag for free.
template <auto V>
struct Ct {
  static constexpr auto value = V;
};

namespace detail {

template <class S>
struct role_of_stage {
  static constexpr bool valid = false;
  static constexpr WorkRole role = WorkRole::Auxiliary;  // unused: ts::work rejects it first
};
template <>
struct role_of_stage<ProducerStage> {
  static constexpr bool valid = true;
  static constexpr WorkRole role = WorkRole::Producer;
};
template <>
struct role_of_stage<ConsumerStage> {
  static constexpr bool valid = true;
  static constexpr WorkRole role = WorkRole::Consumer;
};
template <>
struct role_of_stage<AuxStage> {
  static constexpr bool valid = true;
  static constexpr WorkRole role = WorkRole::Auxiliary;
};

template <class... Ts>
struct type_list {
  static constexpr std::size_t size = sizeof...(Ts);
};

template <class F>
struct member_fn {
  static constexpr bool is_member_fn = false;
};

#define TS_DETAIL_MEMBER_FN(QUAL)                                          \
  template <class R, class C, class... A>                                  \
  struct member_fn<R (C::*)(A...) QUAL> {                                  \
    static constexpr bool is_member_fn = true;                             \
    using result = R;                                                      \
    using owner = C;                                                       \
    using params = type_list<A...>;                                        \
  };
TS_DETAIL_MEMBER_FN()
TS_DETAIL_MEMBER_FN(const)
TS_DETAIL_MEMBER_FN(noexcept)
TS_DETAIL_MEMBER_FN(const noexcept)
#undef TS_DETAIL_MEMBER_FN

template <class L>
struct first_and_rest {
  static constexpr bool has_first = false;
  using first = void;
  using rest = type_list<>;
};
template <class F, class... R>
struct first_and_rest<type_list<F, R...>> {
  static constexpr bool has_first = true;
  using first = F;
  using rest = type_list<R...>;
};

template <class T>
struct is_ct : std::false_type {};
template <auto V>
struct is_ct<Ct<V>> : std::true_type {};

// Splits data parameters into (tokens, trailing compile-time tags).
template <class Tokens, class Cts, class Rest>
struct split_ct;
template <class... T, class... C>
struct split_ct<type_list<T...>, type_list<C...>, type_list<>> {
  using tokens = type_list<T...>;
  using cts = type_list<C...>;
};
template <class... T, class... C, class P, class... Ps>
struct split_ct<type_list<T...>, type_list<C...>, type_list<P, Ps...>> {
  using D = std::remove_cvref_t<P>;
  static constexpr bool tag = is_ct<D>::value;
  static_assert(tag || sizeof...(C) == 0,
                "work method: compile-time ts::Ct<V> parameters must come after every token parameter");
  using next = std::conditional_t<tag, split_ct<type_list<T...>, type_list<C..., D>, type_list<Ps...>>,
                                  split_ct<type_list<T..., P>, type_list<C...>, type_list<Ps...>>>;
  using tokens = typename next::tokens;
  using cts = typename next::cts;
};

template <class R>
struct slot_types {
  using types = type_list<R>;
};
template <>
struct slot_types<void> {
  using types = type_list<>;
};
template <class... Ts>
struct slot_types<Results<Ts...>> {
  using types = type_list<Ts...>;
};

}  // namespace detail

// Everything the library knows about a work method at compile time.
template <auto M>
struct work_traits {
  using fn = detail::member_fn<decltype(M)>;
  static constexpr bool is_member_fn = fn::is_member_fn;
  using split = detail::first_and_rest<typename fn::params>;
  using stage_param = std::remove_cvref_t<typename split::first>;
  static constexpr bool has_stage_param = split::has_first && detail::role_of_stage<stage_param>::valid;
  static constexpr bool is_work = is_member_fn && has_stage_param;
  static constexpr WorkRole role = detail::role_of_stage<stage_param>::role;
  using owner = typename fn::owner;
  using result = typename fn::result;
  using data_split = detail::split_ct<detail::type_list<>, detail::type_list<>, typename split::rest>;
  using token_params = typename data_split::tokens;  // data arguments (tokens)
  using ct_params = typename data_split::cts;        // trailing compile-time tags
  using slots = typename detail::slot_types<result>::types;  // one per returned value
  using stage_type = stage_param;
};

// Printable name of a member pointer, taken from the compiler's function signature,
// e.g. "InputGmem::get_item" or "SmemRing::load<1>".
namespace detail {
template <auto M>
constexpr std::string_view raw_pretty_name() {
#if defined(__PRETTY_FUNCTION__) || defined(__GNUC__) || defined(__clang__)
  return __PRETTY_FUNCTION__;
#else
  return "?";
#endif
}
}  // namespace detail

}  // namespace ts
