// Seed reproducibility and replay of a forced interleaving at schedule-step granularity.
#include "copy/copy_examples.hpp"
#include "cpu_test_util.hpp"

using namespace cpu_test;

TEST(CpuSeeds, SameSeedSameInterleaving) {
  auto once = [](uint64_t seed) {
    examples::CopyBuffers b(500);
    auto tm = examples::make_pipelined_copy(b, quiet());
    tm.print_and_verify();
    return ts::cpu::run(tm, {.grid_blocks = 2, .resident_blocks = 1, .seed = seed}).trace;
  };
  auto a = once(11), b = once(11), c = once(12);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

namespace {
struct Log : ts::MemoryResource {
  std::vector<std::pair<int, long long>>* log = nullptr;
  void note(ts::AuxStage const& si) const {
    if (si.thread.lane() == 0) log->emplace_back(si.thread.block_threads > 0 ? si.thread.thread_in_block / 32 : 0,
                                                 si.loop_offset);
  }
};
struct Noter {
  template <class S, class L>
  void operator()(S& s, L& l) const {
    s.domain_loop(0, 3, 1, [&](auto&) { ts::work<&Log::note>(l); });
  }
};

int note_step(ts::Model const& m, int task) {
  for (auto const& st : m.tasks[task].schedule.steps)
    if (st.kind == ts::SyncOp::Work) return st.id;
  return -1;
}
}  // namespace

TEST(CpuReplay, ForcesTheEventOrder) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    std::vector<std::pair<int, long long>> log;
    auto l = ts::resource("log", Log{{}, &log});
    auto a = ts::Task("A").warps(0, 1).writes(l).schedule(Noter{}, l);
    auto b = ts::Task("B").warps(1, 1).writes(l).schedule(Noter{}, l);
    auto tm = ts::TaskManager(ts::tasks(a, b), ts::DependencyGraph{{l, {}}}, quiet());
    tm.print_and_verify();
    int sa = note_step(tm.model(), 0), sb = note_step(tm.model(), 1);
    // B's iteration i before A's iteration i, alternating.
    std::vector<ts::cpu::ReplayEvent> ev;
    for (int i = 0; i < 3; ++i) {
      ev.push_back({0, 1, sb, i});
      ev.push_back({0, 0, sa, i});
    }
    auto st = ts::cpu::replay(tm, ev, {.seed = seed});
    EXPECT_EQ(st.replay_events, 6);
    std::vector<std::pair<int, long long>> want = {{1, 0}, {0, 0}, {1, 1}, {0, 1}, {1, 2}, {0, 2}};
    EXPECT_EQ(log, want) << "seed " << seed;
  }
}

TEST(CpuReplay, ImpossibleOrderIsADeadlockAndMissingEventsDiverge) {
  examples::CopyBuffers b(64);
  auto tm = examples::make_pipelined_copy(b, quiet());
  tm.print_and_verify();
  auto const& m = tm.model();
  auto step = [&](int task, ts::SyncOp k) {
    for (auto const& s : m.tasks[task].schedule.steps)
      if (s.kind == k) return s.id;
    return -1;
  };
  // The consumer's first release before the producer's first commit cannot happen.
  std::vector<ts::cpu::ReplayEvent> bad = {{0, 1, step(1, ts::SyncOp::Release), 0},
                                           {0, 0, step(0, ts::SyncOp::Commit), 0}};
  expect_error<ts::cpu::DeadlockError>([&] { ts::cpu::replay(tm, bad, {.seed = 1}); }, {"replay event 1", "ring.wait()"});
  // As a whole run, the steps it does not list (both tasks' first) are held until it
  // ends, which never comes: the replay diverged (no DeadlockError, which a replayed
  // deadlock counterexample would take for the checker's deadlock).
  try {
    ts::cpu::replay(tm, bad, {.seed = 1}, ts::cpu::UnlistedSteps::WaitUntilReplayed);
    ADD_FAILURE() << "expected replay diverged";
  } catch (ts::cpu::DeadlockError const& e) {
    ADD_FAILURE() << "a diverged whole-run replay reported as a deadlock: " << e.what();
  } catch (ts::cpu::EmulationError const& e) {
    std::string what = e.what();
    for (char const* part : {"replay diverged: event 0", "every thread blocked before it", "held until the replayed run ends",
                             "event 0 has not happened", "ring.wait()"})
      EXPECT_NE(what.find(part), std::string::npos) << part << " missing in: " << what;
  }
  std::vector<ts::cpu::ReplayEvent> missing = {{0, 0, step(0, ts::SyncOp::Commit), 99}};
  expect_error<ts::cpu::EmulationError>([&] { ts::cpu::replay(tm, missing, {.seed = 1}); }, {"replay diverged"});
}
