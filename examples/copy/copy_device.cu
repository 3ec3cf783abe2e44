// Compile proof: the library kernel entry (ts::cuda) instantiated for every copy
// example's parameter block, for sm_90a, without any GPU.
#include "copy_dynamic.hpp"
#include "copy_persistent.hpp"
#include "copy_resources.hpp"
#include "copy_varlen.hpp"
#include "ts/runtime/cuda/kernel.cuh"

namespace examples {

using GridStrideParams = ts::KernelParams<ts::TaskParams<GridStrideCopy, InputGmem, OutputGmem>>;
using PipelinedParams = ts::KernelParams<ts::TaskParams<RingProducer, ChunkInput, SmemRing>,
                                         ts::TaskParams<RingConsumer, SmemRing, ChunkOutput>>;
using PersistentParams = ts::KernelParams<ts::TaskParams<PersistentCopy, TileQueue, TileInput, TileOutput>>;
using VarlenParams = ts::KernelParams<ts::TaskParams<VarlenProducer, TileQueue, Segments, ChunkRing>,
                                      ts::TaskParams<VarlenConsumer, TileQueue, Segments, ChunkRing, SegmentOutput>>;
using DynamicParams = ts::KernelParams<ts::TaskParams<ClcScheduler, ClcTileQueue>,
                                       ts::TaskParams<PersistentCopy, ClcTileQueue, TileInput, TileOutput>>;

}  // namespace examples

template __global__ void ts::cuda::plain_kernel<examples::GridStrideParams>(
    __grid_constant__ examples::GridStrideParams const);
template __global__ void ts::cuda::plain_kernel<examples::PipelinedParams>(
    __grid_constant__ examples::PipelinedParams const);
template __global__ void ts::cuda::plain_kernel<examples::PersistentParams>(
    __grid_constant__ examples::PersistentParams const);
template __global__ void ts::cuda::plain_kernel<examples::VarlenParams>(__grid_constant__ examples::VarlenParams const);
template __global__ void ts::cuda::plain_kernel<examples::DynamicParams>(
    __grid_constant__ examples::DynamicParams const);
