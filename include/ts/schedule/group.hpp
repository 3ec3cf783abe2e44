// ts::group(a, b, ...): the collapsed side of a pipeline group in a schedule (SPEC S10.3).
//   Merge / FusedMerge consumer:  ts::group(a, b).wait(); ...work on a and b...; ts::group(a, b).release();
//   Fork producer:                ts::group(a, b).acquire(); ...;                ts::group(a, b).commit();
// Ops of the other side stay on the member handles (a.acquire(), a.commit()). The view
// names every member of one group once, in any order. Recording, it adds one step per
// member tagged with the group; executing, it runs each member's op but signals a
// barrier the members share only once (runtime/exec_context.hpp).
#pragma once
#include "ts/core/macros.hpp"

namespace ts {

template <class H0, class... H>
TS_HD auto group(H0 const& first, H const&... rest) {
  static_assert(sizeof...(H) >= 1, "ts::group(a, b, ...): a pipeline group has at least two members");
  return first.group_with(rest...);
}

}  // namespace ts
