#include <algorithm>
#include <map>
#include <sstream>
#include <vector>

#include "ts/print/printout.hpp"
#include "simulation.hpp"

namespace ts::print {

void schedule_table(Model const& m, std::ostream& os) {
  Simulation sim = simulate(m);
  auto text = [](std::optional<SimCell> const& c) -> std::string {
    if (!c) return "";
    return (c->handoff ? "=> " : "") + c->text + (c->blocked ? " is blocked!" : "");
  };
  std::vector<size_t> width(sim.headers.size());
  for (size_t c = 0; c < width.size(); ++c) {
    width[c] = sim.headers[c].size();
    for (auto const& r : sim.rows) width[c] = std::max(width[c], text(r[c]).size());
  }
  auto rule = [&] {
    os << "+";
    for (auto w : width) os << std::string(w + 2, '-') << "+";
    os << "\n";
  };
  auto line = [&](std::vector<std::string> const& cells) {
    os << "|";
    for (size_t c = 0; c < cells.size(); ++c) os << " " << cells[c] << std::string(width[c] - cells[c].size(), ' ') << " |";
    os << "\n";
  };
  os << "Schedule (domain length " << sim.sample_iterations << " where not static, 1 work tile, conditions taken):\n";
  rule();
  line(sim.headers);
  rule();
  for (auto const& r : sim.rows) {
    std::vector<std::string> cells;
    for (auto const& c : r) cells.push_back(text(c));
    line(cells);
  }
  rule();
  if (sim.deadlock) os << "Simulation stopped: every remaining task is blocked.\n";
  for (auto const& u : sim.unbalanced) os << u << "\n";
  warp_lanes(m, os);
}

void register_budget(Model const& m, std::ostream& os) {
  int warps = m.total_warps();
  int threads = warps * 32;
  if (threads == 0) return;
  int base = std::min(255, (65536 / threads) / 8 * 8);
  bool any = std::any_of(m.tasks.begin(), m.tasks.end(), [](auto const& t) { return t.num_registers.has_value(); });
  os << "Register budget: " << threads << " threads, launch budget " << base
     << " registers/thread (65536 per SM)";
  if (!any) {
    os << "; no task requests a budget (no setmaxnreg).\n";
    return;
  }
  os << "\n";
  long long total = 0;
  for (auto const& t : m.tasks) {
    int regs = t.num_registers.value_or(base);
    int delta = regs - base;
    os << "  " << t.name << "[" << t.warp_start << ":" << t.warp_end() << ") " << regs << " regs/thread";
    if (!t.num_registers) os << " (launch budget)";
    else if (delta < 0) os << ", donates " << -delta << " x " << t.num_warps * 32 << " threads";
    else if (delta > 0) os << ", borrows " << delta << " x " << t.num_warps * 32 << " threads";
    os << "\n";
  }
  // Per warp: a warp no task covers holds its warp group's setmaxnreg count.
  for (int w = 0; w < warps; ++w) {
    int regs = -1;
    for (auto const& t : m.tasks)
      if (w >= t.warp_start && w < t.warp_end()) regs = t.num_registers.value_or(base);
    if (regs < 0) {
      regs = base;
      for (auto const& t : m.tasks)
        if (t.num_registers && t.warp_start < (w / 4) * 4 + 4 && t.warp_end() > (w / 4) * 4) regs = *t.num_registers;
      os << "  warp " << w << " (no task) " << regs << " regs/thread\n";
    }
    total += static_cast<long long>(regs) * 32;
  }
  os << "  total " << total << " of 65536 registers" << (total <= 65536 ? " (fits)" : " (OVER BUDGET)") << "\n";
}

}  // namespace ts::print
