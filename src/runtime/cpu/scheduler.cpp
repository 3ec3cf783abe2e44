// The deterministic scheduler: emulated threads are fibers (ucontext) run one at a
// time; at every scheduling point control returns here and a seeded PRNG picks the
// next action among the runnable fibers, the asynchronous operations in flight (copy
// completions, MMA engine steps, CLC responses) and the launch of a pending CTA. The
// choice depends only on the seed and on earlier choices, so a seed reproduces a run.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "state.hpp"
#include "ts/runtime/cpu/run_validation.hpp"

namespace ts::cpu {

namespace {
thread_local Emulator::Impl* g_impl = nullptr;
}

void vc_join(VClock& into, VClock const& from) {
  if (into.size() < from.size()) into.resize(from.size(), 0);
  for (size_t i = 0; i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}

Cta::~Cta() { std::free(smem); }

Emulator::Emulator(RunOptions o) : impl_(std::make_unique<Impl>()) {
  validate_run_options(o);
  impl_->opt = o;
  impl_->self = this;
  // splitmix64 state; seed 0 is as good as any other.
  impl_->rng = o.seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  impl_->stats.seed = o.seed;
}
Emulator::~Emulator() = default;

Emulator& Emulator::current() {
  if (!g_impl || !g_impl->current) throw EmulationError("ts::cpu: a hardware primitive was called outside an emulated thread");
  return *g_impl->self;
}
bool Emulator::in_emulated_thread() { return g_impl && g_impl->current; }

int Emulator::add_kernel(KernelSpec k) {
  validate_grid_blocks(k.grid_blocks);  // also the secondary grid of a chain
  if (k.block_threads <= 0 || k.block_threads % 32) throw EmulationError("ts::cpu: block_threads must be a positive multiple of 32");
  auto kern = std::make_unique<Kernel>();
  kern->spec = std::move(k);
  kern->index = static_cast<int>(impl_->kernels.size());
  kern->status.assign(kern->spec.grid_blocks, CtaStatus::Pending);
  kern->ctas.resize(kern->spec.grid_blocks);
  impl_->kernels.push_back(std::move(kern));
  return static_cast<int>(impl_->kernels.size()) - 1;
}

void Emulator::set_replay(std::vector<ReplayEvent> events, UnlistedSteps unlisted) {
  impl_->replay = std::move(events);
  impl_->replay_index.clear();
  impl_->replay_held_ctas.clear();
  for (size_t i = 0; i < impl_->replay.size(); ++i) {
    auto const& e = impl_->replay[i];
    impl_->replay_index.emplace(std::make_tuple(e.cta, e.task, e.step, e.iteration), int(i));
    if (unlisted == UnlistedSteps::WaitUntilReplayed) impl_->replay_held_ctas.insert(e.cta);
  }
}

uint64_t Emulator::Impl::next_random() {
  uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

Fiber& Emulator::Impl::fiber() {
  if (!current) throw EmulationError("ts::cpu: a hardware primitive was called outside an emulated thread");
  return *current;
}

void fiber_trampoline() {
  Emulator::Impl* im = g_impl;
  Fiber* f = im->current;
  try {
    Cta& c = *f->cta;
    ThreadEntry e;
    e.emu = im->self;
    e.coord.thread_in_block = f->tid;
    e.coord.block_threads = c.kernel->spec.block_threads;
    e.coord.block_idx = c.idx;
    e.coord.grid_blocks = c.kernel->spec.grid_blocks;
    e.kctx.smem_base = c.smem;
    e.kctx.tmem_base = 0;
    c.kernel->spec.entry(e);
  } catch (...) {
    if (!im->error) im->error = std::current_exception();
  }
  f->state = FiberState::Done;
  swapcontext(&f->uc, &im->sched_uc);
  std::abort();  // a finished fiber is never resumed
}

void Emulator::Impl::switch_to(Fiber* f) {
  current = f;
  ++stats.context_switches;
  swapcontext(&sched_uc, &f->uc);
  current = nullptr;
}

void Emulator::Impl::to_scheduler() {
  Fiber* f = current;
  swapcontext(&f->uc, &sched_uc);
  g_impl = this;  // nested emulators on one host thread are not supported; keep ours
}

void Emulator::Impl::block(WaitKind k) {
  Fiber& f = fiber();
  f.state = FiberState::Blocked;
  f.wait = k;
  to_scheduler();
  f.wait = WaitKind::None;
}

void Emulator::Impl::make_runnable(Fiber* f) {
  if (f->state != FiberState::Blocked) return;
  f->state = FiberState::Runnable;
  runnable.push_back(f);
}

void Emulator::Impl::wake_all(std::vector<Fiber*>& list) {
  std::vector<Fiber*> l;
  l.swap(list);
  for (Fiber* f : l) make_runnable(f);
}

void Emulator::yield() {
  Impl& im = *impl_;
  Fiber& f = im.fiber();
  f.state = FiberState::Runnable;
  im.runnable.push_back(&f);
  im.to_scheduler();
}

// Out of line so no local of launch_cta lives across getcontext (-Wclobbered).
static std::unique_ptr<Fiber> make_fiber(Cta* c, int tid, int id, size_t stack_bytes) {
  auto f = std::make_unique<Fiber>();
  f->id = id;
  f->cta = c;
  f->tid = tid;
  f->stack.reset(new char[stack_bytes]);
  getcontext(&f->uc);
  f->uc.uc_stack.ss_sp = f->stack.get();
  f->uc.uc_stack.ss_size = stack_bytes;
  f->uc.uc_link = nullptr;
  makecontext(&f->uc, fiber_trampoline, 0);
  return f;
}

void Emulator::Impl::launch_cta(Kernel& k, int idx) {
  auto c = std::make_unique<Cta>();
  c->kernel = &k;
  c->idx = idx;
  c->smem_bytes = k.spec.smem_bytes;
  size_t alloc = (std::max<size_t>(k.spec.smem_bytes, 16) + 1023) / 1024 * 1024;
  c->smem = static_cast<unsigned char*>(std::aligned_alloc(1024, alloc));
  std::memset(c->smem, 0xCD, alloc);  // SMEM starts as garbage on the GPU: poison it
  if (opt.detect_races) c->shadow.resize(c->smem_bytes);
  c->tmem_columns = k.spec.tmem_columns;
  int n = k.spec.block_threads;
  c->live = n;
  c->warps.resize(n / 32);
  for (auto& w : c->warps) w.live = 32;
  c->conv = c->warps;
  for (int t = 0; t < n; ++t) {
    auto f = make_fiber(c.get(), t, next_fiber_id++, opt.stack_bytes);
    if (k.spec.model) {
      int warp = t / 32;
      for (size_t i = 0; i < k.spec.model->tasks.size(); ++i) {
        auto const& tm = k.spec.model->tasks[i];
        if (warp >= tm.warp_start && warp < tm.warp_end()) f->task = int(i);
      }
    }
    if (opt.detect_races) {
      f->vc.assign(n, 0);
      f->vc[t] = 1;
    }
    runnable.push_back(f.get());
    c->fibers.push_back(std::move(f));
  }
  k.status[idx] = CtaStatus::Running;
  k.ctas[idx] = std::move(c);
  ++running_ctas;
  ++stats.ctas_started;
}

Kernel* Emulator::Impl::launchable_kernel() {
  int resident = opt.resident_blocks > 0 ? opt.resident_blocks : 1 << 30;
  if (running_ctas >= resident) return nullptr;
  for (size_t i = 0; i < kernels.size(); ++i) {
    Kernel& k = *kernels[i];
    if (i > 0 && kernels[i - 1]->triggered < kernels[i - 1]->spec.grid_blocks) return nullptr;
    for (auto s : k.status)
      if (s == CtaStatus::Pending) return &k;
  }
  return nullptr;
}

static int first_pending(Kernel const& k) {
  for (size_t i = 0; i < k.status.size(); ++i)
    if (k.status[i] == CtaStatus::Pending) return int(i);
  return -1;
}

void Emulator::Impl::fiber_done(Fiber* f) {
  Cta& c = *f->cta;
  --c.live;
  replay_close(*f);
  count_trigger(*f);
  cta_sync_check(c);  // an exited thread no longer holds the CTA barrier back
  --c.warps[f->tid / 32].live;
  warp_sync_check(c, f->tid / 32);
  --c.conv[f->tid / 32].live;
  converge_check(c, f->tid / 32);
  maybe_retire(c);
}

void Emulator::Impl::maybe_retire(Cta& c) {
  if (c.live > 0 || c.async_inflight > 0 || !c.mma_queue.empty()) return;
  Kernel& k = *c.kernel;
  int idx = c.idx;
  k.status[idx] = CtaStatus::Done;
  ++k.finished;
  --running_ctas;
  if (k.complete()) wake_all(k.pdl_waiters);  // secondaries' griddepcontrol.wait
  k.ctas[idx].reset();  // frees the fibers' stacks: none of them will run again
}

RunStats Emulator::run() {
  Impl& im = *impl_;
  if (im.kernels.empty()) throw EmulationError("ts::cpu::run: no kernel");
  Impl* saved = g_impl;
  g_impl = &im;
  struct Restore {
    Impl* s;
    ~Restore() { g_impl = s; }
  } restore{saved};

  if (im.opt.trace) im.stats.steps.clock = "logical";
  Kernel& k0 = *im.kernels[0];
  int resident = im.opt.resident_blocks > 0 ? im.opt.resident_blocks : k0.spec.grid_blocks;
  for (int i = 0; i < std::min(resident, k0.spec.grid_blocks); ++i) im.launch_cta(k0, i);

  for (;;) {
    if (++im.stats.actions > im.opt.max_actions)
      throw EmulationError("ts::cpu: more than max_actions scheduler decisions (livelock? a spinning try_wait loop?)");
    // Actions in a fixed order: runnable fibers, async ops, MMA engines, one launch.
    std::vector<Cta*> engines;
    for (auto& kp : im.kernels)
      for (auto& c : kp->ctas)
        if (c && !c->mma_queue.empty()) engines.push_back(c.get());
    Kernel* launch = im.launchable_kernel();
    size_t n = im.runnable.size() + im.async_ops.size() + engines.size() + (launch ? 1 : 0);
    if (n == 0) {
      bool all_done = true;
      for (auto& kp : im.kernels) all_done &= kp->complete();
      if (all_done) break;
      im.deadlock();
    }
    size_t r = im.next_random() % n;
    im.stats.trace.push_back(r);
    if (r < im.runnable.size()) {
      Fiber* f = im.runnable[r];
      im.runnable[r] = im.runnable.back();
      im.runnable.pop_back();
      im.switch_to(f);
      if (im.error) std::rethrow_exception(im.error);
      if (f->state == FiberState::Done) {
        if (f->trace_open >= 0) im.stats.steps.events[f->trace_open].end = im.stats.actions;
        im.fiber_done(f);
      }
      continue;
    }
    r -= im.runnable.size();
    if (r < im.async_ops.size()) {
      AsyncOp op = std::move(im.async_ops[r]);
      im.async_ops.erase(im.async_ops.begin() + long(r));  // keep the order of the rest stable
      ++im.stats.async_completions;
      op.fn();
      --op.cta->async_inflight;
      im.maybe_retire(*op.cta);
      continue;
    }
    r -= im.async_ops.size();
    if (r < engines.size()) {
      Cta* c = engines[r];
      auto fn = std::move(c->mma_queue.front());
      c->mma_queue.pop_front();
      ++im.stats.async_completions;
      fn();
      im.maybe_retire(*c);
      continue;
    }
    im.launch_cta(*launch, first_pending(*launch));
  }
  if (im.replay_cursor < int(im.replay.size())) im.replay_diverged("the kernel finished without reaching it");
  for (auto& e : im.stats.steps.events)
    if (e.end < 0) e.end = im.stats.actions;  // threads that ended without another step
  RunStats s = im.stats;
  return s;
}

}  // namespace ts::cpu
