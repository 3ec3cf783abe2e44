// The sm_90a implementation of the Arch interface the executing context calls
// (see runtime/exec_context.hpp). Barrier primitives are the mbarrier PTX of Hopper.
#pragma once
#include <cstdint>

#include "ts/core/resource_types.hpp"
#include "ts/core/stage_info.hpp"
#include "ts/runtime/exec_context.hpp"

namespace ts::cuda {

__device__ inline uint32_t smem_addr(void const* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__device__ inline void mbar_init(uint64_t* bar, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}
__device__ inline void fence_barrier_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }

struct Sm90Arch {
  ThreadCoord coord;
  KernelContext kctx;
  // Debug builds bound every wait (TS_BOUNDED_WAITS=iterations); release builds spin.
  __device__ ThreadCoord const& thread() const { return coord; }
  __device__ KernelContext const& kernel() const { return kctx; }

  __device__ void mbar_arrive(uint64_t* bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");
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
    for (long long i = 0; !mbar_try_wait(bar, phase); ++i) {
      if (i > (TS_BOUNDED_WAITS)) fail("barrier wait timed out", site);
    }
#else
    (void)site;
    while (!mbar_try_wait(bar, phase)) {
    }
#endif
  }
  // Hopper has no UMMA engine; the MMA-consumer stand-in (wgmma) releases by threads.
  __device__ void umma_commit(uint64_t* bar) { mbar_arrive(bar); }

  template <class Q>
  __device__ WorkTile first_tile(Q const& q) {
    return q.make_tile(coord.block_idx);
  }
  template <class Q>
  __device__ void queue_fetch(Q const&, void*, uint64_t*) {
    fail("dynamic work queues are not implemented on the CUDA backend yet", WaitSite{});
  }
  template <class Q>
  __device__ WorkTile queue_read(Q const& q, void const* response) {
    int idx = *static_cast<int const volatile*>(response);
    return q.make_tile(idx);
  }
  __device__ void pdl_wait() { asm volatile("griddepcontrol.wait;" ::: "memory"); }
  __device__ void pdl_launch() { asm volatile("griddepcontrol.launch_dependents;" :::); }
  // Release builds trap without printing: a printf call in the kernel would serialize
  // wgmma and keep per-thread state in local memory. Debug builds (TS_BOUNDED_WAITS) report.
  [[noreturn]] __device__ void fail(char const* what, WaitSite const& s) {
#if defined(TS_BOUNDED_WAITS)
    printf("TS device error: %s (block %d thread %d task %d resource %d op %d stage %d phase %u)\n", what,
           coord.block_idx, coord.thread_in_block, s.task, s.resource, int(s.op), s.stage, s.phase);
#else
    (void)what;
    (void)s;
#endif
    __trap();
  }
};

}  // namespace ts::cuda
