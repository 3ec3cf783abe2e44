// bench/peers: the list of CUTLASS configurations (issue 15.4), one per cutlass_<name>.cu.
#include <cutlass/version.h>

#include "cutlass_peer.hpp"

namespace peers {

std::unique_ptr<Runner> make_coop_128x256x64_c1x1(GemmArgs const&, int);
std::unique_ptr<Runner> make_coop_128x256x64_c2x1(GemmArgs const&, int);
std::unique_ptr<Runner> make_coop_128x256x64_c1x2(GemmArgs const&, int);
std::unique_ptr<Runner> make_coop_256x128x64_c1x2(GemmArgs const&, int);
std::unique_ptr<Runner> make_pingpong_128x128x64_c1x1(GemmArgs const&, int);
std::unique_ptr<Runner> make_pingpong_128x128x64_c2x1(GemmArgs const&, int);
std::unique_ptr<Runner> make_pingpong_64x256x64_c1x1(GemmArgs const&, int);

std::vector<Config> const& cutlass_configs() {
  static std::vector<Config> const configs = {
      {"coop_128x256x64_c1x1", &make_coop_128x256x64_c1x1},
      {"coop_128x256x64_c2x1", &make_coop_128x256x64_c2x1},
      {"coop_128x256x64_c1x2", &make_coop_128x256x64_c1x2},
      {"coop_256x128x64_c1x2", &make_coop_256x128x64_c1x2},
      {"pingpong_128x128x64_c1x1", &make_pingpong_128x128x64_c1x1},
      {"pingpong_128x128x64_c2x1", &make_pingpong_128x128x64_c2x1},
      {"pingpong_64x256x64_c1x1", &make_pingpong_64x256x64_c1x1},
  };
  return configs;
}

std::string cutlass_version() {
  return std::to_string(CUTLASS_MAJOR) + "." + std::to_string(CUTLASS_MINOR) + "." + std::to_string(CUTLASS_PATCH);
}

}  // namespace peers
