#include "ts/schedule/step_matching.hpp"

namespace ts {

ir::StepKind step_kind_of(SyncOp op) {
  switch (op) {
    case SyncOp::TryAcquire: return ir::StepKind::TryAcquire;
    case SyncOp::Acquire: return ir::StepKind::Acquire;
    case SyncOp::Commit: return ir::StepKind::Commit;
    case SyncOp::TryWait: return ir::StepKind::TryWait;
    case SyncOp::Wait: return ir::StepKind::Wait;
    case SyncOp::Release: return ir::StepKind::Release;
    case SyncOp::Fetch: return ir::StepKind::QueueFetch;
    case SyncOp::Advance: return ir::StepKind::QueueAdvance;
  }
  return ir::StepKind::Work;
}

int match_next_step(ir::ScheduleIR const& sched, int previous, ir::StepKind kind, int resource, char const* method,
                    bool include_auxiliary) {
  auto const& steps = sched.steps;
  int n = static_cast<int>(steps.size());
  for (int i = 1; i <= n; ++i) {
    int id = (previous + i + n) % n;
    auto const& s = steps[id];
    if (!include_auxiliary && s.kind == ir::StepKind::Work && s.role == WorkRole::Auxiliary) continue;
    if (s.kind == kind && s.resource == resource &&
        (kind != ir::StepKind::Work || !method || s.method == method))
      return id;
  }
  return -1;
}

}  // namespace ts
