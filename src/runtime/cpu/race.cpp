// Data-race detection on emulated shared memory (RunOptions::detect_races).
//
// Covers: accesses made through the portable layer's checked accessors
// (ts::arch::smem_load / smem_store), the SMEM written by bulk/tensor copies and CLC
// responses (by a copy engine, an actor of its own per completion barrier, when the copy
// lands) and the SMEM an MMA reads (by the MMA actor of its issuing thread, when the MMA
// executes; Cta::EngineActor). Happens-before comes from vector clocks: an mbarrier
// arrival releases the arriving thread's clock into the phase, a successful wait /
// try_wait acquires the clock of the last completed phase, a copy's completion releases
// the copy engine's write (after the issuer's clock at the issue), a tcgen05.commit the
// reads of its thread's MMAs, and the CTA barrier joins all.
// Not covered: plain pointer accesses in work bodies, TMEM, global memory.
#include <algorithm>

#include "state.hpp"

namespace ts::cpu {

namespace {
bool ordered(int tid, uint32_t clk, VClock const& now) {
  return tid < 0 || (size_t(tid) < now.size() && clk <= now[tid]);
}
}  // namespace

void Emulator::Impl::record_access_at(Cta& c, int tid, uint32_t clk, VClock const& vc, int step, uint32_t off,
                                      std::size_t bytes, bool write, bool program_order) {
  if (c.shadow.empty()) return;
  for (std::size_t i = 0; i < bytes; ++i) {
    ShadowCell& s = c.shadow[off + i];
    int other = -1, other_step = -1;
    uint32_t other_clk = 0;
    bool other_write = false;
    if ((s.w_tid != tid || !program_order) && !ordered(s.w_tid, s.w_clk, vc)) {
      other = s.w_tid;
      other_step = s.w_step;
      other_clk = s.w_clk;
      other_write = true;
    }
    if (write && other < 0)
      for (auto const& [rt, rc, rs] : s.reads)
        if ((rt != tid || !program_order) && !ordered(rt, rc, vc)) {
          other = rt;
          other_step = rs;
          other_clk = rc;
          break;
        }
    if (other >= 0) {
      Model const* m = c.kernel->spec.model;
      auto step_txt_thread = [&](int thread, int st) {
        Fiber const& f = *c.fibers[thread];
        std::string s2 = "thread " + std::to_string(thread);
        if (m && f.task >= 0) {
          s2 += " (task '" + m->tasks[f.task].name + "'";
          if (st >= 0) s2 += ", step #" + std::to_string(st) + " " + m->step_text(f.task, st);
          s2 += ")";
        }
        return s2;
      };
      auto step_txt = [&](int thread, int st) {
        uint32_t at = thread == tid ? clk : other_clk;
        if (thread >= int(c.fibers.size())) {  // an engine: name the operation by its issuer
          auto const& actor = c.actors[size_t(thread - c.actor_tid(0))];
          std::string engine = actor.mma ? "the MMA engine" : "the copy engine";
          if (at == 0 || at > actor.issued.size()) return engine;
          return engine + (actor.mma ? " (reading for the MMA issued by " : " (writing for the copy issued by ") +
                 step_txt_thread(actor.issued[at - 1].first, actor.issued[at - 1].second) + ")";
        }
        return step_txt_thread(thread, st);
      };
      throw RaceError("data race on shared memory " + smem_name(c, off + uint32_t(i)) + " in CTA " +
                      std::to_string(c.idx) + ": " + (write ? "write" : "read") + " by " + step_txt(tid, step) +
                      " is not ordered by any barrier with the earlier " + (other_write ? "write" : "read") + " by " +
                      step_txt(other, other_step));
    }
    if (write) {
      s.w_tid = tid;
      s.w_clk = clk;
      s.w_step = step;
      s.reads.clear();
    } else {
      auto it = std::find_if(s.reads.begin(), s.reads.end(), [&](auto const& r) { return std::get<0>(r) == tid; });
      if (it != s.reads.end()) *it = {tid, clk, step};
      else s.reads.emplace_back(tid, clk, step);
    }
  }
}

}  // namespace ts::cpu
