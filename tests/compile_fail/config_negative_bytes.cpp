// EXPECT: num_bytes must not be negative
#include "ts/core/pipeline_config.hpp"

struct Ring {
  static constexpr auto pipeline = ts::tma_async({.num_stages = 2, .num_bytes = -64});
};
int main() { return Ring::pipeline.num_stages; }
