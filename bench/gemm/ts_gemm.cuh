// The TS GEMM (examples/gemm) through the library launcher: recorded, verified and
// launched with per-task register budgets (ts::cuda::TaskRegisterBudgets<384>).
#pragma once
#include <memory>
#include <utility>

#include "gemm/gemm_layouts_manager.hpp"
#include "gemm/gemm_manager.hpp"
#include "ts/runtime/cuda/launch.cuh"

namespace bench {

using GemmManager = decltype(gemm::make_gemm(std::declval<gemm::Problem const&>()));
using DynamicGemmManager = decltype(gemm::make_gemm_dynamic(std::declval<gemm::Problem const&>(), nullptr, nullptr));

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

// The row-major-B variant (gemm_layouts.hpp): p.map_b describes B as K x N row-major.
using RowBGemmManager = decltype(gemm::make_gemm_rowmajor_b(std::declval<gemm::Problem const&>()));
struct TsGemmRowB {
  std::unique_ptr<RowBGemmManager> tm;
  int grid = 0;
  void launch(cudaStream_t st = 0) const { ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>>(*tm, grid, st); }
};
inline TsGemmRowB prepare_ts_gemm_rowmajor_b(gemm::Problem const& p, int sms) {
  TsGemmRowB g;
  g.tm = std::make_unique<RowBGemmManager>(
      gemm::make_gemm_rowmajor_b(p, ts::Options{.verbose = false, .exhaustive_check = true}));
  g.tm->print_and_verify();
  int tiles = p.tiles_m() * p.tiles_n();
  g.grid = tiles < sms ? tiles : sms;
  return g;
}

// The same tile bodies under the dynamic (global-counter, CLC-contract) scheduler.
struct TsGemmDynamic {
  std::unique_ptr<DynamicGemmManager> tm;
  unsigned* counter = nullptr;
  ts::QueueResponse* scratch = nullptr;
  int grid = 0;
  void launch(cudaStream_t st = 0) const {
    ts::cuda::reset_queue(counter, st);
    ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>>(*tm, grid, st);
  }
  ~TsGemmDynamic() {
    cudaFree(counter);
    cudaFree(scratch);
  }
};

inline std::unique_ptr<TsGemmDynamic> prepare_ts_gemm_dynamic(gemm::Problem const& p, int sms) {
  auto g = std::make_unique<TsGemmDynamic>();
  int tiles = p.tiles_m() * p.tiles_n();
  g->grid = tiles < sms ? tiles : sms;
  cudaMalloc(&g->counter, sizeof(unsigned));
  cudaMalloc(&g->scratch, sizeof(ts::QueueResponse) * size_t(g->grid) * ts::kQueueMaxStages);
  g->tm = std::make_unique<DynamicGemmManager>(
      gemm::make_gemm_dynamic(p, g->counter, g->scratch, ts::Options{.verbose = false}));
  g->tm->print_and_verify();
  return g;
}

}  // namespace bench
