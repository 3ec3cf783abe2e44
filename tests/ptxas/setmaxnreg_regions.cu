// What ptxas allocates after setmaxnreg (docs/cuda-backend.md, register plans): a
// 384-thread kernel at __launch_bounds__(384, 1) (168 registers at entry), warp group 0
// dec to 40, groups 1-2 inc to 232, then kLive floats live across a loop. `ptxas -v`
// always prints the entry budget; its spill count tells whether a region got its own.
// check_setmaxnreg.sh compiles each SHAPE and checks the spills:
//   0 none:   no setmaxnreg, 200 live in the math branch        -> spills (168 is too few)
//   1 branch: dec / inc in the two branches, 200 live after inc -> no spill (232 used)
//   2 join:   as 1, then 40 live in code after the branches      -> spills (budget there: 40)
// The setmaxnreg is the library's own (ts/arch/cuda_registers.cuh), the one the task
// dispatch issues.
#include <cstdint>

#include "ts/arch/cuda_registers.cuh"

// kLive accumulators, each fed by its neighbour so none can be dropped or recomputed.
template <int kLive>
__device__ __forceinline__ void live_floats(float* out, float const* in, int iters) {
  float acc[kLive];
#pragma unroll
  for (int i = 0; i < kLive; ++i) acc[i] = in[threadIdx.x + i];
  for (int k = 0; k < iters; ++k) {
    float const x = in[k];
#pragma unroll
    for (int i = 0; i < kLive; ++i) acc[i] = acc[i] * x + acc[(i + 1) % kLive];
  }
#pragma unroll
  for (int i = 0; i < kLive; ++i) out[threadIdx.x * kLive + i] = acc[i];
}

__global__ void __launch_bounds__(384, 1) regions(float* out, float const* in, int iters) {
  int const wg = __shfl_sync(0xffffffffu, int(threadIdx.x) / 128, 0);
  if (wg == 0) {
    if (SHAPE != 0) ts::cuda::setmaxnreg_dec<40>();
    live_floats<20>(out, in, iters);
  } else {
    if (SHAPE != 0) ts::cuda::setmaxnreg_inc<232>();
    live_floats<200>(out, in, iters);
  }
  if (SHAPE == 2) live_floats<40>(out + (1 << 20), in, iters);
}
