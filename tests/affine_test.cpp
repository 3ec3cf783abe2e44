// Affine forms of recorded loop bounds (schedule/affine.hpp): normalised, so equal
// values compare equal, and opaque where the expression is not affine.
#include <gtest/gtest.h>

#include "ts/schedule/recorder.hpp"

namespace {

using ts::ir::Affine;

TEST(Affine, NormalisesTermsAndConstants) {
  auto a = Affine::of_symbol("tiles") - Affine::of_symbol("block_idx") + Affine::of_constant(3);
  auto b = Affine::of_constant(3) + Affine::of_symbol("tiles") - Affine::of_symbol("block_idx");
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.to_string(), "-block_idx + tiles + 3");
  EXPECT_TRUE((a - b).is_constant());
  EXPECT_EQ((a - b).to_string(), "0");
}

TEST(Affine, SymArithmeticKeepsTheForm) {
  ts::Sym block{"block_idx", false, 0}, thread{"thread", false, 0};
  auto global = block * 32 + thread;
  EXPECT_EQ(ts::affine_of(global).to_string(), "32*block_idx + thread");
  // An exact division stays affine; an inexact one is opaque (named by its text).
  EXPECT_EQ(ts::affine_of((block * 4 + 8) / 4).to_string(), "block_idx + 2");
  auto half = block / 2;
  EXPECT_EQ(ts::affine_of(half), Affine::of_symbol(half.expr));
  // A product of two symbols is opaque too.
  auto sq = block * thread;
  EXPECT_EQ(ts::affine_of(sq), Affine::of_symbol(sq.expr));
}

TEST(Affine, BoundsCarryFormsAndOffsets) {
  auto n = ts::rec::to_bound(ts::runtime(12, "tiles"));
  EXPECT_TRUE(n.form_known);
  EXPECT_EQ(n.form, Affine::of_symbol("tiles"));
  ASSERT_EQ(n.named_values.size(), 1u);
  EXPECT_EQ(n.named_values[0].value, 12);
  auto m = n - 1;
  EXPECT_EQ(m.expr, "tiles - 1");
  EXPECT_EQ(m.value, 11);
  EXPECT_EQ(m.form.to_string(), "tiles - 1");
  EXPECT_EQ(ts::rec::to_bound(7).form, Affine::of_constant(7));
}

}  // namespace
