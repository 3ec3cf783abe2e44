// bench/peers: CUTLASS ping-pong 128x128x64, cluster 2x1 (one configuration per
// translation unit, so the configurations compile in parallel).
#include "cutlass_gemm.cuh"

namespace peers {
std::unique_ptr<Runner> make_pingpong_128x128x64_c2x1(GemmArgs const& a, int swizzle) {
  return make_runner<CutlassGemm<128, 128, 64, 2, 1, true>>(a, swizzle);
}
}  // namespace peers
