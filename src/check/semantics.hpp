// The transition relation of the checker (SPEC S7.2, S7.3): how one task's next step
// changes credits, access windows, the PDL flag and the task's program counter, with
// every run-time choice (conditions, loop length in parametric mode) as a fork.
//
// State layout (16-bit words, see Layout): per task [pc, tile, iter, last_work];
// per pipe [uncommitted, flags (+ next commit's lane), (full, held) per consumer task]; globals [flags,
// skipped-tile mask]; per loop slot [lo, rem] (parametric bookkeeping); a sorted table
// of outstanding shared-condition outcomes [key+1, where|value, iter].
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "ts/check/explore.hpp"

namespace ts::check {

// Parametric "remaining iterations" word of a loop slot: either exact (K - lo), or
// unknown with a floor (K - lo > floor), marked by kUnknown. The length is revealed
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
};
// Flags that end a run as a failure (the state is reported, not expanded).
constexpr uint16_t kFailureFlags = kRace | kPdlViolation | kEarlyRelease | kCommitNoAcquire | kEmptyTmaCommit;
// Pipe flag bits: an asynchronous producer wrote into the held stage; an MMA consumer
// read the held stage; an MMA consumer's read may still be in flight after release;
// producer work happened since the last commit (TMA pipes with Pipe::tma_fill_check).
// kReuseRace: an acquire reused a stage a WaitOnly consumer still reads (with kRace).
// kUmmaFenced: every MMA read of the pipe so far precedes a commit of its accumulator.
enum : uint16_t { kAsyncHold = 1, kUmmaCur = 2, kUmmaPending = 4, kFilled = 8, kReuseRace = 16, kUmmaFenced = 32 };
// Domain-lane pipes keep the lane of the next commit in the flag word's high byte.
constexpr int kLaneShift = 8;

struct Layout {
  int tasks = 0, words = 0;
  std::vector<int> pipe_off;   // per pipe
  std::vector<int> pipe_slots; // consumer slots (phantom consumer counts as one)
  int glob = 0, slots_off = 0, nslots = 1, dec_off = 0, ndec = 0;
  static int task_off(int t) { return t * 4; }
};

class Semantics {
 public:
  Semantics(Model const& m, ProgramSet const& ps, Config const& cfg);
  Layout const& layout() const { return lay_; }
  int drift() const { return drift_; }

  // Initial states (one per skipped-tile pattern, per initial condition outcome, per
  // parametric remaining length).
  void initial(std::vector<std::vector<uint16_t>>& out) const;
  bool at_end(uint16_t const* s, int t) const { return code(t)[s[Layout::task_off(t)]].op == Op::End; }
  // A task paused at a loop head after an iteration that executed no step (parametric
  // runs): its next move is an internal, invisible one. Such pauses keep every
  // advance() finite when a loop body can run without a step (a guard-only body).
  bool at_silent_pause(uint16_t const* s, int t) const { return code(t)[s[Layout::task_off(t)]].op == Op::LoopHead; }
  bool enabled(uint16_t const* s, int t) const;
  // Successors of task t's next step (none when blocked), appended to out (words each).
  void successors(uint16_t const* s, int t, std::vector<uint16_t>& out, bool known_enabled = false) const;
  Effect next_effect(uint16_t const* s, int t) const;
  int next_step(uint16_t const* s, int t) const { return code(t)[s[Layout::task_off(t)]].step; }
  int next_pipe(uint16_t const* s, int t) const;
  bool visible(uint16_t const* s, int t) const;
  bool balanced(uint16_t const* s) const;
  Instr const& instr(uint16_t const* s, int t) const { return code(t)[s[Layout::task_off(t)]]; }
  long long trip(int t) const;  // concrete trip count of task t's loop
  bool in_param_loop(uint16_t const* s, int t) const { return param_task(t) && instr(s, t).loop_region == kInside; }
  bool param_task(int t) const { return cfg_.parametric && ps_.tasks[t].static_trip < 0; }
  // Which aliased resources are being written / read now (race explanation).
  bool writing(uint16_t const* s, int alias, int* who) const;
  bool reading(uint16_t const* s, int alias, int* who) const;

 private:
  std::vector<Instr> const& code(int t) const { return ps_.tasks[t].code; }
  void advance(std::vector<uint16_t>& b, int t, std::vector<uint16_t>& out) const;
  void finish(std::vector<uint16_t>& b, std::vector<uint16_t>& out) const;
  void renormalize(uint16_t* b) const;  // parametric runs: see periodicity.cpp
  // 0 false, 1 true, 2: depends on the not yet revealed loop length (caller forks).
  int guard_holds(uint16_t const* s, int t, Instr const& in) const;
  // Progress position of a task, for ordering against shared-condition entries.
  uint32_t position(uint16_t const* s, int t) const;
  uint32_t entry_position(uint16_t const* e) const { return (uint32_t(e[1] & 0x7fff) << 16) | e[2]; }
  int loop_slot(uint16_t const* s, int t) const { return ps_.tasks[t].has_tile_loop ? s[Layout::task_off(t) + 1] : 0; }
  void collect_garbage(uint16_t* s) const;
  void check_race(uint16_t* s) const;
  bool lane_stage_free(uint16_t const* s, int pipe) const;
  int stages_in_use(uint16_t const* s, int pipe) const;  // not yet given back by every releasing slot
  void end_reads(uint16_t* s) const;                      // clears WaitOnly reads no task can continue
  bool reading_wait_only(uint16_t const* s, int t) const; // t holds a WaitOnly read still open
  struct WaitOnlySlot { int pipe, slot, task; };
  std::vector<WaitOnlySlot> wait_only_;

  Model const& m_;
  ProgramSet const& ps_;
  Config cfg_;
  Layout lay_;
  mutable std::vector<uint16_t> scratch_;  // successor buffer reused across calls
  std::vector<std::vector<uint8_t>> aux_;  // [task][step]: auxiliary work keeps the access window
  int sat_ = 1, period_ = 1, drift_ = 16;  // parametric: exact iterations kept, guard period, drift cap
};

}  // namespace ts::check
