// The sm_90a implementation of the Arch interface the executing context calls
// (see runtime/exec_context.hpp; the interface's types are core vocabulary:
// core/stage_info.hpp, core/sync_op.hpp). Barrier primitives are the mbarrier PTX of Hopper.
//
// Debug builds define TS_BOUNDED_WAITS=<milliseconds>: every blocking barrier wait then
// gives up after that long (measured on %globaltimer, so the bound does not depend on
// how long one try_wait suspends), prints block, warp, task, resource, operation,
// stage and phase, and traps. Release builds compile the plain spin: no overhead.
#pragma once
#include <cstdint>
#include <cstdio>

#include "ts/core/queue_response.hpp"
#include "ts/core/resource_types.hpp"
#include "ts/core/stage_info.hpp"
#include "ts/core/sync_op.hpp"

namespace ts::cuda {

__device__ inline uint32_t smem_addr(void const* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__device__ inline void mbar_init(uint64_t* bar, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}
__device__ inline void fence_barrier_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }

// All threads of all CTAs of the cluster (the kernel's prologue and epilogue when the
// pipelines span a cluster: no peer may arrive on, or multicast into, a CTA whose
// barriers are not initialised yet or that has exited).
__device__ inline void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
__device__ inline uint32_t cluster_cta_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

// Completes `bytes` transaction bytes of the barrier's current phase from a thread
// (used by the global-counter work queue, whose response is written by st.shared).
__device__ inline void mbar_complete_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.complete_tx.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes) : "memory");
}

__device__ inline uint64_t global_timer_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// The CTA's claim of its first tile from a global-counter queue: {state, tile}, state 0
// (unclaimed) set by the kernel prologue, 1 while claiming, 2 once `tile` is valid.
__device__ inline int* first_tile_claim_state() {
  __shared__ int claim[2];
  return claim;
}
__device__ inline void reset_first_tile_claim() { first_tile_claim_state()[0] = 0; }

struct Sm90Arch {
  ThreadCoord coord;
  KernelContext kctx;
  __device__ ThreadCoord const& thread() const { return coord; }
  __device__ KernelContext const& kernel() const { return kctx; }

  __device__ void mbar_arrive(uint64_t* bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");
  }
  // The same barrier in the CTA of cluster rank `cta` (multicast pipelines): mapa turns
  // this CTA's address into the peer's. The consumer only read the stage (through wgmma,
  // retired before the release), so the default arrive semantics suffice, as in CUTLASS's
  // cluster barrier.
  __device__ void mbar_arrive_cluster(uint64_t* bar, int cta) {
    uint32_t remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(smem_addr(bar)), "r"(cta));
    asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
  }
  // AsyncLoad producers: the arrival fires when this thread's earlier cp.async copies
  // have landed. .noinc: the arrival is one of the barrier's init count, so the
  // count is the same as for thread arrivals (docs/cuda-backend.md).
  __device__ void cp_async_arrive(uint64_t* bar) {
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(smem_addr(bar)) : "memory");
  }
  // Raises the barrier's transaction count without arriving: the producer arms a TMA
  // stage in acquire and arrives at its commit (exec_context.hpp).
  __device__ void mbar_expect_tx(uint64_t* bar, uint32_t bytes) {
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes)
                 : "memory");
  }
  __device__ void mbar_arrive_expect_tx(uint64_t* bar, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes)
                 : "memory");
  }
  __device__ bool mbar_try_wait(uint64_t* bar, uint32_t phase) {
    uint32_t ok;
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
        : "=r"(ok)
        : "r"(smem_addr(bar)), "r"(phase)
        : "memory");
    return ok != 0;
  }
  __device__ void mbar_wait(uint64_t* bar, uint32_t phase, WaitSite const& site) {
#if defined(TS_BOUNDED_WAITS)
    if (mbar_try_wait(bar, phase)) return;
    uint64_t const deadline = global_timer_ns() + uint64_t(TS_BOUNDED_WAITS) * 1000000ull;
    while (!mbar_try_wait(bar, phase)) {
      if (global_timer_ns() > deadline) fail("barrier wait timed out (TS_BOUNDED_WAITS ms)", site);
    }
#else
    (void)site;
    while (!mbar_try_wait(bar, phase)) {
    }
#endif
  }
  // Convergence before a leader signals for its task (exec::Context::converge).
  // bar.warp.sync / bar.sync order the participants' memory accesses before what any of
  // them does next, so the leader's release-arrive covers the whole task's accesses.
  __device__ void warp_sync() { __syncwarp(); }
  __device__ void task_sync(int barrier_id, int threads) {
    asm volatile("bar.sync %0, %1;" ::"r"(barrier_id), "r"(threads) : "memory");
  }
  // Hopper has no UMMA engine; the MMA-consumer stand-in (wgmma) releases by threads,
  // after wgmma.wait_group has retired the reads of the stage it releases.
  __device__ void umma_commit(uint64_t* bar) { mbar_arrive(bar); }

  // Work queues. The first tile is the CTA's own coordinate for every queue kind: a
  // dynamic queue hands out only the tiles beyond the grid (dynamic_queue.hpp).
  // A static queue starts each CTA on its own index. A global-counter queue claims the
  // first tile from the counter as well (one claim per CTA, shared through SMEM): Hopper
  // cannot cancel a CTA that has not started, so binding tile b to CTA b would let a CTA
  // held off its SM by another kernel delay that tile; claimed tiles go to the CTAs that
  // run, and a CTA that starts after the queue emptied leaves at once. Every tile is still
  // handed out exactly once (SPEC S13.2).
  template <class Q>
  __device__ WorkTile first_tile(Q const& q) {
    if constexpr (requires { q.counter; q.scratch; }) {
      int* state = first_tile_claim_state();
      int* tile = state + 1;
      // The tile itself is written and read atomically too: ordered by the state flag
      // either way, but racecheck only sees atomics as synchronised (a plain store and
      // volatile load here were reported as a hazard).
      if (atomicCAS(state, 0, 1) == 0) {
        atomicExch(tile, static_cast<int>(atomicAdd(q.counter, 1u)));
        __threadfence_block();
        atomicExch(state, 2);
      }
      while (atomicAdd(state, 0) != 2) {
      }
      __threadfence_block();
      return q.make_tile(atomicAdd(tile, 0));
    } else {
      return q.make_tile(coord.block_idx);
    }
  }
  // The scheduler's elected thread, after acquire armed expect_tx(16) on `full`:
  // claims the next tile from the global counter, writes the 16-byte response
  // {tile, canceled} (the ClcFetchAsync layout) to this CTA's global scratch slot and
  // brings it into SMEM with a 16-byte bulk copy completing on `full`.
  template <class Q>
  __device__ void queue_fetch(Q const& q, void* response, uint64_t* full) {
    if constexpr (requires { q.counter; q.scratch; }) {
      int tile = static_cast<int>(atomicAdd(q.counter, 1u));  // first tiles came from the counter too
      uint32_t canceled = tile < q.num_tiles ? 1u : 0u;
      int slot = static_cast<int>((smem_addr(response) >> 4) % kQueueMaxStages);
      QueueResponse* g = q.scratch + coord.block_idx * kQueueMaxStages + slot;
      asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(g), "r"(tile), "r"(canceled), "r"(0u), "r"(0u)
                   : "memory");
      asm volatile("fence.proxy.async.global;" ::: "memory");  // generic write -> async-proxy read
      // The consumers read the previous response in this slot with generic loads and
      // released it (mbarrier arrive, acquired by this thread's wait); the bulk copy
      // writes through the async proxy, which that release/acquire alone does not order:
      // the proxy fence makes the generic reads happen before the async write (racecheck
      // reported the WAR hazard at 512 tiles without it).
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      asm volatile(
          "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 16, [%2];" ::"r"(
              smem_addr(response)),
          "l"(g), "r"(smem_addr(full))
          : "memory");
    } else {
      (void)q;
      (void)response;
      (void)full;
      fail("queue_fetch: this work queue has no global counter (use ts::GlobalCounterQueue)", WaitSite{});
    }
  }
  template <class Q>
  __device__ WorkTile queue_read(Q const& q, void const* response) {
    auto const* r = static_cast<QueueResponse const volatile*>(response);
    // Every thread of the task reads the response (the whole warp calls this), but only
    // lane 0 loads it and hands it to its warp: lane 0 is the thread whose arrival later
    // gives the slot back, so every load of the slot precedes that arrival in one
    // thread's program order, not only through the warp's convergence (racecheck orders
    // the latter chain through the async-proxy refill as a hazard).
    uint32_t canceled = 0, tile = 0;
    if ((coord.thread_in_block & 31) == 0) {
      canceled = r->canceled;
      tile = static_cast<uint32_t>(r->tile);
    }
    canceled = __shfl_sync(0xffffffffu, canceled, 0);
    tile = __shfl_sync(0xffffffffu, tile, 0);
    // A failed fetch ends the loop; its tile id is never read (SPEC S13.3).
    if (!canceled) {
      WorkTile t;
      t.valid = false;
      return t;
    }
    return q.make_tile(static_cast<int>(tile));
  }
  __device__ void pdl_wait() { asm volatile("griddepcontrol.wait;" ::: "memory"); }
  __device__ void pdl_launch() { asm volatile("griddepcontrol.launch_dependents;" :::); }
  // Release builds trap without printing: a printf call in the kernel would serialize
  // wgmma and keep per-thread state in local memory. Debug builds (TS_BOUNDED_WAITS) report.
  [[noreturn]] __device__ void fail(char const* what, WaitSite const& s) {
#if defined(TS_BOUNDED_WAITS)
    printf(
        "TS device error: %s: block %d warp %d thread %d task %d resource %d op %s stage %d phase %u "
        "(task/resource ids index the printout's tables)\n",
        what, coord.block_idx, coord.thread_in_block >> 5, coord.thread_in_block, s.task, s.resource,
        protocol_name(s.op), s.stage, s.phase);
#else
    (void)what;
    (void)s;
#endif
    __trap();
  }
};

}  // namespace ts::cuda
