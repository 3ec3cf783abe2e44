// S6.21 skip_if must belong to the WorkQueue: skipped tiles still advance the queue, so
// the predicate may only depend on the queue and the tile. A method of another resource
// (recorded as ForeignMethod) is rejected; free functions of (queue, tile) or (tile)
// are accepted.
#include "passes.hpp"

namespace ts::verify {

void check_skip_if_owner(Model const& m, Diagnostics& out) {
  for (size_t ti = 0; ti < m.tasks.size(); ++ti) {
    auto const& ir = m.tasks[ti].schedule;
    if (ir.work_tile_loop < 0) continue;
    auto const& b = ir.blocks[ir.work_tile_loop];
    if (b.skip_if.form != ir::SkipIf::Form::ForeignMethod) continue;
    auto d = at_task(m, static_cast<int>(ti), "S6.21.skip-if-not-queue-method",
                     "skip_if predicate " + b.skip_if.name + " is a method of " + b.skip_if.owner_type +
                         ", not of the work queue",
                     b.queue_resource);
    d.expected = "a method of " + m.resource(b.queue_resource).type_name + ", or a function of (queue, tile) / (tile)";
    d.actual = b.skip_if.name;
    out.push_back(d);
  }
}

}  // namespace ts::verify
