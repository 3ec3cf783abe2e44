// Compile proof of ts::cuda (built only where nvcc is found): the copy schedule's sm_90a
// kernel, instantiated as ts::cuda::launch would; never launched here.
#include "copy.hpp"
#include "ts/runtime/cuda/kernel.cuh"

using CopyParams = ts::KernelParams<ts::TaskParams<Copy, Input, Output>>;
template __global__ void ts::cuda::plain_kernel<CopyParams>(__grid_constant__ CopyParams const);
