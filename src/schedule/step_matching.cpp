#include "ts/schedule/step_matching.hpp"

#include <algorithm>

namespace ts {

int match_next_step(ir::ScheduleIR const& sched, int previous, SyncOp kind, int resource, char const* method,
                    bool include_auxiliary) {
  auto const& steps = sched.steps;
  int n = static_cast<int>(steps.size());
  for (int i = 1; i <= n; ++i) {
    int id = (previous + i + n) % n;
    auto const& s = steps[id];
    if (!include_auxiliary && s.kind == SyncOp::Work && s.role == WorkRole::Auxiliary) continue;
    if (s.kind == kind && s.resource == resource &&
        (kind != SyncOp::Work || !method || s.method == method))
      return id;
  }
  return -1;
}

std::pair<int, int> loop_step_range(ir::ScheduleIR const& sched, int block) {
  std::pair<int, int> range{-1, -1};
  if (block < 0) return range;
  for (auto const& s : sched.steps) {
    if (s.block < 0) continue;
    auto const enclosing = ir::enclosing_blocks(sched, s.block);
    if (std::find(enclosing.begin(), enclosing.end(), block) == enclosing.end()) continue;
    if (range.first < 0) range.first = s.id;
    range.second = s.id;
  }
  return range;
}

}  // namespace ts
