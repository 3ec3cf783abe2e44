// Switches that keep the random properties away from checker bugs known and being
// fixed in src/check/. Each names the bug; its regression test (regressions_test.cpp)
// keeps exercising it. Turn a flag off once the fix lands: the properties then generate
// the feature again.
#pragma once
#include "recipe.hpp"

namespace prop {

inline constexpr AvoidKnownBugs kAvoidKnownBugs{
    .por_alias = false,
    .parametric_step_free_loop = false,
    .commit_without_acquire = false,
    .tma_pipe_without_copy = false,  // fixed: tma_fill_check also where no task does producer work
    .tma_full_at_commit = false,    // fixed: the runtime's commit arrives (expect_tx in acquire)
    .tma_stages_outstanding = false,  // fixed: a stage left without a copy is reported at the next acquire
    .elected_async_work_orders_the_whole_task = false,  // fixed: engine work and TMA commits converge the task
    .empty_tma_commit_without_waiter = false,  // fixed: an empty stage poisons its waits (deadlock) or stays unwaited (unbalanced)
};

// Emulator gap, fixed: ts::arch::umma_issue recorded the A/B reads at issue, by the
// issuing thread; the MMA engine is now an actor of its own that reads when the MMA
// executes (src/runtime/cpu/engines.cpp). Regression.EmulatorRecordsAnMmaReadWhenItRuns.
inline constexpr bool kEmulatorRecordsMmaReadsAtIssue = false;

// Checker gap, fixed in stop 39 (found by Emulator.CounterexamplesReplayToTheSameFailure
// with two domain loops per tile; the one-loop tile shape had it too): a parametric UNSAFE
// in a tile loop whose concrete witness search (k = 0..256, every tile count) stopped at
// the tile drift before the failure reported the parametric run itself: domain length -1,
// every event's iteration -1, though a concrete run fails (at k = 1 over 2 tiles). The
// witness search now tries the fixed tile count where the every-tile-count run stopped.
// Regression.ParametricTileLoopFailureHasAConcreteRun.
inline constexpr bool kParametricFailureWithoutConcreteRun = false;

}  // namespace prop
