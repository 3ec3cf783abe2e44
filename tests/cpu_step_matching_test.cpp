// The emulator names every step a thread executes by the task's recorded IR step: reports,
// traces and the replay of a checker's counterexample all go by that number. It matches
// the executing (kind, resource, method) to the next such step in program order, which
// cannot tell two steps of the same kind apart when a guard skips the first: the GEMM's
// lagged release (a release guarded inside the K loop, another after it) with a loop of one
// iteration took the release after the loop for the guarded one inside it, so the trace
// named a step that never ran and a replayed counterexample through it diverged. The
// executing context now tells the emulator where each loop iteration starts and where the
// loop ends (Emulator::on_loop), and matching restarts there.
#include <initializer_list>
#include <string>
#include <vector>

#include "cpu_test_util.hpp"
// after gtest
#include "check_fixtures.hpp"

namespace step_matching_test {
struct Ring : ts::MemoryResource {
  int const* blocks = nullptr;
  TS_HD void put(ts::ProducerStage const&) const {}
  TS_HD void take(ts::ConsumerStage const&) const {}
};
}  // namespace step_matching_test

namespace {
using namespace chk;
using step_matching_test::Ring;

template <class X>
TS_HD auto blocks_of(X& x) {
  return ts::runtime(*x->blocks, "blocks").at_least(1);
}
struct Producer {
  template <class S, class X>
  TS_HD void operator()(S& s, X& x) const {
    s.domain_loop(0, blocks_of(x), 1, [&](auto&) {
      x.acquire();
      ts::work<&Ring::put>(x);
      x.commit();
    });
  }
};
struct LaggedConsumer {
  template <class S, class X>
  TS_HD void operator()(S& s, X& x) const {
    s.domain_loop(0, blocks_of(x), 1, [&](auto& it) {
      x.wait();
      ts::work<&Ring::take>(x);
      it.every(1, 1, [&] { x.release(); });  // the previous stage, from the second iteration on
    });
    x.release();  // the last stage
  }
};

// The consumer's release steps in the IR: the guarded one inside the loop, then the one after it.
template <class TM>
std::vector<int> release_steps(TM const& tm, int task) {
  std::vector<int> ids;
  for (auto const& s : tm.model().tasks[task].schedule.steps)
    if (s.kind == ts::SyncOp::Release) ids.push_back(s.id);
  return ids;
}

// How often each of the consumer's steps ran, by the emulator's trace.
template <class TM>
std::vector<int> consumer_step_counts(TM& tm, uint64_t seed) {
  auto stats = ts::cpu::run(tm, {.grid_blocks = 1, .seed = seed, .trace = true});
  std::vector<int> counts(tm.model().tasks[1].schedule.steps.size(), 0);
  for (auto const& e : stats.steps.events)
    if (e.task == 1 && e.step >= 0) ++counts[e.step];
  return counts;
}

// Runs producer P and consumer C under each value of the loop bound and three seeds, and
// checks how often the consumer's two releases ran: inside(value) times the one inside
// the loop, once the one after it.
template <class P, class C, class Inside>
void expect_release_counts(std::initializer_list<int> values, Inside inside) {
  for (int value : values) {
    auto x = ts::resource("x", Ring{{}, &value}, ts::PipelineConfig::async_async({.num_stages = 2}));
    auto p = ts::Task("Producer").warps(0, 1).writes(x).schedule(P{}, x);
    auto c = ts::Task("Consumer").warps(1, 1).reads(x).schedule(C{}, x);
    auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{x, {}}}, opts());
    ASSERT_EQ(tm.print_and_verify().verdict, ts::Verdict::SafeAllK);
    auto rel = release_steps(tm, 1);
    ASSERT_EQ(rel.size(), 2u);
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      auto counts = consumer_step_counts(tm, seed);
      EXPECT_EQ(counts[rel[0]], inside(value)) << "release inside the loop, bound " << value << ", seed " << seed;
      EXPECT_EQ(counts[rel[1]], 1) << "release after the loop, bound " << value << ", seed " << seed;
    }
  }
}

// The guarded release runs from the second iteration on, the one after the loop once.
TEST(CpuStepMatching, ReleaseAfterAOneIterationLoopIsNotTheGuardedOneInside) {
  expect_release_counts<Producer, LaggedConsumer>({1, 2, 3}, [](int blocks) { return blocks - 1; });
}

// A loop that may run no iteration: a release inside it and one after it. With no
// iteration the thread goes from the wait before the loop to the release after it; before
// the loop edges that release was taken for the one inside the loop.
template <class X>
TS_HD auto rounds_of(X& x) {
  return ts::runtime(*x->blocks, "rounds");  // from 0
}
struct EagerProducer {
  template <class S, class X>
  TS_HD void operator()(S& s, X& x) const {
    x.acquire();
    ts::work<&Ring::put>(x);
    x.commit();
    s.domain_loop(0, rounds_of(x), 1, [&](auto&) {
      x.acquire();
      ts::work<&Ring::put>(x);
      x.commit();
    });
  }
};
struct EagerConsumer {
  template <class S, class X>
  TS_HD void operator()(S& s, X& x) const {
    x.wait();
    ts::work<&Ring::take>(x);
    s.domain_loop(0, rounds_of(x), 1, [&](auto&) {
      x.release();
      x.wait();
      ts::work<&Ring::take>(x);
    });
    x.release();
  }
};

TEST(CpuStepMatching, ReleaseAfterALoopOfNoIterationIsNotTheOneInside) {
  expect_release_counts<EagerProducer, EagerConsumer>({0, 1, 2}, [](int rounds) { return rounds; });
}

// Two domain loops one after another in the tile body (as the ping-pong GEMM's producer
// has), each with a lagged release: the loop edges do not say which loop, so until stop 38
// such a task was matched by program order alone and, with loops of one iteration, the
// release after each loop was taken for the guarded one inside it. The emulator now counts
// the domain loops a thread has finished in the tile; each sits directly in the tile body,
// so that count names the loop.
struct TwoLoopProducer {
  template <class S, class Q, class X, class Y>
  TS_HD void operator()(S& s, Q& q, X& x, Y& y) const {
    s.work_tile_loop(q, [&](auto&) {
      s.domain_loop(0, blocks_of(x), 1, [&](auto&) { x.acquire(); ts::work<&Ring::put>(x); x.commit(); });
      s.domain_loop(0, blocks_of(x), 1, [&](auto&) { y.acquire(); ts::work<&Ring::put>(y); y.commit(); });
      q.get_and_advance_work_tile();
    });
  }
};
struct TwoLoopLaggedConsumer {
  template <class S, class Q, class X, class Y>
  TS_HD void operator()(S& s, Q& q, X& x, Y& y) const {
    s.work_tile_loop(q, [&](auto&) {
      s.domain_loop(0, blocks_of(x), 1, [&](auto& it) {
        x.wait();
        ts::work<&Ring::take>(x);
        it.every(1, 1, [&] { x.release(); });
      });
      x.release();
      s.domain_loop(0, blocks_of(x), 1, [&](auto& it) {
        y.wait();
        ts::work<&Ring::take>(y);
        it.every(1, 1, [&] { y.release(); });
      });
      y.release();
      q.get_and_advance_work_tile();
    });
  }
};

TEST(CpuStepMatching, ReleaseAfterEachOfTwoLoopsInATileIsNotTheGuardedOneInside) {
  constexpr int kTiles = 2;
  for (int value : {1, 2, 3}) {
    auto q = ts::resource("queue", Queue{{kTiles, 0}});
    auto x = ts::resource("x", Ring{{}, &value}, ts::PipelineConfig::async_async({.num_stages = 2}));
    auto y = ts::resource("y", Ring{{}, &value}, ts::PipelineConfig::async_async({.num_stages = 2}));
    auto p = ts::Task("Producer").warps(0, 1).reads(q).writes(x, y).schedule(TwoLoopProducer{}, q, x, y);
    auto c = ts::Task("Consumer").warps(1, 1).reads(q, x, y).schedule(TwoLoopLaggedConsumer{}, q, x, y);
    auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{x, {q}}, {y, {q}}}, opts());
    // SAFE at the lengths checked: the two loops share the tile's loop slot, whose origin
    // the parametric proof may not move until a task's last loop starts (docs/checker.md,
    // "Several domain loops in a tile"), and the consumer's first loop runs far ahead of
    // the producer's second.
    auto const verdict = tm.print_and_verify().verdict;
    ASSERT_TRUE(verdict == ts::Verdict::Safe || verdict == ts::Verdict::SafeAllK);
    auto rel = release_steps(tm, 1);  // x inside, x after, y inside, y after
    ASSERT_EQ(rel.size(), 4u);
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      auto counts = consumer_step_counts(tm, seed);
      for (int loop = 0; loop < 2; ++loop) {
        EXPECT_EQ(counts[rel[2 * loop]], kTiles * (value - 1))
            << "release inside loop " << loop << ", bound " << value << ", seed " << seed;
        EXPECT_EQ(counts[rel[2 * loop + 1]], kTiles)
            << "release after loop " << loop << ", bound " << value << ", seed " << seed;
      }
    }
  }
}

}  // namespace
