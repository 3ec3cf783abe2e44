// Lane modes of interleaved pipeline ops (lane_mode.hpp).
#include "ts/schedule/lane_mode.hpp"

#include "ts/schedule/model.hpp"

namespace ts::ir {

LaneMode lane_mode(ScheduleIR const& ir, Step const& s, int stride) {
  if (stride <= 1) return LaneMode::None;
  bool in_loop = ir.domain_loop >= 0 && inside(ir, s.block, BlockKind::DomainLoop);
  if (in_loop) {
    auto const& loop = ir.blocks[ir.domain_loop];
    if (loop.step.kind == Bound::Kind::Static && loop.step.value != 1) return LaneMode::DomainLane;
  }
  return LaneMode::WarpLane;
}

}  // namespace ts::ir

namespace ts {

int op_stride(PipelineConfig const& cfg, SyncOp op) {
  auto const& st = cfg.interleave_stride;
  switch (op) {
    case SyncOp::Acquire: return st.acquire;
    case SyncOp::Commit: return st.commit;
    case SyncOp::Wait: return st.wait;
    case SyncOp::Release: return st.release;
    default: return 1;
  }
}

bool producer_side_op(SyncOp op) { return op == SyncOp::Acquire || op == SyncOp::Commit; }

int warp_lane_weight(Model const& m, int task, ir::Step const& step) {
  if (step.resource < 0 || step.resource >= static_cast<int>(m.resources.size())) return 1;
  auto const& res = m.resource(step.resource);
  if (!res.pipelined()) return 1;
  int stride = op_stride(*res.pipeline, step.kind);
  return ir::lane_mode(m.tasks[task].schedule, step, stride) == ir::LaneMode::WarpLane ? stride : 1;
}

bool warp_lane_side(Model const& m, int r, bool producer_side) {
  auto const& res = m.resource(r);
  if (!res.pipelined()) return false;
  for (size_t t = 0; t < m.tasks.size(); ++t)
    for (auto const& s : m.tasks[t].schedule.steps) {
      if (s.resource != r || producer_side_op(s.kind) != producer_side) continue;
      if (s.kind != SyncOp::Acquire && s.kind != SyncOp::Commit && s.kind != SyncOp::Wait && s.kind != SyncOp::Release)
        continue;
      if (ir::lane_mode(m.tasks[t].schedule, s, op_stride(*res.pipeline, s.kind)) == ir::LaneMode::WarpLane) return true;
    }
  return false;
}

}  // namespace ts
