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
    int id = match_next_step(sched, f.step, kind, resource, method ? method : "");
    if (id >= 0) f.step = id;
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

}  // namespace ts::cpu
