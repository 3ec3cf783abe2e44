// S6.12 in warp-lane mode (schedule/lane_mode.hpp): each warp w of a task is one lane of
// the pipeline side; its stage counters start at w and move `stride` stages per op, so
// one task op is `stride` stage ops, one per warp. What the backends and the checker
// need for that to be exactly what runs:
//  - warp-lane-warps: the task has exactly `stride` warps (one lane each: fewer would
//    leave lanes unserved, more would double-serve them);
//  - warp-lane-open-close: the side's opening and closing strides are equal (warp w
//    closes the stages it opened; split counters are not modelled per warp);
//  - warp-lane-signal: the side signals per warp (All or TaskWarpLeader): a CtaLeader
//    signal would arrive only for warp 0's stages;
//  - warp-lane-engine: the side is plain threads (Async): a TMA, UMMA or CLC engine
//    signals once for the whole task, not per warp;
//  - warp-lane-task-barrier: the task converges at every warp-lane op (the checker's
//    "one task op" is atomic across its warps) on its named barrier, of which tasks
//    0..7 have one;
//  - lane-modes-mixed: every op of one side of a resource, in every task, follows one
//    lane arithmetic (warp-lane or domain-lane): the barrier arrival counts are per
//    side, and a counter cannot start at the warp and at the loop's start at once.
#include "passes.hpp"
#include "ts/schedule/lane_mode.hpp"

namespace ts::verify {

namespace {

constexpr int kTasksWithBarriers = 8;  // exec::Context::kTaskBarriers

struct SideOps {
  SyncOp open, close;
  char const* name;  // "acquire/commit"
};

std::string mode_name(ir::LaneMode m) { return m == ir::LaneMode::WarpLane ? "warp-lane" : "domain-lane"; }

bool per_warp_signal(Signal s) { return s == Signal::All || s == Signal::TaskWarpLeader; }

Diagnostic lane_diag(Model const& m, int task, int step, std::string check, std::string msg, std::string expected,
                     std::string actual) {
  auto d = at_step(m, task, step, std::move(check), std::move(msg));
  d.expected = std::move(expected);
  d.actual = std::move(actual);
  return d;
}

void check_side(Model const& m, int r, SideOps side, Diagnostics& out) {
  auto const& cfg = *m.resource(r).pipeline;
  std::string name = m.resource(r).name;
  int so = op_stride(cfg, side.open), sc = op_stride(cfg, side.close);
  // The first step of the side with a stride > 1, per mode, to name in lane-modes-mixed.
  int first_task[3] = {-1, -1, -1}, first_step_id[3] = {-1, -1, -1};
  bool mixed_reported = false;
  for (size_t ti = 0; ti < m.tasks.size(); ++ti) {
    int t = static_cast<int>(ti);
    auto const& task = m.tasks[t];
    bool task_checked = false;
    for (auto const& s : task.schedule.steps) {
      if (s.resource != r || (s.kind != side.open && s.kind != side.close)) continue;
      auto mode = ir::lane_mode(task.schedule, s, op_stride(cfg, s.kind));
      if (mode == ir::LaneMode::None) continue;
      int mi = static_cast<int>(mode);
      if (first_task[mi] < 0) {
        first_task[mi] = t;
        first_step_id[mi] = s.id;
      }
      int other = mode == ir::LaneMode::WarpLane ? 2 : 1;
      if (first_task[other] >= 0 && !mixed_reported) {
        mixed_reported = true;
        out.push_back(lane_diag(
            m, t, s.id, "S6.12.lane-modes-mixed",
            "the " + std::string(side.name) + " side of '" + name + "' mixes lane modes: this op is " +
                mode_name(mode) + ", but task '" + m.tasks[first_task[other]].name + "' step " +
                std::to_string(first_step_id[other]) + " is " + mode_name(ir::LaneMode(other)) +
                " (warp-lane: not in a domain loop with a static step other than 1)",
            "one lane mode on the side (" + mode_name(ir::LaneMode(other)) + ", as task '" +
                m.tasks[first_task[other]].name + "')",
            mode_name(mode)));
      }
      if (mode != ir::LaneMode::WarpLane || task_checked) continue;
      task_checked = true;  // the task's remaining rules are reported once, at its first warp-lane op
      int stride = op_stride(cfg, s.kind);
      std::string sv = std::to_string(stride);
      std::string op = ir::to_string(s.kind);
      if (task.num_warps != stride)
        out.push_back(lane_diag(m, t, s.id, "S6.12.warp-lane-warps",
                                "warp-lane interleaving (stride " + sv + " on " + op +
                                    "): each warp is one lane, so the task needs exactly stride warps",
                                sv + " warps", std::to_string(task.num_warps) + " warps"));
      if (so != sc)
        out.push_back(lane_diag(m, t, s.id, "S6.12.warp-lane-open-close",
                                "warp-lane interleaving: warp w closes the stages it opened, so the " +
                                    std::string(side.name) + " strides of '" + name + "' must be equal",
                                "equal strides (" + std::to_string(so) + "/" + std::to_string(so) + ")",
                                std::to_string(so) + "/" + std::to_string(sc)));
      bool producer = producer_side_op(side.open);
      Engine engine = producer ? cfg.producer_engine() : cfg.consumer_engine();
      if (engine != Engine::Async)
        out.push_back(lane_diag(m, t, s.id, "S6.12.warp-lane-engine",
                                "warp-lane interleaving needs a side of plain threads: a " + to_string(engine) +
                                    " engine signals once for the whole task, not once per warp",
                                std::string("an Async ") + (producer ? "producer" : "consumer") + " side",
                                to_string(engine) + (producer ? " producer" : " consumer")));
      std::vector<Signal> signals{producer ? cfg.producer_signal : cfg.consumer_signal};
      if (!producer && cfg.wait_signal_override) signals.push_back(*cfg.wait_signal_override);
      for (Signal sig : signals)
        if (!per_warp_signal(sig))
          out.push_back(lane_diag(m, t, s.id, "S6.12.warp-lane-signal",
                                  "warp-lane interleaving: each warp signals its own stages, so the side's signal "
                                  "must arrive per warp",
                                  "All or TaskWarpLeader", to_string(sig)));
      if (t >= kTasksWithBarriers)
        out.push_back(lane_diag(m, t, s.id, "S6.12.warp-lane-task-barrier",
                                "warp-lane interleaving converges the task at every lane op on its named barrier, "
                                "which only the first " +
                                    std::to_string(kTasksWithBarriers) + " tasks have",
                                "task index < " + std::to_string(kTasksWithBarriers), "task index " + std::to_string(t)));
    }
  }
}

}  // namespace

void check_warp_lanes(Model const& m, int r, Diagnostics& out) {
  check_side(m, r, {SyncOp::Acquire, SyncOp::Commit, "acquire/commit"}, out);
  check_side(m, r, {SyncOp::Wait, SyncOp::Release, "wait/release"}, out);
}

}  // namespace ts::verify
