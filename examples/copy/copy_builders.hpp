// Declarations of examples 01 and 02 (resources, tasks, graph, manager) over raw
// pointers, shared by the emulator runs (copy_examples.hpp) and the CUDA runs (copy_cuda.cu).
#pragma once
#include <cstdint>

#include "copy_resources.hpp"
#include "ts/ts.hpp"

namespace examples {

inline auto make_grid_stride_copy(int16_t const* src, int16_t* dst, long long n, ts::Options o = {}) {
  auto in = ts::resource("in", InputGmem{{}, src, n});
  auto out = ts::resource("out", OutputGmem{{}, dst, n});
  auto copy = ts::Task("CopyTask").warps(0, 8).reads(in).writes(out).schedule(GridStrideCopy{}, in, out);
  return ts::TaskManager(ts::tasks(copy), ts::DependencyGraph{{out, {in}}}, o);
}

inline auto make_pipelined_copy(int16_t const* src, int16_t* dst, long long n, ts::Options o = {}) {
  auto in = ts::resource("in", ChunkInput{{}, src, n});
  auto out = ts::resource("out", ChunkOutput{{}, dst, n});
  auto ring = ts::resource("ring", CopyRing{});  // CopyRing::pipeline
  auto producer = ts::Task("Producer").warps(0, 1).reads(in).writes(ring).schedule(PrefetchingRingProducer{}, in, ring);
  auto consumer = ts::Task("Consumer").warps(1, 1).reads(ring).writes(out).schedule(RingConsumer{}, ring, out);
  return ts::TaskManager(ts::tasks(producer, consumer), ts::DependencyGraph{{ring, {in}}, {out, {ring}}}, o);
}

}  // namespace examples
