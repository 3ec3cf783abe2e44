// S6.1 Domain validity: a static step of zero never advances; a static step pointing
// away from a static end never terminates; a per-tile (dynamic) bound needs a resource
// that provides it and that the task actually has. The recorder already refuses a zero
// step at capture (capture.zero-step); this pass guards models built or edited by hand.
#include "passes.hpp"

namespace ts::verify {

namespace {

void check_bound(Model const& m, int task, ir::Bound const& b, char const* which,
                 Diagnostics& out) {
  if (b.kind != ir::Bound::Kind::PerTile) return;
  auto const& t = m.tasks[task];
  bool known = b.provider_resource >= 0 && b.provider_resource < static_cast<int>(m.resources.size());
  if (!known || !contains(t.schedule_args, b.provider_resource)) {
    auto d = at_task(m, task, "S6.1.dynamic-bound-provider",
                     std::string("the domain_loop ") + which + " bound `" + b.expr +
                         "` is computed per work tile but has no provider resource bound to this task",
                     known ? b.provider_resource : -1);
    d.expected = "a resource passed to the schedule that computes the bound";
    d.actual = known ? "resource '" + m.resource(b.provider_resource).name + "' not passed to the task" : "none";
    d.hint = "compute the bound with handle.per_tile<&Resource::method>() on a resource the task holds";
    out.push_back(d);
  }
}

}  // namespace

void check_domain_validity(Model const& m, Diagnostics& out) {
  for (size_t ti = 0; ti < m.tasks.size(); ++ti) {
    int task = static_cast<int>(ti);
    auto const& ir = m.tasks[ti].schedule;
    if (ir.domain_loop < 0) continue;
    auto const& loop = ir.blocks.at(ir.domain_loop);
    if (loop.step.kind == ir::Bound::Kind::Static && loop.step.value == 0) {
      auto d = at_task(m, task, "S6.1.zero-step", "the domain_loop step is a static zero, so the loop never advances");
      d.expected = "a non-zero step";
      d.actual = "0";
      out.push_back(d);
    }
    bool all_static = loop.start.kind == ir::Bound::Kind::Static && loop.end.kind == ir::Bound::Kind::Static &&
                      loop.step.kind == ir::Bound::Kind::Static;
    if (all_static && loop.start.value != loop.end.value && loop.step.value != 0 &&
        ((loop.end.value > loop.start.value) != (loop.step.value > 0))) {
      auto d = at_task(m, task, "S6.1.step-direction",
                       "the domain_loop from " + loop.start.expr + " to " + loop.end.expr +
                           " steps away from its end, so it never terminates");
      d.expected = loop.end.value > loop.start.value ? "a positive step" : "a negative step";
      d.actual = loop.step.expr;
      out.push_back(d);
    }
    check_bound(m, task, loop.start, "start", out);
    check_bound(m, task, loop.end, "end", out);
    check_bound(m, task, loop.step, "step", out);
  }
}

}  // namespace ts::verify
