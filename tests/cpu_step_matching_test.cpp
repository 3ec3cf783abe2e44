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

}  // namespace
