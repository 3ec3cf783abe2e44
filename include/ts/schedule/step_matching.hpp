// Which recorded schedule step an executing thread is at: backends observe (kind,
// resource[, method]) at each step and match it to the task's IR, searching forward
// (cyclically, since loops repeat) from the previous step; the kind is the SyncOp the IR
// records (core/protocol.hpp: a sync op, or SyncOp::Work). Guards only skip steps
// forward, so the first match is the right one. Used by the emulator (reports, replay,
// traces) and by the GPU trace decoder.
#pragma once
#include <utility>

#include "ts/core/sync_op.hpp"
#include "ts/schedule/ir.hpp"

namespace ts {

// method may be null (the GPU trace does not carry names): then any work step on the
// resource matches; include_auxiliary=false skips auxiliary work steps (for traces that
// do not record them). Returns -1 when nothing matches.
int match_next_step(ir::ScheduleIR const& s, int previous, SyncOp kind, int resource, char const* method,
                    bool include_auxiliary = true);

// The first and last step ids inside `block` and the blocks nested in it (steps are in
// program order, so they are contiguous); {-1, -1} when block < 0 or it holds no step.
// A backend told where a loop iteration starts or where the loop ends matches the next
// step from there (exec::LoopEdge).
std::pair<int, int> loop_step_range(ir::ScheduleIR const& sched, int block);

}  // namespace ts
