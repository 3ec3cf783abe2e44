// Which of the two single-CTA Hopper GEMM shapes to run for a problem: the cooperative one
// (gemm_manager.hpp, 128 x 256 tiles, both math warp groups on one tile) or the ping-pong
// one (gemm_pingpong_manager.hpp, one 128 x 128 tile per math warp group, one group's
// epilogue under the other's main loop).
//
// The rule is measured, not derived (docs/gemm.md, "Choosing the shape"; bench/RESULTS.md,
// stop 24). Since the ring counters live in uniform registers (runtime/pipeline/params.hpp,
// may_have_lanes), ping-pong beat cooperative on the H200 wherever each SM gets several
// tiles: 1.02-1.06x at 8192 x 8192 (K 1024, 8192) and 4096 x 4096 x 16384, 1.21x at
// 16384 x 16384 x 512, even at 4096^3. Cooperative stayed ahead with few tiles per SM
// (2048^3: 0.97, 1024 x 8192 x 8192: 0.99) and on the ragged 3000 x 5000 x 4000 (0.87; a
// pair of 128 x 128 tiles moves a third more L2 traffic per output than a 128 x 256 tile,
// and those operands do not fit L2: ncu, stop 29). Problems outside the measured range get
// the same rule, which is an extrapolation. The 64 x 256 and 2 x 1-cluster ping-pong forms
// (stop 29) are not picked: on the H100 neither beat the 128 x 128 form consistently.
#pragma once
#include "gemm_manager.hpp"

namespace gemm {

enum class GemmShape { Cooperative, PingPong };

inline char const* to_string(GemmShape s) { return s == GemmShape::PingPong ? "pingpong" : "cooperative"; }

// At least this many cooperative (128 x 256) tiles per SM: 4096 x 4096 has 3.9 on 132 SMs
// (ping-pong 1.00-1.02x), 1024 x 8192 1.9 (0.99x), 2048 x 2048 1.0 (0.97x).
constexpr int kPingPongMinTilesPerSm = 3;

inline GemmShape choose_shape(Problem const& p, int sms) {
  long long tiles = 1LL * p.tiles_m() * p.tiles_n();
  bool many_tiles = tiles >= 1LL * kPingPongMinTilesPerSm * sms;
  // Whole 128 x 128 tiles: the one ragged shape measured ran ping-pong at 0.87x.
  bool whole_tiles = p.M % 128 == 0 && p.N % 128 == 0;
  return many_tiles && whole_tiles ? GemmShape::PingPong : GemmShape::Cooperative;
}

}  // namespace gemm
