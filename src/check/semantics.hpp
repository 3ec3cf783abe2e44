// The transition relation of the checker (SPEC S7.2, S7.3): how one task's next step
// changes credits, access windows, the PDL flag and the task's program counter, with
// every run-time choice (conditions, loop length in parametric mode) as a fork.
//
// State layout (16-bit words, see Layout): per task [pc, tile, iter, last_work];
// per pipe [uncommitted, flags (+ next commit's lane), (full, held) per consumer task]; globals [flags,
// skipped-tile mask, skip outcomes known, tiles remaining, tile shift]; per loop slot
// [lo, rem] (parametric bookkeeping); a sorted table of outstanding shared-condition
// outcomes [key+1, where|value, iter].
//
// Every-tile-count runs (Config::every_tile_count, tile_abstraction.cpp): tiles are
// numbered relative to the slowest task in the tile loop, the tile count is revealed
// lazily like a domain length, skip outcomes per relative tile are revealed when first
// asked (mask + known mask), and loop slots are per relative tile. The tile shift word
// says how far the last renormalisation moved the tile origin; the explorer reads and
// clears it before a state is stored (it rebuilds absolute tile numbers for traces).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "ts/check/explore.hpp"

namespace ts::check {

// Parametric "remaining iterations" word of a loop slot: either exact (K - lo), or
// unknown with a floor (K - lo >= floor), marked by kUnknown; a fresh slot's floor is
// the shortest length covered (Config::min_length: 0, or 1 where every runtime loop is
// declared to run at least once). The length is revealed
// lazily, only when a task asks "is this the last iteration / is the loop over?".
constexpr uint16_t kUnknown = 0x8000;

// Global flag bits.
// kEarlyRelease: a release with no stage waited and unreleased on its consumer slot (the
// releasing half of a split consumer running ahead of the waiting half).
// kCommitNoAcquire: a commit with no stage acquired and uncommitted.
// kEmptyTmaCommit: a TMA commit with no producer work on the stage (a hang on hardware).
enum : uint16_t {
  kPdlWaited = 1, kPdlViolation = 2, kRace = 4, kOverflow = 8, kTableFull = 16, kEarlyRelease = 32,
  kCommitNoAcquire = 64, kEmptyTmaCommit = 128,
  // Every-tile-count runs: a task got tile_window() tiles ahead of the slowest one.
  kTileOverflow = 256,
};
// Flags that end a run as a failure (the state is reported, not expanded).
constexpr uint16_t kFailureFlags = kRace | kPdlViolation | kEarlyRelease | kCommitNoAcquire | kEmptyTmaCommit;
// Pipe flag bits: an asynchronous producer wrote into the held stage; an MMA consumer
// read the held stage; an MMA consumer's read may still be in flight after release;
// producer work happened since the last commit (TMA pipes with Pipe::tma_fill_check).
// kReuseRace: an acquire reused a stage a WaitOnly consumer still reads (with kRace).
// kUmmaFenced: every MMA read of the pipe so far precedes a commit of its accumulator.
enum : uint16_t { kAsyncHold = 1, kUmmaCur = 2, kUmmaPending = 4, kFilled = 8, kReuseRace = 16, kUmmaFenced = 32 };
// Turn pipes (Pipe::turns; docs/turns.md): a wait landed on a phase other than its own
// (>= 2 phases ahead of its stage's full barrier, or behind a refill), with kRace; a
// release of a stage already free or a skip over held stages, with kEarlyRelease.
enum : uint16_t { kTurnPhase = 64, kTurnRelease = 128 };
// Domain-lane pipes keep the lane of the next commit in the flag word's high byte; other
// pipes keep there, while kUmmaPending, the producer acquires left until the newest
// released MMA read has ended (the acquire that reuses its stage).
constexpr int kLaneShift = 8;
// The fence word of an MMA-consumer ring (Layout::fence_off) whose reads a release on
// another ring fenced: that ring + 1 in the low bits, and the acquires of it left until
// the fencing release's stage is reused above them (0: no fence).
constexpr int kFenceShift = 5;
inline uint16_t fence_word(int pipe, int left) { return static_cast<uint16_t>((pipe + 1) | (left << kFenceShift)); }
inline int fence_pipe(uint16_t w) { return (w & ((1 << kFenceShift) - 1)) - 1; }
inline int fence_left(uint16_t w) { return w >> kFenceShift; }
inline int high_byte(uint16_t flags) { return flags >> kLaneShift; }
inline void set_high_byte(uint16_t& flags, int v) {
  flags = static_cast<uint16_t>((flags & ((1 << kLaneShift) - 1)) | (v << kLaneShift));
}

// Every-tile-count runs keep at most this many tiles relative to the slowest task (loop
// slots, skip masks); the window is the sum of the pipelines' depths plus one tile per
// task (how far a chain of full rings lets the first task run ahead), at least 4.
// Masks are kept in two words of 7 bits so states stay one byte per word.
constexpr int kMaxTileWindow = 14;

// Global words after the flags word (Layout::glob). Concrete runs keep the skipped-tile
// mask in kGlobSkipMask alone; every-tile-count runs keep the skip and known masks in
// two words each (get_mask / put_mask).
enum : int {
  kGlobSkipMask = 1, kGlobSkipKnown = 3, kGlobTilesLeft = 5, kGlobTileShift = 6, kGlobWords = 7,
};
inline uint32_t get_mask(uint16_t const* s, int at) { return s[at] | (uint32_t(s[at + 1]) << 7); }
inline void put_mask(uint16_t* s, int at, uint32_t m) {
  s[at] = static_cast<uint16_t>(m & 0x7f);
  s[at + 1] = static_cast<uint16_t>(m >> 7);
}

struct Layout {
  int tasks = 0, words = 0;
  std::vector<int> pipe_off;   // per pipe
  std::vector<int> pipe_slots; // consumer slots (phantom consumer counts as one)
  // Turn pipes: [head (stage of the next commit), free credits per stage, ahead per
  // slot] after the slots; -1 for other pipes. A slot's `a` and `ahead` are its wait
  // counter's distance behind / ahead of the producer's commits (one of them is 0).
  std::vector<int> turn_off;
  // TMA pipes with Pipe::tma_fill_check (not domain lanes): [poison, doomed]. poison:
  // 0, or 1 + the commits made after the first commit of a stage with no copy (that
  // stage's full barrier never completes: a wait reaching it blocks for good); doomed: 0,
  // or how many commits from now close a stage left without a copy when a newer one was
  // acquired (that commit will be an empty one). -1 for other pipes.
  std::vector<int> fill_off;
  // Aliased UMMA-consumer pipes some other pipe's issuing release fences
  // (Pipe::commit_fenced_reads): one word, 0, or 1 + the pipe whose release (a
  // tcgen05.commit of the same task) came after every MMA read of this one so far. The
  // acquire that ends that pipe's released read ends these too. -1 for other pipes.
  std::vector<int> fence_off;
  int glob = 0, slots_off = 0, nslots = 1, dec_off = 0, ndec = 0;
  static int task_off(int t) { return t * 4; }
};

class Semantics {
 public:
  Semantics(Model const& m, ProgramSet const& ps, Config const& cfg);
  Layout const& layout() const { return lay_; }
  int drift() const { return drift_; }
  int tile_window() const { return tile_window_; }
  // Every-tile-count abstraction in force (Config::every_tile_count and a tile loop).
  bool tile_mode() const { return tile_mode_; }

  // Initial states (one per skipped-tile pattern, per initial condition outcome, per
  // parametric remaining length).
  void initial(std::vector<std::vector<uint16_t>>& out) const;
  bool at_end(uint16_t const* s, int t) const { return code(t)[s[Layout::task_off(t)]].op == Op::End; }
  // A task paused at a loop head after an iteration that executed no step (parametric
  // runs): its next move is an internal, invisible one. Such pauses keep every
  // advance() finite when a loop body can run without a step (a guard-only body).
  bool at_silent_pause(uint16_t const* s, int t) const { return code(t)[s[Layout::task_off(t)]].op == Op::LoopHead; }
  bool enabled(uint16_t const* s, int t) const;
  // The credit model alone: one step's stage ops (a warp-lane op is `weight` of them) and
  // the TMA fill bit its producer work sets, without program counters, loops or access
  // windows. enabled() and successors() step credits only through these, and so does
  // the schedule table's sample run (check/credit_model.hpp), so the printout and the
  // checker cannot disagree on when an op passes.
  void fresh_credits(uint16_t* b) const;  // every pipe as a run starts
  bool credit_op_enabled(uint16_t const* s, int t, StepInfo const& si) const;
  void credit_op(std::vector<uint16_t>& b, int t, StepInfo const& si) const;
  int stages_in_use(uint16_t const* s, int pipe) const;  // not yet given back by every releasing slot
  // Successors of task t's next step (none when blocked), appended to out (words each).
  void successors(uint16_t const* s, int t, std::vector<uint16_t>& out, bool known_enabled = false) const;
  Effect next_effect(uint16_t const* s, int t) const;
  int next_step(uint16_t const* s, int t) const { return code(t)[s[Layout::task_off(t)]].step; }
  int next_pipe(uint16_t const* s, int t) const;
  bool visible(uint16_t const* s, int t) const;
  bool balanced(uint16_t const* s) const;
  Instr const& instr(uint16_t const* s, int t) const { return code(t)[s[Layout::task_off(t)]]; }
  long long trip(int t) const;  // concrete trip count of task t's loop
  // Inside a loop whose abstraction can cycle (a parametric domain loop, or the tile loop
  // of an every-tile-count run): the reduction's preference for other tasks.
  bool in_param_loop(uint16_t const* s, int t) const {
    auto const& in = instr(s, t);
    return (param_task(t) && in.loop_region == kInside) ||
           (tile_mode_ && ps_.tasks[t].has_tile_loop && in.tile_region == kInside);
  }
  bool param_task(int t) const { return cfg_.parametric && ps_.tasks[t].static_trip < 0; }
  // Which aliased resources are being written / read now (race explanation).
  bool writing(uint16_t const* s, int alias, int* who) const;
  bool reading(uint16_t const* s, int alias, int* who) const;

 private:
  std::vector<Instr> const& code(int t) const { return ps_.tasks[t].code; }
  void advance(std::vector<uint16_t>& b, int t, std::vector<uint16_t>& out) const;
  void finish(std::vector<uint16_t>& b, std::vector<uint16_t>& out) const;
  void renormalize(uint16_t* b) const;  // parametric runs: see periodicity.cpp
  void shift_tiles(uint16_t* b) const;  // every-tile-count runs: see tile_abstraction.cpp
  bool reveal_exit(std::vector<uint16_t>& b, int t, int left, int counter, int target, std::vector<uint16_t>& out) const;
  bool tile_exit(std::vector<uint16_t>& b, int t, Instr const& in, std::vector<uint16_t>& out) const;
  bool tile_skipped(std::vector<uint16_t>& b, int t, Instr const& in, std::vector<uint16_t>& out) const;
  // 0 false, 1 true, 2: depends on the not yet revealed loop length (caller forks).
  int guard_holds(uint16_t const* s, int t, Instr const& in) const;
  // Progress position of a task, for ordering against shared-condition entries.
  uint32_t position(uint16_t const* s, int t) const;
  uint32_t entry_position(uint16_t const* e) const { return (uint32_t(e[1] & 0x7fff) << 16) | e[2]; }
  int loop_slot(uint16_t const* s, int t) const { return ps_.tasks[t].has_tile_loop ? s[Layout::task_off(t) + 1] : 0; }
  void collect_garbage(uint16_t* s) const;
  void check_race(uint16_t* s) const;
  bool lane_stage_free(uint16_t const* s, int pipe) const;
  void turn_step(std::vector<uint16_t>& b, int t, StepInfo const& si) const;  // a credit op on a turn pipe
  // Credit ops one stage at a time: a warp-lane op (StepInfo::weight) is `weight` of them.
  bool credit_enabled(uint16_t const* s, StepInfo const& si) const;
  void apply_credit(std::vector<uint16_t>& b, StepInfo const& si) const;
  void end_umma_reads_on_reuse(uint16_t* b, int pipe) const;
  void lane_op(std::vector<uint16_t>& b, int t, StepInfo const& si) const;
  bool lanes_enabled(uint16_t const* s, int t, StepInfo const& si) const;
  long long skip_count(StepInfo const& si) const;
  bool turn_enabled(uint16_t const* s, StepInfo const& si) const;  // a credit op on a turn pipe can run
  int turn_poison(uint16_t const* s, int pipe, int slot) const;    // where a turn wait meets an empty stage
  // Empty TMA stages (empty_stages.cpp): fill bookkeeping of an acquire and of a commit.
  void fill_on_acquire(uint16_t* b, int pipe) const;
  void fill_on_commit(uint16_t* b, int pipe) const;
  void check_reuse(uint16_t* b, int pipe, int held) const;  // stage reuse under a WaitOnly reader
  void end_reads(uint16_t* s) const;                      // clears WaitOnly reads no task can continue
  bool reading_wait_only(uint16_t const* s, int t) const; // t holds a WaitOnly read still open
  struct WaitOnlySlot { int pipe, slot, task; };
  std::vector<WaitOnlySlot> wait_only_;

  Model const& m_;
  ProgramSet const& ps_;
  Config cfg_;
  Layout lay_;
  mutable std::vector<uint16_t> scratch_;  // successor buffer reused across calls
  mutable std::vector<uint16_t> lane_scratch_;  // lanes_enabled's trial state
  std::vector<std::vector<uint8_t>> aux_;  // [task][step]: auxiliary work keeps the access window
  int sat_ = 1, period_ = 1, drift_ = 16;  // parametric: exact iterations kept, guard period, drift cap
  bool tile_mode_ = false;
  int tile_window_ = 1;                    // every-tile-count: relative tiles kept (loop slots)
  uint16_t slot_rem_init_ = 0;             // a loop slot's "remaining" before its loop starts
  std::vector<uint8_t> pins_tiles_;        // [task]: a task without a tile loop that keeps the tile origin
};

}  // namespace ts::check
