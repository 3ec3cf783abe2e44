// S6.12 Interleaved pipelines. A stride s on an op means each issuer handles every s-th
// stage. Rules (SPEC S6.12, our reading documented in docs/checks.md):
//  - every stride divides num_stages, or lanes would drift across the ring's wrap;
//  - UmmaUmma and ClcFetchAsync cannot interleave; TmaAsync interleaves only single-CTA;
//    UmmaAsync interleaves only its consumer side (wait/release), AsyncUmma only its
//    producer side (acquire/commit): the UMMA side signals from one thread;
//  - asymmetric strides within a side (acquire != commit, or wait != release) split the
//    stage counter: they need advance_on_acquire / advance_on_wait and the opening and
//    closing ops in different tasks;
//  - mode per task: DOMAIN-LANE when the op sits in a domain loop whose step is a static
//    value other than 1 (the loop itself strides over lanes): then step == stride,
//    start in [0, stride) and the side's open/close strides match; otherwise WARP-LANE
//    (each warp is a lane, schedule/lane_mode.hpp): its rules are in warp_lane_rules.cpp.
#include "passes.hpp"

namespace ts::verify {

namespace {

struct OpStride {
  SyncOp op;
  int stride;
};

Diagnostic stride_diag(Model const& m, int r, std::string check, std::string msg, std::string expected,
                       std::string actual) {
  auto d = at_resource(m, r, std::move(check), std::move(msg));
  d.expected = std::move(expected);
  d.actual = std::move(actual);
  return d;
}

void check_config(Model const& m, int r, Diagnostics& out) {
  auto const& cfg = *m.resource(r).pipeline;
  auto const& st = cfg.interleave_stride;
  std::string name = m.resource(r).name;
  for (auto [label, v] : {std::pair{"acquire", st.acquire}, {"commit", st.commit}, {"wait", st.wait},
                          {"release", st.release}}) {
    if (v >= 1 && cfg.num_stages % v == 0) continue;
    out.push_back(stride_diag(m, r, "S6.12.stride-divides-stages",
                              std::string("the ") + label + " interleave stride of '" + name +
                                  "' does not divide num_stages (" + std::to_string(cfg.num_stages) + ")",
                              "a divisor of " + std::to_string(cfg.num_stages), std::to_string(v)));
  }
  if (cfg.type == PipelineType::UmmaUmma || cfg.type == PipelineType::ClcFetchAsync)
    out.push_back(stride_diag(m, r, "S6.12.type-forbids-interleave",
                              to_string(cfg.type) + " pipelines cannot be interleaved", "stride 1", "interleaved"));
  if (cfg.type == PipelineType::TmaAsync && cfg.clustered())
    out.push_back(stride_diag(m, r, "S6.12.tma-interleave-clustered",
                              "TmaAsync interleaving is single-CTA only, but '" + name + "' spans a cluster",
                              "1 CTA", std::to_string(cfg.cluster_ctas()) + " CTAs"));
  if (cfg.type == PipelineType::UmmaAsync && (st.acquire != 1 || st.commit != 1))
    out.push_back(stride_diag(m, r, "S6.12.side-forbids-interleave",
                              "UmmaAsync interleaves only its consumer side (wait/release)", "acquire/commit stride 1",
                              std::to_string(st.acquire) + "/" + std::to_string(st.commit)));
  if (cfg.type == PipelineType::AsyncUmma && (st.wait != 1 || st.release != 1))
    out.push_back(stride_diag(m, r, "S6.12.side-forbids-interleave",
                              "AsyncUmma interleaves only its producer side (acquire/commit)", "wait/release stride 1",
                              std::to_string(st.wait) + "/" + std::to_string(st.release)));
}

void check_asymmetric_side(Model const& m, int r, SyncOp open, SyncOp close, int so, int sc,
                           bool advance, char const* flag, Diagnostics& out) {
  if (so == sc) return;
  std::string name = m.resource(r).name;
  std::string side = ir::to_string(open) + "/" + ir::to_string(close);
  if (!advance)
    out.push_back(stride_diag(m, r, "S6.12.asymmetric-needs-advance",
                              "'" + name + "' has asymmetric " + side + " strides (" + std::to_string(so) + " vs " +
                                  std::to_string(sc) + ") but does not split its stage counter",
                              std::string(flag) + " = true", "false"));
  for (int t : tasks_issuing(m, r, open)) {
    if (first_step(m.tasks[t], r, close) < 0) continue;
    auto d = at_step(m, t, first_step(m.tasks[t], r, close), "S6.12.asymmetric-same-task",
                     "asymmetric " + side + " strides on '" + name + "' need the two ops in different tasks");
    d.expected = "separate tasks";
    d.actual = "both in task '" + m.tasks[t].name + "'";
    out.push_back(d);
  }
}

void check_task_mode(Model const& m, int task, int r, OpStride os, int partner_stride, Diagnostics& out) {
  auto const& t = m.tasks[task];
  int step = first_step(t, r, os.op);
  if (step < 0 || os.stride <= 1) return;
  auto const& ir = t.schedule;
  auto const& s = ir.steps[step];
  bool in_loop = ir.domain_loop >= 0 && ir::inside(ir, s.block, ir::BlockKind::DomainLoop);
  auto const* loop = in_loop ? &ir.blocks[ir.domain_loop] : nullptr;
  bool domain_lane = loop && loop->step.kind == ir::Bound::Kind::Static && loop->step.value != 1;
  std::string sv = std::to_string(os.stride);
  if (!domain_lane) return;  // warp-lane mode: check_warp_lanes (warp_lane_rules.cpp)
  if (loop->step.value != os.stride) {
    auto d = at_step(m, task, step, "S6.12.domain-lane-step",
                     "domain-lane interleaving: the domain loop must step by the stride");
    d.expected = "step " + sv;
    d.actual = "step " + loop->step.expr;
    out.push_back(d);
  }
  bool start_ok = loop->start.value_known && loop->start.kind != ir::Bound::Kind::PerTile &&
                  loop->start.value >= 0 && loop->start.value < os.stride;
  if (!start_ok) {
    auto d = at_step(m, task, step, "S6.12.domain-lane-start",
                     "domain-lane interleaving: the domain loop's start is this task's lane");
    d.expected = "start in [0, " + sv + ")";
    d.actual = "start " + loop->start.expr;
    out.push_back(d);
  }
  if (partner_stride != os.stride) {
    auto d = at_step(m, task, step, "S6.12.domain-lane-open-close",
                     "domain-lane interleaving needs matching open/close strides on a side");
    d.expected = sv;
    d.actual = std::to_string(partner_stride);
    out.push_back(d);
  }
}

}  // namespace

void check_interleave_rules(Model const& m, Diagnostics& out) {
  for (size_t ri = 0; ri < m.resources.size(); ++ri) {
    int r = static_cast<int>(ri);
    auto const& res = m.resource(r);
    if (!res.pipelined() || !res.pipeline->interleave_stride.is_interleaved()) continue;
    auto const& cfg = *res.pipeline;
    auto const& st = cfg.interleave_stride;
    check_config(m, r, out);
    check_asymmetric_side(m, r, SyncOp::Acquire, SyncOp::Commit, st.acquire, st.commit,
                          cfg.advance_on_acquire, "advance_on_acquire", out);
    check_asymmetric_side(m, r, SyncOp::Wait, SyncOp::Release, st.wait, st.release, cfg.advance_on_wait,
                          "advance_on_wait", out);
    for (size_t t = 0; t < m.tasks.size(); ++t) {
      int task = static_cast<int>(t);
      check_task_mode(m, task, r, {SyncOp::Acquire, st.acquire}, st.commit, out);
      check_task_mode(m, task, r, {SyncOp::Commit, st.commit}, st.commit, out);  // reported once, at the opener
      check_task_mode(m, task, r, {SyncOp::Wait, st.wait}, st.release, out);
      check_task_mode(m, task, r, {SyncOp::Release, st.release}, st.release, out);
    }
    check_warp_lanes(m, r, out);
  }
}

}  // namespace ts::verify
