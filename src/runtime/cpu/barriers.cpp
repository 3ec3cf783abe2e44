// The CTA barrier (bar.sync 0 / __syncthreads over the live threads) and lane
// reconvergence of a warp (__syncwarp over its live lanes), both counted against the
// threads that have not exited, as the hardware does.
#include "state.hpp"

namespace ts::cpu {

// ---- CTA barrier (bar.sync 0 / __syncthreads) ----
void Emulator::Impl::cta_sync_check(Cta& c) {
  if (c.sync_arrived == 0 || c.sync_arrived < c.live) return;
  c.sync_arrived = 0;
  ++c.sync_gen;
  if (opt.detect_races) {
    VClock all;
    for (auto& f : c.fibers)
      if (f->state != FiberState::Done) vc_join(all, f->vc);
    for (auto& f : c.fibers)
      if (f->state != FiberState::Done) {
        f->vc = all;
        ++f->vc[f->tid];
      }
  }
  wake_all(c.sync_waiters);
}

void Emulator::cta_sync() {
  Impl& im = *impl_;
  Fiber& f = im.fiber();
  Cta& c = *f.cta;
  long long gen = c.sync_gen;
  ++c.sync_arrived;
  f.sync_gen = gen;
  im.cta_sync_check(c);
  while (c.sync_gen == gen) {
    c.sync_waiters.push_back(&f);
    im.block(WaitKind::CtaSync);
  }
}

// ---- warp reconvergence (__syncwarp over the live lanes) ----
void Emulator::Impl::warp_sync_check(Cta& c, int w) {
  Cta::Warp& wp = c.warps[w];
  if (wp.arrived == 0 || wp.arrived < wp.live) return;
  wp.arrived = 0;
  ++wp.gen;
  wake_all(wp.waiters);
}

void Emulator::Impl::warp_sync(Fiber& f) {
  Cta& c = *f.cta;
  int w = f.tid / 32;
  Cta::Warp& wp = c.warps[w];
  long long gen = wp.gen;
  ++wp.arrived;
  warp_sync_check(c, w);
  while (c.warps[w].gen == gen) {
    c.warps[w].waiters.push_back(&f);
    block(WaitKind::WarpSync);
  }
}

}  // namespace ts::cpu
