// Transition relation of the checker; see semantics.hpp for the state layout.
#include "semantics.hpp"

#include <stdexcept>
#include <string>

#include <numeric>

namespace ts::check {

Semantics::Semantics(Model const& m, ProgramSet const& ps, Config const& cfg) : m_(m), ps_(ps), cfg_(cfg) {
  int nt = static_cast<int>(ps.tasks.size());
  lay_.tasks = nt;
  int w = nt * 4;
  std::vector<bool> commit_fenced(ps.pipes.size(), false);
  for (size_t i = 0; i < ps.pipes.size(); ++i) {
    for (int r : ps.pipes[i].commit_fenced_reads) commit_fenced[r] = true;
    // A fence word keeps the fencing ring's index in kFenceShift bits.
    if (!ps.pipes[i].commit_fenced_reads.empty() && i + 1 >= (1u << kFenceShift))
      throw std::length_error("checker: an MMA commit fence on ring " + std::to_string(i) + "; at most " +
                              std::to_string((1 << kFenceShift) - 2) + " rings before a fencing one");
  }
  for (auto const& p : ps.pipes) {
    lay_.pipe_off.push_back(w);
    int slots = static_cast<int>(p.consumers.size());
    lay_.pipe_slots.push_back(slots);
    for (int k = 0; k < slots; ++k)
      if (p.roles[k] == SlotRole::WaitOnly)
        wait_only_.push_back({static_cast<int>(lay_.pipe_off.size()) - 1, k, p.consumers[k]});
    w += 2 + 2 * slots;
    lay_.turn_off.push_back(p.turns ? w : -1);
    if (p.turns) w += 1 + p.stages + slots;
    // Turn pipes too: a turn-taker's wait on an empty stage blocks, as on the device.
    bool poison_model = p.tma_fill_check && p.lanes == 0;
    lay_.fill_off.push_back(poison_model ? w : -1);
    if (poison_model) w += 2;
    lay_.fence_off.push_back(commit_fenced[lay_.pipe_off.size() - 1] ? w : -1);
    if (lay_.fence_off.back() >= 0) w += 1;
  }
  lay_.glob = w;
  w += kGlobWords;
  bool tiles = false;
  for (auto const& t : ps.tasks) tiles |= t.has_tile_loop;
  tile_mode_ = cfg.every_tile_count && tiles;
  int depth = nt;
  for (auto const& p : ps.pipes) depth += p.stages;
  tile_window_ = std::clamp(depth, 4, kMaxTileWindow);
  lay_.nslots = !tiles ? 1 : tile_mode_ ? tile_window_ : std::max(1, cfg.tiles);
  lay_.slots_off = w;
  w += 2 * lay_.nslots;
  // Shared-condition outcomes stay in the table while some user has not passed them;
  // users are at most drift_ iterations apart (beyond that the parametric proof gives
  // up anyway), so drift_ + 3 entries per key suffice.
  int shared = 0, max_stages = 1;
  for (auto const& k : ps.keys) shared += __builtin_popcountll(k.users) > 1;
  for (auto const& p : ps.pipes) max_stages = std::max(max_stages, p.stages);
  drift_ = std::max(16, 4 * max_stages + 4);
  // Concrete runs: users are at most `length` iterations apart (capped; overflowing the
  // table makes the run INCOMPLETE, never SAFE).
  long long per_key = cfg.parametric ? drift_ + 3 : std::min<long long>(std::max<long long>(cfg.length, 0) + 3, 128);
  // Every-tile-count runs: users may also be up to a window of tiles apart (a full table
  // stops the run, which then falls back to the fixed tile count).
  if (tile_mode_) per_key += tile_window_;
  lay_.ndec = shared * static_cast<int>(per_key);
  lay_.dec_off = w;
  w += 3 * lay_.ndec;
  lay_.words = w;
  for (int t = 0; t < nt; ++t) {
    auto const& ir = m.tasks[t].schedule;
    std::vector<uint8_t> a(ir.steps.size(), 0);
    for (auto const& s : ir.steps)
      a[s.id] = s.kind == SyncOp::TryAcquire || s.kind == SyncOp::TryWait ||
                (s.kind == SyncOp::Work && s.role == WorkRole::Auxiliary);
    aux_.push_back(std::move(a));
  }
  for (int t = 0; t < nt; ++t) {
    bool shared_key = false;
    for (auto const& k : ps.keys) shared_key |= (k.users >> t & 1) && __builtin_popcountll(k.users) > 1;
    pins_tiles_.push_back(!ps.tasks[t].has_tile_loop && shared_key);
  }
  bool any_param = false;
  for (int t = 0; t < nt; ++t) any_param |= param_task(t) && ps.tasks[t].has_loop;
  // Every tile count: where a zero-trip tile is a tile fewer, the tile count covers it and
  // each tile's loop runs at least once.
  int min_length = tile_mode_ && ps.zero_trip_tiles_silent ? std::max(cfg.min_length, 1) : cfg.min_length;
  slot_rem_init_ = any_param ? static_cast<uint16_t>(kUnknown | min_length) : 0;
  // Parametric abstraction: iterations below sat_ are exact, above it only their phase
  // modulo every guard period matters.
  for (auto const& t : ps.tasks)
    for (auto const& in : t.code)
      if (in.op == Op::Guard && in.guard == ir::BlockKind::Every) {
        sat_ = std::max(sat_, in.start + 1);
        period_ = std::lcm(period_, in.period);
      }
}

long long Semantics::trip(int t) const {
  auto const& task = ps_.tasks[t];
  if (task.static_trip >= 0) return task.static_trip;
  // Loops not provably as long as the others run their own class's length.
  int c = task.length_class;
  return c >= 0 && c < static_cast<int>(cfg_.class_length.size()) ? cfg_.class_length[c] : cfg_.length;
}

void Semantics::initial(std::vector<std::vector<uint16_t>>& out) const {
  // Concrete tiles: every skip pattern up front. Every tile count: skips are revealed
  // when first asked, and the tile count is 0 or unknown (at least 1).
  int masks = ps_.any_skippable && !tile_mode_ ? (1 << std::max(cfg_.tiles, 0)) : 1;
  std::vector<uint16_t> sink;
  for (int variant = 0; variant < masks; ++variant) {
    {
      std::vector<uint16_t> b(lay_.words, 0);
      if (tile_mode_) b[lay_.glob + kGlobTilesLeft] = kUnknown;  // T >= 0
      else b[lay_.glob + kGlobSkipMask] = static_cast<uint16_t>(variant);
      for (int i = 0; i < lay_.nslots; ++i) b[lay_.slots_off + 2 * i + 1] = slot_rem_init_;
      fresh_credits(b.data());
      // Run every task up to its first step; conditions on the way fork.
      std::vector<std::vector<uint16_t>> cur{b};
      for (int t = 0; t < lay_.tasks; ++t) {
        std::vector<std::vector<uint16_t>> next;
        for (auto& st : cur) {
          sink.clear();
          std::vector<uint16_t> tmp = st;
          // advance() finishes into sink; finishing early is harmless (GC runs again later).
          advance(tmp, t, sink);
          for (size_t o = 0; o < sink.size(); o += lay_.words)
            next.emplace_back(sink.begin() + o, sink.begin() + o + lay_.words);
        }
        cur.swap(next);
      }
      for (auto& st : cur) out.push_back(st);
    }
  }
}

Effect Semantics::next_effect(uint16_t const* s, int t) const {
  auto const& in = instr(s, t);
  if (in.op != Op::Step) return Effect::Local;
  return ps_.steps[t][in.step].effect;
}

int Semantics::next_pipe(uint16_t const* s, int t) const {
  auto const& in = instr(s, t);
  if (in.op != Op::Step) return -1;
  return ps_.steps[t][in.step].pipe;
}

// Visible: the step can change a failure predicate (race, PDL, unbalanced, hang), so the
// reduction never expands it alone. Besides steps on aliased or split pipes and PDL ops,
// that includes any step that closes the task's open access window (the window decides
// races: issue 13.1), and a credit op that would raise a failure flag right here.
bool Semantics::visible(uint16_t const* s, int t) const {
  auto const& in = instr(s, t);
  // A silent pause touches nothing, but moving the task's pc can end its wait-only read.
  if (in.op != Op::Step) return reading_wait_only(s, t);
  auto const& si = ps_.steps[t][in.step];
  bool keeps_window = si.effect == Effect::Local && aux_[t][in.step];
  if (s[Layout::task_off(t) + 3] != 0 && !keeps_window) return true;
  if (reading_wait_only(s, t)) return true;  // this step may end the read a stage reuse tests
  // Filling work sets the TMA fill bit another task's commit reads and clears.
  if (si.fills_pipe >= 0 && !ps_.pipes[si.fills_pipe].own_producer()) return true;
  if (si.reuse_pipe >= 0) return true;  // the write a stage reuse race is tested at
  switch (si.effect) {
    case Effect::Local: return false;
    case Effect::AliasWork:
    case Effect::PdlWait:
    case Effect::PdlLaunch: return true;
    default: break;
  }
  auto const& p = ps_.pipes[si.pipe];
  if (p.aliased || p.split || p.turns || !p.fenced_reads.empty() || !p.commit_fenced_reads.empty()) return true;
  int o = lay_.pipe_off[si.pipe];
  // Acquires and commits of a pipe whose producer side spans tasks do not commute (a
  // commit's outcome depends on the other task's acquire): never expanded alone.
  if ((si.effect == Effect::Acquire || si.effect == Effect::Commit) && !p.own_producer()) return true;
  // A warp-lane op is several stage ops: its failure tests count all of them.
  if (si.weight > 1 && p.tma_fill_check) return true;
  if (si.effect == Effect::Commit) {
    if (s[o] < si.weight) return true;
    if (p.tma_fill_check && s[o] == 1 && !(s[o + 1] & kFilled)) return true;
    // Empty-stage bookkeeping: a commit that poisons the ring or moves a poison decides
    // which waits can ever pass.
    if (int fo = lay_.fill_off[si.pipe]; fo >= 0 && (s[fo] || s[fo + 1])) return true;
  }
  if (si.effect == Effect::Acquire && p.tma_fill_check && s[o] >= 1 && !(s[o + 1] & kFilled)) return true;
  if (si.effect == Effect::Release && s[o + 3 + 2 * si.consumer_slot] < si.weight) return true;
  return false;
}

bool Semantics::enabled(uint16_t const* s, int t) const {
  auto const& in = instr(s, t);
  if (at_silent_pause(s, t)) return true;
  if (in.op != Op::Step) return false;
  return credit_op_enabled(s, t, ps_.steps[t][in.step]);
}

void Semantics::fresh_credits(uint16_t* b) const {
  for (size_t p = 0; p < ps_.pipes.size(); ++p)  // every stage of a turn pipe starts free
    if (lay_.turn_off[p] >= 0)
      for (int k = 0; k < ps_.pipes[p].stages; ++k) b[lay_.turn_off[p] + 1 + k] = 1;
}

bool Semantics::credit_op_enabled(uint16_t const* s, int t, StepInfo const& si) const {
  if (si.weight > 1) return lanes_enabled(s, t, si);
  return credit_enabled(s, si);
}

void Semantics::credit_op(std::vector<uint16_t>& b, int t, StepInfo const& si) const {
  if (si.fills_pipe >= 0) b[lay_.pipe_off[si.fills_pipe] + 1] |= kFilled;
  switch (si.effect) {
    case Effect::Acquire:
    case Effect::Commit:
    case Effect::Wait:
    case Effect::Release:
    case Effect::StageSkip:  // only on turn pipes
      for (int k = 0; k < si.weight; ++k) lane_op(b, t, si);  // a warp-lane op: one per warp
      break;
    default: break;
  }
}

// A warp-lane op (StepInfo::weight > 1): its stage ops, one per warp, in ring order. The
// task's op passes when every one of them can (the runtime converges the task after it),
// so each is tried on the state the previous ones left.
bool Semantics::lanes_enabled(uint16_t const* s, int t, StepInfo const& si) const {
  std::vector<uint16_t>& b = lane_scratch_;  // enabled() is on the hot path: no allocation
  b.assign(s, s + lay_.words);
  for (int k = 0; k < si.weight; ++k) {
    if (!credit_enabled(b.data(), si)) return false;
    lane_op(b, t, si);
  }
  return true;
}

void Semantics::lane_op(std::vector<uint16_t>& b, int t, StepInfo const& si) const {
  if (lay_.turn_off[si.pipe] >= 0) turn_step(b, t, si);
  else apply_credit(b, si);
}

bool Semantics::credit_enabled(uint16_t const* s, StepInfo const& si) const {
  if (si.pipe >= 0 && lay_.turn_off[si.pipe] >= 0) return turn_enabled(s, si);  // turn_credits.cpp
  if (si.effect == Effect::Acquire) {
    int o = lay_.pipe_off[si.pipe];
    if (ps_.pipes[si.pipe].lanes) return lane_stage_free(s, si.pipe);
    return s[o] + stages_in_use(s, si.pipe) < ps_.pipes[si.pipe].stages;
  }
  if (si.effect == Effect::Wait) {
    uint16_t unwaited = s[lay_.pipe_off[si.pipe] + 2 + 2 * si.consumer_slot];
    // The oldest commit this slot has not waited is the poisoned one: its full barrier
    // never completes.
    if (int fo = lay_.fill_off[si.pipe]; fo >= 0 && s[fo] && unwaited == s[fo]) return false;
    return unwaited > 0;
  }
  return true;
}

int Semantics::stages_in_use(uint16_t const* s, int pipe) const {
  auto const& p = ps_.pipes[pipe];
  int o = lay_.pipe_off[pipe], used = 0;
  for (int c = 0; c < lay_.pipe_slots[pipe]; ++c) {
    switch (p.roles[c]) {
      case SlotRole::WaitRelease: used = std::max(used, s[o + 2 + 2 * c] + s[o + 3 + 2 * c]); break;
      case SlotRole::ReleaseOnly:
      case SlotRole::Phantom: used = std::max<int>(used, s[o + 2 + 2 * c]); break;
      case SlotRole::WaitOnly: break;  // does not give stages back
    }
  }
  return used;
}

bool Semantics::reading_wait_only(uint16_t const* s, int t) const {
  for (auto const& w : wait_only_)
    if (w.task == t && s[lay_.pipe_off[w.pipe] + 3 + 2 * w.slot] > 0) return true;
  return false;
}

void Semantics::end_reads(uint16_t* s) const {
  for (auto const& w : wait_only_) {
    uint16_t& reading = s[lay_.pipe_off[w.pipe] + 3 + 2 * w.slot];
    if (w.pipe >= 64) continue;  // may_read tracks pipes 0..63; beyond, a read stays open (conservative)
    if (reading && !(ps_.tasks[w.task].may_read[s[Layout::task_off(w.task)]] >> w.pipe & 1)) reading = 0;
  }
}

void Semantics::successors(uint16_t const* s, int t, std::vector<uint16_t>& out, bool known_enabled) const {
  if (!known_enabled && !enabled(s, t)) return;
  std::vector<uint16_t>& b = scratch_;
  b.assign(s, s + lay_.words);
  int to = Layout::task_off(t);
  auto const& in = code(t)[b[to]];
  if (in.op != Op::Step) {  // a silent pause: continue the loop
    advance(b, t, out);
    return;
  }
  auto const& si = ps_.steps[t][in.step];
  credit_op(b, t, si);  // the fill bit, then the op's stage moves (none for a work step)
  if (si.reuse_pipe >= 0) check_reuse(b.data(), si.reuse_pipe, 1);  // the write into the newest acquired stage
  uint16_t& lw = b[to + 3];
  int po = si.pipe >= 0 ? lay_.pipe_off[si.pipe] : 0;
  if (si.pipe >= 0 && lay_.turn_off[si.pipe] >= 0 && si.effect != Effect::AliasWork) {
    lw = 0;
    ++b[to];
    advance(b, t, out);
    return;
  }
  switch (si.effect) {
    case Effect::Local:
      if (!aux_[t][in.step]) lw = 0;
      break;
    case Effect::AliasWork:
      lw = static_cast<uint16_t>(in.step + 1);
      if (si.pipe >= 0) {
        if (si.writes && ps_.pipes[si.pipe].async_producer) b[po + 1] |= kAsyncHold;
        // A new read is not covered by an earlier accumulator commit.
        if (!si.writes && ps_.pipes[si.pipe].umma_consumer) {
          b[po + 1] = (b[po + 1] | kUmmaCur) & ~kUmmaFenced;
          if (int fo = lay_.fence_off[si.pipe]; fo >= 0) b[fo] = 0;  // nor by an earlier commit on another ring
        }
      }
      break;
    case Effect::Acquire:
    case Effect::Commit:
    case Effect::Wait:
    case Effect::Release:
      lw = 0;  // the stage ops: credit_op above
      break;
    case Effect::PdlWait:
      lw = 0;
      b[lay_.glob] |= kPdlWaited;
      break;
    case Effect::PdlLaunch:
      lw = 0;
      if (!(b[lay_.glob] & kPdlWaited) && !cfg_.assume_pdl_wait_completed) b[lay_.glob] |= kPdlViolation;
      break;
    case Effect::StageSkip: lw = 0; break;  // only on turn pipes (above)
  }
  ++b[to];
  advance(b, t, out);
}

// Stage reuse under a WaitOnly reader. The stage of the item `held` acquisitions back
// from the next one (0: the acquire about to be made, 1: the newest acquired stage, which
// the producer's work writes) held the item `stages` before it; a WaitOnly slot with more
// than stages - U - 1 + held items unfinished (unwaited + still read) has not finished
// reading it: uncommitted + a + b >= stages + held.
void Semantics::check_reuse(uint16_t* b, int pipe, int held) const {
  int po = lay_.pipe_off[pipe];
  for (int c = 0; c < lay_.pipe_slots[pipe]; ++c)
    if (ps_.pipes[pipe].roles[c] == SlotRole::WaitOnly &&
        b[po] + b[po + 2 + 2 * c] + b[po + 3 + 2 * c] >= ps_.pipes[pipe].stages + held) {
      b[lay_.glob] |= kRace;
      b[po + 1] |= kReuseRace;
    }
}

// One stage op of a credit step (a whole task op unless the step is warp-lane).
void Semantics::apply_credit(std::vector<uint16_t>& b, StepInfo const& si) const {
  int po = lay_.pipe_off[si.pipe];
  switch (si.effect) {
    case Effect::Acquire:
      // The stage this acquire reuses held the item `stages` back; a WaitOnly consumer
      // with that many items unfinished (uncommitted + unwaited + still read) reads it.
      // Where the write is known (Pipe::reuse_at_write), the race is that write instead.
      if (!ps_.pipes[si.pipe].reuse_at_write) check_reuse(b.data(), si.pipe, 0);
      if (ps_.pipes[si.pipe].tma_fill_check) fill_on_acquire(b.data(), si.pipe);  // empty_stages.cpp
      ++b[po];
      end_umma_reads_on_reuse(b.data(), si.pipe);
      break;
    case Effect::Commit:
      if (ps_.pipes[si.pipe].tma_fill_check) fill_on_commit(b.data(), si.pipe);  // empty_stages.cpp
      if (b[po] > 0) --b[po];
      else b[lay_.glob] |= kCommitNoAcquire;  // exact accounting: a commit needs an acquired stage
      for (int r : ps_.pipes[si.pipe].fenced_reads)  // the accumulator commit fences the MMA reads so far
        if (b[lay_.pipe_off[r] + 1] & (kUmmaCur | kUmmaPending)) b[lay_.pipe_off[r] + 1] |= kUmmaFenced;
      if (int lanes = ps_.pipes[si.pipe].lanes) {
        // Domain lanes: this commit's stage belongs to one lane only.
        int lane = high_byte(b[po + 1]);
        ++b[po + 2 + 2 * ps_.pipes[si.pipe].slot_of_lane[lane]];
        set_high_byte(b[po + 1], (lane + 1) % lanes);
      } else {
        for (int c = 0; c < lay_.pipe_slots[si.pipe]; ++c) ++b[po + 2 + 2 * c];
      }
      // The engine's writes into the committed stage are tracked by the stage being full
      // and unwaited from now on; a stage still acquired and uncommitted may hold a copy
      // in flight too (the bit does not say which stage was written: conservative).
      if (b[po] == 0) b[po + 1] &= ~kAsyncHold;
      break;
    case Effect::Wait:
      --b[po + 2 + 2 * si.consumer_slot];
      ++b[po + 3 + 2 * si.consumer_slot];
      // Paired accumulator wait: with every commit waited by this task, the fencing one is
      // among them, so the MMA reads it fenced are complete.
      if (b[po + 2 + 2 * si.consumer_slot] == 0)
        for (int r : ps_.pipes[si.pipe].fenced_reads) {
          uint16_t& f = b[lay_.pipe_off[r] + 1];
          if (f & kUmmaFenced) {
            f &= ~(kUmmaCur | kUmmaPending | kUmmaFenced);
            if (!ps_.pipes[r].lanes) set_high_byte(f, 0);  // no released read left to count down
            if (int fo = lay_.fence_off[r]; fo >= 0) b[fo] = 0;
          }
        }
      break;
    case Effect::Release: {
      // On the GPU a release arrives on the empty barrier whether or not the stage was
      // waited (or, for a ReleaseOnly task, even committed): one with nothing to give
      // back frees a stage the producer has not filled or a consumer still reads.
      int c = si.consumer_slot;
      bool wait_release = ps_.pipes[si.pipe].roles[c] == SlotRole::WaitRelease;
      uint16_t& owed = b[po + (wait_release ? 3 : 2) + 2 * c];
      if (owed > 0) --owed;
      else b[lay_.glob] |= kEarlyRelease;
      // Only the release of the slot issuing the MMAs (a tcgen05.commit, which completes
      // after every MMA its thread issued before it) bounds their reads; another slot's
      // release says nothing of them (Pipe::umma_release_slot).
      auto const& pipe = ps_.pipes[si.pipe];
      if (c != pipe.umma_release_slot) break;
      // The commit also comes after every MMA its task issued on the rings it fences
      // (Pipe::commit_fenced_reads). On a pipe that is not aliased its own reads are not
      // tracked, so the countdown to its reacquire runs for the fences alone.
      bool fences = false;
      for (int r : pipe.commit_fenced_reads)
        fences |= (b[lay_.pipe_off[r] + 1] & (kUmmaCur | kUmmaPending)) != 0;
      if (!(b[po + 1] & kUmmaCur) && !(fences && !pipe.aliased)) break;
      b[po + 1] = (b[po + 1] & ~kUmmaCur) | kUmmaPending;
      // The MMA reads released here end when the producer reacquires this stage: after
      // the acquires of every stage free now (this one last). Items acquired and not
      // yet given back by this slot hold the other stages.
      int outstanding = b[po] + (wait_release ? b[po + 2 + 2 * c] : 0) + owed;
      int until = std::max(1, pipe.stages - outstanding);
      if (!pipe.lanes) set_high_byte(b[po + 1], std::max(high_byte(b[po + 1]), until));  // the newest read ends last
      // The acquire that reuses this stage ends the fenced rings' reads too, counted down
      // in the fence word itself: a later release of this pipe, whose stage is reused
      // later, must not postpone it (an older fence, with no read since, covers them
      // already). Only plain pipes fence (program.cpp, mark_commit_fences).
      for (int r : pipe.commit_fenced_reads) {
        int fo = lay_.fence_off[r];
        if ((b[lay_.pipe_off[r] + 1] & (kUmmaCur | kUmmaPending)) && b[fo] == 0) b[fo] = fence_word(si.pipe, until);
      }
      break;
    }
    default: break;
  }
}

// A producer acquire on an MMA-consumer pipe: the MMA reads of a released stage end when
// that stage is acquired again (its empty barrier arrives only once the reads complete),
// not at the acquire of another stage, which may pass with them still in flight. Plain
// pipes count the acquires left in the flag word's high byte. Domain-lane pipes keep
// their lane there, and an acquire of one lane's stage says nothing of another's reads:
// their released reads stay open until a paired accumulator wait (conservative).
//
// Where this pipe's released read ends, so do the reads its issuing release fenced on
// other rings (Pipe::commit_fenced_reads): that release's tcgen05.commit, which completes
// after every earlier MMA of its task, has arrived on the stage now reacquired.
void Semantics::end_umma_reads_on_reuse(uint16_t* b, int pipe) const {
  if (ps_.pipes[pipe].lanes) return;
  for (int r : ps_.pipes[pipe].commit_fenced_reads) {
    int fo = lay_.fence_off[r];
    if (b[fo] == 0 || fence_pipe(b[fo]) != pipe) continue;
    if (int left = fence_left(b[fo]) - 1; left > 0) {
      b[fo] = fence_word(pipe, left);
      continue;
    }
    uint16_t& f = b[lay_.pipe_off[r] + 1];
    f &= ~(kUmmaCur | kUmmaPending | kUmmaFenced);
    set_high_byte(f, 0);  // no released read left to count down (plain rings only)
    b[fo] = 0;
  }
  uint16_t& flags = b[lay_.pipe_off[pipe] + 1];
  if (!(flags & kUmmaPending)) return;
  int left = high_byte(flags) - 1;
  set_high_byte(flags, std::max(left, 0));
  if (left > 0) return;
  flags &= ~kUmmaPending;
  if (int fo = lay_.fence_off[pipe]; fo >= 0 && !(flags & kUmmaCur)) b[fo] = 0;  // no read left to fence
}

// A loop head over a lazily revealed count (the domain length of a loop slot, or the
// tiles left): the word at `left` is exact, or kUnknown with a floor (count >= floor).
// At counter d past the floor the run forks: the loop ends here (count = d), or there is
// an iteration d (floor d + 1). Returns whether this run leaves the loop.
bool Semantics::reveal_exit(std::vector<uint16_t>& b, int t, int left, int counter, int target,
                            std::vector<uint16_t>& out) const {
  int to = Layout::task_off(t);
  uint16_t d = b[counter];
  if ((b[left] & kUnknown) && d >= (b[left] & ~kUnknown)) {
    std::vector<uint16_t> f = b;
    f[left] = d;
    f[counter] = 0;
    f[to] = static_cast<uint16_t>(target);
    advance(f, t, out);
    b[left] = static_cast<uint16_t>(kUnknown | (d + 1));
  }
  return !(b[left] & kUnknown) && d >= b[left];
}

// Domain lanes: acquire k takes stage k mod stages, whose previous occupant (k - stages)
// belonged to lane l = k mod lanes (lanes divides stages). Lane l consumes its stages in
// order, so that occupant is released once lane l has fewer than stages/lanes items
// outstanding: acquired but uncommitted ones of its residue, plus its full and held.
bool Semantics::lane_stage_free(uint16_t const* s, int pipe) const {
  auto const& p = ps_.pipes[pipe];
  int o = lay_.pipe_off[pipe];
  int uncommitted = s[o], first = high_byte(s[o + 1]);  // lane of the oldest uncommitted stage
  int lane = (first + uncommitted) % p.lanes;
  int mine = uncommitted / p.lanes + ((lane - first + p.lanes) % p.lanes < uncommitted % p.lanes ? 1 : 0);
  int slot = p.slot_of_lane[lane];
  return mine + s[o + 2 + 2 * slot] + s[o + 3 + 2 * slot] < p.stages / p.lanes;
}

uint32_t Semantics::position(uint16_t const* s, int t) const {
  int to = Layout::task_off(t);
  auto const& in = code(t)[s[to]];
  if (in.op == Op::End) return 0xffffffffu;
  // A task without a work-tile loop runs its domain loop in loop slot 0, like tile 0.
  uint32_t tp = !ps_.tasks[t].has_tile_loop     ? 1u
                : in.tile_region == kBefore   ? 0u
                : in.tile_region == kInside   ? s[to + 1] + 1u
                                              : lay_.nslots + 1u;
  uint32_t it = in.loop_region == kInside ? s[to + 2] : 0;
  // The loop part orders a tile's several domain loops (Instr::loop_progress): without
  // it, iteration i of a second loop read as iteration i of the first, and an entry a
  // task will read in its second loop was dropped as passed while it ran the first.
  return (tp << 24) | (uint32_t(in.loop_progress()) << 16) | it;
}

void Semantics::advance(std::vector<uint16_t>& b, int t, std::vector<uint16_t>& out) const {
  int to = Layout::task_off(t);
  auto const& c = code(t);
  bool in_body = false;  // passed the loop head in this call, without a step since
  while (true) {
    auto const& in = c[b[to]];
    switch (in.op) {
      case Op::Step:
      case Op::End: finish(b, out); return;
      case Op::LoopInit: b[to + 2] = 0; ++b[to]; break;
      case Op::LoopHead: {
        bool exit;
        if (param_task(t)) {
          exit = reveal_exit(b, t, lay_.slots_off + 2 * loop_slot(b.data(), t) + 1, to + 2, in.target, out);
        } else {
          exit = b[to + 2] >= trip(t);
        }
        if (exit) {
          b[to + 2] = 0;
          b[to] = static_cast<uint16_t>(in.target);
        } else {
          ++b[to];
          in_body = true;
        }
        break;
      }
      case Op::LoopEnd:
        if (++b[to + 2] > drift_ && param_task(t)) b[lay_.glob] |= kOverflow;
        b[to] = static_cast<uint16_t>(in.target);
        if (in_body && param_task(t)) {
          // A whole iteration without a step: pause at the head (a state of its own), so
          // the abstraction renormalises before the next one instead of this call
          // iterating (and forking on the unknown length) without bound.
          finish(b, out);
          return;
        }
        break;
      case Op::TileInit: b[to + 1] = 0; ++b[to]; break;
      case Op::TileHead: {
        bool exit;
        if (tile_mode_) {
          exit = tile_exit(b, t, in, out);
          if (b[lay_.glob] & kTileOverflow) {
            finish(b, out);
            return;
          }
        } else {
          exit = b[to + 1] >= cfg_.tiles;
        }
        if (exit) {
          b[to + 1] = 0;
          b[to] = static_cast<uint16_t>(in.target);
        } else {
          ++b[to];
        }
        break;
      }
      case Op::TileEnd: ++b[to + 1]; b[to] = static_cast<uint16_t>(in.target); break;
      case Op::Skip: {
        bool skip = tile_mode_ ? tile_skipped(b, t, in, out) : (b[lay_.glob + kGlobSkipMask] >> b[to + 1] & 1);
        if (skip) b[to] = static_cast<uint16_t>(in.target);
        else ++b[to];
        break;
      }
      case Op::Guard: {
        int g = guard_holds(b.data(), t, in);
        if (g == 2) {
          // last_iter before the length is known: this is the last iteration (K = lo+d+1)
          // in one branch, not in the other.
          uint16_t& r = b[lay_.slots_off + 2 * loop_slot(b.data(), t) + 1];
          uint16_t d1 = static_cast<uint16_t>(b[to + 2] + 1);
          std::vector<uint16_t> f = b;
          f[lay_.slots_off + 2 * loop_slot(b.data(), t) + 1] = d1;
          ++f[to];
          advance(f, t, out);
          r = static_cast<uint16_t>(kUnknown | (d1 + 1));
          g = 0;
        }
        if (g) ++b[to];
        else b[to] = static_cast<uint16_t>(in.target);
        break;
      }
      case Op::Break: b[to + 2] = 0; b[to] = static_cast<uint16_t>(in.target); break;
      case Op::Cond: {
        bool shared = __builtin_popcountll(ps_.keys[in.key].users) > 1;
        int found = -1;
        uint32_t pos = position(b.data(), t);
        // Outside the domain loop a condition is one value per tile, whether a task asks
        // before or after its loop (or between two of its loops): the position keeps the
        // tile and takes the largest loop part, so the entry lives until every user has
        // left the tile (the ping-pong GEMM's producer asks between its two loops, a math
        // task before its loop).
        if (in.loop_region != kInside && pos != 0xffffffffu) pos |= 0x00ffffffu;
        if (shared) {
          for (int e = 0; e < lay_.ndec; ++e) {
            uint16_t const* en = &b[lay_.dec_off + 3 * e];
            if (en[0] == in.key + 1 && entry_position(en) == pos) found = en[1] >> 15;
          }
        }
        if (found >= 0) {
          if (bool(found) == in.polarity) ++b[to];
          else b[to] = static_cast<uint16_t>(in.target);
          break;
        }
        // Fork: both outcomes; a shared key records the outcome for the other users.
        for (int val = 0; val < 2; ++val) {
          std::vector<uint16_t> f = b;
          if (shared) {
            int e = 0;
            while (e < lay_.ndec && f[lay_.dec_off + 3 * e] != 0) ++e;
            if (e == lay_.ndec) {
              f[lay_.glob] |= kTableFull;
              finish(f, out);
              return;
            }
            f[lay_.dec_off + 3 * e] = static_cast<uint16_t>(in.key + 1);
            f[lay_.dec_off + 3 * e + 1] = static_cast<uint16_t>(((pos >> 16) & 0x7fff) | (val << 15));
            f[lay_.dec_off + 3 * e + 2] = static_cast<uint16_t>(pos & 0xffff);
          }
          if (bool(val) == in.polarity) ++f[to];
          else f[to] = static_cast<uint16_t>(in.target);
          advance(f, t, out);
        }
        return;
      }
    }
  }
}

// Emission of a successor: parametric renormalisation (periodicity.cpp), garbage
// collection of shared-condition outcomes, race detection.
void Semantics::finish(std::vector<uint16_t>& b, std::vector<uint16_t>& out) const {
  if (tile_mode_) shift_tiles(b.data());
  if (cfg_.parametric) renormalize(b.data());
  end_reads(b.data());
  collect_garbage(b.data());
  check_race(b.data());
  out.insert(out.end(), b.begin(), b.end());
}

void Semantics::collect_garbage(uint16_t* s) const {
  if (lay_.ndec == 0) return;
  uint32_t pos[64];
  for (int t = 0; t < lay_.tasks; ++t) pos[t] = position(s, t);
  for (int e = 0; e < lay_.ndec; ++e) {
    uint16_t* en = s + lay_.dec_off + 3 * e;
    if (en[0] == 0) continue;
    uint32_t ep = entry_position(en);
    uint64_t users = ps_.keys[en[0] - 1].users;
    bool live = false;
    for (int t = 0; t < lay_.tasks; ++t)
      if ((users >> t & 1) && pos[t] <= ep) live = true;
    if (!live) en[0] = en[1] = en[2] = 0;
  }
  // Canonical order so equal tables hash equal.
  struct E { uint16_t w[3]; };
  E* es = reinterpret_cast<E*>(s + lay_.dec_off);
  std::sort(es, es + lay_.ndec, [](E const& a, E const& b) {
    if ((a.w[0] == 0) != (b.w[0] == 0)) return a.w[0] != 0;
    return std::lexicographical_compare(a.w, a.w + 3, b.w, b.w + 3);
  });
}

bool Semantics::writing(uint16_t const* s, int alias, int* who) const {
  auto const& ar = ps_.aliased[alias];
  if (!ar.producer_side) return false;
  for (int t = 0; t < lay_.tasks; ++t) {
    uint16_t lw = s[Layout::task_off(t) + 3];
    if (lw && ps_.steps[t][lw - 1].alias == alias && ps_.steps[t][lw - 1].writes) {
      if (who) *who = t;
      return true;
    }
  }
  if (ar.pipe >= 0 && ps_.pipes[ar.pipe].async_producer) {
    int o = lay_.pipe_off[ar.pipe];
    if (s[o + 1] & kAsyncHold) { if (who) *who = -1; return true; }
    if (lay_.turn_off[ar.pipe] >= 0) {
      // Turn pipes: a commit is unwaited while the stage is not free and some slot is
      // behind the producer (conservative: the slot may be one that skips it).
      for (int c = 0; c < lay_.pipe_slots[ar.pipe]; ++c)
        if (s[o + 2 + 2 * c] > 0) { if (who) *who = -1; return true; }
      return false;
    }
    // Broadcast: a committed stage is unwaited while some consumer has not waited it
    // (min over consumers); domain lanes: while its one lane has not (any lane's full).
    // Only waiting slots count (a ReleaseOnly or Phantom slot's first word is not "unwaited").
    bool lanes = ps_.pipes[ar.pipe].lanes > 0;
    int mn = lanes ? 0 : 1 << 30;
    bool any = false;
    for (int c = 0; c < lay_.pipe_slots[ar.pipe]; ++c) {
      auto role = ps_.pipes[ar.pipe].roles[c];
      if (role != SlotRole::WaitRelease && role != SlotRole::WaitOnly) continue;
      any = true;
      mn = lanes ? std::max<int>(mn, s[o + 2 + 2 * c]) : std::min<int>(mn, s[o + 2 + 2 * c]);
    }
    // A poisoned commit (an empty TMA stage) is unwaited by every waiting slot but no
    // copy writes it: only the others are the engine's writes in flight.
    if (int fo = lay_.fill_off[ar.pipe]; fo >= 0 && s[fo] && !lanes) --mn;
    if (any && mn > 0) { if (who) *who = -1; return true; }
  }
  return false;
}

bool Semantics::reading(uint16_t const* s, int alias, int* who) const {
  auto const& ar = ps_.aliased[alias];
  if (!ar.consumer_side) return false;
  for (int t = 0; t < lay_.tasks; ++t) {
    uint16_t lw = s[Layout::task_off(t) + 3];
    if (lw && ps_.steps[t][lw - 1].alias == alias && !ps_.steps[t][lw - 1].writes) {
      if (who) *who = t;
      return true;
    }
  }
  if (ar.pipe >= 0 && ps_.pipes[ar.pipe].umma_consumer && (s[lay_.pipe_off[ar.pipe] + 1] & (kUmmaCur | kUmmaPending))) {
    if (who) *who = -1;
    return true;
  }
  return false;
}

void Semantics::check_race(uint16_t* s) const {
  for (auto const& p : ps_.pairs) {
    bool wa = writing(s, p.a, nullptr), wb = writing(s, p.b, nullptr);
    if ((wa && (wb || reading(s, p.b, nullptr))) || (wb && reading(s, p.a, nullptr))) {
      s[lay_.glob] |= kRace;
      return;
    }
  }
}

bool Semantics::balanced(uint16_t const* s) const {
  for (size_t p = 0; p < ps_.pipes.size(); ++p) {
    int o = lay_.pipe_off[p];
    if (s[o]) return false;
    if (int to = lay_.turn_off[p]; to >= 0) {
      // Turn pipes: every stage given back and nothing held; where a slot's counter ends
      // (behind or ahead of the producer) is not a debt: its turns are over.
      for (int k = 0; k < ps_.pipes[p].stages; ++k)
        if (s[to + 1 + k] != 1) return false;
      for (int c = 0; c < lay_.pipe_slots[p]; ++c)
        if (s[o + 3 + 2 * c]) return false;
      continue;
    }
    for (int c = 0; c < lay_.pipe_slots[p]; ++c)
      if (s[o + 2 + 2 * c] || s[o + 3 + 2 * c]) return false;
  }
  return true;
}

}  // namespace ts::check
