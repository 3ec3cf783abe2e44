// S6.14 Head/loop producer overlap (a warning). A producer op on the same resource in
// both the head and the domain loop usually means a prologue fill that the loop repeats,
// so the first stages are produced twice or the stage counter runs ahead of the
// consumer's expectation. It can be intended (a deliberate prefetch), hence a warning.
#include "passes.hpp"

namespace ts::verify {

void check_head_loop_overlap(Model const& m, Diagnostics& out) {
  for (size_t ti = 0; ti < m.tasks.size(); ++ti) {
    auto const& steps = m.tasks[ti].schedule.steps;
    std::vector<int> reported;
    for (auto const& head : steps) {
      bool advances = head.kind == SyncOp::Acquire || head.kind == SyncOp::Commit;
      if (head.section != ir::Section::Head || head.resource < 0 || !advances) continue;
      if (contains(reported, head.resource)) continue;
      if (m.resource(head.resource).kind == ResourceKind::WorkQueue) continue;
      for (auto const& loop : steps) {
        if (loop.section != ir::Section::Loop || loop.resource != head.resource || loop.kind != head.kind) continue;
        auto d = at_step(m, static_cast<int>(ti), loop.id, "S6.14.head-loop-producer-overlap",
                         "a producer op on '" + m.resource(loop.resource).name + "' runs in the head (step " +
                             std::to_string(head.id) + " `" + m.step_text(static_cast<int>(ti), head.id) +
                             "`) and again in the domain loop");
        d.severity = Severity::Warning;
        d.hint = "if the head is a prologue fill, make sure the loop does not produce the same stages again";
        out.push_back(d);
        reported.push_back(loop.resource);
        break;
      }
    }
  }
}

}  // namespace ts::verify
