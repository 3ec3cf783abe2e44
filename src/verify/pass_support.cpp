#include "pass_support.hpp"

#include <algorithm>

namespace ts::verify {

Diagnostic at_step(Model const& m, int task, int step, std::string check, std::string message) {
  Diagnostic d;
  d.check = std::move(check);
  auto const& t = m.tasks.at(task);
  d.task = t.name;
  auto const& s = t.schedule.steps.at(step);
  if (s.resource >= 0 && s.resource < static_cast<int>(m.resources.size())) d.resource = m.resource(s.resource).name;
  d.step = step;
  d.section = ir::to_string(s.section);
  d.step_text = m.step_text(task, step);
  d.message = std::move(message);
  return d;
}

Diagnostic at_task(Model const& m, int task, std::string check, std::string message, int resource) {
  Diagnostic d;
  d.check = std::move(check);
  d.task = m.tasks.at(task).name;
  if (resource >= 0) d.resource = m.resource(resource).name;
  d.message = std::move(message);
  return d;
}

Diagnostic at_resource(Model const& m, int resource, std::string check, std::string message) {
  Diagnostic d;
  d.check = std::move(check);
  d.resource = m.resource(resource).name;
  d.message = std::move(message);
  return d;
}

bool is_producer_op(ir::Step const& s) {
  if (s.kind == SyncOp::Work) return s.role == WorkRole::Producer;
  return ir::is_producer_sync(s.kind) || s.kind == SyncOp::Fetch;
}

bool is_consumer_op(ir::Step const& s) {
  if (s.kind == SyncOp::Work) return s.role == WorkRole::Consumer;
  return ir::is_consumer_sync(s.kind) || s.kind == SyncOp::Advance;
}

bool block_encloses(ir::ScheduleIR const& ir, int outer, int inner) {
  for (int b = inner; b >= 0; b = ir.blocks[b].parent)
    if (b == outer) return true;
  return false;
}

bool contains(std::vector<int> const& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

bool schedule_uses(TaskModel const& t, int resource) {
  for (auto const& s : t.schedule.steps)
    if (s.resource == resource) return true;
  for (auto const& b : t.schedule.blocks) {
    if (b.kind == ir::BlockKind::WorkTileLoop && b.queue_resource == resource) return true;
    for (auto const* bound : {&b.start, &b.end, &b.step})
      if (bound->kind == ir::Bound::Kind::PerTile && bound->provider_resource == resource) return true;
  }
  return false;
}

std::vector<int> tasks_issuing(Model const& m, int resource, SyncOp kind) {
  std::vector<int> out;
  for (size_t t = 0; t < m.tasks.size(); ++t)
    if (first_step(m.tasks[t], resource, kind) >= 0) out.push_back(static_cast<int>(t));
  return out;
}

int first_step(TaskModel const& t, int resource, SyncOp kind) {
  for (auto const& s : t.schedule.steps)
    if (s.resource == resource && s.kind == kind) return s.id;
  return -1;
}

std::string join_task_names(Model const& m, std::vector<int> const& tasks) {
  std::string out;
  for (int t : tasks) out += (out.empty() ? "" : ", ") + m.tasks.at(t).name;
  return out;
}

}  // namespace ts::verify
