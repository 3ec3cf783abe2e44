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
  if (mma.guard == Guard::Accumulator || mma.guard == Guard::PerTile) mma.guard = Guard::None;  // the ring, not a drained accumulator
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

// The same with a third ring from the first ring's producer into the MMA task, consumed
// by MMA too: the MMA task's release of it is a tcgen05.commit that also covers its earlier
// MMAs on the first ring (docs/checker.md, "Access windows": Pipe::commit_fenced_reads), and
// the token ring may order the producer's acquire of that ring before the MMA task's next
// write; the MMA ring runs every other iteration with two or more stages, so that its own
// reacquire does not end the read first. AliasedMma found that shape once in 602 cases
// (stop 36); in 1000 cases of this recipe without the ring fixes, none changed a verdict.
Recipe with_commit_fence(Recipe r) {
  r = with_aliased_mma(std::move(r));
  if (r.pipes.size() < 3) r.pipes.push_back(r.pipes[1]);
  auto& mma = r.pipes[0];
  // The seed's shape: the MMA ring used every other iteration and deep enough that its own
  // reacquire comes late, so a later write is ordered only through the other ring, if at all.
  if (mma.guard != Guard::Every2 && mma.guard != Guard::Every2From1) mma.guard = Guard::Every2;
  mma.stages = std::max(mma.stages, 2);
  int const prod = mma.producer % r.tasks;
  int const cons = (prod + 1 + mma.consumer_offset % (r.tasks - 1)) % r.tasks;
  auto& fence = r.pipes[2];
  fence.flavor = PipeFlavor::TmaUmma;
  fence.producer = prod;
  fence.consumer_offset = (cons - prod - 1 + r.tasks) % r.tasks;
  fence.split = Split::None;  // the MMA task waits and releases: its release is the commit
  fence.scratch = Scratch::None;
  if (fence.guard == Guard::Accumulator || fence.guard == Guard::PerTile) fence.guard = Guard::None;
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

RC_GTEST_PROP(AliasedMmaCommitFence, ReductionAgreesWithPlainBfs, (Recipe const& recipe)) {
  reduction_agrees_with_plain_bfs(build_program(with_commit_fence(recipe), kAvoidKnownBugs), "", true);
}

RC_GTEST_PROP(AliasedMmaCommitFence, SafeSchedulesRunCleanOnTheEmulator, (Recipe const& recipe)) {
  safe_schedule_runs_clean(build_program(with_commit_fence(recipe), kAvoidKnownBugs));
}

RC_GTEST_PROP(AliasedMmaCommitFence, CounterexamplesReplayToTheSameFailure, (Recipe const& recipe)) {
  counterexample_replays_to_the_same_failure(build_program(with_commit_fence(recipe), kAvoidKnownBugs));
}

}  // namespace
