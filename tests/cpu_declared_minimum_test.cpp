// A declared minimum (ts::at_least) is a premise of the proof: the checker proves the
// schedule only for loop lengths from it. Capture refuses a value below it
// (check_zero_length_test.cpp); a value that arrives only at run time, per tile or from
// launch data, is checked by the executing context at the loop's entry.
//
// The schedules below are the GEMM's lagged release: the consumer releases each stage one
// iteration late and the last one after the loop, so a stage is given back only once the
// next one is in hand. SAFE for every length >= 1 (CheckZeroLength.DeclaredMinimumProvesFromOne);
// a length of 0 releases a stage that was never waited for: the producer then sees a free
// stage the consumer still reads, a run the proof does not cover. Before the executing
// contexts checked the minimum, both runs below ended without an error on the emulator
// (the bounds passed as plain integers: the extra release went unnoticed).
#include <iostream>
#include <string>

#include "cpu_test_util.hpp"
// after gtest
#include "check_fixtures.hpp"

namespace minimum_test {  // named, so the provider prints the same with every compiler
// Two blocks per tile but for tile 1, whose sequence is empty.
struct Blocks : ts::MemoryResource {
  int empty_tile = 1;
  TS_HD long long blocks(ts::WorkTile const& t) const { return t.tile_idx == empty_tile ? 0 : 2; }
};
// A ring whose launch value is read through a pointer: capture sees the value then, the
// run sees it now.
struct LaunchRing : ts::MemoryResource {
  int const* blocks = nullptr;
  TS_HD void put(ts::ProducerStage const&) const {}
  TS_HD void take(ts::ConsumerStage const&) const {}
};
}  // namespace minimum_test

namespace {
using namespace chk;
using minimum_test::Blocks;
using minimum_test::LaunchRing;

template <class B>
TS_HD auto tile_bound(B& b) {
  return ts::at_least(1, ts::per_tile<&Blocks::blocks>(b));
}

struct Producer {
  template <class S, class Q, class B, class X>
  TS_HD void operator()(S& s, Q& q, B& b, X& x) const {
    s.work_tile_loop(q, [&](auto&) {
      s.domain_loop(0, tile_bound(b), 1, [&](auto&) { x.acquire(); ts::work<&Buf::put>(x); x.commit(); });
      q.get_and_advance_work_tile();
    });
  }
};
struct LaggedConsumer {
  template <class S, class Q, class B, class X>
  TS_HD void operator()(S& s, Q& q, B& b, X& x) const {
    s.work_tile_loop(q, [&](auto&) {
      s.domain_loop(0, tile_bound(b), 1, [&](auto& it) {
        x.wait();
        ts::work<&Buf::take>(x);
        it.every(1, 1, [&] { x.release(); });  // the previous stage, from the second iteration on
      });
      x.release();  // the last stage
      q.get_and_advance_work_tile();
    });
  }
};

TEST(CpuDeclaredMinimum, PerTileBoundBelowItsMinimumStopsAtTheLoop) {
  auto q = ts::resource("queue", Queue{{3, 0}});
  auto b = ts::resource("blocks", Blocks{});
  auto x = ts::resource("x", Buf{}, ts::PipelineConfig::async_async({.num_stages = 2}));
  auto p = ts::Task("Producer").warps(0, 1).reads(q, b).writes(x).schedule(Producer{}, q, b, x);
  auto c = ts::Task("Consumer").warps(1, 1).reads(q, b, x).schedule(LaggedConsumer{}, q, b, x);
  auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{x, {q, b}}}, opts());
  auto rep = tm.print_and_verify();
  ASSERT_EQ(rep.verdict, ts::Verdict::SafeAllK) << rep.checker_text;  // every length >= 1
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    try {
      ts::cpu::run(tm, {.grid_blocks = 1, .seed = seed});
      ADD_FAILURE() << "expected an EmulationError (seed " << seed << ")";
    } catch (ts::cpu::DeadlockError const& e) {
      ADD_FAILURE() << "the run hung instead of stopping at the loop (seed " << seed << "): " << e.what();
    } catch (ts::cpu::EmulationError const& e) {
      std::string what = e.what();
      for (char const* part : {"domain_loop bound ts::at_least(1, ...) is 0, below its declared minimum 1", "outside its proof"})
        EXPECT_NE(what.find(part), std::string::npos) << part << " missing in: " << what;
      if (seed == 1) std::cout << what << "\n";  // the message, for the log
      // Whichever task reaches its loop first is named, with the step it stands at.
      EXPECT_TRUE(what.find("Producer") != std::string::npos || what.find("Consumer") != std::string::npos) << what;
    }
  }
}

// Near miss: every tile has its two blocks; the same schedule runs clean.
TEST(CpuDeclaredMinimum, PerTileBoundAtItsMinimumOrAboveRuns) {
  auto q = ts::resource("queue", Queue{{3, 0}});
  auto b = ts::resource("blocks", Blocks{{}, -1});
  auto x = ts::resource("x", Buf{}, ts::PipelineConfig::async_async({.num_stages = 2}));
  auto p = ts::Task("Producer").warps(0, 1).reads(q, b).writes(x).schedule(Producer{}, q, b, x);
  auto c = ts::Task("Consumer").warps(1, 1).reads(q, b, x).schedule(LaggedConsumer{}, q, b, x);
  auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{x, {q, b}}}, opts());
  tm.print_and_verify();
  for (uint64_t seed = 1; seed <= 4; ++seed) EXPECT_NO_THROW(ts::cpu::run(tm, {.grid_blocks = 1, .seed = seed}));
}

// ts::runtime(v, "name").at_least(m) whose value changed between capture and run.
template <class X>
TS_HD auto launch_bound(X& x) {
  return ts::runtime(*x->blocks, "blocks").at_least(1);
}
struct LaunchProducer {
  template <class S, class X>
  TS_HD void operator()(S& s, X& x) const {
    s.domain_loop(0, launch_bound(x), 1, [&](auto&) {
      x.acquire();
      ts::work<&LaunchRing::put>(x);
      x.commit();
    });
  }
};
struct LaunchConsumer {
  template <class S, class X>
  TS_HD void operator()(S& s, X& x) const {
    s.domain_loop(0, launch_bound(x), 1, [&](auto& it) {
      x.wait();
      ts::work<&LaunchRing::take>(x);
      it.every(1, 1, [&] { x.release(); });
    });
    x.release();
  }
};
TEST(CpuDeclaredMinimum, RuntimeValueBelowItsMinimumAtRunStopsAtTheLoop) {
  int blocks = 3;
  auto x = ts::resource("x", LaunchRing{{}, &blocks}, ts::PipelineConfig::async_async({.num_stages = 2}));
  auto p = ts::Task("Producer").warps(0, 1).writes(x).schedule(LaunchProducer{}, x);
  auto c = ts::Task("Consumer").warps(1, 1).reads(x).schedule(LaunchConsumer{}, x);
  auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{x, {}}}, opts());
  auto rep = tm.print_and_verify();
  ASSERT_EQ(rep.verdict, ts::Verdict::SafeAllK) << rep.checker_text;
  EXPECT_NO_THROW(ts::cpu::run(tm, {.grid_blocks = 1, .seed = 1}));  // 3, as captured
  blocks = 0;
  try {
    ts::cpu::run(tm, {.grid_blocks = 1, .seed = 1});
    ADD_FAILURE() << "expected an EmulationError";
  } catch (ts::cpu::DeadlockError const& e) {
    ADD_FAILURE() << "the run hung instead of stopping at the loop: " << e.what();
  } catch (ts::cpu::EmulationError const& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("domain_loop bound ts::runtime(..., \"blocks\").at_least(1) is 0, below its declared minimum 1"), std::string::npos) << what;
  }
}

}  // namespace
