// A pipeline declared as a compile-time value with an impossible count does not compile,
// and the error names the rule (the factory's require() line in the expansion).
// EXPECT: num_stages must be at least 1
#include "ts/core/pipeline_config.hpp"

struct Ring {
  static constexpr auto pipeline = ts::async_async({.num_stages = 0});
};
int main() { return Ring::pipeline.num_stages; }
