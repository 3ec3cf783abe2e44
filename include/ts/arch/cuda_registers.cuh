// Per-task register reallocation (ts::cuda::TaskRegisterBudgets): wraps an Arch with
// set_registers<N>(), which the dispatcher calls in each task's branch with the
// schedule's with_registers<N>. The entry budget under __launch_bounds__(threads, 1)
// decides inc vs dec. Also the setmaxnreg primitive itself and the entry budget, which
// the register plans (runtime/cuda/register_plan.cuh) are built on.
#pragma once

namespace ts::cuda {

// Registers per thread at kernel entry under __launch_bounds__(threads, 1): the
// register file (64 Ki) shared evenly, at most 255 (ptxas' per-thread ceiling),
// rounded down to setmaxnreg's granule of 8.
constexpr int entry_registers(int threads) {
  int r = 65536 / threads;
  if (r > 255) r = 255;
  return r / 8 * 8;
}

#if defined(__CUDACC__)
// The instruction: the count must be an immediate.
template <int R>
__device__ __forceinline__ void setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(R));
}
template <int R>
__device__ __forceinline__ void setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(R));
}

template <int R, int Entry>
__device__ __forceinline__ void set_max_registers() {
  if constexpr (R == 0 || R == Entry) {
  } else if constexpr (R > Entry) {
    setmaxnreg_inc<R>();
  } else {
    setmaxnreg_dec<R>();
  }
}

template <class Base, int kBlockThreads>
struct WithRegisterControl : Base {
  template <int N>
  __device__ void set_registers() {
    set_max_registers<N, entry_registers(kBlockThreads)>();
  }
};

#endif

}  // namespace ts::cuda
