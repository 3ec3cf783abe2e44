// skip_if predicates for work_tile_loop (SPEC S4.5). Accepted forms:
//   ts::skip_if<&MyQueue::skip_tile>     bool MyQueue::skip_tile(ts::WorkTile const&) const
//   ts::skip_if<&skip_fn>                bool skip_fn(MyQueue const&, ts::WorkTile const&)
//   ts::skip_if<&skip_tile_fn>           bool skip_tile_fn(ts::WorkTile const&)
// A method of another resource is recorded (form ForeignMethod) so the verifier can
// reject it with S6.21 rather than the compiler with a template error.
#pragma once
#include <type_traits>

#include "ts/core/macros.hpp"
#include "ts/core/stage_info.hpp"
#include "ts/schedule/ir.hpp"
#if !TS_DEVICE_PASS
#include "ts/schedule/names.hpp"
#endif

namespace ts {

namespace detail {
template <class F>
struct skip_fn_traits {
  static constexpr int form = -1;
};
template <class C>
struct skip_fn_traits<bool (C::*)(WorkTile const&) const> {
  static constexpr int form = 0;  // method
  using owner = C;
};
template <class Q>
struct skip_fn_traits<bool (*)(Q const&, WorkTile const&)> {
  static constexpr int form = 1;  // function (queue, tile)
  using queue = Q;
};
template <>
struct skip_fn_traits<bool (*)(WorkTile const&)> {
  static constexpr int form = 2;  // function (tile)
};
}  // namespace detail

template <auto F>
struct SkipIfPredicate {
  using traits = detail::skip_fn_traits<decltype(F)>;
  static_assert(traits::form >= 0,
                "ts::skip_if<F>: F must be `bool Q::f(ts::WorkTile const&) const`, "
                "`bool f(Q const&, ts::WorkTile const&)` or `bool f(ts::WorkTile const&)`");

#if !TS_DEVICE_PASS
  template <class Q>
  ir::SkipIf describe() const {
    ir::SkipIf s;
    s.name = member_name<F>();
    if constexpr (traits::form == 0) {
      s.owner_type = type_name<typename traits::owner>();
      s.form = std::is_base_of_v<typename traits::owner, Q> ? ir::SkipIf::Form::QueueMethod
                                                             : ir::SkipIf::Form::ForeignMethod;
    } else if constexpr (traits::form == 1) {
      s.owner_type = type_name<typename traits::queue>();
      s.form = ir::SkipIf::Form::FunctionQueueTile;
    } else {
      s.form = ir::SkipIf::Form::FunctionTile;
    }
    return s;
  }
#else
  // Declared only: nvcc's device pass still instantiates host-side recording code it
  // reaches through std::apply's invocability checks, but never calls it.
  template <class Q>
  ir::SkipIf describe() const;
#endif

  template <class Q>
  TS_HD bool operator()(Q const& q, WorkTile const& t) const {
    if constexpr (traits::form == 0) {
      static_assert(std::is_base_of_v<typename traits::owner, Q>,
                    "ts::skip_if<&X::f>: a skip predicate must be a method of the work queue (SPEC S6.21)");
      return (q.*F)(t);
    } else if constexpr (traits::form == 1) {
      return F(q, t);
    } else {
      return F(t);
    }
  }
};

// ts::skip_if<F> is a constant of a scalar (enum) type that names the predicate: nvcc
// lets device code use the value of a namespace-scope constexpr scalar, but not an object
// of class type (passing one by value odr-uses it: "undefined in device code"). The
// contexts turn it back into the predicate with skip_predicate(), found through ADL on
// the enum, whose enclosing class is the predicate.
template <auto F>
struct SkipIfTag {
  enum class Tag : int { value };
  friend TS_HD constexpr SkipIfPredicate<F> predicate_of(Tag) { return {}; }
};
template <auto F>
inline constexpr typename SkipIfTag<F>::Tag skip_if = SkipIfTag<F>::Tag::value;

// ts::skip_if<F> or a SkipIfPredicate<F>{} object -> the predicate.
template <class S>
TS_HD constexpr auto skip_predicate(S s) {
  if constexpr (requires { predicate_of(s); }) return predicate_of(s);
  else return s;
}

}  // namespace ts
