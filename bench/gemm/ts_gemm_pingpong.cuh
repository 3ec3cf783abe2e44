// The ping-pong TS GEMM (examples/gemm/gemm_pingpong.hpp) through the library launcher.
#pragma once
#include <memory>
#include <utility>

#include "gemm/gemm_pingpong_manager.hpp"
#include "ts/runtime/cuda/launch.cuh"

namespace bench {

using PingPongManager =
    decltype(gemm::pingpong::make_gemm_pingpong(std::declval<gemm::Problem const&>(), nullptr));

struct TsGemmPingPong {
  std::unique_ptr<PingPongManager> tm;
  int grid = 0;
  void launch(cudaStream_t st = 0) const { ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>>(*tm, grid, st); }
};

// p.map_a: A in 128 x 64 boxes (the cooperative shape's map); map_b_128: B in 128 x 64
// boxes (device memory). One CTA per SM, at most one per pair of tiles.
inline TsGemmPingPong prepare_ts_gemm_pingpong(gemm::Problem const& p, void const* map_b_128, int sms, bool verbose) {
  TsGemmPingPong g;
  g.tm = std::make_unique<PingPongManager>(
      gemm::pingpong::make_gemm_pingpong(p, map_b_128, ts::Options{.verbose = verbose, .exhaustive_check = true}));
  g.tm->print_and_verify();
  int pairs = gemm::pingpong::pairs(p);
  g.grid = pairs < sms ? pairs : sms;
  return g;
}

}  // namespace bench
