// ---- 03: static persistent copy with over-launched, skipped tiles ----
// A persistent grid walks the tile queue by arithmetic (tile += grid). The queue is
// padded to a multiple of the grid so every CTA runs the same number of tile
// iterations; padding tiles are skipped by skip_if, only the data work is skippable,
// the queue bookkeeping runs for every tile.
#pragma once
#include "copy_tiles.hpp"

namespace examples {

struct PersistentCopy {
  template <class S, class Q, class In, class Out>
  TS_HD void operator()(S& s, Q& wq, In& in, Out& out) const {
    s.work_tile_loop(wq, ts::skip_if<&TileQueue::padding_tile>, [&](auto& wt) {
      wt.skippable([&] { copy_tile(s, in, out); });
      queue_epilogue(wq);
    });
  }
};

}  // namespace examples
