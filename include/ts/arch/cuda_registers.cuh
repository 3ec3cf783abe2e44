// Register reallocation for warp-specialized kernels on sm_90a: wraps an Arch with
// set_registers<N>(), which the dispatcher calls in each task's branch. The kernel's
// launch budget (from __launch_bounds__(threads, 1)) decides inc vs dec.
#pragma once
#include "ts/arch/sm90_wgmma.cuh"

namespace ts::cuda {

constexpr int launch_register_budget(int block_threads) {
  int r = 65536 / block_threads / 8 * 8;
  return r > 255 ? 255 : r;
}

template <class Base, int kBlockThreads>
struct WithRegisterControl : Base {
  static constexpr int kLaunchRegisters = launch_register_budget(kBlockThreads);
  template <int N>
  __device__ void set_registers() {
    if constexpr (N > kLaunchRegisters) ts::sm90::setmaxnreg_inc<N>();
    else if constexpr (N < kLaunchRegisters) ts::sm90::setmaxnreg_dec<N>();
  }
};

}  // namespace ts::cuda
