// S6.7 WorkQueue placement (SPEC S4.5-S4.7).
//  - Persistence is all or nothing: if one task has a work_tile_loop, every task has one.
//  - The queue epilogue (try_wait / wait / get_and_advance_work_tile / release on the
//    queue) sits directly in the tile-loop body, after the domain loop (the tail): never
//    in the head, the domain loop, a skippable region or a guard, since every tile must
//    advance the queue exactly once. With no domain loop there is no tail to require.
//  - Each tile-looping task runs get_and_advance_work_tile() on its queue.
//  - A dynamic queue (one with a ClcFetchAsync pipeline) needs a scheduler task whose
//    fetch sequence is acquire -> fetch_work_tile -> commit, before its own epilogue.
//    fetch_work_tile() on a static queue has nothing to fetch from.
//  - A queue's response ring has at most kQueueMaxStages stages (the per-CTA staging).
#include "passes.hpp"
#include "ts/core/queue_response.hpp"

namespace ts::verify {

namespace {

bool is_epilogue_op(SyncOp k) {
  return k == SyncOp::TryWait || k == SyncOp::Wait || k == SyncOp::Advance ||
         k == SyncOp::Release;
}

bool is_dynamic(ResourceDecl const& q) {
  return q.pipeline && q.pipeline->type == PipelineType::ClcFetchAsync;
}

void check_epilogue_step(Model const& m, int task, ir::Step const& s, Diagnostics& out) {
  auto const& ir = m.tasks[task].schedule;
  std::string where;
  if (ir.work_tile_loop < 0 || ir.blocks[ir.work_tile_loop].queue_resource != s.resource)
    where = "outside a work_tile_loop over this queue";
  else if (ir::inside(ir, s.block, ir::BlockKind::DomainLoop))
    where = "inside the domain loop, so it would run once per iteration instead of once per tile";
  else if (ir::inside(ir, s.block, ir::BlockKind::Skippable))
    where = "inside the skippable region, so skipped tiles would not advance the queue";
  else if (s.block != ir.work_tile_loop)
    where = "inside a " + ir::to_string(ir.blocks[s.block].kind) + " block, so some tiles would not advance the queue";
  else if (ir.domain_loop >= 0 && s.section != ir::Section::Tail)
    where = "in the head of the tile body, before the domain loop";
  if (where.empty()) return;
  auto d = at_step(m, task, s.id, "S6.7.queue-epilogue-placement", "the work-queue epilogue op is " + where);
  d.expected = "directly in the work_tile_loop body, after the domain loop (tail)";
  d.actual = "section " + ir::to_string(s.section) + ", block " + ir::to_string(ir.blocks[s.block].kind);
  out.push_back(d);
}

void check_scheduler_order(Model const& m, int task, int q, Diagnostics& out) {
  auto const& t = m.tasks[task];
  int acq = first_step(t, q, SyncOp::Acquire);
  int fetch = first_step(t, q, SyncOp::Fetch);
  int commit = first_step(t, q, SyncOp::Commit);
  int advance = first_step(t, q, SyncOp::Advance);
  bool ok = acq >= 0 && acq < fetch && commit > fetch && (advance < 0 || advance > commit);
  if (ok) return;
  auto d = at_step(m, task, fetch, "S6.7.scheduler-fetch-order",
                   "the scheduler task must run acquire(), fetch_work_tile(), commit() on the queue, then the epilogue");
  d.expected = "[try_acquire,] acquire, fetch_work_tile, commit, then try_wait/wait/get_and_advance_work_tile/release";
  d.actual = "acquire@" + std::to_string(acq) + " fetch@" + std::to_string(fetch) + " commit@" +
             std::to_string(commit) + " advance@" + std::to_string(advance) + " (step ids, -1 = missing)";
  out.push_back(d);
}

}  // namespace

void check_work_queue_placement(Model const& m, Diagnostics& out) {
  // A queue's pipeline is its response ring (SPEC S4.7, S13): ClcFetchAsync, whose
  // protocol class the executing handle of a queue takes without a runtime switch.
  for (size_t ri = 0; ri < m.resources.size(); ++ri) {
    auto const& q = m.resource(static_cast<int>(ri));
    if (q.kind != ResourceKind::WorkQueue || !q.pipeline || q.pipeline->type == PipelineType::ClcFetchAsync) continue;
    auto d = at_resource(m, static_cast<int>(ri), "S6.7.queue-pipeline-type",
                         "work queue '" + q.name + "' has a " + to_string(q.pipeline->type) +
                             " pipeline; a queue's responses arrive through a ClcFetchAsync pipeline");
    d.expected = "ClcFetchAsync";
    d.actual = to_string(q.pipeline->type);
    out.push_back(d);
  }
  // The global-counter scheduler stages each CTA's responses in kQueueMaxStages global
  // slots, one per ring stage (runtime/scheduler/global_counter_scheduler.hpp), and the
  // host sizes `scratch` by that bound: a deeper ring would write past its CTA's slots.
  for (size_t ri = 0; ri < m.resources.size(); ++ri) {
    auto const& q = m.resource(static_cast<int>(ri));
    if (q.kind != ResourceKind::WorkQueue || !q.pipeline || q.pipeline->num_stages <= kQueueMaxStages) continue;
    auto d = at_resource(m, static_cast<int>(ri), "S6.7.queue-stages",
                         "work queue '" + q.name + "' has a response ring of " +
                             std::to_string(q.pipeline->num_stages) + " stages; a queue stages at most " +
                             std::to_string(kQueueMaxStages) + " responses per CTA");
    d.expected = "at most " + std::to_string(kQueueMaxStages) + " stages";
    d.actual = std::to_string(q.pipeline->num_stages);
    out.push_back(d);
  }
  int persistent = -1;
  for (size_t t = 0; t < m.tasks.size(); ++t)
    if (m.tasks[t].schedule.work_tile_loop >= 0) persistent = static_cast<int>(t);
  for (size_t ti = 0; ti < m.tasks.size(); ++ti) {
    int task = static_cast<int>(ti);
    auto const& t = m.tasks[ti];
    auto const& ir = t.schedule;
    if (persistent >= 0 && ir.work_tile_loop < 0) {
      auto d = at_task(m, task, "S6.7.all-or-none-persistent",
                       "task '" + m.tasks[persistent].name +
                           "' loops over work tiles but this task has no work_tile_loop; all tasks are persistent "
                           "or none");
      d.expected = "a work_tile_loop";
      d.actual = "none";
      out.push_back(d);
    }
    for (auto const& s : ir.steps) {
      if (s.resource < 0 || m.resource(s.resource).kind != ResourceKind::WorkQueue) continue;
      auto const& q = m.resource(s.resource);
      if (is_epilogue_op(s.kind)) check_epilogue_step(m, task, s, out);
      if (s.kind == SyncOp::Fetch) {
        if (!is_dynamic(q)) {
          auto d = at_step(m, task, s.id, "S6.7.fetch-on-static-queue",
                           "fetch_work_tile() on '" + q.name + "', a static queue with no ClcFetchAsync pipeline");
          d.expected = "a queue with a ClcFetchAsync pipeline";
          d.actual = q.pipeline ? to_string(q.pipeline->type) : std::string("no pipeline");
          out.push_back(d);
        } else {
          check_scheduler_order(m, task, s.resource, out);
        }
      }
    }
    if (ir.work_tile_loop >= 0) {
      int q = ir.blocks[ir.work_tile_loop].queue_resource;
      if (q >= 0 && first_step(t, q, SyncOp::Advance) < 0) {
        auto d = at_task(m, task, "S6.7.missing-queue-epilogue",
                         "the work_tile_loop never calls get_and_advance_work_tile() on its queue", q);
        d.expected = "one get_and_advance_work_tile() per tile, in the tile tail";
        d.actual = "none";
        out.push_back(d);
      }
    }
  }
  // A dynamic queue needs a scheduler task.
  for (size_t r = 0; r < m.resources.size(); ++r) {
    auto const& q = m.resource(static_cast<int>(r));
    if (q.kind != ResourceKind::WorkQueue || !is_dynamic(q)) continue;
    bool used = false;
    for (auto const& t : m.tasks) used |= schedule_uses(t, static_cast<int>(r));
    if (used && tasks_issuing(m, static_cast<int>(r), SyncOp::Fetch).empty()) {
      auto d = at_resource(m, static_cast<int>(r), "S6.7.dynamic-queue-without-scheduler",
                           "'" + q.name + "' is a dynamic (ClcFetchAsync) queue but no task calls fetch_work_tile()");
      d.expected = "one scheduler task running acquire, fetch_work_tile, commit";
      d.actual = "none";
      out.push_back(d);
    }
  }
}

}  // namespace ts::verify
