// Host-side declarations of the copy examples: resources, tasks, graph, manager.
// Tests, the main job and the backends all build the examples through these.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "copy_builders.hpp"
#include "copy_resources.hpp"
#include "ts/ts.hpp"

namespace examples {

struct CopyBuffers {
  std::vector<int16_t> src, dst;
  explicit CopyBuffers(long long n) : src(n), dst(n, 0) {
    for (long long i = 0; i < n; ++i) src[i] = static_cast<int16_t>((i * 7919 + 13) & 0x7fff);
  }
  bool matches() const { return src == dst; }
};

inline auto make_grid_stride_copy(CopyBuffers& b, ts::Options o = {}) {
  return make_grid_stride_copy(b.src.data(), b.dst.data(), static_cast<long long>(b.src.size()), o);
}
inline auto make_pipelined_copy(CopyBuffers& b, ts::Options o = {}) {
  return make_pipelined_copy(b.src.data(), b.dst.data(), static_cast<long long>(b.src.size()), o);
}

}  // namespace examples

// ---- tiled examples (03-05) ----
#include "copy_dynamic.hpp"
#include "copy_persistent.hpp"
#include "copy_varlen.hpp"

namespace examples {

struct TiledBuffers : CopyBuffers {
  std::vector<int> visits;
  int real_tiles;
  explicit TiledBuffers(long long n)
      : CopyBuffers(n), real_tiles(static_cast<int>((n + kTileElems - 1) / kTileElems)) {
    visits.assign(real_tiles + 64, 0);  // room for padding tiles: they must stay at 0
  }
  // Every real tile's body ran exactly once, no padding tile's body ran.
  bool exactly_once() const {
    for (size_t t = 0; t < visits.size(); ++t)
      if (visits[t] != (int(t) < real_tiles ? 1 : 0)) return false;
    return true;
  }
};

// 03: `grid` persistent CTAs; the queue is padded to a multiple of the grid.
inline auto make_static_persistent_copy(TiledBuffers& b, int grid, ts::Options o = {}) {
  long long n = static_cast<long long>(b.src.size());
  int padded = (b.real_tiles + grid - 1) / grid * grid;
  auto wq = ts::resource("tiles", TileQueue{{padded, 0}, b.real_tiles});
  auto in = ts::resource("in", TileInput{{}, b.src.data(), n});
  auto out = ts::resource("out", TileOutput{{}, b.dst.data(), n, b.visits.data()});
  auto copy = ts::Task("Copy").warps(0, 2).reads(wq, in).writes(out).schedule(PersistentCopy{}, wq, in, out);
  return ts::TaskManager(ts::tasks(copy), ts::DependencyGraph{{out, {in, wq}}}, o);
}

// 05: grid = one CTA per tile; a scheduler warp steals pending CTAs' tiles through CLC.
inline auto make_dynamic_copy(TiledBuffers& b, ts::Options o = {}) {
  long long n = static_cast<long long>(b.src.size());
  auto wq = ts::resource("tiles", ClcTileQueue{TileQueue{{b.real_tiles, 0}, b.real_tiles}});
  auto in = ts::resource("in", TileInput{{}, b.src.data(), n});
  auto out = ts::resource("out", TileOutput{{}, b.dst.data(), n, b.visits.data()});
  auto sched = ts::Task("Scheduler").warps(0, 1).reads(wq).writes(wq).schedule(ClcScheduler{}, wq);
  auto work = ts::Task("Worker").warps(1, 2).reads(wq, in).writes(out).schedule(PersistentCopy{}, wq, in, out);
  return ts::TaskManager(ts::tasks(sched, work), ts::DependencyGraph{{out, {in, wq}}}, o);
}

// 04: segments of varying length (some empty) described by an offsets array.
struct VarlenBuffers : CopyBuffers {
  std::vector<int> offsets{0};
  explicit VarlenBuffers(long long n) : CopyBuffers(n) {
    static int const lengths[] = {100, 0, 33, 257, 31, 64, 1, 200, 0, 96};
    for (int i = 0; offsets.back() < n; ++i)
      offsets.push_back(static_cast<int>(std::min<long long>(n, offsets.back() + lengths[i % 10])));
  }
  int segments() const { return static_cast<int>(offsets.size()) - 1; }
};

inline auto make_varlen_copy(VarlenBuffers& b, ts::Options o = {}) {
  auto wq = ts::resource("segments_queue", TileQueue{{b.segments(), 0}, b.segments()});
  auto seg = ts::resource("segments", Segments{{}, b.offsets.data(), b.src.data()});
  auto out = ts::resource("out", SegmentOutput{{}, b.offsets.data(), b.dst.data()});
  auto ring = ts::resource("ring", ChunkRing{},
                           ts::PipelineConfig::async_async({.num_stages = kVarRingStages,
                                                            .producer_group = {ts::Agent::Thread, 32},
                                                            .consumer_group = {ts::Agent::Thread, 32}}));
  auto producer =
      ts::Task("Producer").warps(0, 1).reads(wq, seg).writes(ring).schedule(VarlenProducer{}, wq, seg, ring);
  auto consumer = ts::Task("Consumer")
                      .warps(1, 1)
                      .reads(wq, seg, ring)
                      .writes(out)
                      .schedule(VarlenConsumer{}, wq, seg, ring, out);
  return ts::TaskManager(ts::tasks(producer, consumer), ts::DependencyGraph{{ring, {seg, wq}}, {out, {ring}}}, o);
}

}  // namespace examples
