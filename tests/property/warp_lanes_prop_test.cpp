// Warp-lane interleaving (docs/warp-lanes.md) in random schedules: every recipe's first
// ring gets one side in warp-lane mode (stride 2, its task two warps, each one lane) and
// the other side two ops per lane op, before the mutations; drops, duplicates, swaps and
// other stage counts then make the unsafe shapes (a lane op with one stage missing, a
// stride that does not divide the stages). The checker's modes must agree with each
// other, SAFE schedules must run clean on the emulator (where each warp really starts at
// its own stage), and UNSAFE counterexamples must replay to the same failure.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "checker_runs.hpp"
#include "generators.hpp"
#include "known_bugs.hpp"
#include "manager.hpp"
#include "mode_properties.hpp"
#include "replay.hpp"
#include "safe_runs.hpp"

namespace {
using namespace prop;

// The first ring's `side` in warp-lane mode. Shapes other rules refuse are left out, so
// the cases test the lane arithmetic: an engine that signals per task (a TMA producer, an
// MMA consumer) on the lane side, splits and turns (their own properties), and scratch
// buffers (a 2-warp task's scribble would race between its own warps).
Recipe with_warp_lanes(Recipe r, bool producer_side) {
  if (r.pipes.empty()) r.pipes.push_back({});
  // At most three tasks and two rings keep each property within 300 s at 1000 cases for
  // most seeds (ctest allows 900; a lane ring's other side makes two stage ops per op:
  // deeper interleavings).
  r.tasks = std::min(r.tasks, 3);
  if (r.pipes.size() > 2) r.pipes.resize(2);
  for (auto& pr : r.pipes) {
    pr.split = Split::None;
    pr.scratch = Scratch::None;
  }
  auto& pr = r.pipes[0];
  pr.warp_lane = producer_side ? WarpLane::Producer : WarpLane::Consumer;
  pr.stages = 2;  // the stride divides it; the StageCount mutation makes 3 (refused) and 1
  if (pr.guard == Guard::Accumulator || pr.guard == Guard::PerTile) pr.guard = Guard::None;
  if (producer_side) pr.flavor = PipeFlavor::Async;
  else if (pr.flavor == PipeFlavor::TmaUmma) pr.flavor = PipeFlavor::Tma;
  return r;
}

RC_GTEST_PROP(WarpLanes, ReductionAgreesWithPlainBfs, (Recipe const& recipe, bool producer_side)) {
  reduction_agrees_with_plain_bfs(build_program(with_warp_lanes(recipe, producer_side), kAvoidKnownBugs),
                                  producer_side ? "producer lanes" : "consumer lanes", false);
}

RC_GTEST_PROP(WarpLanes, ParametricAgreesWithConcreteLengths, (Recipe recipe, bool producer_side)) {
  recipe.loop = LoopKind::RuntimeDomain;
  parametric_agrees_with_concrete_lengths(build_program(with_warp_lanes(recipe, producer_side), kAvoidKnownBugs), {0, 1, 2, 3});
}

// SAFE means the emulator, whose warps each start at their lane, runs clean, at the
// checked length and (SAFE for every k) at others.
RC_GTEST_PROP(WarpLanes, SafeSchedulesRunCleanOnTheEmulator, (Recipe const& recipe, bool producer_side)) {
  safe_schedule_runs_clean(build_program(with_warp_lanes(recipe, producer_side), kAvoidKnownBugs),
                           producer_side ? "producer lanes" : "consumer lanes");
}

// UNSAFE means a real run: the counterexample, forced on the emulator, fails the same way.
RC_GTEST_PROP(WarpLanes, CounterexamplesReplayToTheSameFailure, (Recipe const& recipe, bool producer_side)) {
  RC_TAG(producer_side ? "producer lanes" : "consumer lanes");
  counterexample_replays_to_the_same_failure(build_program(with_warp_lanes(recipe, producer_side), kAvoidKnownBugs));
}

}  // namespace
