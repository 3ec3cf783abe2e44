// Where an emulated thread is, in the user's words: task, resource, schedule step,
// barrier and SMEM allocation names. Used by errors, race reports and the deadlock
// report, and by the step tracking that replay relies on.
#include <sstream>

#include "state.hpp"
#include "ts/runtime/cpu/cpu_arch.hpp"

namespace ts::cpu {

std::string Emulator::Impl::smem_name(Cta const& c, uint32_t off) const {
  for (auto const& p : c.kernel->spec.placements)
    if (p.space == MemSpace::Smem && off >= p.offset && off < p.offset + p.size)
      return "'" + p.resource + "." + p.allocation + "' byte " + std::to_string(off - p.offset) + " (offset " +
             std::to_string(off) + ")";
  return "offset " + std::to_string(off);
}

std::string Emulator::Impl::barrier_name(Cta const& c, uint64_t* b) const {
  uint32_t off = uint32_t(reinterpret_cast<unsigned char*>(b) - c.smem);
  Model const* m = c.kernel->spec.model;
  auto const& pipes = c.kernel->spec.pipes;
  for (size_t r = 0; r < pipes.size(); ++r) {
    auto const& p = pipes[r];
    if (!p.pipelined) continue;
    std::string name = m ? m->resource(int(r)).name : "resource " + std::to_string(r);
    for (int s = 0; s < p.num_stages; ++s) {
      if (off == p.full_offset + 8u * s) return "mbarrier " + name + ".full[" + std::to_string(s) + "]";
      if (off == p.empty_offset + 8u * s) return "mbarrier " + name + ".empty[" + std::to_string(s) + "]";
    }
  }
  return "mbarrier at SMEM offset " + std::to_string(off);
}

void Emulator::Impl::replay_diverged(std::string const& why) const {
  auto const& e = replay[replay_cursor];
  throw EmulationError("ts::cpu replay diverged: event " + std::to_string(replay_cursor) + " (CTA " +
                       std::to_string(e.cta) + ", task " + std::to_string(e.task) + ", step " +
                       std::to_string(e.step) + ", iteration " + std::to_string(e.iteration) +
                       ") never happened: " + why);
}

std::string Emulator::Impl::where(Fiber const& f) const {
  Cta const& c = *f.cta;
  std::ostringstream os;
  os << "kernel " << c.kernel->index << " CTA " << c.idx << " thread " << f.tid << " (warp " << f.tid / 32 << ")";
  Model const* m = c.kernel->spec.model;
  if (m && f.task >= 0) {
    os << ", task '" << m->tasks[f.task].name << "'";
    if (f.step >= 0) os << ", at step #" << f.step << " " << m->step_text(f.task, f.step);
  }
  os << ", seed " << opt.seed;
  return os.str();
}

std::string Emulator::Impl::site_text(Cta const& c, WaitSite const& s) const {
  Model const* m = c.kernel->spec.model;
  std::ostringstream os;
  if (s.resource >= 0) {
    os << "resource '" << (m ? m->resource(s.resource).name : std::to_string(s.resource)) << "' " << protocol_name(s.op)
       << "()";
    os << " stage " << s.stage << " phase " << s.phase;
  }
  return os.str();
}

void Emulator::fail(std::string const& what) { fail(what, WaitSite{}); }

void Emulator::fail(std::string const& what, WaitSite const& site) {
  Impl& im = *impl_;
  std::string msg = "ts::cpu emulation error: " + what;
  if (im.current) {
    msg += "\n  at " + im.where(*im.current);
    std::string st = im.site_text(*im.current->cta, site);
    if (!st.empty()) msg += "\n  in " + st;
  } else {
    msg += " (in an asynchronous engine, seed " + std::to_string(im.opt.seed) + ")";
  }
  throw EmulationError(msg);
}

void Emulator::Impl::deadlock() {
  std::vector<BlockedWarp> warps;
  std::ostringstream os;  // the blocked warps, a line each
  for (auto const& kp : kernels) {
    int pending = 0;
    for (auto s : kp->status) pending += s == CtaStatus::Pending;
    for (auto const& cp : kp->ctas) {
      if (!cp) continue;
      Cta const& c = *cp;
      Model const* m = kp->spec.model;
      for (int w = 0; w * 32 < int(c.fibers.size()); ++w) {
        Fiber const* first = nullptr;
        int count = 0;
        for (int t = w * 32; t < w * 32 + 32 && t < int(c.fibers.size()); ++t)
          if (c.fibers[t]->state == FiberState::Blocked) {
            // Prefer a lane blocked on the real cause over one waiting for its warp.
            if (!first || (first->wait == WaitKind::WarpSync && c.fibers[t]->wait != WaitKind::WarpSync))
              first = c.fibers[t].get();
            ++count;
          }
        if (!first) continue;
        BlockedWarp b;
        b.kernel = kp->index;
        b.cta = c.idx;
        b.warp = w;
        b.threads = count;
        b.task = m && first->task >= 0 ? m->tasks[first->task].name : "?";
        b.step = first->step;
        std::ostringstream line;
        line << "kernel " << b.kernel << " CTA " << b.cta << " warp " << w << " (task '" << b.task << "', " << count
             << " threads blocked): ";
        switch (first->wait) {
          case WaitKind::Mbar: {
            WaitSite const& s = first->site;
            b.resource = m && s.resource >= 0 ? m->resource(s.resource).name : "";
            b.op = s.resource >= 0 ? protocol_name(s.op) : "mbarrier wait";
            b.stage = s.stage;
            b.phase = s.phase;
            if (s.resource >= 0)
              line << b.resource << "." << b.op << "() at stage " << b.stage << " phase " << b.phase << ", waiting on "
                   << barrier_name(c, first->wait_bar) << " for parity " << first->wait_parity;
            else
              line << "a wait on " << barrier_name(c, first->wait_bar) << " for parity " << first->wait_parity;
            auto it = c.bars.find(uint32_t(reinterpret_cast<unsigned char*>(first->wait_bar) - c.smem));
            if (it != c.bars.end())
              line << " (" << it->second.pending << " of " << it->second.expected << " arrivals and "
                   << it->second.tx << " transaction bytes missing)";
            break;
          }
          case WaitKind::CtaSync: b.op = "cta_sync"; line << "CTA barrier (bar.sync)"; break;
          case WaitKind::Pdl: b.op = "pdl_wait"; line << "griddepcontrol.wait: the primary grid never completes"; break;
          case WaitKind::Replay:
            b.op = "replay";
            if (first->replay_index >= int(replay.size()))
              line << "held until the replayed run ends (its step is not one of the run's events; event "
                   << replay_cursor << " has not happened)";
            else
              line << "replay event " << first->replay_index << " (an earlier event never happens)";
            break;
          case WaitKind::WarpSync:
            b.op = "warp_sync";
            line << "lane reconvergence (other lanes of the warp are blocked elsewhere)";
            break;
          case WaitKind::NamedBarrier:
            b.op = "task_sync";
            line << "the task's named barrier (bar.sync; other threads of the task are blocked elsewhere)";
            break;
          case WaitKind::None: b.op = "?"; break;
        }
        if (b.step >= 0 && m) line << " [step #" << b.step << " " << m->step_text(first->task, b.step) << "]";
        b.text = line.str();
        os << "\n  " << b.text;
        warps.push_back(std::move(b));
      }
    }
    if (pending) os << "\n  kernel " << kp->index << ": " << pending << " CTAs still pending (no free SM slot)";
  }
  // A whole run replayed (UnlistedSteps::WaitUntilReplayed) that stops before its last
  // event did not follow the run: the checker's failure comes only after every event, so
  // this is the replay diverging, not the failure it replays (a deadlock would pass for
  // the checker's deadlock).
  if (!replay_held_ctas.empty() && replay_cursor < int(replay.size())) {
    replay_diverged("every thread blocked before it (seed " + std::to_string(opt.seed) + ")" + os.str());
  }
  throw DeadlockError("ts::cpu deadlock: every unfinished emulated thread is blocked and nothing is in flight (seed " +
                          std::to_string(opt.seed) + ")" + os.str(),
                      std::move(warps));
}

}  // namespace ts::cpu
