// Kernel entry and launch of the TS GEMM (examples/gemm): the recorded, verified
// TaskManager's schedules run through the executing context on sm_90a.
// (A stand-in for the library launcher: it initialises the barriers of the layout,
// applies the tasks' setmaxnreg budgets per warp group, and dispatches by warp.)
#pragma once
#include <cuda.h>
#include <cuda_runtime.h>

#include <utility>

#include "gemm/gemm_manager.hpp"
#include "ts/arch/cuda_registers.cuh"
#include "ts/arch/cuda_sm90.cuh"
#include "ts/runtime/kernel_params.hpp"

namespace bench {

template <class TM>
struct params_of;
template <class... T>
struct params_of<ts::TaskManager<T...>> {
  using type = ts::KernelParamsOf<T...>;
};
using GemmManager = decltype(gemm::make_gemm(std::declval<gemm::Problem const&>()));
using GemmParams = params_of<GemmManager>::type;

__global__ void __launch_bounds__(384, 1) ts_gemm_kernel(__grid_constant__ const GemmParams p) {
  extern __shared__ unsigned char smem_raw[];
  // The layout's 1024-byte alignments are relative to this base.
  unsigned char* smem = reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));
  if (threadIdx.x == 0) {
    for (int r = 0; r < p.num_resources; ++r) {
      auto const& pr = p.pipes[r];
      if (!pr.pipelined) continue;
      for (int s = 0; s < pr.num_stages; ++s) {
        ts::cuda::mbar_init(reinterpret_cast<uint64_t*>(smem + pr.full_offset) + s, pr.full_arrivals);
        ts::cuda::mbar_init(reinterpret_cast<uint64_t*>(smem + pr.empty_offset) + s, pr.empty_arrivals);
      }
    }
    ts::cuda::fence_barrier_init();
  }
  __syncthreads();
  ts::cuda::WithRegisterControl<ts::cuda::Sm90Arch, 384> arch;
  arch.coord.thread_in_block = threadIdx.x;
  arch.coord.block_threads = blockDim.x;
  arch.coord.block_idx = blockIdx.x;
  arch.coord.grid_blocks = gridDim.x;
  arch.kctx.smem_base = smem;
  ts::run_thread(arch, p);
}

struct TsGemm {
  GemmParams params;
  unsigned smem_bytes = 0;
  int grid = 0;
  void launch(cudaStream_t st = 0) const { ts_gemm_kernel<<<grid, 384, smem_bytes, st>>>(params); }
};

// Records, verifies (throws on errors) and lays out the GEMM; prints when verbose.
inline TsGemm prepare_ts_gemm(gemm::Problem const& p, int sms, bool verbose) {
  auto tm = gemm::make_gemm(p, ts::Options{.verbose = verbose, .exhaustive_check = true});
  tm.print_and_verify();
  auto const& layout = tm.layout();
  TsGemm g;
  g.params = ts::make_kernel_params(tm, layout);
  g.smem_bytes = layout.smem_bytes + 1024;
  int tiles = p.tiles_m() * p.tiles_n();
  g.grid = tiles < sms ? tiles : sms;
  cudaFuncSetAttribute(ts_gemm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(g.smem_bytes));
  return g;
}

}  // namespace bench
