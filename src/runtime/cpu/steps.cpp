// Step tracking and replay. Every schedule step an emulated thread executes is
// reported by the executing context's hooks (CpuArch::on_sync / on_work); here it is
// matched to the task's recorded IR step (for reports and replay), the lanes of a warp
// reconverge at synchronization steps, a replayed interleaving is enforced, and the
// step becomes a scheduling point.
#include "state.hpp"
#include "ts/runtime/cpu/cpu_arch.hpp"
#include "ts/schedule/step_matching.hpp"

namespace ts::cpu {

// Matches the executing step against the task's recorded schedule: the next step in
// program order (cyclically, since loops repeat) with the same kind, resource and
// method. Guards skip steps only forward, so the first match is the right one.
void Emulator::on_step(int task, int resource, SyncOp kind, char const* method) {
  Impl& im = *impl_;
  Fiber& f = im.fiber();
  Model const* m = f.cta->kernel->spec.model;
  if (m && task >= 0 && task < int(m->tasks.size())) {
    f.task = task;
    auto const& sched = m->tasks[task].schedule;
    int n = int(sched.steps.size());
    if (f.occurrences.size() != size_t(n)) f.occurrences.assign(n, 0);
    int id = match_next_step(sched, f.match_from, kind, resource, method ? method : "");
    if (id >= 0) f.step = f.match_from = id;
    // Replay: an event is in progress from the moment its first lane reaches the step
    // until that lane reaches its next step (the step, blocking included, has then
    // happened); sibling lanes of the same event pass while it is in progress.
    // Replay makes every step a reconvergence point, so all lanes of the owner's warp
    // have finished the event's step before the owner closes it.
    if (im.opt.converged_warps && (kind != SyncOp::Work || !im.replay.empty())) im.warp_sync(f);
    // Trace: the task's leading thread closes its previous step and opens this one.
    if (im.opt.trace && f.tid == m->tasks[task].warp_start * 32 && f.step >= 0) {
      auto& ev = im.stats.steps.events;
      if (f.trace_open >= 0) ev[f.trace_open].end = im.stats.actions;
      f.trace_open = int(ev.size());
      ev.push_back(TraceEvent{f.cta->idx, task, f.step, im.stats.actions, -1});
    }
    im.replay_close(f);
    if (f.step >= 0 && !im.replay.empty()) {
      long long iter = f.occurrences[f.step]++;
      auto it = im.replay_index.find(std::make_tuple(f.cta->idx, task, f.step, iter));
      if (it == im.replay_index.end() && im.replay_held_ctas.count(f.cta->idx)) {
        // UnlistedSteps::WaitUntilReplayed: the events are a whole run, so this step
        // comes after the task's part of it and waits until the run has been replayed.
        // Run freely, it could meet another failure of the same schedule first (a race
        // of a task the run never started, say) and the replay would not stop where
        // the checker's run does.
        while (im.replay_cursor < int(im.replay.size())) {
          f.replay_index = int(im.replay.size());
          im.replay_waiters.push_back(&f);
          im.block(WaitKind::Replay);
        }
      } else if (it != im.replay_index.end()) {
        int idx = it->second;
        for (;;) {
          if (idx < im.replay_cursor) break;
          if (idx == im.replay_cursor) {
            if (!im.replay_owner) {
              im.replay_owner = &f;
              ++im.stats.replay_events;
              break;
            }
            auto const& e = im.replay[idx];
            if (e.cta == f.cta->idx && e.task == task) break;  // a sibling lane of the event in progress
          }
          f.replay_index = idx;
          im.replay_waiters.push_back(&f);
          im.block(WaitKind::Replay);
        }
      }
    }
  } else if (kind != SyncOp::Work && im.opt.converged_warps) {
    im.warp_sync(f);
  }
  yield();
}

void Emulator::Impl::replay_close(Fiber& f) {
  if (replay_owner != &f) return;
  replay_owner = nullptr;
  ++replay_cursor;
  wake_all(replay_waiters);
}

// Where a loop iteration starts and where the loop ends (exec::LoopEdge): the next step
// is matched from there, not from the last step the thread ran. With a guard that skipped
// the loop's last steps, the forward search from inside the loop would take a step of the
// same kind after the loop for the skipped one (a lagged release after a loop of one
// iteration named the guarded release inside it). The edges do not say which loop: a
// schedule has one work-tile loop, but inside it may run several domain loops one after
// another (the ping-pong GEMM's producer). Where each of them sits directly in the tile
// body, every tile runs each once in program order, so the number of domain loops the
// thread has left in this tile names the loop. A loop under a guard or condition (which a
// tile may skip) breaks that count: there the domain-loop edges are not used and the steps
// are matched by program order alone.
void Emulator::on_loop(int task, exec::LoopKind kind, exec::LoopEdge edge) {
  Impl& im = *impl_;
  Fiber& f = im.fiber();
  Model const* m = f.cta->kernel->spec.model;
  if (!m || task < 0 || task >= int(m->tasks.size())) return;
  auto& cache = f.cta->kernel->loop_steps;
  if (cache.size() != m->tasks.size()) cache.assign(m->tasks.size(), {});
  auto& steps = cache[task];
  if (!steps.known) {
    auto const& sched = m->tasks[task].schedule;
    std::vector<int> loops;
    bool in_tile_body = sched.work_tile_loop >= 0;
    for (auto const& b : sched.blocks)
      if (b.kind == ir::BlockKind::DomainLoop) {
        loops.push_back(b.id);
        in_tile_body &= b.parent == sched.work_tile_loop;
      }
    steps.range[0] = loops.size() == 1 ? loop_step_range(sched, sched.domain_loop) : std::pair<int, int>{-1, -1};
    steps.range[1] = loop_step_range(sched, sched.work_tile_loop);
    if (loops.size() > 1 && in_tile_body)
      for (int id : loops) steps.domain_loops.push_back(loop_step_range(sched, id));
    steps.known = true;
  }
  std::pair<int, int> range = steps.range[kind == exec::LoopKind::Domain ? 0 : 1];
  if (kind == exec::LoopKind::WorkTile) {
    f.domain_loops_done = 0;  // a tile starts (or the loop ends): its first domain loop is next
  } else if (!steps.domain_loops.empty()) {
    int const n = f.domain_loops_done;
    if (n >= int(steps.domain_loops.size())) return;  // more loops than recorded: program order
    range = steps.domain_loops[size_t(n)];
    if (edge == exec::LoopEdge::Exit) ++f.domain_loops_done;
  }
  auto const [first, last] = range;
  if (first < 0) return;  // no loop of that kind, or no step in it
  f.match_from = edge == exec::LoopEdge::Iteration ? first - 1 : last;
}

}  // namespace ts::cpu
