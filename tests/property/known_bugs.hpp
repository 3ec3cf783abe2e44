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
    .tma_full_at_commit = true,     // the checker's TMA stage turns full at commit, the device's at the copy
    .tma_stages_outstanding = true, // documented gap, not a bug: one TMA stage outstanding at a commit
    .elected_async_work_orders_the_whole_task = true,  // a TMA copy / MMA issue orders only the elected thread
    .empty_tma_commit_without_waiter = true,  // reported as a deadlock though no task of the run waits
};

// Emulator gap (src/runtime/cpu/portable.cpp, ts::arch::umma_issue records the A/B reads
// at issue, by the issuing thread; the MMA engine's later read is unchecked): a race with
// an MMA engine's read, which the checker reports, does not replay.
// Regression.EmulatorRecordsAnMmaReadAtItsIssue.
inline constexpr bool kEmulatorRecordsMmaReadsAtIssue = true;

}  // namespace prop
