// Example 16: a warp-lane interleaved consumer (SPEC S3.3, S6.12, docs/warp-lanes.md).
// One Producer warp fills a 4-stage ring with two chunks per iteration; the consumer
// task Lanes has two warps and the ring's wait/release stride is 2 (interleave_stride
// {1, 1, 2, 2}). Its loop is not a stepping domain loop, so the ring's consumer side runs
// in warp-lane mode: warp w of Lanes is lane w, its stage counters start at stage w and
// move 2 stages per op, so warp 0 takes stages 0, 2, 0, 2, ... (chunks 0, 2, 4, ...) and
// warp 1 stages 1, 3, ... (chunks 1, 3, 5, ...). One `ring.wait()` of Lanes is two stage
// waits, one per warp, which is why its loop runs half as many iterations as there are
// chunks. Each tile's length is a runtime value, so the checker proves it for every
// length (`SAFE (for all k >= 1)`).
#pragma once
#include "pattern_resources.hpp"
#include "ts/ts.hpp"

namespace examples::patterns {

constexpr int kWarpLaneStages = 4;
constexpr int kWarpLanes = 2;  // = the wait/release interleave stride = the warps of Lanes

// Which warp handled a chunk shows in the output, so a stage read by the wrong warp (a
// counter that did not start at the warp's lane) changes the result.
TS_HD inline int32_t warp_lane_op(int32_t x, int warp) { return x * 3 + warp; }

// The tile of CTA b is chunks [b * 2 * pairs, (b + 1) * 2 * pairs).
struct PairSource : ts::MemoryResource {
  int32_t const* src = nullptr;
  long long n = 0;
  int pairs = 0;
  template <int H>
  TS_HD int32_t load(ts::ConsumerStage const& si, ts::Ct<H>) const {
    long long chunk = si.work_tile.tile_idx * 2LL * pairs + si.loop_offset * kWarpLanes + H;
    long long i = chunk * kChunk + si.thread.lane();
    return i < n ? ts::load_readonly(src + i) : 0;
  }
};

struct WarpLaneRing : ts::MemoryResource {
  // Declared in the type: the arrival counts are derived (one warp of Lanes, 32 threads,
  // releases each stage) and every protocol field is a compile-time constant.
  static constexpr auto pipeline =
      ts::async_async({.num_stages = kWarpLaneStages, .interleave_stride = ts::InterleaveStride(1, 1, kWarpLanes, kWarpLanes)});
  ts::SmemArray<int32_t> ring;
  void declare_allocations(ts::Allocations& a) { a.smem("ring", ring, kWarpLaneStages * kChunk, 128); }
  TS_HD void put(ts::ProducerStage const& si, int32_t v) const {
    ts::arch::smem_store(ring.ptr(si.context) + si.stage_idx * kChunk + si.thread.lane(), v);
  }
  TS_HD int32_t take(ts::ConsumerStage const& si) const {
    return ts::arch::smem_load(ring.ptr(si.context) + si.stage_idx * kChunk + si.thread.lane());
  }
};

// Warp w of Lanes in iteration j holds chunk 2j + w of the tile.
struct WarpLaneSink : ts::MemoryResource {
  int32_t* dst = nullptr;
  long long n = 0;
  int pairs = 0;
  TS_HD void store(ts::ProducerStage const& si, int32_t v) const {
    int warp = si.thread.warp_in_task();
    long long chunk = si.work_tile.tile_idx * 2LL * pairs + si.loop_offset * kWarpLanes + warp;
    long long i = chunk * kChunk + si.thread.lane();
    if (i < n) dst[i] = warp_lane_op(v, warp);
  }
};

TS_HD inline auto pair_bound(int pairs) { return ts::runtime(pairs, "pairs").at_least(1); }

// Two chunks per iteration, in ring order (stride 1): the trace-time loop over h is
// unrolled into two acquire/put/commit brackets.
struct PairProducer {
  int pairs = 4;
  template <class S, class In, class Ring>
  TS_HD void operator()(S& s, In& in, Ring& ring) const {
    s.domain_loop(0, pair_bound(pairs), 1, [&] {
      ring.acquire();
      ts::work<&WarpLaneRing::put>(ring, ts::work<&PairSource::load<0>>(in));
      ring.commit();
      ring.acquire();
      ts::work<&WarpLaneRing::put>(ring, ts::work<&PairSource::load<1>>(in));
      ring.commit();
    });
  }
};

// One wait/release per iteration: two stage ops, one per warp (warp-lane mode).
struct WarpLaneConsumer {
  int pairs = 4;
  template <class S, class Ring, class Out>
  TS_HD void operator()(S& s, Ring& ring, Out& out) const {
    s.domain_loop(0, pair_bound(pairs), 1, [&] {
      ring.wait();
      ts::work<&WarpLaneSink::store>(out, ts::work<&WarpLaneRing::take>(ring));
      ring.release();
    });
  }
};

inline int warp_lane_tiles(long long n, int pairs) {
  long long per_tile = 2LL * pairs * kChunk;
  return static_cast<int>((n + per_tile - 1) / per_tile);
}

inline void warp_lane_expected(PatternBuffers& b) {
  for (long long i = 0; i < b.n(); ++i) b.expected[i] = warp_lane_op(b.src[i], static_cast<int>((i / kChunk) % kWarpLanes));
}

// `lane_warps`: the consumer's warps (kWarpLanes for the example; the rejecting test
// gives another count). `src` and `dst` are host or device memory (the CUDA run).
inline auto make_warp_lane_consumer_on(int32_t const* src, int32_t* dst, long long n, ts::Options o = {}, int pairs = 4,
                                       int lane_warps = kWarpLanes) {
  auto in = ts::resource("in", PairSource{{}, src, n, pairs});
  auto out = ts::resource("out", WarpLaneSink{{}, dst, n, pairs});
  auto ring = ts::resource("ring", WarpLaneRing{});
  auto producer = ts::Task("Producer").warps(0, 1).reads(in).writes(ring).schedule(PairProducer{pairs}, in, ring);
  auto lanes = ts::Task("Lanes").warps(1, lane_warps).reads(ring).writes(out).schedule(WarpLaneConsumer{pairs}, ring, out);
  return ts::TaskManager(ts::tasks(producer, lanes), ts::DependencyGraph{{ring, {in}}, {out, {ring}}}, o);
}

inline auto make_warp_lane_consumer(PatternBuffers& b, ts::Options o = {}, int pairs = 4, int lane_warps = kWarpLanes) {
  warp_lane_expected(b);
  return make_warp_lane_consumer_on(b.src.data(), b.dst.data(), b.n(), o, pairs, lane_warps);
}

}  // namespace examples::patterns

TS_WORK_SLOTS(&examples::patterns::PairSource::load<0>, ts::Slot<int32_t>{"value", 0, "This lane's element of chunk 2j."});
TS_WORK_SLOTS(&examples::patterns::PairSource::load<1>, ts::Slot<int32_t>{"value", 0, "This lane's element of chunk 2j+1."});
TS_WORK_SLOTS(&examples::patterns::WarpLaneRing::take, ts::Slot<int32_t>{"value", 0, "This lane's element of the warp's stage."});
