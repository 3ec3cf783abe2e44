// A task's schedule flattened into a small instruction list the checker runs with a
// program counter (SPEC S7.1). The IR is a tree; the explorer needs "where is this task
// now" as one integer, so blocks become jumps. Every choice the IR leaves open at run
// time (conditions, skipped tiles, loop exits) is an instruction whose outcome the
// explorer branches on; steps are the only instructions other tasks can observe.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ts/schedule/model.hpp"

namespace ts::check {

enum class Op : uint8_t {
  Step,      // one IR step (work or sync op); the only observable instruction
  LoopInit,  // iter := 0
  LoopHead,  // iter < K ? fall through : exit to target
  LoopEnd,   // iter += 1; jump to target (the LoopHead)
  TileInit,  // tile := 0
  TileHead,  // tile < T ? fall through : exit
  TileEnd,   // tile += 1; jump to target
  Skip,      // skipped tile ? jump to target
  Guard,     // first_iter / last_iter / every: false ? jump to target
  Cond,      // when_true / when_false: outcome false for this polarity ? jump to target
  Break,     // break_loop(): leave the domain loop
  End,
};

// Position of an instruction relative to the two loops: used to order tasks' progress
// when correlating shared conditions (two tasks see one outcome per key and iteration).
enum : uint8_t { kBefore = 0, kInside = 1, kAfter = 2 };

struct Instr {
  Op op = Op::End;
  int step = -1;         // Step: id in the task's ScheduleIR::steps
  int target = -1;       // jump target
  ir::BlockKind guard = ir::BlockKind::Root;
  int period = 1, start = 0;
  int key = -1;          // Cond: index into ProgramSet::keys
  bool polarity = true;  // Cond: true for when_true
  uint8_t loop_region = kBefore, tile_region = kBefore;
  // Another domain loop of the same tile is still ahead (its LoopInit at or after this
  // instruction; inside or after an earlier loop): the tile's loops share one loop slot,
  // and the task will start that loop at iteration 0, so it holds the slot's origin like a
  // task before its loop (Semantics::renormalize): shifted, the origin would start the
  // later loop part-way through and run it short.
  bool loop_ahead = false;
  // Domain loops the task has begun in this tile (or the schedule, without a tile loop)
  // at this instruction: the number of the loop it is in, or of the last one it left.
  uint8_t loops_begun = 0;
  // Progress inside a tile, ordered: before the first loop 0, inside loop n 2n - 1, after
  // it (between loops n and n + 1) 2n. One loop gives kBefore / kInside / kAfter.
  uint8_t loop_progress() const {
    return loop_region == kBefore ? 0 : static_cast<uint8_t>(2 * loops_begun - (loop_region == kInside ? 1 : 0));
  }
};

struct TaskProgram {
  std::vector<Instr> code;
  // Per instruction: pipes (bit per pipe index) on which the task can still run a
  // consumer work before its next wait or release on that pipe. Only pipes where the
  // task holds a WaitOnly slot are tracked.
  std::vector<uint64_t> may_read;
  long long static_trip = -1;  // trip count when the domain loop's bounds are static
  bool has_loop = false, has_tile_loop = false;
  // The domain loop's code was emitted (false for an empty body, which is dropped: such a
  // task has no iteration counter to renormalise and never holds a loop slot back).
  bool loop_emitted = false;
  // Runtime-length domain loop: index into ProgramSet::length_classes (tasks whose loops
  // provably run equally long share one); -1 for a static or no domain loop.
  int length_class = -1;
};

// Tasks whose runtime-length domain loops provably have the same trip count
// (check/length_classes.hpp).
struct LengthClass {
  std::vector<int> tasks;
  std::string loop_text;  // the first task's loop as printed, e.g. "tiles", "block_idx..12 step grid_blocks"
};

// Per-step classification the explorer needs on the hot path.
enum class Effect : uint8_t {
  Local,        // touches nothing another task can see (aux work, try_, queue ops, unaliased work)
  AliasWork,    // producer/consumer work on an aliased resource (opens an access window)
  Acquire, Commit, Wait, Release,  // credit ops on a pipelined resource
  PdlWait, PdlLaunch,
  StageSkip,    // ring.skip(n): a turn-taking consumer passes over n stages (docs/turns.md)
};

struct StepInfo {
  Effect effect = Effect::Local;
  int pipe = -1;        // index into ProgramSet::pipes for credit ops and aliased work
  int alias = -1;       // index into ProgramSet::aliased for AliasWork
  bool writes = false;  // AliasWork: producer role
  int consumer_slot = -1;  // Wait/Release: this task's consumer slot on the pipe
  int fills_pipe = -1;     // producer work on a TMA pipe checked for empty commits (Pipe::tma_fill_check)
  int reuse_pipe = -1;     // producer work on a pipe whose stage reuse is checked at the write (Pipe::reuse_at_write)
  // StageSkip: the stage count, a constant (skip_static >= 0) or the trip count of task
  // skip_task's domain loop (ts::turn_count_task: the count provably equals it).
  long long skip_static = -1;
  int skip_task = -1;
  // Credit ops: how many stage ops this task op is. A warp-lane op (schedule/lane_mode.hpp:
  // each warp of the task one lane) with stride s is s stage ops, one per warp, taken in
  // ring order at once (the runtime converges the task around each such op); 1 otherwise.
  int weight = 1;
};

// What a consumer slot of a pipe stands for (the two words a, b it keeps per state):
//   WaitRelease: a task that waits and releases: a = committed, not yet waited by it;
//                b = waited, not yet released.
//   WaitOnly:    a task that waits but never releases (the waiting half of a split
//                consumer): a = committed, not yet waited; b = waited, still being read
//                (cleared when the task can no longer reach a consumer work on the pipe
//                before its next wait: TaskProgram::may_read).
//   ReleaseOnly: a task that releases but never waits (the releasing half): a =
//                committed, not yet released by it; b unused.
//   Phantom:     no task releases the pipe: a = commits never released (stages never free).
// A stage is free once every releasing slot (WaitRelease, ReleaseOnly, Phantom) gave it
// back; reusing it while a WaitOnly slot still reads it is a race (stage reuse).
enum class SlotRole : uint8_t { WaitRelease, WaitOnly, ReleaseOnly, Phantom };

struct Pipe {
  int resource = -1;
  int stages = 1;
  std::vector<int> consumers;     // task of each consumer slot (-1 for a phantom slot)
  std::vector<SlotRole> roles;    // role of each consumer slot
  // Domain-lane interleaved consumers (S3.3, S6.12): lanes = the wait/release stride when
  // the consumer tasks are exactly one per lane (lane = the task's domain-loop start).
  // Commit k then goes to lane k mod lanes only, not to every consumer; 0 = broadcast.
  int lanes = 0;
  std::vector<int> slot_of_lane;  // consumer slot of each lane
  bool phantom_consumer = false;  // no task waits on it: commits pile up (reported as unbalanced)
  bool async_producer = false;    // TMA / UMMA / CLC: writing until the consumer's wait
  // TMA producer whose one acquiring task is the one task doing producer work on it (the
  // commits may come from another task: then the work and the commits are visible): a
  // commit with no producer work since the acquire arms the full barrier for bytes that
  // never arrive (a hang on hardware), reported as such.
  bool tma_fill_check = false;
  bool umma_consumer = false;     // reading past release until the producer's next acquire
  // UMMA-consumer pipes: the consumer slot whose release bounds the MMA reads (the one
  // slot issuing them, one that releases: its tcgen05.commit completes after every MMA
  // its thread issued). -1: none does (several issuing slots, an issuer that never
  // releases, or a reader that is no slot): the reads stay in flight until a paired
  // accumulator wait ends them, or to the end of the run (conservative).
  int umma_release_slot = -1;
  int umma_issuer = -1;  // the one task issuing the pipe's MMA reads; -1 none, -2 several
  // UMMA-producer pipe (an accumulator) that the one MMA consumer task of `fenced_reads`
  // commits: tcgen05.commit completes after every MMA issued before it, so a wait on that
  // commit proves those reads done (SPEC S7.3's paired accumulator wait).
  std::vector<int> fenced_reads;  // UMMA-consumer pipes whose reads this pipe's commits fence
  // UMMA-consumer pipe whose issuing slot's release is a tcgen05.commit: it completes
  // after every MMA its task issued before it, on any ring. `commit_fenced_reads` lists
  // the other aliased UMMA-consumer pipes that task issues all MMAs of; the acquire that
  // ends this pipe's released read proves the commit complete, and so ends theirs.
  std::vector<int> commit_fenced_reads;
  bool aliased = false;
  bool split = false;             // a WaitOnly or ReleaseOnly slot: its credit ops do not
                                  // commute with the others' (early release, stage reuse)
  // Stage reuse under a WaitOnly reader is a race at the producer's write into the reused
  // stage (its producer work, StepInfo::reuse_pipe), not at the acquire: one task acquires,
  // commits and does all producer work, one stage per acquire, on plain threads or TMA,
  // so that work is the only write and it lands on the newest acquired stage. Elsewhere
  // the acquire is the race (conservative).
  bool reuse_at_write = false;
  // Turn-taking consumers (a skip on the pipe, docs/turns.md): exact per-stage model, each
  // stage freed by one release (the empty barrier counts one consumer task's arrivals),
  // consumer positions relative to the producer's; every credit op is visible.
  bool turns = false;
  int alias = -1;
  uint64_t users = 0;             // tasks with any credit op on it
  uint64_t acquirers = 0;         // tasks that acquire it (acquires compete for free stages)
  uint64_t committers = 0;        // tasks that commit it
  // One task acquires and commits: the uncommitted count (and the TMA fill bit) is then
  // that task's own, and its commits commute with every other task's steps. Otherwise a
  // commit's outcome (commit without acquire, empty TMA commit) depends on the order of
  // another task's acquire or producer work, so commits are visible.
  bool own_producer() const { return __builtin_popcountll(acquirers) == 1 && committers == acquirers; }
};

// A resource that shares physical memory with another (declared alias groups, S9.4).
struct AliasedResource {
  int resource = -1;
  int pipe = -1;                  // -1 when not pipelined
  bool producer_side = true, consumer_side = true;
};
struct AliasPair {
  int a = -1, b = -1;             // indices into aliased
  std::string why;                // "group g: smem.ring (phase 0) / scratch.buf (phase 1)"
};

struct SharedKey {
  std::string name;
  uint64_t users = 0;             // tasks that branch on it
};

struct ProgramSet {
  std::vector<TaskProgram> tasks;
  std::vector<std::vector<StepInfo>> steps;  // [task][step]
  std::vector<Pipe> pipes;
  std::vector<AliasedResource> aliased;
  std::vector<AliasPair> pairs;
  std::vector<SharedKey> keys;    // keys of conditions; shared when users has 2+ bits
  bool any_skippable = false;
  // Every task runs only local steps in a skipped tile (outside its skippable blocks):
  // a skipped tile then changes nothing another task can see.
  bool skipped_tiles_silent = false;
  // Every task runs only local steps in a tile outside its domain loop: a tile whose loop
  // runs no iteration is then a tile fewer (check/tile_abstraction.cpp).
  bool zero_trip_tiles_silent = false;
  bool any_runtime_loop = false;  // a domain loop whose length is not static
  std::vector<LengthClass> length_classes;
  // Tasks of two different length classes interact: their lengths are explored
  // independently (concrete combinations) and the parametric proof does not apply.
  bool independent_lengths = false;
  // Shortest runtime domain length a run can have: 1 when every runtime-length loop
  // provably runs (ts::runtime(...).at_least(1) and the like), else 0.
  int min_runtime_trip = 1;
  std::string lengths_note;       // which two loops are not provably equal
  int pdl_waits = 0, pdl_launches = 0;
  // A skip whose count is a runtime length: the parametric proof does not apply (the
  // count is the loop length itself, not relative to it); concrete lengths are checked.
  bool runtime_skips = false;
  // Some runtime-length domain loop inside a work-tile loop has a bound that may differ
  // from tile to tile (a per-tile provider, tile_idx, an opaque expression). When false,
  // every tile runs the one length, and the parametric proof's independent length per
  // tile (loop slot) is a superset of the real runs: its failure must be confirmed at one
  // length for every tile (check/checker.cpp).
  bool lengths_vary_per_tile = false;
};

ProgramSet compile(Model const& m);

// Domain-lane consumers of a pipelined resource (SPEC S3.3, S6.12), the rule the checker
// and the printout share: with a symmetric wait/release stride s > 1, one committing
// task, and `waiting_tasks` being exactly one task per lane 0..s-1 (a task's lane is its
// domain loop's start, ir::domain_lane), the lane of each waiting task, in order. Empty
// otherwise: every waiting task then consumes every commit (broadcast).
std::vector<int> consumer_lanes(Model const& m, int resource, std::vector<int> const& waiting_tasks);

}  // namespace ts::check
