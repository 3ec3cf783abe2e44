// Shared pieces of the tiled copy examples (03-05): a tile is kTileChunks chunks of 32
// elements, one element per lane, so every lane of a warp runs the same iterations.
#pragma once
#include "ts/core/pipeline_config.hpp"
#include <cstdint>

#include "ts/schedule.hpp"

namespace examples {

constexpr int kTileChunks = 4;
constexpr int kTileElems = kTileChunks * 32;

// Source of a tiled copy: element `chunk*32 + lane` of the current tile.
struct TileInput : ts::MemoryResource {
  int16_t const* src = nullptr;
  long long n = 0;
  TS_HD int16_t load(ts::ConsumerStage const& si) const {
    long long i = (long long)si.work_tile.tile_idx * kTileElems + si.loop_offset * 32 + si.thread.lane();
    return i < n ? src[i] : int16_t(0);
  }
};

// Destination of a tiled copy; `visits` counts how often each tile's body ran, so
// tests can assert every coordinate ran exactly once.
struct TileOutput : ts::MemoryResource {
  int16_t* dst = nullptr;
  long long n = 0;
  int* visits = nullptr;
  TS_HD void store(ts::ProducerStage const& si, int16_t v) const {
    long long i = (long long)si.work_tile.tile_idx * kTileElems + si.loop_offset * 32 + si.thread.lane();
    if (i < n) dst[i] = v;
  }
  TS_HD void mark_tile(ts::AuxStage const& si) const {
    if (si.thread.thread_in_task == 0 && visits) ++visits[si.work_tile.tile_idx];
  }
};

// A 1-D static persistent tile queue (ClcTileQueue below is its dynamic, CLC form). `real_tiles` <= num_tiles: the rest are over-launch padding.
struct TileQueue : ts::WorkQueue {
  int real_tiles = 0;
  TS_HD bool padding_tile(ts::WorkTile const& t) const { return t.tile_idx >= real_tiles; }
};

// 05's queue: the tiles of example 04 behind a one-stage CLC response ring, released by
// the scheduler and the copy task (3 warps, every lane: the group is derived).
struct ClcTileQueue : TileQueue {
  static constexpr auto pipeline = ts::clc_fetch_async({.num_stages = 1});
};

// The tile body every tiled copy shares: mark the tile, copy its chunks.
template <class S, class In, class Out>
TS_HD void copy_tile(S& s, In& in, Out& out) {
  ts::work<&TileOutput::mark_tile>(out);
  s.domain_loop(0, kTileChunks, 1, [&](auto&) {
    auto v = ts::work<&TileInput::load>(in);
    ts::work<&TileOutput::store>(out, v);
  });
}

// The work-queue epilogue of a data task (SPEC S4.6).
using ts::queue_epilogue;

}  // namespace examples

TS_WORK_SLOTS(&examples::TileInput::load, ts::Slot<int16_t>{"value", 0, "This lane's element of the tile chunk."});
