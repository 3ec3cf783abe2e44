// Compile proof: the library kernel entry (ts::cuda) instantiated for the copy
// examples' parameter blocks, for sm_90a, without any GPU.
#include "copy_resources.hpp"
#include "ts/runtime/cuda/kernel.cuh"

namespace examples {

using GridStrideParams = ts::KernelParams<ts::TaskParams<GridStrideCopy, InputGmem, OutputGmem>>;
using PipelinedParams = ts::KernelParams<ts::TaskParams<RingProducer, ChunkInput, SmemRing>,
                                         ts::TaskParams<RingConsumer, SmemRing, ChunkOutput>>;

}  // namespace examples

template __global__ void ts::cuda::plain_kernel<examples::GridStrideParams>(
    __grid_constant__ examples::GridStrideParams const);
template __global__ void ts::cuda::plain_kernel<examples::PipelinedParams>(
    __grid_constant__ examples::PipelinedParams const);
