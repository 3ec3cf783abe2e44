// The MMA consumer's read window (docs/checker.md, "Access windows") in dense random
// schedules. Every recipe's first ring is a tma_umma ring whose stages share memory with a
// scratch buffer the MMA task writes (before or after its release), and its second ring
// runs back from that MMA task to the producer: a token that can order the producer's
// next acquire between the MMA task's release and its next write, the shape of the wrong
// SAFE the generic properties found once in stop 27 (the read ended at an acquire of
// another stage). Mutations then move the write around the wait, the MMA and the release,
// drop or duplicate ops and change stage counts. In the generic recipes this shape is
// rare (a SAFE tma+mma case with aliasing is under 1 in 100); here every case has it.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

#include "checker_runs.hpp"
#include "generators.hpp"
#include "known_bugs.hpp"
#include "mode_properties.hpp"
#include "replay.hpp"
#include "safe_runs.hpp"

namespace {
using namespace prop;

// Three tasks at most and three rings keep each property within 300 s (ctest allows 900).
Recipe with_aliased_mma(Recipe r) {
  r.tasks = std::min(r.tasks, 3);
  if (r.pipes.empty()) r.pipes.push_back({});
  if (r.pipes.size() < 2) r.pipes.push_back(r.pipes[0]);
  if (r.pipes.size() > 3) r.pipes.resize(3);
  auto& mma = r.pipes[0];
  mma.flavor = PipeFlavor::TmaUmma;
  mma.split = Split::None;  // one MMA task waits and releases
  // A write after the MMA or after the release races its read on any ring deeper than
  // one stage that no accumulator wait fences; between the wait and the MMA it is SAFE on
  // one stage and a race on more: half the cases write there.
  if (mma.scratch == Scratch::None || mma.scratch == Scratch::BeforeRelease) mma.scratch = Scratch::BeforeRead;
  r.pdl = 0;  // PDL ops are the generic properties' business: here they only add failures
  if (r.mutations.size() > 1) r.mutations.resize(1);
  if (mma.guard == Guard::Accumulator) mma.guard = Guard::None;  // the ring, not a drained accumulator
  // The token: from the MMA task (the first ring's consumer) back to its producer.
  int const prod = mma.producer % r.tasks;
  int const cons = (prod + 1 + mma.consumer_offset % (r.tasks - 1)) % r.tasks;
  auto& back = r.pipes[1];
  back.producer = cons;
  back.consumer_offset = (prod - cons - 1 + r.tasks) % r.tasks;
  back.split = Split::None;
  back.scratch = Scratch::None;  // the memory slots: ring + scratch, token, one more ring
  return r;
}

RC_GTEST_PROP(AliasedMma, ReductionAgreesWithPlainBfs, (Recipe const& recipe)) {
  reduction_agrees_with_plain_bfs(build_program(with_aliased_mma(recipe), kAvoidKnownBugs), "", true);
}

// SAFE means clean emulator runs, whose MMA engine reads a stage when the MMA executes.
RC_GTEST_PROP(AliasedMma, SafeSchedulesRunCleanOnTheEmulator, (Recipe const& recipe)) {
  safe_schedule_runs_clean(build_program(with_aliased_mma(recipe), kAvoidKnownBugs));
}

// UNSAFE means a real run: the counterexample, forced on the emulator, fails the same way.
RC_GTEST_PROP(AliasedMma, CounterexamplesReplayToTheSameFailure, (Recipe const& recipe)) {
  counterexample_replays_to_the_same_failure(build_program(with_aliased_mma(recipe), kAvoidKnownBugs));
}

}  // namespace
