// Cluster Launch Control on sm_100a (Blackwell): the same ClcFetchAsync queue as the
// sm_90a global-counter queue, lowered to the real instructions (SPEC S13.3).
// Compiled in CI for -gencode=arch=compute_100a,code=sm_100a; nothing here can run it
// (the lent GPUs are H200), so it is a compile proof, never claimed as run.
#pragma once
#include <cstdint>

#include "ts/core/stage_info.hpp"

namespace ts::cuda::sm100 {

__device__ inline uint32_t smem_u32(void const* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

// One elected thread: ask the hardware to cancel a not-yet-started CTA; the 16-byte
// response lands in `response` and completes 16 transaction bytes on `full` (armed by
// the scheduler's acquire with expect_tx(16)).
__device__ inline void clc_try_cancel(void* response, uint64_t* full) {
  asm volatile(
      "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [%0], [%1];" ::"r"(
          smem_u32(response)),
      "r"(smem_u32(full))
      : "memory");
}

// After the full barrier's phase completed: is_canceled first; only when true is the
// first CTA id read (reading it from a failed response is undefined, S13.3).
__device__ inline WorkTile clc_read(void const* response, int num_tiles) {
  uint32_t ok = 0, x = 0;
  asm volatile(
      "{\n .reg .b128 h;\n .reg .pred p;\n ld.shared.b128 h, [%2];\n"
      " clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, h;\n selp.u32 %0, 1, 0, p;\n"
      " @p clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 %1, h;\n}"
      : "=r"(ok), "=r"(x)
      : "r"(smem_u32(response))
      : "memory");
  WorkTile t;
  t.valid = ok != 0 && static_cast<int>(x) < num_tiles;
  t.tile_idx = static_cast<int>(x);
  t.coord[0] = t.tile_idx;
  return t;
}

// Generic-proxy reads of the last response before the next async-proxy write (S13.5).
__device__ inline void clc_fence_before_request() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

// The primitives ts::ClcScheduler needs (ClcArch, runtime/scheduler/clc_scheduler.hpp), for
// an sm_100a Arch to derive from: the same scheduler code as on the CPU emulator.
struct ClcPrimitives {
  // The consumers' generic-proxy reads of the slot's last response precede this async write.
  __device__ void clc_try_cancel(void* response, uint64_t* full) {
    clc_fence_before_request();
    sm100::clc_try_cancel(response, full);
  }
  __device__ bool clc_is_canceled(void const* response) {
    uint32_t ok = 0;
    asm volatile(
        "{\n .reg .b128 h;\n .reg .pred p;\n ld.shared.b128 h, [%1];\n"
        " clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, h;\n selp.u32 %0, 1, 0, p;\n}"
        : "=r"(ok)
        : "r"(smem_u32(response))
        : "memory");
    return ok != 0;
  }
  // Only after clc_is_canceled answered true (undefined on a failed response, S13.3).
  __device__ int clc_first_ctaid(void const* response) {
    uint32_t x = 0;
    asm volatile(
        "{\n .reg .b128 h;\n ld.shared.b128 h, [%1];\n"
        " clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 %0, h;\n}"
        : "=r"(x)
        : "r"(smem_u32(response))
        : "memory");
    return static_cast<int>(x);
  }
};


}  // namespace ts::cuda::sm100
