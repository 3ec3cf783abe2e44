// Resources and schedules of the pipeline-group examples (SPEC S10): 11 Merge, 12 Fork,
// 13 FusedMerge. They reuse the chunked copy of example 02 (32 elements per chunk, one
// per lane): ChunkInput, ChunkOutput, SmemRing, RingProducer, RingConsumer.
#pragma once
#include "copy/copy_resources.hpp"
#include "ts/arch/portable.hpp"

namespace examples {

// out[i] = x[i] + y[i] for the lane's element of the chunk: one work step reading the
// two values the merged consumer took from both members of the group.
struct SumOutput : ts::MemoryResource {
  int16_t* dst = nullptr;
  long long n = 0;
  TS_HD long long chunks() const { return (n + kChunk - 1) / kChunk; }
  TS_HD void store_sum(ts::ProducerStage const& si, int16_t x, int16_t y) const {
    long long i = si.loop_offset * kChunk + si.thread.lane();
    if (i < n) dst[i] = static_cast<int16_t>(x + y);
  }
};

// A ring filled by a bulk copy (TMA-type producer): lane 0 issues one 64-byte copy of
// the chunk onto the stage's full barrier, which completes by transaction bytes. The
// source is padded to whole chunks, as a TMA box would be.
struct BulkChunkRing : ts::MemoryResource {
  int16_t const* src = nullptr;
  long long n = 0;
  ts::SmemArray<int16_t> ring;
  void declare_allocations(ts::Allocations& a) { a.smem("ring", ring, kRingStages * kChunk, 128); }
  TS_HD long long chunks() const { return (n + kChunk - 1) / kChunk; }
  TS_HD void fetch(ts::ProducerStage const& si) const {
    if (si.thread.thread_in_task != 0) return;
    ts::arch::bulk_copy_g2s(ring.ptr(si.context) + si.stage_idx * kChunk, src + si.loop_offset * kChunk,
                            kChunk * sizeof(int16_t), si.barrier);
  }
  TS_HD int16_t take(ts::ConsumerStage const& si) const {
    return ts::arch::smem_load(ring.ptr(si.context) + si.stage_idx * kChunk + si.thread.lane());
  }
};

// ---- 11 Merge: two producers, one consumer that waits and releases the group once ----
struct MergeSumConsumer {
  template <class S, class A, class B, class Out>
  TS_HD void operator()(S& s, A& a, B& b, Out& out) const {
    s.domain_loop(s.block_idx(), out->chunks(), s.grid_blocks(), [&] {
      ts::group(a, b).wait();
      auto x = ts::work<&SmemRing::take>(a);
      auto y = ts::work<&SmemRing::take>(b);
      ts::work<&SumOutput::store_sum>(out, x, y);
      ts::group(a, b).release();
    });
  }
};

// ---- 12 Fork: one producer fills both members and commits the group once ----
struct ForkProducer {
  template <class S, class In, class A, class B>
  TS_HD void operator()(S& s, In& in, A& a, B& b) const {
    s.domain_loop(s.block_idx(), in->chunks(), s.grid_blocks(), [&] {
      ts::group(a, b).acquire();
      auto v = ts::work<&ChunkInput::load>(in);
      ts::work<&SmemRing::put>(a, v);
      ts::work<&SmemRing::put>(b, v);
      ts::group(a, b).commit();
    });
  }
};

// ---- 13 FusedMerge: two bulk-copy producers complete one shared full barrier ----
struct BulkProducer {
  template <class S, class Ring>
  TS_HD void operator()(S& s, Ring& ring) const {
    s.domain_loop(s.block_idx(), ring->chunks(), s.grid_blocks(), [&] {
      ring.acquire();
      ts::work<&BulkChunkRing::fetch>(ring);
      ring.commit();
    });
  }
};

struct FusedSumConsumer {
  template <class S, class A, class B, class Out>
  TS_HD void operator()(S& s, A& a, B& b, Out& out) const {
    s.domain_loop(s.block_idx(), out->chunks(), s.grid_blocks(), [&] {
      ts::group(a, b).wait();
      auto x = ts::work<&BulkChunkRing::take>(a);
      auto y = ts::work<&BulkChunkRing::take>(b);
      ts::work<&SumOutput::store_sum>(out, x, y);
      ts::group(a, b).release();
    });
  }
};

}  // namespace examples

TS_WORK_SLOTS(&examples::BulkChunkRing::take,
              ts::Slot<int16_t>{"value", 0, "This lane's element of the chunk the bulk copy landed."});
