// The pipeline-group examples (SPEC S10), declared once for the main job and the tests.
#pragma once
#include <vector>

#include "groups/group_resources.hpp"
#include "ts/ts.hpp"

namespace examples {

// Two inputs padded to whole chunks (a bulk copy moves whole chunks) and three outputs.
struct GroupBuffers {
  long long n;
  std::vector<int16_t> x, y, out, out2;
  explicit GroupBuffers(long long elems)
      : n(elems), x(padded(elems), 0), y(padded(elems), 0), out(elems, 0), out2(elems, 0) {
    for (long long i = 0; i < n; ++i) {
      x[i] = static_cast<int16_t>((i * 7919 + 13) & 0x3fff);
      y[i] = static_cast<int16_t>((i * 104729 + 5) & 0x3fff);
    }
  }
  static long long padded(long long e) { return (e + kChunk - 1) / kChunk * kChunk; }
  bool sum_matches() const {
    for (long long i = 0; i < n; ++i)
      if (out[i] != static_cast<int16_t>(x[i] + y[i])) return false;
    return true;
  }
  bool fork_matches() const {
    for (long long i = 0; i < n; ++i)
      if (out[i] != x[i] || out2[i] != x[i]) return false;
    return true;
  }
};

inline ts::PipelineConfig lane_ring_config() {
  return ts::PipelineConfig::async_async({.num_stages = kRingStages,
                                          .producer_group = {ts::Agent::Thread, 32},
                                          .consumer_group = {ts::Agent::Thread, 32}});
}

// The builders take raw pointers (host memory for the emulator, device memory for the
// GPU); x and y hold whole chunks (GroupBuffers::padded), out and out2 n elements.

// 11: x and y each loaded by its own producer warp; one consumer adds them.
inline auto make_merge_sum(int16_t const* x, int16_t const* y, int16_t* sum, long long n, ts::Options o = {}) {
  auto in_x = ts::resource("in_x", ChunkInput{{}, x, n});
  auto in_y = ts::resource("in_y", ChunkInput{{}, y, n});
  auto ring_x = ts::resource("ring_x", SmemRing{}, lane_ring_config());
  auto ring_y = ts::resource("ring_y", SmemRing{}, lane_ring_config());
  ts::pipeline_group("xy", ts::GroupMode::Merge, ring_x, ring_y);
  auto out = ts::resource("out", SumOutput{{}, sum, n});
  auto px = ts::Task("ProducerX").warps(0, 1).reads(in_x).writes(ring_x).schedule(RingProducer{}, in_x, ring_x);
  auto py = ts::Task("ProducerY").warps(1, 1).reads(in_y).writes(ring_y).schedule(RingProducer{}, in_y, ring_y);
  auto c = ts::Task("Sum").warps(2, 1).reads(ring_x, ring_y).writes(out).schedule(MergeSumConsumer{}, ring_x, ring_y,
                                                                                 out);
  return ts::TaskManager(ts::tasks(px, py, c),
                         ts::DependencyGraph{{ring_x, {in_x}}, {ring_y, {in_y}}, {out, {ring_x, ring_y}}}, o);
}

// 12: one producer fills two rings; each consumer copies its ring to its own output.
inline auto make_fork_copy(int16_t const* x, int16_t* out1, int16_t* out2, long long n, ts::Options o = {}) {
  auto in = ts::resource("in", ChunkInput{{}, x, n});
  auto ring_a = ts::resource("ring_a", SmemRing{}, lane_ring_config());
  auto ring_b = ts::resource("ring_b", SmemRing{}, lane_ring_config());
  ts::pipeline_group("ab", ts::GroupMode::Fork, ring_a, ring_b);
  auto out_a = ts::resource("out_a", ChunkOutput{{}, out1, n});
  auto out_b = ts::resource("out_b", ChunkOutput{{}, out2, n});
  auto p = ts::Task("Producer").warps(0, 1).reads(in).writes(ring_a, ring_b).schedule(ForkProducer{}, in, ring_a,
                                                                                       ring_b);
  auto ca = ts::Task("ConsumerA").warps(1, 1).reads(ring_a).writes(out_a).schedule(RingConsumer{}, ring_a, out_a);
  auto cb = ts::Task("ConsumerB").warps(2, 1).reads(ring_b).writes(out_b).schedule(RingConsumer{}, ring_b, out_b);
  return ts::TaskManager(ts::tasks(p, ca, cb),
                         ts::DependencyGraph{{ring_a, {in}}, {ring_b, {in}}, {out_a, {ring_a}}, {out_b, {ring_b}}}, o);
}

constexpr ts::PipelineConfig bulk_ring_config() {
  return ts::PipelineConfig::tma_async({.num_stages = kRingStages,
                                        .num_bytes = kChunk * int(sizeof(int16_t)),
                                        .producer_group = {ts::Agent::Thread, 1},
                                        .consumer_group = {ts::Agent::Thread, 32}});
}

// Example 13's ring: the bulk-copy ring with its TMA pipeline declared in the type, as the
// GPU requires of a pipeline with an engine (the emulator tests also give BulkChunkRing
// the same config at run time).
struct FusedChunkRing : BulkChunkRing {
  static constexpr auto pipeline = bulk_ring_config();
};

// 13: two bulk-copy producers land x and y on one shared full barrier per stage.
inline auto make_fused_merge_sum(int16_t const* x, int16_t const* y, int16_t* sum, long long n, ts::Options o = {}) {
  auto ring_x = ts::resource("ring_x", FusedChunkRing{{{}, x, n, {}}});
  auto ring_y = ts::resource("ring_y", FusedChunkRing{{{}, y, n, {}}});
  ts::pipeline_group("xy", ts::GroupMode::FusedMerge, ring_x, ring_y);
  auto out = ts::resource("out", SumOutput{{}, sum, n});
  auto px = ts::Task("LoadX").warps(0, 1).writes(ring_x).schedule(BulkProducer{}, ring_x);
  auto py = ts::Task("LoadY").warps(1, 1).writes(ring_y).schedule(BulkProducer{}, ring_y);
  auto c = ts::Task("Sum").warps(2, 1).reads(ring_x, ring_y).writes(out).schedule(FusedSumConsumer{}, ring_x, ring_y,
                                                                                 out);
  return ts::TaskManager(ts::tasks(px, py, c), ts::DependencyGraph{{out, {ring_x, ring_y}}}, o);
}

inline auto make_merge_sum(GroupBuffers& b, ts::Options o = {}) {
  return make_merge_sum(b.x.data(), b.y.data(), b.out.data(), b.n, o);
}
inline auto make_fork_copy(GroupBuffers& b, ts::Options o = {}) {
  return make_fork_copy(b.x.data(), b.out.data(), b.out2.data(), b.n, o);
}
inline auto make_fused_merge_sum(GroupBuffers& b, ts::Options o = {}) {
  return make_fused_merge_sum(b.x.data(), b.y.data(), b.out.data(), b.n, o);
}

}  // namespace examples
