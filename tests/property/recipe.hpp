// A Recipe is what RapidCheck generates and shrinks: a few producer/consumer pipes
// between tasks, optional PDL, and mutations that break the balance. build_program()
// turns it into a Program deterministically, so shrinking the recipe (fewer pipes, fewer
// mutations, smaller numbers) shrinks the schedule.
#pragma once
#include <ostream>
#include <vector>

#include "schedule_program.hpp"

namespace prop {

// Known checker bugs the random properties steer around until they are fixed. Each one
// removes only the feature that triggers the bug (its regression test in
// regressions_test.cpp still exercises it); set to false to hunt for the bug again.
struct AvoidKnownBugs {
  bool por_alias = false;
  // The parametric proof does not terminate when a task's runtime-length loop body has
  // no step on a plain iteration (empty, or only first_iter / last_iter blocks): such
  // bodies get one auxiliary step (work<tick>(flags)) in every iteration.
  bool parametric_step_free_loop = false;
  // A commit with no acquired stage is never flagged: the checker counts it as a full
  // stage (the emulator does not), so a counterexample does not replay. Mutations leave
  // acquires and commits (and blocks holding them) alone; stage counts still change.
  bool commit_without_acquire = false;
  // An empty TMA commit is not flagged when no task does producer work on the pipe at all
  // (Regression.TmaCommitWithNoCopyOnThePipeIsAHang): a mutation leaving a TMA ring
  // with no copy is undone.
  bool tma_pipe_without_copy = false;
  // The checker fills a TMA stage at its commit; the device (acquire arms expect_tx) fills
  // it when the copy lands (Regression.TmaStageIsFullWhenItsCopyLandsWithoutACommit,
  // Regression.TmaConsumerMayRunBetweenTheCopyAndTheCommit): a mutation that leaves a TMA
  // copy not directly followed by its ring's commit is undone.
  bool tma_full_at_commit = false;
  // Documented gap (docs/checker.md, "Known gaps": empty TMA commits are recognised only
  // with one stage outstanding): with two TMA stages acquired before a commit, the copy
  // fills the stage of the last acquire while the checker fills the first. A mutation
  // that leaves a TMA ring acquired twice without a commit in between is undone.
  bool tma_stages_outstanding = false;
  // The checker orders a whole task's earlier work before the asynchronous work its
  // elected thread issues (a TMA copy, an MMA); on the device (and the emulator) only that
  // thread's: other lanes' writes to aliased memory race
  // (Regression.TmaCopyOrdersOnlyTheElectedThread, Regression.MmaIssueOrdersOnlyTheElectedThread).
  // A program whose task issues a TMA copy or an MMA and touches aliased memory loses its
  // alias groups.
  bool elected_async_work_orders_the_whole_task = false;
  // An empty TMA commit is reported as a hang even where no task of the run waits on the
  // stage (Regression.EmptyTmaCommitThatNoTaskOfTheRunWaitsOnIsNoHang). Not avoided in
  // generation: the replay accepts a clean run for an empty-TMA-commit counterexample
  // (emulator_prop_test.cpp), tagged "empty TMA commit: no waiter in the replayed run".
  bool empty_tma_commit_without_waiter = false;
};

// PerTile: one stage per tile (per run outside a tile loop), filled and waited for before
// the domain loop, read in every iteration, released after it (attention's Q block).
enum class Guard { None, FirstIter, LastIter, Every2, Every2From1, Accumulator, PerTile, kCount };
// Proxy: the waiter tells the releaser through a second ring after its read; ProxyBeforeRead:
// before it (a stage reuse race once stages + 1 items are in flight: the third tile or
// iteration of a 2-stage ring); Blind: the releaser releases without being told.
// Turns: a second consumer task takes turns with the first on the ring (ring.skip(1),
// docs/turns.md): the producer commits two stages per step, C0 takes the first, C1 the second.
enum class Split { None, Proxy, Blind, ProxyBeforeRead, Turns, kCount };
// Where the consumer writes a scratch buffer aliased with the ring's stages: after its
// read (before the release), after the release, or between the wait and the read.
enum class Scratch { None, BeforeRelease, AfterRelease, BeforeRead, kCount };
// The ring's pipeline type: async_async (thread producer and consumer), tma_async (a TMA
// copy fills each stage: transaction bytes, the empty-commit hang, an async producer's
// access window), tma_umma (that producer and an MMA consumer: release is a tcgen05.commit).
enum class PipeFlavor { Async, Tma, TmaUmma, kCount };
// Warp-lane interleaving (docs/warp-lanes.md): one side of the ring has stride 2 and its
// task two warps, each one lane; the other side runs two ops per lane op to balance it.
enum class WarpLane { None, Producer, Consumer };
// Which of a tile's two domain loops (LoopKind::TilesOfTwoDomains) a pipe's per-iteration
// ops go into: both sides in the first, both in the second, both sides in both loops (a
// key asked in each loop is two outcomes), or Across: the producer's in the first loop and
// the consumer's in the second (stages filled in one loop and drained in the next). An
// accumulator is drained after the loop that filled it (Both: after each; Across: after
// the second); a PerTile operand is filled before, and released after, the loops reading
// it (Across: filled before the first loop, waited for between the loops). Other loop
// kinds ignore it.
enum class Place { First, Second, Both, Across, kCount };
enum class MutationKind { Drop, Duplicate, SwapWithNext, Unwrap, StageCount, FlipCondition, kCount };

struct PipeRecipe {
  int producer = 0;
  int consumer_offset = 0;  // consumer = producer + 1 + offset (mod tasks): never the producer
  int stages = 1;
  PipeFlavor flavor = PipeFlavor::Async;
  bool guarded_copy = false;  // TMA flavors: the copy under when_true(k3), the commit outside
  Guard guard = Guard::None;
  int cond_key = 0;         // 0: none; 1: both sides under when_true(the pipe's key); 2: consumer on another key
  Scratch scratch = Scratch::None;
  Split split = Split::None;
  WarpLane warp_lane = WarpLane::None;  // set by the warp-lane properties, never generated
  Place place = Place::First;
};

struct Mutation {
  MutationKind kind = MutationKind::Drop;
  int task = 0;
  int position = 0;  // the n-th node of the task in program order (modulo its node count)
};

struct Recipe {
  int tasks = 2;
  LoopKind loop = LoopKind::RuntimeDomain;
  int length = 2;
  bool skip_tiles = false;
  bool per_tile_bound = false;  // Program::per_tile_bound (nested loops only)
  std::vector<PipeRecipe> pipes;
  int pdl = 0;  // 0: none, 1: wait in the head and launch in the tail, 2: the other way round
  int pdl_task = 0;
  int late_start_task = -1;  // Program::late_start_task (taken modulo the task count)
  std::vector<Mutation> mutations;
};

Program build_program(Recipe const& r, AvoidKnownBugs const& avoid);
// RapidCheck prints a failing recipe as the schedule it builds.
void showValue(Recipe const& r, std::ostream& os);

}  // namespace prop
