// Per-task loop lengths (docs/checker.md, "Per-task loop lengths"): tasks whose domain
// loops are not provably equally long must not be checked as if they were. Each shape
// below has a mismatched version (UNSAFE, naming both lengths) and an equal one
// (SAFE for every k).
#include <gtest/gtest.h>

#include "check_fixtures.hpp"

namespace {
using namespace chk;

// ---- 1. Grid-stride loops: start block_idx, step grid_blocks, end `tiles - drop` ----
constexpr int kTiles = 12;

template <int kDrop>
struct StrideFeeder {
  template <class S, class X>
  TS_HD void operator()(S& s, X& x) const {
    s.domain_loop(s.block_idx(), kTiles - kDrop, s.grid_blocks(),
                  [&](auto&) { x.acquire(); ts::work<&Buf::put>(x); x.commit(); });
  }
};
// kShift moves both start and end: the trip count is unchanged (end - start is equal).
template <int kDrop, int kShift = 0>
struct StrideEater {
  template <class S, class X>
  TS_HD void operator()(S& s, X& x) const {
    auto body = [&](auto&) { x.wait(); ts::work<&Buf::take>(x); x.release(); };
    if constexpr (kShift == 0) s.domain_loop(s.block_idx(), kTiles - kDrop, s.grid_blocks(), body);
    else s.domain_loop(s.block_idx() + kShift, kTiles - kDrop + kShift, s.grid_blocks(), body);
  }
};

template <class P, class C>
ts::Model two_tasks(P p_sched, C c_sched) {
  auto x = ts::resource("x", Buf{}, ts::PipelineConfig::async_async({.num_stages = 2}));
  auto in = ts::resource("in", Buf{});
  auto p = ts::Task("Producer").warps(0, 1).reads(in).writes(x).schedule(p_sched, x);
  auto c = ts::Task("Consumer").warps(1, 1).reads(x).writes(in).schedule(c_sched, x);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{x, {in}}, {in, {x}}}, opts()).model();
}

void expect_mismatch(ts::check::CheckerResult const& r, std::string const& producer_loop,
                     std::string const& consumer_loop) {
  ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
  ASSERT_TRUE(r.failure);
  EXPECT_TRUE(r.failure->kind == "deadlock" || r.failure->kind == "unbalanced") << r.report;
  // The failure names both loops and both lengths.
  EXPECT_NE(r.failure->detail.find("Producer's domain loop (" + producer_loop + ") has length"), std::string::npos)
      << r.failure->detail;
  EXPECT_NE(r.failure->detail.find("Consumer's (" + consumer_loop + ") length"), std::string::npos)
      << r.failure->detail;
  // The scope says the lengths were explored independently and the proof did not apply.
  EXPECT_NE(r.report.find("not provably equal"), std::string::npos) << r.report;
  EXPECT_EQ(r.report.find("SAFE (for all k >= 1)"), std::string::npos) << r.report;
}

TEST(CheckLengths, GridStrideLoopsOfDifferentEndsAreUnsafe) {
  auto r = check(two_tasks(StrideFeeder<0>{}, StrideEater<1>{}));
  expect_mismatch(r, "block_idx..12 step grid_blocks", "block_idx..11 step grid_blocks");
}

TEST(CheckLengths, GridStrideLoopsOfEqualEndsAreSafeForEveryK) {
  auto r = check(two_tasks(StrideFeeder<0>{}, StrideEater<0>{}));
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
}

TEST(CheckLengths, ShiftedGridStrideLoopsOfEqualSpanAreSafeForEveryK) {
  // Start block_idx + 3, end 15: end - start = 12 - block_idx, as for the producer.
  auto r = check(two_tasks(StrideFeeder<0>{}, StrideEater<0, 3>{}));
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
}

// ---- 2. Named runtime values ----
struct NamedFeeder {
  template <class S, class X>
  TS_HD void operator()(S& s, X& x) const {
    s.domain_loop(0, ts::runtime(12, "tiles"), 1, [&](auto&) { x.acquire(); ts::work<&Buf::put>(x); x.commit(); });
  }
};
template <bool kSameName>
struct NamedEater {
  template <class S, class X>
  TS_HD void operator()(S& s, X& x) const {
    auto end = kSameName ? ts::runtime(12, "tiles") : ts::runtime(11, "tiles_left");
    s.domain_loop(0, end, 1, [&](auto&) { x.wait(); ts::work<&Buf::take>(x); x.release(); });
  }
};

TEST(CheckLengths, DifferentlyNamedRuntimeLengthsAreUnsafe) {
  auto r = check(two_tasks(NamedFeeder{}, NamedEater<false>{}));
  expect_mismatch(r, "tiles", "tiles_left");
}

TEST(CheckLengths, RequestedLengthsAreCombinedPerClass) {
  // Options::check_lengths replaces the 1..4 range: (2, 2) passes, (2, 3) deadlocks.
  auto m = two_tasks(NamedFeeder{}, NamedEater<false>{});
  m.options.check_lengths = {2, 3};
  auto r = ts::check::run_exhaustive(m);
  ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
  EXPECT_NE(r.report.find("Summary (k=(2, 2)"), std::string::npos) << r.report;
  EXPECT_NE(r.report.find("lengths {2, 3} in every combination"), std::string::npos) << r.report;
  EXPECT_NE(r.failure->detail.find("Producer's domain loop (tiles) has length 2, Consumer's (tiles_left) length 3"),
            std::string::npos)
      << r.failure->detail;
  EXPECT_NE(r.failure_json.find("\"class_lengths\": [2, 3]"), std::string::npos) << r.failure_json;
}

TEST(CheckLengths, SameNamedRuntimeLengthsAreSafeForEveryK) {
  auto r = check(two_tasks(NamedFeeder{}, NamedEater<true>{}));
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
}

struct ElevenTiles {
  template <class S, class X>
  TS_HD void operator()(S& s, X& x) const {
    s.domain_loop(0, ts::runtime(11, "tiles"), 1, [&](auto&) { x.wait(); ts::work<&Buf::take>(x); x.release(); });
  }
};

TEST(CheckLengths, OneRuntimeNameWithTwoValuesIsACaptureError) {
  try {
    two_tasks(NamedFeeder{}, ElevenTiles{});
    FAIL() << "expected a CaptureError";
  } catch (ts::CaptureError const& e) {
    auto const& d = e.diagnostic();
    EXPECT_EQ(d.check, "capture.runtime-name-values");
    EXPECT_EQ(d.task, "Consumer");
    std::string msg = d.format();
    for (char const* part : {"\"tiles\"", "Producer", "Consumer", "12", "11"})
      EXPECT_NE(msg.find(part), std::string::npos) << part << " missing in: " << msg;
    EXPECT_EQ(d.expected, "12 (as in task Producer)");
    EXPECT_EQ(d.actual, "11");
  }
}

// ---- 3. Per-tile bounds: the same provider method, with or without an offset ----
}  // namespace
namespace lengths_test {  // named, so the provider prints the same with every compiler
struct Chunks : ts::MemoryResource {
  TS_HD long long chunks(ts::WorkTile const& t) const { return 2 + t.tile_idx; }
};
}  // namespace lengths_test
namespace {
using lengths_test::Chunks;
struct TileFeeder {
  template <class S, class Q, class C, class X>
  TS_HD void operator()(S& s, Q& q, C& c, X& x) const {
    s.work_tile_loop(q, [&](auto&) {
      s.domain_loop(0, ts::per_tile<&Chunks::chunks>(c), 1, [&](auto&) { x.acquire(); ts::work<&Buf::put>(x); x.commit(); });
      q.get_and_advance_work_tile();
    });
  }
};
template <int kExtra>
struct TileEater {
  template <class S, class Q, class C, class X>
  TS_HD void operator()(S& s, Q& q, C& c, X& x) const {
    s.work_tile_loop(q, [&](auto&) {
      s.domain_loop(0, ts::per_tile<&Chunks::chunks>(c) + kExtra, 1,
                    [&](auto&) { x.wait(); ts::work<&Buf::take>(x); x.release(); });
      q.get_and_advance_work_tile();
    });
  }
};
template <int kExtra>
ts::Model per_tile_model() {
  auto q = ts::resource("queue", Queue{{2, 0}});
  auto c = ts::resource("chunks", Chunks{});
  auto x = ts::resource("x", Buf{}, ts::PipelineConfig::async_async({.num_stages = 2}));
  auto in = ts::resource("in", Buf{});
  auto p = ts::Task("Producer").warps(0, 1).reads(q, c, in).writes(x).schedule(TileFeeder{}, q, c, x);
  auto e = ts::Task("Consumer").warps(1, 1).reads(q, c, x).writes(in).schedule(TileEater<kExtra>{}, q, c, x);
  return ts::TaskManager(ts::tasks(p, e), ts::DependencyGraph{{x, {in, q, c}}, {in, {x}}}, opts()).model();
}

TEST(CheckLengths, PerTileBoundsOfDifferentOffsetsAreUnsafe) {
  auto r = check(per_tile_model<1>());
  expect_mismatch(r, "lengths_test::Chunks::chunks(tile)", "lengths_test::Chunks::chunks(tile) + 1");
}

TEST(CheckLengths, PerTileBoundsOfOneProviderAreSafeForEveryK) {
  auto r = check(per_tile_model<0>());
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
}

}  // namespace
