// Compile proof for sm_100a: a worker loop over Cluster Launch Control responses with
// the S13 contract (request before the tile's work, stop at the first failure).
#include "ts/arch/cuda_sm100_clc.cuh"
#include "ts/runtime/scheduler/clc_scheduler.hpp"

// The sm_100a primitives meet what ts::ClcScheduler needs: an sm_100a Arch deriving from
// them runs the scheduler the CPU emulator runs (no sm_100a GPU is lent here to run it).
static_assert(ts::ClcArch<ts::cuda::sm100::ClcPrimitives>);

namespace examples {

__global__ void clc_copy_sm100(int const* src, int* dst, int num_tiles, int tile_elems) {
  __shared__ __align__(16) unsigned char response[16];
  __shared__ __align__(8) uint64_t full;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(ts::cuda::sm100::smem_u32(&full)));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  ts::WorkTile tile;
  tile.tile_idx = blockIdx.x;
  uint32_t phase = 0;
  while (tile.valid) {
    if (threadIdx.x == 0) {
      ts::cuda::sm100::clc_fence_before_request();
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 16;" ::"r"(ts::cuda::sm100::smem_u32(&full)));
      ts::cuda::sm100::clc_try_cancel(response, &full);
    }
    for (int i = threadIdx.x; i < tile_elems; i += blockDim.x)
      dst[static_cast<long long>(tile.tile_idx) * tile_elems + i] = src[static_cast<long long>(tile.tile_idx) * tile_elems + i];
    uint32_t done = 0;
    while (!done)
      asm volatile(
          "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
          : "=r"(done)
          : "r"(ts::cuda::sm100::smem_u32(&full)), "r"(phase)
          : "memory");
    phase ^= 1u;
    tile = ts::cuda::sm100::clc_read(response, num_tiles);
    __syncthreads();  // every thread read the response before the next request overwrites it
  }
}

}  // namespace examples
