// S6.15 Named work dispatch: every Work step must name a marked work method of a known
// resource. The recorder guarantees this for captured schedules (the role is the type
// of the method's first parameter), so this pass guards models built, edited or
// imported by other means before the executor dispatches on the name.
#include "passes.hpp"

namespace ts::verify {

void check_work_dispatch(Model const& m, Diagnostics& out) {
  for (size_t ti = 0; ti < m.tasks.size(); ++ti) {
    for (auto const& s : m.tasks[ti].schedule.steps) {
      if (s.kind != SyncOp::Work) continue;
      std::string why;
      if (s.resource < 0 || s.resource >= static_cast<int>(m.resources.size()))
        why = "it names no known resource";
      else if (s.method.empty())
        why = "it names no method";
      else if (s.role != WorkRole::Producer && s.role != WorkRole::Consumer && s.role != WorkRole::Auxiliary)
        why = "its method is not marked producer, consumer or auxiliary";
      if (why.empty()) continue;
      Diagnostic d;
      d.check = "S6.15.unresolved-work";
      d.task = m.tasks[ti].name;
      d.step = s.id;
      d.section = ir::to_string(s.section);
      d.message = "work step " + std::to_string(s.id) + " cannot be dispatched: " + why;
      d.expected = "a method taking ts::ProducerStage / ConsumerStage / AuxStage first";
      d.actual = s.method.empty() ? "\"\"" : s.method;
      out.push_back(d);
    }
  }
}

}  // namespace ts::verify
