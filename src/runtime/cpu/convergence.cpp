// Explicit convergence of a task's threads before a leader signals for them
// (exec::Context::converge): __syncwarp over a warp's live lanes and bar.sync id, threads
// over a task's warps. Unlike the implicit lane reconvergence at steps (barriers.cpp),
// which only limits how lanes interleave, these order memory: the race detector joins
// the participants' clocks, so an access of any participant happens before whatever any
// of them does next (the leader's arrival included).
#include "state.hpp"

namespace ts::cpu {

namespace {
// Every participant now happens after all the others' accesses before the barrier.
void join_clocks(std::vector<Fiber*> const& fs) {
  VClock all;
  for (Fiber* f : fs) vc_join(all, f->vc);
  for (Fiber* f : fs) {
    f->vc = all;
    ++f->vc[f->tid];
  }
}
}  // namespace

// ---- __syncwarp over the live lanes ----
void Emulator::Impl::converge_check(Cta& c, int w) {
  Cta::Warp& wp = c.conv[w];
  if (wp.arrived == 0 || wp.arrived < wp.live) return;
  wp.arrived = 0;
  ++wp.gen;
  if (opt.detect_races) {
    std::vector<Fiber*> lanes;
    for (int t = w * 32; t < w * 32 + 32 && t < int(c.fibers.size()); ++t)
      if (c.fibers[t]->state != FiberState::Done) lanes.push_back(c.fibers[t].get());
    join_clocks(lanes);
  }
  wake_all(wp.waiters);
}

void Emulator::warp_converge() {
  Impl& im = *impl_;
  Fiber& f = im.fiber();
  Cta& c = *f.cta;
  int w = f.tid / 32;
  long long gen = c.conv[w].gen;
  ++c.conv[w].arrived;
  im.converge_check(c, w);
  while (c.conv[w].gen == gen) {
    c.conv[w].waiters.push_back(&f);
    im.block(WaitKind::WarpSync);
  }
}

// ---- bar.sync id, threads (a named barrier of the task's warps) ----
void Emulator::named_barrier(int id, int threads) {
  Impl& im = *impl_;
  Fiber& f = im.fiber();
  Cta& c = *f.cta;
  if (id < 1 || id > 15) fail("bar.sync with barrier id " + std::to_string(id) + " (named barriers are 1 .. 15)");
  if (threads <= 0 || threads % 32 || threads > int(c.fibers.size()))
    fail("bar.sync " + std::to_string(id) + " with a thread count of " + std::to_string(threads) +
         " (a positive multiple of 32, at most the block's threads)");
  Cta::NamedBarrier& nb = c.named[id];
  if (nb.arrived.empty()) nb.expected = threads;
  else if (nb.expected != threads)
    fail("bar.sync " + std::to_string(id) + " used with thread counts " + std::to_string(nb.expected) + " and " +
         std::to_string(threads) + " at once (two groups share one named barrier?)");
  nb.arrived.push_back(&f);
  long long gen = nb.gen;
  if (int(nb.arrived.size()) == nb.expected) {
    ++nb.gen;
    if (im.opt.detect_races) join_clocks(nb.arrived);
    nb.arrived.clear();
    im.wake_all(nb.waiters);
    return;
  }
  while (nb.gen == gen) {
    nb.waiters.push_back(&f);
    im.block(WaitKind::NamedBarrier);
  }
}

}  // namespace ts::cpu
