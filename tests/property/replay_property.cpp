// The replay property, one function for every property that replays counterexamples
// (Emulator.*, WarpLanes.*), so a tolerance added for one shape lands in all of them.
#include <rapidcheck.h>

#include <sstream>

#include "checker_runs.hpp"
#include "counterexample_choices.hpp"
#include "known_bugs.hpp"
#include "manager.hpp"
#include "replay.hpp"
#include "runtime_choices.hpp"
#include "ts/runtime/cpu/counterexample_replay.hpp"

namespace prop {

namespace {
bool uses_conditions(Program const& p) {
  for (int t = 0; t < int(p.tasks.size()); ++t)
    if (task_use(p, t).flags) return true;
  return false;
}

// The ring of "TMA commit without TMA work: T1 runs m1.commit() ...", or -1.
int tma_ring_of(std::string const& detail) {
  auto at = detail.find(" runs m");
  return at == std::string::npos ? -1 : detail[at + 7] - '0';
}
bool waits_on(std::vector<Node> const& nodes, int r) {
  for (auto const& n : nodes)
    if ((n.op == Op::Wait && n.res == r) || waits_on(n.body, r)) return true;
  return false;
}
// A task that asks one key in two condition blocks: the checker takes each ask of a key
// no other task shares as a free outcome, while the generated work bodies answer one value
// per (key, iteration, tile), so a counterexample with two outcomes cannot be replayed.
void count_keys(std::vector<Node> const& nodes, std::vector<int>& seen) {
  for (auto const& n : nodes) {
    if ((n.op == Op::WhenTrue || n.op == Op::WhenFalse) && n.key >= 0) {
      if (int(seen.size()) <= n.key) seen.resize(size_t(n.key) + 1, 0);
      ++seen[size_t(n.key)];
    }
    count_keys(n.body, seen);
  }
}
// A key asked in a tile's second domain loop is another key, for the checker ("(domain
// loop 2)") as for the work bodies (Mem::more0_loop2 ...), so it is counted apart.
bool asks_a_key_twice(Program const& p) {
  for (auto const& t : p.tasks) {
    std::vector<int> seen, seen_in_loop2;
    auto lists = t.lists();
    for (int l = 0; l < int(lists.size()); ++l)
      count_keys(*lists[l], TaskProgram::loop_of_list(l) == 2 ? seen_in_loop2 : seen);
    for (auto const* v : {&seen, &seen_in_loop2})
      for (int k : *v)
        if (k > 1) return true;
  }
  return false;
}
bool waited_on(Program const& p, int r) {
  for (auto const& t : p.tasks)
    for (auto const* list : t.lists())
      if (waits_on(*list, r)) return true;
  return false;
}

}  // namespace

namespace {
bool skips(std::vector<Node> const& nodes) {
  for (auto const& n : nodes)
    if (n.op == Op::Skip || skips(n.body)) return true;
  return false;
}
bool has_skip(Program const& p) {
  for (auto const& t : p.tasks)
    for (auto const* list : t.lists())
      if (skips(*list)) return true;
  return false;
}

}  // namespace

std::string flavors(Program const& p) {
  bool tma = false, mma = false;
  for (auto const& m : p.mem) {
    tma |= m.pipe == PipeKind::TmaAsync || m.pipe == PipeKind::TmaUmma;
    mma |= m.pipe == PipeKind::TmaUmma;
  }
  std::string f = mma ? "tma+mma" : tma ? "tma" : "async only";
  if (has_skip(p)) f += ", turns";
  if (p.per_tile_bound) f += ", per-tile bound";
  if (p.loop == LoopKind::TilesOfTwoDomains) return f + ", two loops in a tile loop";
  return p.loop == LoopKind::TilesOfDomain ? f + ", in a tile loop" : f;
}


bool only_checker_verdicts(std::string const& what) {
  for (size_t at = what.find("error ["); at != std::string::npos; at = what.find("error [", at + 1))
    if (what.compare(at + 7, 5, "S6.9.") != 0) return false;
  return what.find("error [") != std::string::npos;
}

bool refused_by_static_checks(Program const& p) {
  ts::Options strict = quiet_options();
  strict.throw_on_unsafe = false;
  bool refused = false;
  with_manager(p, strict, [&](auto& tm) {
    std::ostringstream out;
    try {
      tm.print_and_verify(out);
    } catch (std::exception const&) {
      refused = true;
    }
  });
  return refused;
}

void counterexample_replays_to_the_same_failure(Program p) {
  auto first = check(model_of(p), true);
  RC_TAG(verdict_name(first.verdict), first.kind);
  if (!first.unsafe()) return;
  // How long a run the failure needs: k = 0 (a loop that runs no iteration) and more than
  // two tiles are what the checker's every-length and every-tile-count searches add.
  RC_TAG(flavors(p));
  if (runtime_length(p.loop)) RC_TAG(first.length == 0 ? "k=0" : first.length > 2 ? "k>2" : "k=1..2");
  if (has_tile_loop(p.loop)) RC_TAG(first.tiles == 0 ? "tiles=0" : first.tiles > 2 ? "tiles>2" : "tiles=1..2");
  // Counterexamples with conditions replay too: choices_of pins every condition outcome
  // the checker's run took, per key and iteration (domain loops) or tile (tile loops),
  // shared keys included (one entry per key serves every task reading it).
  if (uses_conditions(p)) RC_TAG("with conditions");
  // Harness limit: the emulator runs every task at one value of "n", so a counterexample
  // whose length classes have different lengths (a late-starting task) cannot be set up.
  if (p.late_start_task >= 0) {
    RC_TAG("not replayed: per-class lengths");
    return;
  }
  // A schedule the static checks refuse makes no claim the replay could test (e.g. work
  // outside its brackets, S6.6: the emulator then sees a data race the checker, which
  // assumes bracketed work, does not model).
  if (refused_by_static_checks(p)) {
    RC_TAG("static checks refuse");
    return;
  }
  // The emulator runs the counterexample's length: a longer loop could go on to finish
  // what the checker's run left blocked.
  if (runtime_length(p.loop) && first.length >= 0) p.length = int(first.length);
  // ... and its tile count (the checker proves every count; its run names the fewest).
  if (has_tile_loop(p.loop) && first.tiles >= 0) p.tiles = first.tiles;
  ts::Options o = quiet_options();
  o.warning_mode = true;  // an UNSAFE manager may still run, to replay
  with_manager(p, o, [&](auto& tm) {
    std::ostringstream out;
    auto rep = tm.print_and_verify(out);
    RC_ASSERT(rep.verdict == ts::Verdict::Unsafe);
    auto const& cex = *tm.last_counterexample();
    RC_ASSERT(cex.length == first.length);
    RC_ASSERT(cex.tiles == first.tiles);
    if (cex.kind == "unbalanced") {  // ends without an error the emulator could raise
      RC_TAG("unbalanced (no emulator error to compare)");
      return;
    }
    // Emulator gap (docs/turns.md, "What the emulator does not see"): a turn-taker's wait
    // two phases ahead passes at once on the old phase, on the emulator as on hardware,
    // and nothing there tells it from a proper pass; the run goes on to whatever follows
    // (garbage, a deadlock, an over-arrival). Not replayed.
    if (cex.kind == "race" && cex.detail.rfind("parity aliasing", 0) == 0) {
      RC_TAG("not replayed: parity aliasing");
      return;
    }
    // Emulator gap, not a checker bug (Regression.EmulatorRecordsAnMmaReadAtItsIssue): the
    // emulator records an MMA's SMEM read when it is issued, by the issuing thread, so a
    // write after the issue (before the MMA engine ran it) is no race there. Races with a
    // read by the asynchronous MMA engine are not replayed.
    if (kEmulatorRecordsMmaReadsAtIssue && cex.kind == "race" &&
        cex.detail.find("read by the asynchronous engine") != std::string::npos) {
      RC_TAG("not replayed: MMA engine read race");
      return;
    }
    // An empty TMA commit on a ring no task ever waits on hangs nobody: the checker names
    // the hang ("any task waiting on that stage ... would hang"), the emulator's run ends
    // with the barrier armed and raises nothing (like "unbalanced", whose credits it is).
    if (cex.detail.rfind("TMA commit without TMA work", 0) == 0 && !waited_on(p, tma_ring_of(cex.detail))) {
      RC_TAG("not replayed: empty TMA commit, no waiter");
      return;
    }
    runtime_choices() = choices_of(p, cex);
    RC_LOG() << "checker:\n" << rep.checker_text << "\n" << tm.last_counterexample_json() << "\n";
    std::string said;
    auto got = emulator_failure([&] { ts::cpu::replay_counterexample(tm, {.seed = 1, .detect_races = true}); }, &said);
    RC_LOG() << said << "\n";
    // The checker's run of an empty TMA commit ends at the commit (the hang is sure from
    // there, and the checker expands no state past a failure); the emulator then runs on
    // unforced and may meet another failure first, e.g. a PDL launch the committing task
    // makes after the commit, which no checker run reaches. Any failure it raises is
    // accepted; a clean run is not.
    // The same for a stage left without a copy (reported at the acquire that makes it sure).
    if (cex.detail.rfind("TMA commit without TMA work", 0) == 0 || cex.detail.rfind("TMA stage left without a copy", 0) == 0) {
      // Known checker imprecision: the empty commit is reported as a hang whether or not a
      // task of the run goes on to wait on that stage (its waiter under a condition, or
      // past its last wait): then nothing hangs and the replay runs clean
      // (Regression.EmptyTmaCommitThatNoTaskOfTheRunWaitsOnIsNoHang).
      if (got == "" && kAvoidKnownBugs.empty_tma_commit_without_waiter) {
        RC_TAG("empty TMA commit: no waiter in the replayed run");
        return;
      }
      RC_TAG("replayed: empty TMA commit");
      RC_ASSERT(got != "");
      return;
    }
    // Known checker gap: a parametric failure with no concrete run (its events name no
    // iteration), so no condition outcome could be pinned per iteration.
    if (got != cex.kind && cex.length < 0 && kParametricFailureWithoutConcreteRun) {
      RC_TAG("not replayed: parametric run, no concrete witness");
      return;
    }
    // Harness limit: a failure of a per-tile bound that no single length shows is reported
    // as the parametric run, which says no tile's length (its events carry no iteration);
    // the emulator runs one length in every tile here.
    if (got != cex.kind && cex.length < 0 && p.per_tile_bound) {
      RC_TAG("not replayed: per-tile lengths, parametric run");
      return;
    }
    if (got != cex.kind && asks_a_key_twice(p)) {
      RC_TAG("not replayed: a task asks one key twice");
      return;
    }
    // Documented conservative model (docs/checker.md, "Other gaps"): a wait-only task
    // holding several stages is taken to read all of them until its last consumer work
    // (and a read under a condition as possible), so the checker may call a write into a
    // reused stage a race where the read already ended; the replay then runs clean. Any
    // failure the replay does raise must still be a race.
    if (got == "" && cex.kind == "race" && cex.detail.rfind("stage reuse race", 0) == 0) {
      RC_TAG("stage reuse race: replay clean (conservative wait-only read)");
      return;
    }
    RC_TAG("replayed: " + cex.kind);
    RC_ASSERT(got == cex.kind);
  });
}

}  // namespace prop
