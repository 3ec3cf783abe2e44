// Programmatic Dependent Launch between the kernels of a chain: a CTA has triggered
// once each of its threads ran launch_dependents or exited (a CTA cancelled through
// CLC counts as triggered); the scheduler starts the secondary's CTAs once every
// primary CTA triggered, and griddepcontrol.wait blocks until the primary completed.
#include "state.hpp"
#include "ts/schedule/model.hpp"

namespace ts::cpu {

void Emulator::Impl::count_trigger(Fiber& f) {
  if (f.trigger_counted) return;
  f.trigger_counted = true;
  Cta& c = *f.cta;
  if (++c.triggers == c.kernel->spec.block_threads) ++c.kernel->triggered;
}

// ---- PDL ----
namespace {
// The kernel waits on a predecessor through a PdlWait resource and does not declare
// that wait done outside TS (Options::assume_pdl_wait_completed).
bool must_wait_before_launch(Kernel const& k) {
  Model const* m = k.spec.model;
  if (!m || m->options.assume_pdl_wait_completed) return false;
  for (auto const& r : m->resources)
    if (r->kind == ResourceKind::PdlWait) return true;
  return false;
}
}  // namespace

void Emulator::pdl_launch() {
  Impl& im = *impl_;
  Fiber& f = im.fiber();
  if (!f.cta->pdl_waited && must_wait_before_launch(*f.cta->kernel))
    throw PdlOrderError("PDL launch before wait (SPEC S12): CTA " + std::to_string(f.cta->idx) +
                        " triggers its dependents before any of its threads waited on the predecessor grid\n  at " +
                        im.where(f));
  im.count_trigger(f);
  yield();
}

void Emulator::pdl_wait() {
  Impl& im = *impl_;
  Fiber& f = im.fiber();
  Kernel& k = *f.cta->kernel;
  if (k.index == 0) {  // no primary grid: nothing to wait for
    f.cta->pdl_waited = true;
    return;
  }
  Kernel& prev = *im.kernels[k.index - 1];
  while (!prev.complete()) {
    prev.pdl_waiters.push_back(&f);
    im.block(WaitKind::Pdl);
  }
  f.cta->pdl_waited = true;
}

}  // namespace ts::cpu
