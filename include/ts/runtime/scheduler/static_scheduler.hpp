// The static persistent scheduler: CTA b runs tiles b, b + grid, b + 2 grid, ... by
// arithmetic alone (no pipeline, no scheduler task). Every Arch meets it.
#pragma once
#include "ts/core/macros.hpp"
#include "ts/core/stage_info.hpp"

namespace ts {

struct StaticScheduler {
  static constexpr bool is_dynamic = false;
  static constexpr char const* name = "static";

  template <class Arch, class Q>
  TS_HD static WorkTile first(Arch& a, Q const& q) {
    return q.make_tile(a.thread().block_idx);
  }
  template <class Arch, class Q>
  TS_HD static WorkTile next(Arch& a, Q const& q, WorkTile const& current) {
    return q.make_tile(current.tile_idx + a.thread().grid_blocks);
  }
};

}  // namespace ts
