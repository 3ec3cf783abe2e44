// Base types a user's resource struct derives from (SPEC S1, S2, S4.5-S4.7, S12).
// These are device-copyable: the struct itself travels to the kernel as a parameter.
#pragma once
#include "ts/core/macros.hpp"
#include "ts/core/stage_info.hpp"

namespace ts {

// A resource holding data (a GMEM tensor, an SMEM ring, a TMEM accumulator ...).
struct MemoryResource {};

// A persistent tile queue. num_tiles tiles, tile i maps to a coordinate through
// make_tile (override by declaring a function of the same name in the derived struct).
// Static when no pipeline is attached (tile index by arithmetic); dynamic when a
// ClcFetchAsync pipeline is attached and a scheduler task fetches tiles.
struct WorkQueue {
  static constexpr bool is_work_queue = true;
  int num_tiles = 0;
  int tiles_x = 0;  // tiles along x for the default coordinate mapping; 0 means a 1-D queue

  TS_HD WorkTile make_tile(int idx) const {
    WorkTile t;
    t.tile_idx = idx;
    t.valid = idx < num_tiles;
    if (tiles_x > 0) {
      t.coord[0] = idx % tiles_x;
      t.coord[1] = idx / tiles_x;
    } else {
      t.coord[0] = idx;
    }
    return t;
  }
};

// Programmatic Dependent Launch synchronization-only resources (SPEC S12).
struct PdlWait {
  static constexpr bool is_pdl_wait = true;
};
struct PdlLaunch {
  static constexpr bool is_pdl_launch = true;
};

}  // namespace ts
