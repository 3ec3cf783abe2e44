// Golden printouts of the pattern examples 07-10 (schedule table, register budget, SMEM
// and allocator report). TS_UPDATE_GOLDEN=1 regenerates them.
#include <gtest/gtest.h>

#include "golden_util.hpp"
#include "patterns/patterns.hpp"
#include "test_resources.hpp"

namespace p = examples::patterns;

TEST(PatternsPrintout, PingPongTransformGolden) {
  p::PatternBuffers b(100);
  std::string out = golden::printed(p::make_pingpong_transform(b, tst::quiet()));
  // The Loader's third acquire of stage 0 is handed over by the Transformer's release.
  EXPECT_NE(out.find("=> pp ProducerAcquire[0] L 2"), std::string::npos) << out;
  golden::expect("pingpong_transform.txt", out);
}

TEST(PatternsPrintout, SplitConsumerGolden) {
  p::PatternBuffers b(100);
  std::string out = golden::printed(p::make_split_consumer(b, tst::quiet()));
  // The Releaser frees the ring stages the Waiter used: no unconsumed or unreleased credit.
  EXPECT_NE(out.find("ring ConsumerRelease[2] L 2"), std::string::npos) << out;
  EXPECT_EQ(out.find("not consumed"), std::string::npos) << out;
  EXPECT_EQ(out.find("not released"), std::string::npos) << out;
  golden::expect("split_consumer.txt", out);
}

TEST(PatternsPrintout, AliasedStagingGolden) {
  p::PatternBuffers b(100, p::staging_out_elems(100));
  std::string out = golden::printed(p::make_aliased_staging(b, tst::quiet()));
  EXPECT_NE(out.find("alias group 'epilogue': phase 0 {ring.data} phase 1 {staging.rows}; region 512 B, saves 512 B"),
            std::string::npos)
      << out;
  golden::expect("aliased_staging.txt", out);
}

TEST(PatternsPrintout, DomainLaneConsumerGolden) {
  p::PatternBuffers b(100);
  std::string out = golden::printed(p::make_domain_lane_consumer(b, tst::quiet()));
  // Lane1's counter starts at its lane: its first wait is on stage 1, then stage 3.
  EXPECT_NE(out.find("=> ring ConsumerWait[1] F 0"), std::string::npos) << out;
  EXPECT_NE(out.find("=> ring ConsumerWait[3] M 1"), std::string::npos) << out;
  EXPECT_EQ(out.find("not consumed"), std::string::npos) << out;
  golden::expect("domain_lane_consumer.txt", out);
}
