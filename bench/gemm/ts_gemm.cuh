// The TS GEMM (examples/gemm) through the library launcher: recorded, verified and
// launched with per-task register budgets (ts::cuda::TaskRegisterBudgets<384>). One
// wrapper for every operand layout and tile scheduler, as make_gemm has one signature.
#pragma once
#include <memory>
#include <utility>

#include "dynamic_run.cuh"
#include "gemm/gemm_manager.hpp"
#include "ts/runtime/cuda/launch.cuh"

namespace bench {

template <class Layout, class S>
using GemmManagerOf = decltype(gemm::make_gemm<Layout>(std::declval<gemm::Problem const&>(), S{}));

template <class Layout = gemm::KMajorAB, class S = ts::StaticScheduler>
struct TsGemmOf {
  std::unique_ptr<GemmManagerOf<Layout, S>> tm;
  int grid = 0;
  void launch(cudaStream_t st = 0) const { ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>>(*tm, grid, st); }
};
using TsGemm = TsGemmOf<>;
using TsGemmRowB = TsGemmOf<gemm::RowMajorB>;
template <bool RowB>
using TsGemmColA = TsGemmOf<std::conditional_t<RowB, gemm::ColMajorARowMajorB, gemm::ColMajorA>>;

// Records, verifies (throws on errors) and lays out the GEMM; prints when verbose.
// `exhaustive`: run the model checker too (its proof does not depend on the problem: a
// bench preparing the same schedule many times proves it once and runs the static checks
// on the rest).
template <class Layout = gemm::KMajorAB>
inline TsGemmOf<Layout> prepare_ts_gemm(gemm::Problem const& p, int sms, bool verbose, bool exhaustive = true) {
  TsGemmOf<Layout> g;
  g.tm = std::make_unique<GemmManagerOf<Layout, ts::StaticScheduler>>(
      gemm::make_gemm<Layout>(p, ts::Options{.verbose = verbose, .exhaustive_check = exhaustive}));
  g.tm->print_and_verify();
  int tiles = p.tiles_m() * p.tiles_n();
  g.grid = tiles < sms ? tiles : sms;
  return g;
}
// The row-major-B variant (gemm_layouts.hpp): p.map_b describes B as K x N row-major.
inline TsGemmRowB prepare_ts_gemm_rowmajor_b(gemm::Problem const& p, int sms) {
  return prepare_ts_gemm<gemm::RowMajorB>(p, sms, false);
}
// The column-major-A variants (gemm_colmajor_a.hpp): p.map_a describes A as K x M
// row-major; p.map_b B as N x K (RowB false) or K x N row-major (RowB true).
template <bool RowB>
inline TsGemmColA<RowB> prepare_ts_gemm_colmajor_a(gemm::Problem const& p, int sms) {
  return prepare_ts_gemm<std::conditional_t<RowB, gemm::ColMajorARowMajorB, gemm::ColMajorA>>(p, sms, false);
}

// The same tile bodies under the dynamic (global-counter) scheduler.
using TsGemmDynamic = DynamicRun<GemmManagerOf<gemm::KMajorAB, ts::GlobalCounterScheduler>>;

inline std::unique_ptr<TsGemmDynamic> prepare_ts_gemm_dynamic(gemm::Problem const& p, int sms) {
  auto g = std::make_unique<TsGemmDynamic>();
  auto sched = g->allocate(p.tiles_m() * p.tiles_n(), sms);
  g->tm = std::make_unique<GemmManagerOf<gemm::KMajorAB, ts::GlobalCounterScheduler>>(
      gemm::make_gemm(p, sched, ts::Options{.verbose = false}));
  g->tm->print_and_verify();
  return g;
}

}  // namespace bench
