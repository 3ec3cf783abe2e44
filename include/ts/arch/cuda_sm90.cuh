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
// The two accessors below take a 32-bit shared address: with offsets folded into one base,
// ptxas keeps one register per address where generic 64-bit pointers cost two and a
// conversion.
// stmatrix .x4: the warp stores four 8 x 8 b16 matrices; lane l gives the address of row
// l % 8 of matrix l / 8, and its v_i is its row l / 4, columns 2 (l % 4) .. + 1 of matrix i
// (the mma / wgmma accumulator layout). One instruction for a warp's 512 bytes where
// 32-bit stores take four.
__device__ inline void stmatrix_x4(uint32_t addr, uint32_t v0, uint32_t v1, uint32_t v2, uint32_t v3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(v0), "r"(v1),
               "r"(v2), "r"(v3)
               : "memory");
}
// ld.shared.v4: 16 bytes per thread (attention's ragged O copy reads its stage back).
__device__ inline uint4 ld_shared_v4(uint32_t addr) {
  uint4 v;
  asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(addr) : "memory");
  return v;
}

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

// Completes `bytes` transaction bytes of the barrier's current phase from a thread.
__device__ inline void mbar_complete_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.complete_tx.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes) : "memory");
}

__device__ inline uint64_t global_timer_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// The CTA's one claim (Sm90Arch::claim_once_per_cta; the global-counter scheduler's first
// tile): {state, value}, state 0 (unclaimed) set by the kernel prologue, 1 while
// claiming, 2 once `value` is valid.
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
  // Arms the barrier's transaction count without arriving (a TMA / CLC acquire: the
  // arrival is the commit's).
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

  // The primitives of the tile schedulers (runtime/scheduler/; the global-counter one
  // uses these four: GlobalCounterArch). No scheduling policy here.
  __device__ unsigned atomic_add(unsigned* p, unsigned v) { return atomicAdd(p, v); }
  // The first caller in the CTA runs `claim`; every caller of the CTA gets its value (one
  // claim per CTA, shared through SMEM, the state reset by the kernel prologue). The value
  // is written and read atomically too: ordered by the state flag either way, but
  // racecheck only sees atomics as synchronised (a plain store and volatile load here
  // were reported as a hazard).
  template <class F>
  __device__ int claim_once_per_cta(F&& claim) {
    int* state = first_tile_claim_state();
    int* value = state + 1;
    if (atomicCAS(state, 0, 1) == 0) {
      atomicExch(value, claim());
      __threadfence_block();
      atomicExch(state, 2);
    }
    while (atomicAdd(state, 0) != 2) {
    }
    __threadfence_block();
    return atomicAdd(value, 0);
  }
  // Writes the response to its global staging slot `g` and brings it into SMEM with a
  // 16-byte bulk copy completing on `full` (async proxy, exactly as a CLC response lands:
  // an ordering racecheck and the memory model both recognise).
  __device__ void publish_response(QueueResponse* g, QueueResponse const& r, void* response, uint64_t* full) {
    asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(g), "r"(r.tile), "r"(r.canceled), "r"(0u), "r"(0u)
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
  }
  // Every thread of the task reads the response (the whole warp calls this), but only
  // lane 0 loads it and hands it to its warp: lane 0 is the thread whose arrival later
  // gives the slot back, so every load of the slot precedes that arrival in one thread's
  // program order, not only through the warp's convergence (racecheck orders the latter
  // chain through the async-proxy refill as a hazard).
  __device__ QueueResponse read_response(void const* response) {
    auto const* r = static_cast<QueueResponse const volatile*>(response);
    uint32_t canceled = 0, tile = 0;
    if ((coord.thread_in_block & 31) == 0) {
      canceled = r->canceled;
      tile = static_cast<uint32_t>(r->tile);
    }
    QueueResponse out{};
    out.canceled = __shfl_sync(0xffffffffu, canceled, 0);
    out.tile = static_cast<int>(__shfl_sync(0xffffffffu, tile, 0));
    return out;
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
