// A schedule as data: what the random generator produces and the interpreter replays
// through the real schedule API. Plain values, so RapidCheck can print and shrink them.
#pragma once
#include <array>
#include <string>
#include <vector>

namespace prop {

// The resources every interpreted task receives, in this order (their schedule args).
// Mem slots 0..3 hold rings (pipelined) and scratch buffers (plain SMEM); kFlags feeds
// runtime conditions; the PDL pair and the queue are there for the schedules that use them.
constexpr int kMemSlots = 4;
constexpr int kFlags = 4;
constexpr int kPdlIn = 5;
constexpr int kPdlOut = 6;
constexpr int kQueue = 7;
constexpr int kTileCount = 2;  // tiles the emulator runs (the checker proves every count)

enum class Op {
  Acquire, Commit, Wait, Release,  // credit ops on a ring
  Put, Take, Scribble,             // work: ring producer, ring consumer, scratch writer
  TmaCopy,                         // work: a TMA copy into the stage (tma_async / tma_umma producer)
  Mma,                             // work: an MMA reading the stage (tma_umma consumer)
  PdlWait, PdlLaunch,
  Advance,                         // queue.get_and_advance_work_tile()
  Tick,                            // work<tick>(flags): an auxiliary step touching nothing shared
  WhenTrue, WhenFalse,             // on flags.more(), keyed by `key`
  FirstIter, LastIter, Every,      // domain-loop guards
  Skippable,                       // tile-loop region a skipped tile does not run
  Skip,                            // ring.skip(period): a turn-taker passes over the other's stages
};

bool is_block(Op op);
char const* op_name(Op op);

struct Node {
  Op op = Op::Put;
  int res = 0;        // Mem slot for ring / scratch ops
  int key = 0;        // condition key index (same index in two tasks = shared outcome)
  int period = 2;     // every(period, start)
  int start = 0;
  std::vector<Node> body;  // blocks only
};

// TmaAsync: an asynchronous producer (elected thread issues a bulk copy that completes the
// stage's transaction bytes); TmaUmma: that producer and an MMA consumer (the stage is read
// by the MMA engine, release is a tcgen05.commit).
enum class PipeKind { None, AsyncAsync, TmaAsync, TmaUmma };

struct MemSpec {
  PipeKind pipe = PipeKind::None;  // None: a plain (scratch) resource
  int stages = 1;
  int alias_group = -1;            // -1: not aliased; else group "g<n>"
  int alias_phase = 0;
  bool split_consumer = false;     // wait_signal_override = All (one task waits, another releases)
  // Interleave strides (SPEC S3.3): a side with stride 2 outside a stepping loop runs in
  // warp-lane mode (each warp of its 2-warp task one lane; docs/warp-lanes.md).
  int producer_stride = 1, consumer_stride = 1;
  // Arrivals per stage of the thread-signalled sides (programs with multi-warp tasks: the
  // warps of the tasks that commit / release, divided by the stride); 0: one warp's 32.
  int producer_threads = 0, consumer_threads = 0;
};

// TilesOfDomain: a persistent kernel's shape, a domain loop of runtime length "n" inside a
// work-tile loop (per tile: tile_pre, the domain loop over body, tile_post, the advance).
// TilesOfTwoDomains: two domain loops of that one bound one after the other in each tile
// (the ping-pong GEMM producer's shape): tile_pre, the loop over body, tile_mid, the loop
// over body2, tile_post, the advance.
enum class LoopKind { StaticDomain, RuntimeDomain, Tiles, TilesOfDomain, TilesOfTwoDomains };
// A domain loop (or two) inside a work-tile loop.
constexpr bool nested_loops(LoopKind k) { return k == LoopKind::TilesOfDomain || k == LoopKind::TilesOfTwoDomains; }
constexpr bool has_tile_loop(LoopKind k) { return k == LoopKind::Tiles || nested_loops(k); }
constexpr bool has_domain_loop(LoopKind k) { return k != LoopKind::Tiles; }
constexpr bool runtime_length(LoopKind k) { return k == LoopKind::RuntimeDomain || nested_loops(k); }

struct TaskProgram {
  // Before, inside and after the task's loop; tile_pre and tile_post (nested loops only)
  // run in each tile before its first and after its last domain loop; tile_mid and body2
  // (TilesOfTwoDomains only) between the loops and in the second loop. Declared last, so
  // the brace form TaskProgram{head, body, tail} keeps its meaning; lists() gives program order.
  std::vector<Node> head, body, tail, tile_pre, tile_post, tile_mid, body2;
  // Every node list in program order (the order the recorder numbers the steps in).
  std::array<std::vector<Node> const*, 7> lists() const {
    return {&head, &tile_pre, &body, &tile_mid, &body2, &tile_post, &tail};
  }
  std::array<std::vector<Node>*, 7> lists() { return {&head, &tile_pre, &body, &tile_mid, &body2, &tile_post, &tail}; }
  // Which domain loop a list of lists() runs in: 1 (body), 2 (body2), 0 (outside the loops).
  static constexpr int loop_of_list(int i) { return i == 2 ? 1 : i == 4 ? 2 : 0; }
};

struct Program {
  MemSpec mem[kMemSlots];
  LoopKind loop = LoopKind::RuntimeDomain;
  int length = 2;             // static length, or the runtime value the emulator runs
  bool skip_tiles = false;    // tile loop with skip_if (every skip pattern is explored)
  int tiles = kTileCount;     // work tiles of the emulator's queue (a replay runs the counterexample's)
  // Nested loops: the bound is a per-tile provider (Queue::length), so each tile may run a
  // length of its own (RuntimeChoices::tile_lengths; `length` in every tile when unset),
  // as attention's K/V loop and the grouped GEMM's K loop do. Else the ts::runtime "n".
  bool per_tile_bound = false;
  // A task whose domain loop starts at 1 instead of 0 (-1: none): its trip count is one
  // less than the others', which the checker must not assume equal (issue 13.4).
  int late_start_task = -1;
  std::vector<TaskProgram> tasks;
  int warps[4] = {1, 1, 1, 1};  // warps of each task (2 for a warp-lane task)
};

std::string to_string(Program const& p);
// For RapidCheck's counterexample printing.
inline void showValue(Program const& p, std::ostream& os);

}  // namespace prop

#include <ostream>
inline void prop::showValue(Program const& p, std::ostream& os) { os << to_string(p); }
