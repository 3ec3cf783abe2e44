// The tasks' warp layout checked when the TaskManager is built: every task owns a
// non-empty, non-negative warp range of its own, and the CTA they make fits the
// hardware. Without this, warps(-1, 1), two tasks on one warp, or 41 warps (1,312
// threads) verified SAFE and failed only at launch, or not at all on the emulator.
#include <string>

#include "ts/core/errors.hpp"
#include "ts/schedule/validation.hpp"

namespace ts {

namespace {

std::string range_text(long long start, long long count) {
  return "warps(" + std::to_string(start) + ", " + std::to_string(count) + ")";
}

std::string warp_span(TaskModel const& t) {
  return "warps " + std::to_string(t.warp_start) + ".." + std::to_string(static_cast<long long>(t.warp_start) + t.num_warps - 1);
}

}  // namespace

void validate_task_layout(Model const& m) {
  if (m.tasks.empty()) {
    Diagnostic d;
    d.check = "model.no-tasks";
    d.message = "the TaskManager was given no tasks, so there is no schedule to print, verify or run";
    d.expected = "at least one ts::Task";
    d.actual = "0 tasks";
    d.hint = "pass the tasks with ts::tasks(t1, t2, ...)";
    throw ModelError(d);
  }
  for (auto const& t : m.tasks) {
    if (t.warp_start >= 0 && t.num_warps >= 1) continue;
    Diagnostic d;
    d.check = "model.warp-range";
    d.task = t.name;
    d.message = "the task declares " + range_text(t.warp_start, t.num_warps) +
                ": a task needs a first warp >= 0 and at least one warp";
    d.expected = "warp_start >= 0 and num_warps >= 1";
    d.actual = "warp_start " + std::to_string(t.warp_start) + ", num_warps " + std::to_string(t.num_warps);
    d.hint = "call .warps(first_warp, number_of_warps), e.g. .warps(0, 1)";
    throw ModelError(d);
  }
  for (size_t a = 0; a < m.tasks.size(); ++a)
    for (size_t b = a + 1; b < m.tasks.size(); ++b) {
      auto const& x = m.tasks[a];
      auto const& y = m.tasks[b];
      long long x_end = static_cast<long long>(x.warp_start) + x.num_warps;
      long long y_end = static_cast<long long>(y.warp_start) + y.num_warps;
      if (x_end <= y.warp_start || y_end <= x.warp_start) continue;
      Diagnostic d;
      d.check = "model.overlapping-warps";
      d.task = y.name;
      d.message = "tasks '" + x.name + "' (" + warp_span(x) + ") and '" + y.name + "' (" + warp_span(y) +
                  ") share warps; every warp runs exactly one task's schedule";
      d.expected = "'" + y.name + "' starting at warp >= " + std::to_string(x_end) +
                   (x.warp_start > 0 ? " or ending before warp " + std::to_string(x.warp_start) : std::string());
      d.actual = range_text(y.warp_start, y.num_warps);
      d.hint = "give each task its own warp range, e.g. .warps(" + std::to_string(x_end) + ", " +
               std::to_string(y.num_warps) + ") for '" + y.name + "'";
      throw ModelError(d);
    }
  long long warps = 0;
  size_t widest = 0;
  for (size_t i = 0; i < m.tasks.size(); ++i) {
    long long end = static_cast<long long>(m.tasks[i].warp_start) + m.tasks[i].num_warps;
    if (end > warps) {
      warps = end;
      widest = i;
    }
  }
  if (warps * 32 > kMaxBlockThreads) {
    Diagnostic d;
    d.check = "model.block-threads";
    d.task = m.tasks[widest].name;
    d.message = "the tasks span warps 0.." + std::to_string(warps - 1) + " (the last one ends in task '" +
                m.tasks[widest].name + "'), so a CTA would need " + std::to_string(warps * 32) +
                " threads; CUDA allows at most " + std::to_string(kMaxBlockThreads) + " threads per CTA";
    d.expected = "<= " + std::to_string(kMaxBlockThreads) + " threads (" + std::to_string(kMaxBlockThreads / 32) +
                 " warps)";
    d.actual = std::to_string(warps * 32) + " threads (" + std::to_string(warps) + " warps)";
    d.hint = "use fewer warps per task or fewer tasks; a CTA has at most 32 warps";
    throw ModelError(d);
  }
}

}  // namespace ts
