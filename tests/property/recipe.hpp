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
};

enum class Guard { None, FirstIter, LastIter, Every2, Every2From1, Accumulator, kCount };
enum class Split { None, Proxy, Blind, kCount };
enum class Scratch { None, BeforeRelease, AfterRelease, kCount };
enum class MutationKind { Drop, Duplicate, SwapWithNext, Unwrap, StageCount, FlipCondition, kCount };

struct PipeRecipe {
  int producer = 0;
  int consumer_offset = 0;  // consumer = producer + 1 + offset (mod tasks): never the producer
  int stages = 1;
  Guard guard = Guard::None;
  int cond_key = 0;         // 0: none; 1: both sides under when_true(the pipe's key); 2: consumer on another key
  Scratch scratch = Scratch::None;
  Split split = Split::None;
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
