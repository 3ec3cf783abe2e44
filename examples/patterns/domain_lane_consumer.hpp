// Example 10: a domain-lane interleaved consumer (SPEC S3.3, S6.12). One Producer fills a
// 4-stage ring chunk by chunk; two consumer tasks split the ring between them: Lane0 runs
// its domain loop from 0 with step 2 and takes chunks 0, 2, 4, ...; Lane1 runs from 1
// with step 2 and takes chunks 1, 3, 5, .... The ring's wait/release stride is 2
// (interleave_stride {1, 1, 2, 2}), so each lane's stage counter advances by 2 and lane l
// touches only stages l, l+2: its counter starts at its loop's start (the executing
// context, the checker and the printout all follow that rule).
#pragma once
#include "pattern_resources.hpp"
#include "ts/ts.hpp"

namespace examples::patterns {

constexpr int kLaneRingStages = 4;
constexpr int kLanes = 2;             // = the wait/release interleave stride
constexpr int kLaneTileChunks = 8;    // chunks per CTA tile (each lane takes 4)

TS_HD inline int32_t lane_op(int32_t x, int lane) { return x * 2 - lane; }

struct LaneRing : ts::MemoryResource {
  ts::SmemArray<int32_t> ring;
  void declare_allocations(ts::Allocations& a) { a.smem("ring", ring, kLaneRingStages * kChunk, 128); }
  TS_HD void put(ts::ProducerStage const& si, int32_t v) const {
    ts::arch::smem_store(ring.ptr(si.context) + si.stage_idx * kChunk + si.thread.lane(), v);
  }
  TS_HD int32_t take(ts::ConsumerStage const& si) const {
    return ts::arch::smem_load(ring.ptr(si.context) + si.stage_idx * kChunk + si.thread.lane());
  }
};

// Which lane handled a chunk is visible in the output (x * 2 - lane), so a chunk taken
// by the wrong lane, or a stage read by the wrong lane, changes the result.
struct LaneSink : ts::MemoryResource {
  int32_t* dst = nullptr;
  long long n = 0;
  TS_HD void store(ts::ProducerStage const& si, int32_t v) const {
    long long i = element(si, kLaneTileChunks);
    if (i < n) dst[i] = lane_op(v, static_cast<int>(si.loop_offset % kLanes));
  }
};

struct LaneProducer {
  template <class S, class In, class Ring>
  TS_HD void operator()(S& s, In& in, Ring& ring) const {
    s.domain_loop(0, kLaneTileChunks, 1, [&] {
      ring.acquire();
      ts::work<&LaneRing::put>(ring, ts::work<&ChunkSource::load>(in));
      ring.commit();
    });
  }
};

// Lane L: start L, step = stride. Start must be in [0, stride) (S6.12.domain-lane-start).
template <int L>
struct LaneConsumer {
  template <class S, class Ring, class Out>
  TS_HD void operator()(S& s, Ring& ring, Out& out) const {
    s.domain_loop(L, kLaneTileChunks, kLanes, [&] {
      ring.wait();
      ts::work<&LaneSink::store>(out, ts::work<&LaneRing::take>(ring));
      ring.release();
    });
  }
};

inline int lane_tiles(long long n) { return static_cast<int>((n + kLaneTileChunks * kChunk - 1) / (kLaneTileChunks * kChunk)); }

// Lane starts are template arguments so the near-miss test can build a wrong one.
template <int Start0 = 0, int Start1 = 1>
inline auto make_domain_lane_consumer_with(PatternBuffers& b, ts::Options o = {}) {
  for (long long i = 0; i < b.n(); ++i) b.expected[i] = lane_op(b.src[i], static_cast<int>((i / kChunk) % kLanes));
  auto in = ts::resource("in", ChunkSource{{}, b.src.data(), b.n(), kLaneTileChunks});
  auto out = ts::resource("out", LaneSink{{}, b.dst.data(), b.n()});
  auto ring = ts::resource("ring", LaneRing{},
                           ts::PipelineConfig::async_async({.num_stages = kLaneRingStages,
                                                            .producer_group = {ts::Agent::Thread, 32},
                                                            .consumer_group = {ts::Agent::Thread, 32},
                                                            .interleave_stride = ts::InterleaveStride(1, 1, kLanes, kLanes)}));
  auto producer = ts::Task("Producer").warps(0, 1).reads(in).writes(ring).schedule(LaneProducer{}, in, ring);
  auto lane0 = ts::Task("Lane0").warps(1, 1).reads(ring).writes(out).schedule(LaneConsumer<Start0>{}, ring, out);
  auto lane1 = ts::Task("Lane1").warps(2, 1).reads(ring).writes(out).schedule(LaneConsumer<Start1>{}, ring, out);
  return ts::TaskManager(ts::tasks(producer, lane0, lane1), ts::DependencyGraph{{ring, {in}}, {out, {ring}}}, o);
}

inline auto make_domain_lane_consumer(PatternBuffers& b, ts::Options o = {}) {
  return make_domain_lane_consumer_with<0, 1>(b, o);
}

}  // namespace examples::patterns
