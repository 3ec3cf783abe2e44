// Programmatic Dependent Launch between the kernels of a chain: a CTA has triggered
// once each of its threads ran launch_dependents or exited (a CTA cancelled through
// CLC counts as triggered); the scheduler starts the secondary's CTAs once every
// primary CTA triggered, and griddepcontrol.wait blocks until the primary completed.
#include "state.hpp"

namespace ts::cpu {

void Emulator::Impl::count_trigger(Fiber& f) {
  if (f.trigger_counted) return;
  f.trigger_counted = true;
  Cta& c = *f.cta;
  if (++c.triggers == c.kernel->spec.block_threads) ++c.kernel->triggered;
}

// ---- PDL ----
void Emulator::pdl_launch() {
  Impl& im = *impl_;
  im.count_trigger(im.fiber());
  yield();
}

void Emulator::pdl_wait() {
  Impl& im = *impl_;
  Fiber& f = im.fiber();
  Kernel& k = *f.cta->kernel;
  if (k.index == 0) return;  // no primary grid: nothing to wait for
  Kernel& prev = *im.kernels[k.index - 1];
  while (!prev.complete()) {
    prev.pdl_waiters.push_back(&f);
    im.block(WaitKind::Pdl);
  }
}

}  // namespace ts::cpu
