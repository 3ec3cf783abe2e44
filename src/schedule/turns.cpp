#include "ts/schedule/turns.hpp"

namespace ts::ir {
namespace {

bool comparable(Bound const& b) { return b.form_known || b.kind == Bound::Kind::Static; }
Affine form_of(Bound const& b) { return b.form_known ? b.form : Affine::of_constant(b.value); }

}  // namespace

bool loop_runs(ScheduleIR const& ir, Bound const& count) {
  if (ir.domain_loop < 0 || !comparable(count)) return false;
  auto const& b = ir.blocks[ir.domain_loop];
  if (!comparable(b.start) || !comparable(b.end) || !comparable(b.step)) return false;
  Affine step = form_of(b.step);
  if (!step.is_constant() || step.constant <= 0) return false;
  return form_of(b.end) - form_of(b.start) == form_of(count) * step.constant;
}

std::string trip_text(ScheduleIR const& ir) {
  if (ir.domain_loop < 0) return "";
  auto const& b = ir.blocks[ir.domain_loop];
  if (!comparable(b.start) || !comparable(b.end) || !comparable(b.step)) return "";
  Affine step = form_of(b.step);
  if (!step.is_constant() || step.constant <= 0) return "";
  Affine diff = form_of(b.end) - form_of(b.start);
  return step.constant == 1 ? diff.to_string() : "(" + diff.to_string() + ") / " + std::to_string(step.constant);
}

}  // namespace ts::ir

namespace ts {

int turn_count_task(Model const& m, int resource, ir::Bound const& count, int self) {
  for (int t = 0; t < static_cast<int>(m.tasks.size()); ++t) {
    if (t == self) continue;
    bool waits = false;
    for (auto const& s : m.tasks[t].schedule.steps) waits |= s.kind == SyncOp::Wait && s.resource == resource;
    if (waits && ir::loop_runs(m.tasks[t].schedule, count)) return t;
  }
  if (self >= 0 && ir::loop_runs(m.tasks[self].schedule, count)) return self;
  return -1;
}

}  // namespace ts
