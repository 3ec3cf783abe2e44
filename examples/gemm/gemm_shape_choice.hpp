// Which of the two single-CTA Hopper GEMM shapes to run for a problem: the cooperative one
// (gemm_manager.hpp, 128 x 256 tiles, both math warp groups on one tile) or the ping-pong
// one (gemm_pingpong_manager.hpp, one 128 x 128 tile per math warp group, one group's
// epilogue under the other's main loop).
//
// The rule is measured, not derived (docs/gemm.md, "Choosing the shape"; bench/RESULTS.md,
// stop 23): on the H200 ping-pong beat cooperative only where the problem has many tiles
// per SM and a short K loop, i.e. where the epilogues, which the cooperative shape does not
// overlap with any main loop, are a large share of the work: 16384 x 16384 at K = 512, 768
// and 1024 (1.03, 1.01, 1.00x of cooperative). Everywhere else measured (M, N from 1024 to
// 8192, K from 256 to 16384) cooperative was faster by 1-15 %. Problems outside the
// measured range get the same rule, which is an extrapolation.
#pragma once
#include "gemm_manager.hpp"

namespace gemm {

enum class GemmShape { Cooperative, PingPong };

inline char const* to_string(GemmShape s) { return s == GemmShape::PingPong ? "pingpong" : "cooperative"; }

// At least this many cooperative (128 x 256) tiles per SM: 16384 x 16384 has 62 on 132 SMs,
// 8192 x 8192 (where cooperative won at every K measured) 31.
constexpr int kPingPongMinTilesPerSm = 48;
// At most this many k stages of 64 (K <= 1024); at K = 2048 and above no shape measured
// favoured ping-pong.
constexpr int kPingPongMaxKIters = 16;

inline GemmShape choose_shape(Problem const& p, int sms) {
  long long tiles = 1LL * p.tiles_m() * p.tiles_n();
  bool many_tiles = tiles >= 1LL * kPingPongMinTilesPerSm * sms;
  bool short_k = p.k_iters() <= kPingPongMaxKIters;
  return many_tiles && short_k ? GemmShape::PingPong : GemmShape::Cooperative;
}

}  // namespace gemm
