// S6.22 warp-group register consistency and S6.23 register budget (SPEC S5.2).
// setmaxnreg acts on a whole warp group (4 aligned warps), so every task overlapping one
// warp group must ask for the same per-thread count; a task without a request runs at
// the launch budget min(255, floor(65536 / block threads / 8) * 8). The block total
// (per warp: its task's request; an uncovered warp takes its warp group's request, or
// the launch budget when the group has none) must fit what the CTA holds: setmaxnreg.inc
// only takes registers another warp group's setmaxnreg.dec gave back to the CTA's pool,
// which is the launch budget x block threads (168 x 384 = 64512 for three warp groups),
// not the register file. A request above it blocks its warp group's inc forever: a hang
// (measured on the H200: 64 + 2 x 224 registers for 384 threads, 65536 in all). Each
// request is a multiple of 8 in [24, 256] (what setmaxnreg accepts).
#include <algorithm>

#include "passes.hpp"

namespace ts::verify {

namespace {

int launch_budget(int block_threads, int file) {
  if (block_threads <= 0) return 255;
  return std::min(255, file / block_threads / 8 * 8);
}

}  // namespace

void check_registers(Model const& m, Limits const& l, Diagnostics& out) {
  int warps = m.total_warps();
  int budget = launch_budget(warps * 32, l.register_file);
  auto regs_of = [&](TaskModel const& t) { return t.num_registers.value_or(budget); };

  for (size_t ti = 0; ti < m.tasks.size(); ++ti) {
    auto const& t = m.tasks[ti];
    if (!t.num_registers) continue;
    int r = *t.num_registers;
    if (r % 8 == 0 && r >= 24 && r <= 256) continue;
    auto d = at_task(m, static_cast<int>(ti), "S6.23.register-request-range",
                     "num_registers must be a multiple of 8 in [24, 256] (setmaxnreg)");
    d.expected = "a multiple of 8 in [24, 256]";
    d.actual = std::to_string(r);
    out.push_back(d);
  }

  // S6.22: per warp group, every overlapping task asks for the same count.
  for (int g = 0; g * 4 < warps; ++g) {
    int first = -1;
    for (size_t ti = 0; ti < m.tasks.size(); ++ti) {
      auto const& t = m.tasks[ti];
      if (t.warp_end() <= g * 4 || t.warp_start >= g * 4 + 4) continue;
      if (first < 0) {
        first = static_cast<int>(ti);
        continue;
      }
      if (regs_of(t) == regs_of(m.tasks[first])) continue;
      auto d = at_task(m, static_cast<int>(ti), "S6.22.warp-group-registers",
                       "tasks '" + m.tasks[first].name + "' and '" + t.name + "' share warp group " +
                           std::to_string(g) + " (warps " + std::to_string(g * 4) + ".." + std::to_string(g * 4 + 3) +
                           ") but request different register counts");
      d.expected = std::to_string(regs_of(m.tasks[first])) + " (as '" + m.tasks[first].name + "')";
      d.actual = std::to_string(regs_of(t));
      d.hint = "give both tasks the same registers(), or align the tasks to warp groups";
      out.push_back(d);
    }
  }

  // S6.23: block total fits the register file. Counted per warp: a warp holds its task's
  // count; a warp no task covers holds the count its warp group was set to (setmaxnreg
  // runs on the whole group), or the launch budget when no task of the group asks.
  auto regs_of_warp = [&](int w) {
    for (auto const& t : m.tasks)
      if (w >= t.warp_start && w < t.warp_end()) return regs_of(t);
    for (auto const& t : m.tasks)
      if (t.num_registers && t.warp_start < (w / 4) * 4 + 4 && t.warp_end() > (w / 4) * 4) return *t.num_registers;
    return budget;
  };
  long long total = 0;
  for (int w = 0; w < warps; ++w) total += static_cast<long long>(regs_of_warp(w)) * 32;
  long long const pool = static_cast<long long>(budget) * warps * 32;  // budget <= file / threads
  if (total > pool) {
    Diagnostic d;
    d.check = "S6.23.register-budget";
    int largest = -1;  // name the biggest requester: the first place to give registers back
    for (size_t ti = 0; ti < m.tasks.size(); ++ti)
      if (largest < 0 || regs_of(m.tasks[ti]) * m.tasks[ti].num_warps >
                             regs_of(m.tasks[largest]) * m.tasks[largest].num_warps)
        largest = static_cast<int>(ti);
    if (largest >= 0) d.task = m.tasks[largest].name;
    d.message =
        "the tasks' register requests (registers x threads, summed over the block) exceed the registers the block "
        "holds at launch (" + std::to_string(budget) + " per thread x " + std::to_string(warps * 32) +
        " threads); setmaxnreg.inc would wait forever for the rest";
    d.expected = "<= " + std::to_string(pool);
    d.actual = std::to_string(total);
    d.hint = "lower some task's registers(); tasks without a request use " + std::to_string(budget);
    out.push_back(d);
  }
}

}  // namespace ts::verify
