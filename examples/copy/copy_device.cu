// Executing instantiations of the copy schedules for sm_90a: the same schedule
// functors the host recorded, run by the executing context on the CUDA arch.
#include "copy_resources.hpp"
#include "ts/arch/cuda_sm90.cuh"

namespace examples {

__global__ void grid_stride_copy_kernel(InputGmem in, OutputGmem out, ts::PipelineRuntime const* pipes) {
  ts::cuda::Sm90Arch arch;
  arch.coord.thread_in_block = threadIdx.x;
  arch.coord.thread_in_task = threadIdx.x;
  arch.coord.task_threads = blockDim.x;
  arch.coord.block_threads = blockDim.x;
  arch.coord.block_idx = blockIdx.x;
  arch.coord.grid_blocks = gridDim.x;
  ts::exec::Context<ts::cuda::Sm90Arch> ctx(arch, pipes, 0);
  ts::exec::ResourceState st[2];
  ts::exec::Handle<decltype(ctx), InputGmem> hin(&ctx, &in, 0, &st[0]);
  ts::exec::Handle<decltype(ctx), OutputGmem> hout(&ctx, &out, 1, &st[1]);
  GridStrideCopy{}(ctx, hin, hout);
}

}  // namespace examples
