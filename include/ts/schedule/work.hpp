// Calling work from a schedule body (SPEC S2): the same call records a step on the
// host and runs the method in the executing contexts.
//   auto v = ts::work<&InputGmem::get_item>(in);
//   ts::work<&OutputGmem::set_item>(out, v);
// ts::produce / ts::consume / ts::aux additionally assert the method's role.
#pragma once
#include <utility>

#include "ts/core/macros.hpp"
#include "ts/core/work_traits.hpp"

namespace ts {

namespace detail {
template <auto M>
TS_HD constexpr void check_work_method() {
  static_assert(member_fn<decltype(M)>::is_member_fn,
                "ts::work<M>: M must be a pointer to a member function of a resource, e.g. &InputGmem::get_item");
  static_assert(work_traits<M>::has_stage_param,
                "ts::work<M>: not a work method: its first parameter must be ts::ProducerStage const&, "
                "ts::ConsumerStage const& or ts::AuxStage const& (that type marks its role)");
}
}  // namespace detail

TS_NO_HD_WARNING
template <auto M, class H, class... A>
TS_HD decltype(auto) work(H const& h, A&&... args) {
  detail::check_work_method<M>();
  return h.template invoke<M>(std::forward<A>(args)...);
}

TS_NO_HD_WARNING
template <auto M, class H, class... A>
TS_HD decltype(auto) produce(H const& h, A&&... args) {
  detail::check_work_method<M>();
  static_assert(work_traits<M>::role == WorkRole::Producer,
                "ts::produce<M>: M is not producer work (its first parameter is not ts::ProducerStage const&)");
  return h.template invoke<M>(std::forward<A>(args)...);
}

TS_NO_HD_WARNING
template <auto M, class H, class... A>
TS_HD decltype(auto) consume(H const& h, A&&... args) {
  detail::check_work_method<M>();
  static_assert(work_traits<M>::role == WorkRole::Consumer,
                "ts::consume<M>: M is not consumer work (its first parameter is not ts::ConsumerStage const&)");
  return h.template invoke<M>(std::forward<A>(args)...);
}

TS_NO_HD_WARNING
template <auto M, class H, class... A>
TS_HD decltype(auto) aux(H const& h, A&&... args) {
  detail::check_work_method<M>();
  static_assert(work_traits<M>::role == WorkRole::Auxiliary,
                "ts::aux<M>: M is not auxiliary work (its first parameter is not ts::AuxStage const&)");
  return h.template invoke<M>(std::forward<A>(args)...);
}

// A domain bound computed per work tile by `long long R::f(ts::WorkTile const&) const`.
TS_NO_HD_WARNING
template <auto M, class H>
TS_HD auto per_tile(H const& h) {
  return h.template per_tile<M>();
}

}  // namespace ts
