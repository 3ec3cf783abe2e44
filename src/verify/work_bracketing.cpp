// S6.6 Work bracketing. On a pipelined data resource, consumer work must run between a
// wait() and its release(), producer work between an acquire() and its commit(): the
// brackets are what make the stage's data valid (or free) while the work touches it.
// "Between" means later in program order with no closing op in between, and the opening
// op's block encloses the work (an opening op inside first_iter/when_true/... does not
// cover work outside that block, which runs on paths where the op did not).
// Auxiliary work is exempt (SPEC S2.3). A try_acquire()/try_wait() must be immediately
// followed, in the same block, by its blocking op on the same resource (SPEC S3.1).
// Sync ops on a memory resource without a pipeline have no barriers to act on.
#include <map>

#include "passes.hpp"

namespace ts::verify {

namespace {

struct Bracket {
  int open_step = -1;  // the wait()/acquire() that opened it, -1 when closed
};

void check_try_followed(Model const& m, int task, Diagnostics& out) {
  auto const& ir = m.tasks[task].schedule;
  for (auto const& b : ir.blocks) {
    for (size_t i = 0; i < b.children.size(); ++i) {
      if (b.children[i].is_block) continue;
      auto const& s = ir.steps[b.children[i].index];
      if (s.kind != SyncOp::TryAcquire && s.kind != SyncOp::TryWait) continue;
      auto blocking = s.kind == SyncOp::TryAcquire ? SyncOp::Acquire : SyncOp::Wait;
      bool ok = i + 1 < b.children.size() && !b.children[i + 1].is_block &&
                ir.steps[b.children[i + 1].index].kind == blocking &&
                ir.steps[b.children[i + 1].index].resource == s.resource;
      if (ok) continue;
      auto d = at_step(m, task, s.id, "S6.6.try-before-blocking",
                       ir::to_string(s.kind) + "() must be immediately followed, in the same block, by " +
                           ir::to_string(blocking) + "() on the same resource");
      d.expected = ir::to_string(blocking) + "() as the next step";
      d.actual = i + 1 < b.children.size() && !b.children[i + 1].is_block
                     ? "`" + m.step_text(task, b.children[i + 1].index) + "`"
                     : std::string("no step");
      out.push_back(d);
    }
  }
}

}  // namespace

void check_work_bracketing(Model const& m, Diagnostics& out) {
  for (size_t ti = 0; ti < m.tasks.size(); ++ti) {
    int task = static_cast<int>(ti);
    auto const& ir = m.tasks[ti].schedule;
    std::map<int, Bracket> consumer, producer;
    for (auto const& s : ir.steps) {
      if (s.resource < 0) continue;
      auto const& res = m.resource(s.resource);
      if (ir::is_sync(s.kind) && !res.pipelined() && res.kind == ResourceKind::Memory) {
        auto d = at_step(m, task, s.id, "S6.6.sync-without-pipeline",
                         ir::to_string(s.kind) + "() on '" + res.name + "', which has no pipeline to synchronize");
        d.hint = "give the resource a PipelineConfig, or drop the sync op";
        out.push_back(d);
        continue;
      }
      switch (s.kind) {
        case SyncOp::Wait: consumer[s.resource].open_step = s.id; break;
        case SyncOp::Release: consumer[s.resource].open_step = -1; break;
        case SyncOp::Acquire: producer[s.resource].open_step = s.id; break;
        case SyncOp::Commit: producer[s.resource].open_step = -1; break;
        default: break;
      }
      if (s.kind != SyncOp::Work || s.role == WorkRole::Auxiliary || !res.pipelined() ||
          res.kind != ResourceKind::Memory)
        continue;
      bool is_consumer = s.role == WorkRole::Consumer;
      int open = (is_consumer ? consumer : producer)[s.resource].open_step;
      bool covered = open >= 0 && block_encloses(ir, ir.steps[open].block, s.block);
      if (covered) continue;
      std::string bracket = is_consumer ? "wait()..release()" : "acquire()..commit()";
      auto d = at_step(m, task, s.id, "S6.6.work-bracketing",
                       std::string(is_consumer ? "consumer" : "producer") + " work on pipelined '" + res.name +
                           "' runs outside " + bracket +
                           (open >= 0 ? " (the opening op is in a block that does not enclose the work)" : ""));
      d.expected = "inside " + res.name + "." + bracket;
      d.actual = open >= 0 ? "opened at step " + std::to_string(open) + " in a narrower block"
                           : "no open " + std::string(is_consumer ? "wait()" : "acquire()");
      d.hint = std::string("call ") + res.name + (is_consumer ? ".wait()" : ".acquire()") +
               " before the work and " + (is_consumer ? "release()" : "commit()") + " after it";
      out.push_back(d);
    }
    check_try_followed(m, task, out);
  }
}

}  // namespace ts::verify
