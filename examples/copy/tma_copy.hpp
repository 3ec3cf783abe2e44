// 03: TMA copy. A producer warp issues 1-D bulk copies (global -> SMEM) into a
// TmaAsync ring; each stage completes by transaction bytes. A consumer warp's elected
// thread writes each stage back with a bulk store (SMEM -> global) and releases the
// stage once the store has read it (bulk_wait_read<0>).
// 04: dynamic persistent tile copy. A scheduler warp claims tiles from a global
// counter through a ClcFetchAsync ring (ts::GlobalCounterQueue); data warps copy
// each tile. Device-only header: the CUDA examples and the bench include it.
#pragma once
#include <cstdint>

#include "ts/arch/cuda_copy.cuh"
#include "ts/core/pipeline_config.hpp"
#include "ts/runtime/scheduler/queue.hpp"
#include "ts/schedule.hpp"

namespace examples {

constexpr int kTmaStageBytes = 32768;
constexpr int kTmaStages = 3;

struct BulkInput : ts::MemoryResource {
  char const* src = nullptr;
  long long bytes = 0;
  TS_HD long long chunks() const { return (bytes + kTmaStageBytes - 1) / kTmaStageBytes; }
  // The chunk this iteration reads (consumer side of the input).
  TS_HD char const* chunk(ts::ConsumerStage const& si) const { return src + si.loop_offset * kTmaStageBytes; }
};

struct BulkOutput : ts::MemoryResource {
  char* dst = nullptr;
  long long bytes = 0;
  TS_HD long long chunks() const { return (bytes + kTmaStageBytes - 1) / kTmaStageBytes; }
  TS_HD uint32_t chunk_bytes(long long c) const {
    long long left = bytes - c * kTmaStageBytes;
    return static_cast<uint32_t>(left < kTmaStageBytes ? left : kTmaStageBytes);
  }
  // Elected thread: store the stage and wait until the copy engine has read it, so
  // the release that follows hands the producer a free buffer.
  TS_HD void store(ts::ProducerStage const& si, char const* stage) const {
#if TS_DEVICE_PASS
    if (si.thread.thread_in_task == 0) {
      ts::cuda::bulk_store(dst + si.loop_offset * kTmaStageBytes, stage, chunk_bytes(si.loop_offset));
      ts::cuda::bulk_commit();
      ts::cuda::bulk_wait_read<0>();
    }
    __syncwarp();
#else
    (void)si;
    (void)stage;
#endif
  }
};

struct TmaRing : ts::MemoryResource {
  // Compile-time protocol (see SmemRing): one elected thread fills and drains a stage.
  static constexpr auto pipeline = ts::tma_async({.num_stages = kTmaStages,
                                                  .num_bytes = kTmaStageBytes,
                                                  .producer_group = {ts::Agent::Thread, 1},
                                                  .consumer_group = {ts::Agent::Thread, 1},
                                                  .consumer_signal = ts::Signal::CtaLeader});
  ts::SmemArray<char> ring;
  long long bytes = 0;  // of the whole copy, for the tail chunk
  void declare_allocations(ts::Allocations& a) { a.smem("ring", ring, kTmaStages * kTmaStageBytes, 1024); }
  // Elected producer thread: one bulk copy fills the stage; a short tail completes the
  // bytes it did not transfer so the stage's phase still flips.
  TS_HD void fill(ts::ProducerStage const& si, char const* src) const {
#if TS_DEVICE_PASS
    if (si.thread.thread_in_task == 0) {
      long long left = bytes - si.loop_offset * kTmaStageBytes;
      uint32_t n = static_cast<uint32_t>(left < kTmaStageBytes ? left : kTmaStageBytes);
      ts::cuda::bulk_load(ring.ptr(si.context) + si.stage_idx * kTmaStageBytes, src, n, si.barrier);
      ts::cuda::complete_missing_tx(si.barrier, kTmaStageBytes - n);
    }
#else
    (void)si;
    (void)src;
#endif
  }
  TS_HD char const* stage(ts::ConsumerStage const& si) const {
    return ring.ptr(si.context) + si.stage_idx * kTmaStageBytes;
  }
};

struct TmaProducer {
  template <class S, class In, class Ring>
  TS_HD void operator()(S& s, In& in, Ring& ring) const {
    s.domain_loop(s.block_idx(), in->chunks(), s.grid_blocks(), [&] {
      ring.acquire();
      auto src = ts::work<&BulkInput::chunk>(in);
      ts::work<&TmaRing::fill>(ring, src);
      ring.commit();
    });
  }
};

struct TmaConsumer {
  template <class S, class Ring, class Out>
  TS_HD void operator()(S& s, Ring& ring, Out& out) const {
    s.domain_loop(s.block_idx(), out->chunks(), s.grid_blocks(), [&] {
      ring.wait();
      auto stage = ts::work<&TmaRing::stage>(ring);
      ts::work<&BulkOutput::store>(out, stage);
      ring.release();
    });
  }
};

// ---- 04: dynamic persistent tile copy ----
constexpr int kTileElems = 8192;            // int32 elements per tile (32 KiB)
constexpr int kTileVecs = kTileElems / 4;   // 16-byte vectors per tile
constexpr int kTileWorkerWarps = 8;         // copy warps per CTA
constexpr int kTileUnroll = 4;              // vectors in flight per thread

struct TileQueue : ts::GlobalCounterQueue {
  // Two response stages, released by every thread of the scheduler and the copy warps
  // (the group is derived from the tasks).
  static constexpr auto pipeline = ts::clc_fetch_async({.num_stages = 2});
};

// A copy is bound by the bytes in flight per SM (latency x bandwidth, about 32 KiB per
// SM on the H200): each thread moves 16-byte vectors through the read-only path, and
// the unrolled loop issues kTileUnroll loads before their stores.
struct TileInput : ts::MemoryResource {
  int4 const* src = nullptr;
  TS_HD int4 get(ts::ConsumerStage const& si) const {
    return ts::load_readonly(src + static_cast<long long>(si.work_tile.tile_idx) * kTileVecs + si.loop_offset);
  }
};
struct TileOutput : ts::MemoryResource {
  int4* dst = nullptr;
  TS_HD void set(ts::ProducerStage const& si, int4 v) const {
    dst[static_cast<long long>(si.work_tile.tile_idx) * kTileVecs + si.loop_offset] = v;
  }
};

using TileScheduler = ts::SchedulerSchedule;

struct TileWorker {
  template <class S, class Q, class In, class Out>
  TS_HD void operator()(S& s, Q& wq, In& in, Out& out) const {
    s.work_tile_loop(wq, [&] {
      s.domain_loop(s.task_thread(), +kTileVecs, s.task_threads(), ts::unroll<kTileUnroll>, [&] {
        auto v = ts::work<&TileInput::get>(in);
        ts::work<&TileOutput::set>(out, v);
      });
      wq.try_wait();
      wq.wait();
      wq.get_and_advance_work_tile();
      wq.release();
    });
  }
};

}  // namespace examples

TS_WORK_SLOTS(&examples::BulkInput::chunk, ts::Slot<char const*>{"src", nullptr, "Global address of this chunk."});
TS_WORK_SLOTS(&examples::TmaRing::stage, ts::Slot<char const*>{"stage", nullptr, "SMEM address of the full stage."});
TS_WORK_SLOTS(&examples::TileInput::get, ts::Slot<int4>{"v", int4{}, "16-byte vector of the current tile."});
