// Emulator input checked up front (include/ts/runtime/cpu/run_validation.hpp): a bad
// value is named with its range instead of surfacing as a segfault inside a fiber, a
// run that seems to hang, or a replay that "diverges" at an event that cannot exist.
#include "ts/runtime/cpu/run_validation.hpp"

#include <string>

#include "ts/core/errors.hpp"
#include "ts/schedule/model.hpp"
#include "ts/runtime/cpu/errors.hpp"

namespace ts::cpu {

namespace {

[[noreturn]] void reject(std::string check, std::string message, std::string expected, std::string actual,
                         std::string hint) {
  throw EmulationError("ts::cpu: " + value_diagnostic(std::move(check), "", std::move(message), std::move(expected),
                                                      std::move(actual), std::move(hint))
                                          .format());
}

}  // namespace

void validate_run_options(RunOptions const& o) {
  if (o.stack_bytes < kMinStackBytes)
    reject("emulator.stack-bytes-range",
           "RunOptions::stack_bytes = " + std::to_string(o.stack_bytes) +
               " is too small for an emulated thread's stack (each thread is a fiber running the schedule and its "
               "work bodies)",
           ">= " + std::to_string(kMinStackBytes) + " bytes", std::to_string(o.stack_bytes) + " bytes",
           "keep the default (65536) or raise it for work bodies with large locals");
  if (o.grid_blocks < 1 || o.grid_blocks > kMaxEmulatedGridBlocks) validate_grid_blocks(o.grid_blocks);
  if (o.resident_blocks < 0)
    reject("emulator.resident-blocks-range",
           "RunOptions::resident_blocks = " + std::to_string(o.resident_blocks) + " is negative",
           ">= 0 (0 = every CTA of the grid)", std::to_string(o.resident_blocks), "");
  if (o.max_actions < 1)
    reject("emulator.max-actions-range",
           "RunOptions::max_actions = " + std::to_string(o.max_actions) + " leaves no scheduler decision to run",
           ">= 1", std::to_string(o.max_actions), "keep the default (200000000)");
}

void validate_grid_blocks(int grid_blocks) {
  if (grid_blocks >= 1 && grid_blocks <= kMaxEmulatedGridBlocks) return;
  reject("emulator.grid-blocks-range",
         "a grid of " + std::to_string(grid_blocks) + " CTA(s) cannot be emulated" +
             (grid_blocks < 1 ? std::string(": a grid has at least one CTA")
                              : ": every CTA runs thread by thread on one host thread (minutes, no progress)"),
         "1 <= grid_blocks <= " + std::to_string(kMaxEmulatedGridBlocks), std::to_string(grid_blocks),
         "emulate a smaller grid; a grid-stride or persistent schedule covers the same data with fewer CTAs");
}

void validate_replay_events(Model const& m, std::vector<ReplayEvent> const& events, int grid_blocks) {
  int tasks = static_cast<int>(m.tasks.size());
  for (size_t i = 0; i < events.size(); ++i) {
    auto const& e = events[i];
    std::string at = "replay event " + std::to_string(i);
    if (e.task < 0 || e.task >= tasks)
      reject("replay.task-range", at + " names task " + std::to_string(e.task) + ", which this TaskManager does not have",
             "0 <= task <= " + std::to_string(tasks - 1), std::to_string(e.task),
             "replay a counterexample of this manager (tm.last_counterexample_json())");
    auto const& t = m.tasks[e.task];
    int steps = static_cast<int>(t.schedule.steps.size());
    if (e.step < 0 || e.step >= steps) {
      Diagnostic d;
      d.check = "replay.step-range";
      d.task = t.name;
      d.message = at + " names step " + std::to_string(e.step) + ", which task '" + t.name + "' does not have";
      d.expected = "0 <= step <= " + std::to_string(steps - 1);
      d.actual = std::to_string(e.step);
      d.hint = "replay a counterexample of this manager (tm.last_counterexample_json())";
      throw EmulationError("ts::cpu: " + d.format());
    }
    if (e.cta < 0 || e.cta >= grid_blocks)
      reject("replay.cta-range", at + " names CTA " + std::to_string(e.cta) + ", outside the grid",
             "0 <= cta <= " + std::to_string(grid_blocks - 1), std::to_string(e.cta), "");
    if (e.iteration < 0)
      reject("replay.iteration-range", at + " names occurrence " + std::to_string(e.iteration) + " of its step",
             ">= 0 (0-based occurrence count)", std::to_string(e.iteration), "");
  }
}

}  // namespace ts::cpu
