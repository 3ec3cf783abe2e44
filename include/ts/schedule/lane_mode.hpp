// Interleave lane modes (SPEC S3.3, S6.12): which lane arithmetic a pipeline op with an
// interleave stride s > 1 follows. The verifier (S6.12), the launch layout (where each
// thread's stage counters start), the checker (how many stage ops one task op is) and
// the printout all ask this one place, so they cannot disagree on a schedule's mode.
//   DomainLane: the op sits in the schedule's domain loop and that loop steps by a static
//               value other than 1: the loop strides over lanes, the task is one lane
//               (its loop's start), each op moves its counter s stages.
//   WarpLane:   otherwise: each warp w of the task is a lane; warp w's counter starts at
//               stage w and moves s stages per op, so one task op is s stage ops, one per
//               warp (the task needs exactly s warps).
#pragma once
#include <cstdint>

#include "ts/core/pipeline_config.hpp"
#include "ts/core/sync_op.hpp"
#include "ts/schedule/ir.hpp"

namespace ts {
struct Model;
}

namespace ts::ir {

enum class LaneMode : uint8_t { None, WarpLane, DomainLane };

// The mode of one step whose op has interleave stride `stride` (None when stride <= 1).
LaneMode lane_mode(ScheduleIR const& ir, Step const& s, int stride);

}  // namespace ts::ir

namespace ts {

// The interleave stride of `op` (acquire, commit, wait, release) in `cfg`; 1 for any
// other op.
int op_stride(PipelineConfig const& cfg, SyncOp op);

// Producer side = acquire/commit, consumer side = wait/release.
bool producer_side_op(SyncOp op);

// How many stage ops one task-level `op` on resource `r` is: the stride in warp-lane
// mode, 1 otherwise (domain-lane ops move one lane's counter by s, but still take one
// stage). `step` is a step of task `task`.
int warp_lane_weight(Model const& m, int task, ir::Step const& step);

// Some task issues an op of this side of `r` in warp-lane mode: the launch layout then
// starts warp w's counters of that side at stage w (S6.12 makes every such task have
// exactly `stride` warps and forbids mixing modes on a side).
bool warp_lane_side(Model const& m, int r, bool producer_side);

}  // namespace ts
