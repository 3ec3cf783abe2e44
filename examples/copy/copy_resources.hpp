// Resources and schedules of the copy examples. Included by host code (capture,
// printout, CPU backend) and by device code (the sm_90a kernels): one source.
#pragma once
#include <cstdint>

#include "ts/arch/portable.hpp"
#include "ts/arch/load.hpp"
#include "ts/core/pipeline_config.hpp"
#include "ts/schedule.hpp"

namespace examples {

// ---- 01: grid-stride copy (one task, two resources) ----
struct InputGmem : ts::MemoryResource {
  int16_t const* src = nullptr;
  long long n = 0;
  TS_HD int16_t get_item(ts::ConsumerStage const& si) const {
    return si.loop_offset < n ? ts::load_readonly(src + si.loop_offset) : int16_t(0);
  }
};

struct OutputGmem : ts::MemoryResource {
  int16_t* dst = nullptr;
  long long n = 0;
  TS_HD void set_item(ts::ProducerStage const& si, int16_t v) const {
    if (si.loop_offset < n) dst[si.loop_offset] = v;
  }
};

struct GridStrideCopy {
  template <class S, class In, class Out>
  TS_HD void operator()(S& s, In& in, Out& out) const {
    s.domain_loop(s.global_thread(), in->n, s.grid_threads(), ts::unroll<4>, [&] {
      auto item = ts::work<&InputGmem::get_item>(in);
      ts::work<&OutputGmem::set_item>(out, item);
    });
  }
};

// ---- 02: producer/consumer copy through a pipelined SMEM ring ----
// The domain is chunks of 32 elements (one per lane), so every lane of a warp runs
// the same number of iterations and every barrier phase sees all its arrivals.
constexpr int kChunk = 32;
constexpr int kRingStages = 4;

struct ChunkInput : ts::MemoryResource {
  int16_t const* src = nullptr;
  long long n = 0;
  TS_HD long long chunks() const { return (n + kChunk - 1) / kChunk; }
  TS_HD int16_t load(ts::ConsumerStage const& si) const {
    long long i = si.loop_offset * kChunk + si.thread.lane();
    return i < n ? ts::load_readonly(src + i) : int16_t(0);
  }
};

struct ChunkOutput : ts::MemoryResource {
  int16_t* dst = nullptr;
  long long n = 0;
  TS_HD void store(ts::ProducerStage const& si, int16_t v) const {
    long long i = si.loop_offset * kChunk + si.thread.lane();
    if (i < n) dst[i] = v;
  }
};

struct SmemRing : ts::MemoryResource {
  ts::SmemArray<int16_t> ring;
  void declare_allocations(ts::Allocations& a) { a.smem("ring", ring, kRingStages * kChunk, 128); }
  TS_HD void put(ts::ProducerStage const& si, int16_t v) const {
    // Checked accessors: range-checked (and race-checked on request) by the emulator.
    ts::arch::smem_store(ring.ptr(si.context) + si.stage_idx * kChunk + si.thread.lane(), v);
  }
  TS_HD int16_t take(ts::ConsumerStage const& si) const {
    return ts::arch::smem_load(ring.ptr(si.context) + si.stage_idx * kChunk + si.thread.lane());
  }
};

// Example 02's ring: SmemRing with its protocol as a compile-time value, so the kernel is
// specialised for it (a pipeline given at run time makes every op branch over the
// protocols; the pipeline groups of examples 11-13 configure SmemRing so).
struct CopyRing : SmemRing {
  static constexpr auto pipeline = ts::async_async(
      {.num_stages = kRingStages, .producer_group = {ts::Agent::Thread, 32}, .consumer_group = {ts::Agent::Thread, 32}});
};

struct RingProducer {
  template <class S, class In, class Ring>
  TS_HD void operator()(S& s, In& in, Ring& ring) const {
    s.domain_loop(s.block_idx(), in->chunks(), s.grid_blocks(), [&] {
      ring.acquire();
      auto v = ts::work<&ChunkInput::load>(in);
      ts::work<&SmemRing::put>(ring, v);
      ring.commit();
    });
  }
};

// Example 02's producer: it loads its chunk from global memory before it waits for a free
// stage, so the load's latency overlaps the wait (with the load after the acquire, each chunk
// costs a full global-memory round trip on top of the barrier: 0.32x of the same kernel with
// the load hoisted, on the H200). Loading `in` needs no stage: only the SMEM write is inside
// acquire .. commit.
struct PrefetchingRingProducer {
  template <class S, class In, class Ring>
  TS_HD void operator()(S& s, In& in, Ring& ring) const {
    s.domain_loop(s.block_idx(), in->chunks(), s.grid_blocks(), [&] {
      auto v = ts::work<&ChunkInput::load>(in);
      ring.acquire();
      ts::work<&SmemRing::put>(ring, v);
      ring.commit();
    });
  }
};

struct RingConsumer {
  template <class S, class Ring, class Out>
  TS_HD void operator()(S& s, Ring& ring, Out& out) const {
    s.domain_loop(s.block_idx(), out->n / kChunk + (out->n % kChunk != 0), s.grid_blocks(), [&] {
      ring.wait();
      auto v = ts::work<&SmemRing::take>(ring);
      ts::work<&ChunkOutput::store>(out, v);
      ring.release();
    });
  }
};

}  // namespace examples

TS_WORK_SLOTS(&examples::InputGmem::get_item,
              ts::Slot<int16_t>{"item", 0, "Input element loaded for the current grid-stride iteration."});
TS_WORK_SLOTS(&examples::ChunkInput::load, ts::Slot<int16_t>{"value", 0, "This lane's element of the chunk."});
TS_WORK_SLOTS(&examples::SmemRing::take, ts::Slot<int16_t>{"value", 0, "This lane's element read from the ring stage."});
