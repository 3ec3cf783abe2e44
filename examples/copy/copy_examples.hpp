// Host-side declarations of the copy examples: resources, tasks, graph, manager.
// Tests, the main job and the backends all build the examples through these.
#pragma once
#include <cstdint>
#include <vector>

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
  long long n = static_cast<long long>(b.src.size());
  auto in = ts::resource("in", InputGmem{{}, b.src.data(), n});
  auto out = ts::resource("out", OutputGmem{{}, b.dst.data(), n});
  auto copy = ts::Task("CopyTask").warps(0, 8).reads(in).writes(out).schedule(GridStrideCopy{}, in, out);
  return ts::TaskManager(ts::tasks(copy), ts::DependencyGraph{{out, {in}}}, o);
}

inline auto make_pipelined_copy(CopyBuffers& b, ts::Options o = {}) {
  long long n = static_cast<long long>(b.src.size());
  auto in = ts::resource("in", ChunkInput{{}, b.src.data(), n});
  auto out = ts::resource("out", ChunkOutput{{}, b.dst.data(), n});
  auto ring = ts::resource("ring", SmemRing{},
                           ts::PipelineConfig::async_async({.num_stages = kRingStages,
                                                            .producer_group = {ts::Agent::Thread, 32},
                                                            .consumer_group = {ts::Agent::Thread, 32}}));
  auto producer = ts::Task("Producer").warps(0, 1).reads(in).writes(ring).schedule(RingProducer{}, in, ring);
  auto consumer = ts::Task("Consumer").warps(1, 1).reads(ring).writes(out).schedule(RingConsumer{}, ring, out);
  return ts::TaskManager(ts::tasks(producer, consumer), ts::DependencyGraph{{ring, {in}}, {out, {ring}}}, o);
}

}  // namespace examples
