// S6.14 Head/loop producer overlap (a warning). A producer op on the same resource in
// both the head and the domain loop usually means a prologue fill that the loop repeats,
// so the first stages are produced twice or the stage counter runs ahead of the
// consumer's expectation. It can be intended (a deliberate prefetch), hence a warning.
// Not reported: a peeled first iteration, where the head runs, unconditionally, exactly the
// ops of the iterations the loop skips (the loop starts at a static s >= 1 with step 1, and
// the head holds s times the loop body's ops of that kind on that resource): the head and
// the loop then produce different stages (the attention's "block 0 ahead of the loop").
#include "passes.hpp"

namespace ts::verify {

namespace {

bool unconditional(ir::BlockKind k) {
  return k == ir::BlockKind::Root || k == ir::BlockKind::WorkTileLoop || k == ir::BlockKind::Skippable;
}

// Whether the head's `kind` ops on `r` are the loop's first iterations, peeled off: loop_step
// is one of the loop's such ops.
bool peeled_iterations(ir::ScheduleIR const& ir, ir::Step const& loop_step, SyncOp kind, int r) {
  ir::Block const& loop = ir.blocks[size_t(loop_step.block)];
  if (loop.kind != ir::BlockKind::DomainLoop) return false;  // the loop's op sits in a condition
  if (loop.start.kind != ir::Bound::Kind::Static || loop.start.value < 1) return false;
  if (loop.step.kind != ir::Bound::Kind::Static || loop.step.value != 1) return false;
  long long in_head = 0, per_iteration = 0;
  for (auto const& s : ir.steps) {
    if (s.resource != r || s.kind != kind) continue;
    if (s.section == ir::Section::Head) {
      if (!unconditional(ir.blocks[size_t(s.block)].kind)) return false;
      ++in_head;
    } else if (s.section == ir::Section::Loop) {
      if (s.block != loop_step.block) return false;  // conditional, or in another loop
      ++per_iteration;
    }
  }
  return per_iteration > 0 && in_head == loop.start.value * per_iteration;
}

}  // namespace

void check_head_loop_overlap(Model const& m, Diagnostics& out) {
  for (size_t ti = 0; ti < m.tasks.size(); ++ti) {
    auto const& ir = m.tasks[ti].schedule;
    auto const& steps = ir.steps;
    std::vector<int> reported;
    for (auto const& head : steps) {
      bool advances = head.kind == SyncOp::Acquire || head.kind == SyncOp::Commit;
      if (head.section != ir::Section::Head || head.resource < 0 || !advances) continue;
      if (contains(reported, head.resource)) continue;
      if (m.resource(head.resource).kind == ResourceKind::WorkQueue) continue;
      for (auto const& loop : steps) {
        if (loop.section != ir::Section::Loop || loop.resource != head.resource || loop.kind != head.kind) continue;
        reported.push_back(loop.resource);
        if (peeled_iterations(ir, loop, head.kind, head.resource)) break;
        auto d = at_step(m, static_cast<int>(ti), loop.id, "S6.14.head-loop-producer-overlap",
                         "a producer op on '" + m.resource(loop.resource).name + "' runs in the head (step " +
                             std::to_string(head.id) + " `" + m.step_text(static_cast<int>(ti), head.id) +
                             "`) and again in the domain loop");
        d.severity = Severity::Warning;
        d.hint = "if the head is a prologue fill, make sure the loop does not produce the same stages again "
                 "(a peeled first iteration, with the loop starting after it, is not reported)";
        out.push_back(d);
        break;
      }
    }
  }
}

}  // namespace ts::verify
