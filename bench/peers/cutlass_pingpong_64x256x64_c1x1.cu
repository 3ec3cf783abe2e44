// bench/peers: CUTLASS ping-pong 64x256x64, cluster 1x1 (one configuration per
// translation unit, so the configurations compile in parallel).
#include "cutlass_gemm.cuh"

namespace peers {
std::unique_ptr<Runner> make_pingpong_64x256x64_c1x1(GemmArgs const& a, int swizzle) {
  return make_runner<CutlassGemm<64, 256, 64, 1, 1, true>>(a, swizzle);
}
}  // namespace peers
