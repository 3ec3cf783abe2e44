// Executing instantiations of the copy schedules for sm_90a: the same schedule
// functors the host recorded, dispatched by warp role and run by the executing context
// on the CUDA arch. (The CUDA launcher that calls them is the CUDA backend's job.)
#include "copy_dynamic.hpp"
#include "copy_persistent.hpp"
#include "copy_resources.hpp"
#include "copy_varlen.hpp"
#include "ts/arch/cuda_sm90.cuh"
#include "ts/runtime/dispatch.hpp"

namespace examples {

using GridStrideParams = ts::KernelParams<ts::TaskParams<GridStrideCopy, InputGmem, OutputGmem>>;
using PipelinedParams = ts::KernelParams<ts::TaskParams<RingProducer, ChunkInput, SmemRing>,
                                         ts::TaskParams<RingConsumer, SmemRing, ChunkOutput>>;
using PersistentParams = ts::KernelParams<ts::TaskParams<PersistentCopy, TileQueue, TileInput, TileOutput>>;
using VarlenParams = ts::KernelParams<ts::TaskParams<VarlenProducer, TileQueue, Segments, ChunkRing>,
                                      ts::TaskParams<VarlenConsumer, TileQueue, Segments, ChunkRing, SegmentOutput>>;
using DynamicParams = ts::KernelParams<ts::TaskParams<ClcScheduler, TileQueue>,
                                       ts::TaskParams<PersistentCopy, TileQueue, TileInput, TileOutput>>;

template <class Params>
__global__ void copy_kernel(__grid_constant__ Params const p) {
  extern __shared__ __align__(1024) unsigned char smem[];
  ts::cuda::Sm90Arch arch;
  arch.coord.thread_in_block = threadIdx.x;
  arch.coord.block_threads = blockDim.x;
  arch.coord.block_idx = blockIdx.x;
  arch.coord.grid_blocks = gridDim.x;
  arch.kctx.smem_base = smem;
  if (threadIdx.x == 0) {
    for (int r = 0; r < p.num_resources; ++r) {
      auto const& pr = p.pipes[r];
      if (!pr.pipelined) continue;
      for (int s = 0; s < pr.num_stages; ++s) {
        ts::cuda::mbar_init(reinterpret_cast<uint64_t*>(smem + pr.full_offset) + s, pr.full_arrivals);
        ts::cuda::mbar_init(reinterpret_cast<uint64_t*>(smem + pr.empty_offset) + s, pr.empty_arrivals);
      }
    }
    ts::cuda::fence_barrier_init();
  }
  __syncthreads();
  ts::run_thread(arch, p);
}

template __global__ void copy_kernel<GridStrideParams>(__grid_constant__ GridStrideParams const);
template __global__ void copy_kernel<PipelinedParams>(__grid_constant__ PipelinedParams const);
template __global__ void copy_kernel<PersistentParams>(__grid_constant__ PersistentParams const);
template __global__ void copy_kernel<VarlenParams>(__grid_constant__ VarlenParams const);
template __global__ void copy_kernel<DynamicParams>(__grid_constant__ DynamicParams const);

}  // namespace examples
