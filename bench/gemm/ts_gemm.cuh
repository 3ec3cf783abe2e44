// The TS GEMM (examples/gemm) through the library launcher: recorded, verified and
// launched with per-task register budgets (ts::cuda::TaskRegisterBudgets<384>).
#pragma once
#include <memory>
#include <utility>

#include "gemm/gemm_manager.hpp"
#include "ts/runtime/cuda/launch.cuh"

namespace bench {

using GemmManager = decltype(gemm::make_gemm(std::declval<gemm::Problem const&>()));

struct TsGemm {
  std::unique_ptr<GemmManager> tm;
  int grid = 0;
  void launch(cudaStream_t st = 0) const { ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>>(*tm, grid, st); }
};

// Records, verifies (throws on errors) and lays out the GEMM; prints when verbose.
inline TsGemm prepare_ts_gemm(gemm::Problem const& p, int sms, bool verbose) {
  TsGemm g;
  g.tm = std::make_unique<GemmManager>(gemm::make_gemm(p, ts::Options{.verbose = verbose, .exhaustive_check = true}));
  g.tm->print_and_verify();
  int tiles = p.tiles_m() * p.tiles_n();
  g.grid = tiles < sms ? tiles : sms;
  return g;
}

}  // namespace bench
