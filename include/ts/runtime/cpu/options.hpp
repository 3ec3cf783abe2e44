// What a CPU emulator run is given and what it returns.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ts/core/trace.hpp"

namespace ts::cpu {

struct RunOptions {
  int grid_blocks = 1;          // CTAs in the grid (per kernel of a chain unless overridden); 1..65536
                                // (kMaxEmulatedGridBlocks, run_validation.hpp: larger grids are refused)
  int resident_blocks = 0;      // CTAs that may run at once (emulated SMs); 0 = all of the grid
  uint64_t seed = 1;            // picks the interleaving; the same seed replays it exactly
  bool detect_races = false;    // vector-clock race detection on SMEM checked accessors
  bool require_verified = true; // refuse a TaskManager whose print_and_verify() did not pass
  // Lanes of a warp reconverge at every synchronization step (acquire, commit, wait,
  // release, fetch, advance), as SIMT warps do on the GPU; interleaving between lanes
  // is then limited to work bodies. false: lanes are fully independent threads (models
  // independent thread scheduling at its most adversarial).
  bool converged_warps = true;
  std::size_t stack_bytes = 64 * 1024;  // per emulated thread (fiber); at least kMinStackBytes (16 KiB)
  long long max_actions = 200'000'000;  // safety net against livelock (spinning try_wait loops)
  bool trace = false;           // record each task leader's steps (RunStats::trace_events)
};

// A forced step of a replayed interleaving (a checker counterexample): thread group
// `task` of CTA `cta` reaching schedule step `step` for the `iteration`-th time
// (0-based occurrence count of that step in the executing thread).
struct ReplayEvent {
  int cta = 0;
  int task = 0;
  int step = 0;
  long long iteration = 0;
};

// What a replay does with a step its events do not list (in a CTA the events name).
// RunFreely: the events constrain only the steps they list (a partial order to force).
// WaitUntilReplayed: the events are a whole run, every step each task executed (a checker
// counterexample); in a CTA the events name, a step they do not list waits until every
// event has happened, so no other failure of the schedule in that CTA can come first and
// the replay stops where the run does. A run that blocks before its last event is
// "replay diverged" (an EmulationError), not a DeadlockError.
enum class UnlistedSteps { RunFreely, WaitUntilReplayed };

struct RunStats {
  uint64_t seed = 0;
  long long actions = 0;           // scheduler decisions
  long long context_switches = 0;
  long long async_completions = 0; // bulk/tensor copies, MMA ops, CLC responses
  int ctas_started = 0;
  int ctas_canceled = 0;           // taken over through Cluster Launch Control
  long long replay_events = 0;     // replay events honoured
  std::vector<uint64_t> trace;     // a hash-friendly trace of the choices (fiber or action ids)
  Trace steps;                     // RunOptions::trace: step intervals on the logical clock
};

}  // namespace ts::cpu
