// Iteration bookkeeping: guards, and the parametric abstraction that proves a schedule
// for every domain length at once (SPEC S7, DESIGN "exploit the loop").
//
// Why it is exact: credits are bounded by num_stages, so tasks that synchronise every
// iteration stay within a bounded distance of each other. Iterations are therefore kept
// relative to the slowest task in the loop (lo, per loop slot = work tile); lo itself is
// kept only as precisely as guards can observe it (exact below the largest every() start,
// then its phase modulo the every() periods); the loop length K enters only through
// "remaining = K - lo", which stays unknown (with a floor) until a task asks whether the
// loop is over or this is its last iteration, and then forks. Two concrete states that
// agree on this abstraction have the same futures, so the finite abstract state space
// is a proof for every K >= 1. When tasks can drift further apart than drift_ (nothing
// bounds their distance) the abstraction is abandoned and the checker falls back to
// concrete lengths, saying so.
#include "semantics.hpp"

namespace ts::check {

int Semantics::guard_holds(uint16_t const* s, int t, Instr const& in) const {
  int to = Layout::task_off(t);
  long long d = s[to + 2];
  bool exact = true;
  long long v = d;
  int last;  // is this the last iteration: 0, 1, or 2 (not revealed yet)
  if (param_task(t)) {
    int slot = loop_slot(s, t);
    long long lo = s[lay_.slots_off + 2 * slot];
    uint16_t r = s[lay_.slots_off + 2 * slot + 1];
    if (r & kUnknown) last = d + 2 <= (r & ~kUnknown) ? 0 : 2;  // K - lo >= d + 2: not the last
    else last = r == d + 1;
    if (lo < sat_ && lo + d < sat_) {
      v = lo + d;
    } else {
      exact = false;  // v is the phase above sat_: iteration = sat_ + v (mod period_)
      v = lo < sat_ ? (lo + d - sat_) % period_ : (lo - sat_ + d) % period_;
    }
  } else {
    last = trip(t) - d == 1;
  }
  switch (in.guard) {
    case ir::BlockKind::FirstIter: return exact && v == 0;
    case ir::BlockKind::LastIter: return last;
    case ir::BlockKind::Every:
      if (exact) return v >= in.start && (v - in.start) % in.period == 0;
      return ((v + sat_ - in.start) % in.period) == 0;
    default: return 1;
  }
}

void Semantics::renormalize(uint16_t* b) const {
  for (int slot = 0; slot < lay_.nslots; ++slot) {
    int lowest = 1 << 30;
    bool any = false;
    for (int t = 0; t < lay_.tasks; ++t) {
      if (!param_task(t) || !ps_.tasks[t].loop_emitted) continue;
      int to = Layout::task_off(t);
      auto const& in = code(t)[b[to]];
      if (in.op == Op::End) continue;
      bool has_tiles = ps_.tasks[t].has_tile_loop;
      int tile = has_tiles ? (in.tile_region == kBefore ? -1 : in.tile_region == kAfter ? 1 << 20 : b[to + 1]) : 0;
      if (tile > slot) continue;  // past this slot
      any = true;
      if (tile < slot || in.loop_region == kBefore || in.loop_ahead) lowest = 0;
      else if (in.loop_region == kInside) lowest = std::min<int>(lowest, b[to + 2]);
      else if (tile == slot && in.loop_region == kAfter) { /* past this slot's loop */ }
    }
    int so = lay_.slots_off + 2 * slot;
    if (!any || lowest == (1 << 30)) {
      b[so] = 0;
      b[so + 1] = 0;  // dead slot: canonical
      continue;
    }
    if (lowest == 0) continue;
    int delta = lowest;
    for (int t = 0; t < lay_.tasks; ++t) {
      if (!param_task(t) || !ps_.tasks[t].loop_emitted) continue;
      int to = Layout::task_off(t);
      auto const& in = code(t)[b[to]];
      if (in.op == Op::End || in.loop_region != kInside) continue;
      if (ps_.tasks[t].has_tile_loop && (in.tile_region != kInside || b[to + 1] != slot)) continue;
      b[to + 2] = static_cast<uint16_t>(b[to + 2] - delta);
    }
    for (int e = 0; e < lay_.ndec; ++e) {
      uint16_t* en = &b[lay_.dec_off + 3 * e];
      // Inside some loop (odd progress, Instr::loop_progress); a shift happens only once
      // every task of the slot is in or past its last loop, so these are that loop's.
      if (en[0] == 0 || (en[1] & 1) == 0) continue;
      if (lay_.nslots > 1 && int((en[1] >> 8) & 0x7f) != slot + 1) continue;
      if (en[2] < delta) en[0] = en[1] = en[2] = 0;
      else en[2] = static_cast<uint16_t>(en[2] - delta);
    }
    long long lo = b[so] + delta;  // saturates: exact below sat_, then a phase mod period_
    if (lo >= sat_) lo = sat_ + (lo - sat_) % period_;
    b[so] = static_cast<uint16_t>(lo);
    if (b[so + 1] & kUnknown) {
      // The floor covers every task's iteration (a task at iteration d proved K - lo > d;
      // one paused at the loop head after d iterations proved K - lo >= d), so it stays
      // non-negative: exact, without assuming an iteration nobody has entered yet.
      int f = (b[so + 1] & ~kUnknown) - delta;
      b[so + 1] = static_cast<uint16_t>(kUnknown | std::max(f, 0));
    } else {
      b[so + 1] = static_cast<uint16_t>(b[so + 1] - delta);
    }
  }
}

}  // namespace ts::check
