// Compile proof: the pipeline-group examples (11-13) instantiated through the library
// kernel entry for sm_90a, so ts::group's executing view builds for the device.
#include "groups/group_examples.hpp"
#include "ts/runtime/cuda/kernel.cuh"

namespace examples {

using MergeParams = ts::KernelParams<ts::TaskParams<RingProducer, ChunkInput, SmemRing>,
                                     ts::TaskParams<RingProducer, ChunkInput, SmemRing>,
                                     ts::TaskParams<MergeSumConsumer, SmemRing, SmemRing, SumOutput>>;
using ForkParams = ts::KernelParams<ts::TaskParams<ForkProducer, ChunkInput, SmemRing, SmemRing>,
                                    ts::TaskParams<RingConsumer, SmemRing, ChunkOutput>,
                                    ts::TaskParams<RingConsumer, SmemRing, ChunkOutput>>;
using FusedParams = ts::KernelParams<ts::TaskParams<BulkProducer, FusedChunkRing>,
                                     ts::TaskParams<BulkProducer, FusedChunkRing>,
                                     ts::TaskParams<FusedSumConsumer, FusedChunkRing, FusedChunkRing, SumOutput>>;

}  // namespace examples

template __global__ void ts::cuda::plain_kernel<examples::MergeParams>(__grid_constant__ examples::MergeParams const);
template __global__ void ts::cuda::plain_kernel<examples::ForkParams>(__grid_constant__ examples::ForkParams const);
template __global__ void ts::cuda::plain_kernel<examples::FusedParams>(__grid_constant__ examples::FusedParams const);
