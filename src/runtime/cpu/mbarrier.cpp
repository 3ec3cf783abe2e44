// Emulated mbarriers with the PTX semantics the CUDA backend relies on: init with an
// arrival count; arrive / arrive.expect_tx; transaction bytes completed by the copy
// and CLC engines; a phase completes when pending arrivals reach zero and the
// transaction count is zero; try_wait.parity(P) is true once the phase of parity P
// completed. Misuse that hardware would silently absorb or hang on is an error here.
#include <algorithm>

#include "state.hpp"

namespace ts::cpu {

namespace {
constexpr long long kTxLimit = (1ll << 20) - 1;  // PTX tx-count range
}

MbarState& Emulator::Impl::bar(Cta& c, uint64_t* b, char const* what) {
  auto* p = reinterpret_cast<unsigned char*>(b);
  if (p < c.smem || p + 8 > c.smem + c.smem_bytes || (reinterpret_cast<uintptr_t>(p) & 7))
    self->fail(std::string(what) + " on an address that is not an 8-byte aligned mbarrier in this CTA's shared memory");
  auto it = c.bars.find(uint32_t(p - c.smem));
  if (it == c.bars.end() || !it->second.init)
    self->fail(std::string(what) + " on an uninitialised mbarrier (" + barrier_name(c, b) + ")");
  return it->second;
}

void Emulator::mbar_init(uint64_t* b, int count) {
  Impl& im = *impl_;
  Cta& c = *im.fiber().cta;
  auto* p = reinterpret_cast<unsigned char*>(b);
  if (p < c.smem || p + 8 > c.smem + c.smem_bytes || (reinterpret_cast<uintptr_t>(p) & 7))
    fail("mbarrier.init on an address outside this CTA's shared memory");
  if (count <= 0) fail("mbarrier.init with a non-positive arrival count (" + im.barrier_name(c, b) + ")");
  MbarState& s = c.bars[uint32_t(p - c.smem)];
  s = MbarState{};
  s.init = true;
  s.expected = s.pending = count;
  *b = 0;  // the word itself is opaque; keep it deterministic
}

void Emulator::Impl::complete_phase_if_done(Cta& c, MbarState& s) {
  (void)c;
  if (s.pending != 0 || s.tx != 0) return;
  s.phase ^= 1u;
  ++s.completed;
  s.pending = s.expected;
  s.arrived.clear();
  if (opt.detect_races) {
    s.released = std::move(s.accum);
    s.accum.clear();
  }
  wake_all(s.waiters);
}

// tid < 0: an engine (MMA commit) arrives; `vc` is what it releases.
void Emulator::Impl::mbar_arrive_by(Cta& c, uint64_t* b, int tid, VClock const* vc, char const* who) {
  MbarState& s = bar(c, b, "mbarrier.arrive");
  if (tid >= 0) {
    if (std::find(s.arrived.begin(), s.arrived.end(), tid) != s.arrived.end())
      self->fail(std::string("over-arrival: ") + who + " arrived twice in one phase of " + barrier_name(c, b) +
                 " (init count " + std::to_string(s.expected) + ")");
    s.arrived.push_back(tid);
  }
  if (s.pending <= 0)
    self->fail(std::string("over-arrival: ") + who + " arrived on " + barrier_name(c, b) +
               " whose arrivals are all in (init count " + std::to_string(s.expected) + ", phase still waits for " +
               std::to_string(s.tx) + " transaction bytes)");
  if (opt.detect_races && vc) vc_join(s.accum, *vc);
  --s.pending;
  if (s.pending == 0 && s.tx < 0)
    self->fail("transaction-byte overflow on " + barrier_name(c, b) + ": " + std::to_string(-s.tx) +
               " bytes more than expected completed");
  complete_phase_if_done(c, s);
}

void Emulator::Impl::complete_tx(Cta& c, uint64_t* b, uint32_t bytes) {
  MbarState& s = bar(c, b, "complete_tx");
  s.tx -= bytes;
  if (s.tx < -kTxLimit || (s.pending == 0 && s.tx < 0))
    self->fail("transaction-byte overflow on " + barrier_name(c, b) + ": " + std::to_string(bytes) +
               " bytes completed, " + std::to_string(bytes + s.tx) + " were expected");
  complete_phase_if_done(c, s);
}

void Emulator::mbar_arrive(uint64_t* b) {
  Impl& im = *impl_;
  Fiber& f = im.fiber();
  im.mbar_arrive_by(*f.cta, b, f.tid, &f.vc, "a thread");
  if (im.opt.detect_races) ++f.vc[f.tid];
}

void Emulator::mbar_expect_tx(uint64_t* b, uint32_t bytes) {
  Impl& im = *impl_;
  Cta& c = *im.fiber().cta;
  MbarState& s = im.bar(c, b, "mbarrier.expect_tx");
  if (s.tx + bytes > kTxLimit)
    fail("transaction-byte overflow on " + im.barrier_name(c, b) + ": expecting " + std::to_string(s.tx + bytes) +
         " bytes exceeds the tx-count range");
  s.tx += bytes;
}

void Emulator::mbar_arrive_expect_tx(uint64_t* b, uint32_t bytes) {
  mbar_expect_tx(b, bytes);
  mbar_arrive(b);
}

bool Emulator::mbar_try_wait(uint64_t* b, uint32_t parity) {
  Impl& im = *impl_;
  yield();  // try_wait may suspend for a while on hardware: a scheduling point
  Fiber& f = im.fiber();
  MbarState& s = im.bar(*f.cta, b, "mbarrier.try_wait");
  bool done = s.phase != (parity & 1u);
  if (done && im.opt.detect_races) vc_join(f.vc, s.released);
  return done;
}

void Emulator::mbar_wait(uint64_t* b, uint32_t parity, WaitSite const& site) {
  Impl& im = *impl_;
  Fiber& f = im.fiber();
  for (;;) {
    MbarState& s = im.bar(*f.cta, b, "mbarrier wait");
    if (s.phase != (parity & 1u)) {
      if (im.opt.detect_races) vc_join(f.vc, s.released);
      return;
    }
    s.waiters.push_back(&f);
    f.wait_bar = b;
    f.wait_parity = parity;
    f.site = site;
    im.block(WaitKind::Mbar);
  }
}

void Emulator::umma_commit(uint64_t* b) {
  Impl& im = *impl_;
  Fiber& f = im.fiber();
  Cta* c = f.cta;
  im.bar(*c, b, "umma commit");  // validate now, while the issuing thread is known
  VClock snap = f.vc;
  Impl* ip = &im;
  int tid = f.tid;
  // The commit arrives once the engine ran every MMA issued before it; for race detection
  // it releases the reads of the MMAs this thread issued (its MMA actor's clock) with the
  // committer's clock, not other threads' MMAs, which a commit does not track on the GPU.
  c->mma_queue.push_back([ip, c, b, snap, tid] {
    VClock rel = snap;
    auto it = c->actor_index.find({true, uint32_t(tid)});
    if (it != c->actor_index.end()) vc_join(rel, c->actors[size_t(it->second)].vc);
    ip->mbar_arrive_by(*c, b, -1, &rel, "the MMA engine (commit)");
  });
  if (im.opt.detect_races) ++f.vc[f.tid];
}

}  // namespace ts::cpu
