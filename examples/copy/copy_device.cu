// Compile proof: the library kernel entry (ts::cuda) instantiated for every copy
// example's parameter block, for sm_90a, without any GPU.
#include "copy_persistent.hpp"
#include "copy_resources.hpp"
#include "copy_varlen.hpp"
#include "ts/runtime/cuda/kernel.cuh"

namespace examples {

using GridStrideParams = ts::KernelParams<ts::TaskParams<GridStrideCopy, InputGmem, OutputGmem>>;
using PipelinedParams = ts::KernelParams<ts::TaskParams<PrefetchingRingProducer, ChunkInput, CopyRing>,
                                         ts::TaskParams<RingConsumer, CopyRing, ChunkOutput>>;
using PersistentParams = ts::KernelParams<ts::TaskParams<PersistentCopy, TileQueue, TileInput, TileOutput>>;
using VarlenParams = ts::KernelParams<ts::TaskParams<VarlenProducer, TileQueue, Segments, ChunkRing>,
                                      ts::TaskParams<VarlenConsumer, TileQueue, Segments, ChunkRing, SegmentOutput>>;
// Example 05 (copy_dynamic.hpp) is not instantiated here: its queue is scheduled by
// Cluster Launch Control, which sm_90a lacks (ts::ClcScheduler fails ts::TileScheduler on
// ts::cuda::Sm90Arch, a compile error; it used to trap at run time). The sm_90a dynamic
// copy is example 04's global-counter queue (tma_copy.hpp, ts_examples_cuda).

}  // namespace examples

template __global__ void ts::cuda::plain_kernel<examples::GridStrideParams>(
    __grid_constant__ examples::GridStrideParams const);
template __global__ void ts::cuda::plain_kernel<examples::PipelinedParams>(
    __grid_constant__ examples::PipelinedParams const);
template __global__ void ts::cuda::plain_kernel<examples::PersistentParams>(
    __grid_constant__ examples::PersistentParams const);
template __global__ void ts::cuda::plain_kernel<examples::VarlenParams>(__grid_constant__ examples::VarlenParams const);
