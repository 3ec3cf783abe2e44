// Per-task register reallocation (ts::cuda::TaskRegisterBudgets): wraps an Arch with
// set_registers<N>(), which the dispatcher calls in each task's branch with the
// schedule's with_registers<N>. The entry budget under __launch_bounds__(threads, 1)
// decides inc vs dec.
#pragma once
#include "ts/runtime/cuda/register_plan.cuh"

namespace ts::cuda {

template <class Base, int kBlockThreads>
struct WithRegisterControl : Base {
  template <int N>
  __device__ void set_registers() {
    set_max_registers<N, entry_registers(kBlockThreads)>();
  }
};

}  // namespace ts::cuda
