#include <gtest/gtest.h>

#include "copy/copy_examples.hpp"

TEST(Smoke, GridStrideCopyRecords) {
  examples::CopyBuffers b(100);
  auto tm = examples::make_grid_stride_copy(b);
  ASSERT_EQ(tm.model().tasks.size(), 1u);
  EXPECT_EQ(tm.model().tasks[0].schedule.steps.size(), 2u);
}
