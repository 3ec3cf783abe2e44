// S6.18 Value routing of task-local variables (tokens).
//  - Written before read on every path: a slot written inside a conditional block
//    (first_iter / last_iter / every / when_true / when_false / skippable) and read
//    where that block does not enclose the read is unwritten on the paths that skip the
//    block. (A slot written in the domain loop and read in the tail is allowed: readers
//    take the latest write.)
//  - Direction: data flows out of a resource through consumer (or auxiliary) work and
//    into a resource through producer work; a token written by producer work would
//    carry data backwards.
//  - "Readers take the latest write" holds by construction: every work call owns fresh
//    slots (compile-time arguments included), so there is nothing to mis-order.
#include "passes.hpp"

namespace ts::verify {

namespace {

bool conditional(ir::BlockKind k) {
  switch (k) {
    case ir::BlockKind::FirstIter:
    case ir::BlockKind::LastIter:
    case ir::BlockKind::Every:
    case ir::BlockKind::WhenTrue:
    case ir::BlockKind::WhenFalse:
    case ir::BlockKind::Skippable: return true;
    default: return false;
  }
}

// The innermost conditional block around `block` that does not enclose `reader_block`.
int skipped_condition(ir::ScheduleIR const& ir, int writer_block, int reader_block) {
  for (int b : ir::enclosing_blocks(ir, writer_block))
    if (conditional(ir.blocks[b].kind) && !block_encloses(ir, b, reader_block)) return b;
  return -1;
}

void check_read(Model const& m, int task, int slot, int reader_block, int reader_step, std::string const& reader,
                Diagnostics& out) {
  auto const& ir = m.tasks[task].schedule;
  if (slot < 0 || slot >= static_cast<int>(ir.slots.size())) return;
  auto const& sl = ir.slots[slot];
  if (sl.producer_step < 0) return;
  auto const& w = ir.steps[sl.producer_step];
  auto make = [&](std::string check, std::string msg) {
    Diagnostic d = reader_step >= 0 ? at_step(m, task, reader_step, std::move(check), std::move(msg))
                                    : at_step(m, task, w.id, std::move(check), std::move(msg));
    return d;
  };
  if (w.kind == SyncOp::Work && w.role == WorkRole::Producer) {
    auto d = make("S6.18.producer-output-read",
                  reader + " reads '" + sl.name + "', written by producer work `" + m.step_text(task, w.id) +
                      "`; values flow from consumer/auxiliary work into producer work only");
    d.expected = "a token from consumer or auxiliary work";
    d.actual = "a token from producer work";
    out.push_back(d);
  }
  int cond = skipped_condition(ir, w.block, reader_block);
  if (cond >= 0) {
    auto d = make("S6.18.read-before-write",
                  reader + " reads '" + sl.name + "', which is written only inside a " +
                      ir::to_string(ir.blocks[cond].kind) + " block (step " + std::to_string(w.id) +
                      ") that does not enclose the read, so some paths read it unwritten");
    d.expected = "the write on every path to the read";
    d.actual = "written only inside " + ir::to_string(ir.blocks[cond].kind);
    out.push_back(d);
  }
}

}  // namespace

void check_value_routing(Model const& m, Diagnostics& out) {
  for (size_t ti = 0; ti < m.tasks.size(); ++ti) {
    int task = static_cast<int>(ti);
    auto const& ir = m.tasks[ti].schedule;
    for (auto const& s : ir.steps)
      for (int slot : s.reads_slots) check_read(m, task, slot, s.block, s.id, "`" + m.step_text(task, s.id) + "`", out);
    for (auto const& b : ir.blocks)
      if (b.cond_slot >= 0)
        check_read(m, task, b.cond_slot, b.id, -1, "the " + ir::to_string(b.kind) + " condition", out);
  }
}

}  // namespace ts::verify
