// bench/peers: CUTLASS cooperative 128x256x64, cluster 1x1 (one configuration per
// translation unit, so the configurations compile in parallel).
#include "cutlass_gemm.cuh"

namespace peers {
std::unique_ptr<Runner> make_coop_128x256x64_c1x1(GemmArgs const& a, int swizzle) {
  return make_runner<CutlassGemm<128, 256, 64, 1, 1, false>>(a, swizzle);
}
}  // namespace peers
