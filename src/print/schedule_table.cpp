#include <algorithm>
#include <map>
#include <sstream>
#include <vector>

#include "ts/print/printout.hpp"
#include "ts/schedule/expand.hpp"

namespace ts::print {

namespace {

std::string op_name(ir::Step const& s) {
  using K = ir::StepKind;
  switch (s.kind) {
    case K::TryAcquire: return "ProducerTryAcquire";
    case K::Acquire: return "ProducerAcquire";
    case K::Commit: return "ProducerCommit";
    case K::TryWait: return "ConsumerTryWait";
    case K::Wait: return "ConsumerWait";
    case K::Release: return "ConsumerRelease";
    case K::QueueAdvance: return "QueueAdvance";
    case K::QueueFetch: return "QueueFetch";
    case K::BreakLoop: return "BreakLoop";
    case K::Work: break;
  }
  std::string role = s.role == WorkRole::Producer ? "ProducerWork" : s.role == WorkRole::Consumer ? "ConsumerWork" : "AuxWork";
  return role + ":" + ir::short_name(s);
}

struct Credits {
  int stages = 0;
  long long acquired = 0, committed = 0;
  std::map<int, long long> waited, released;  // per consumer task
  long long min_released() const {
    if (released.empty()) return 0;
    long long m = released.begin()->second;
    for (auto const& [t, r] : released) m = std::min(m, r);
    return m;
  }
};

struct TaskRun {
  std::vector<ExpandedStep> seq;
  size_t pc = 0;
  std::map<int, int> occurrences;  // step id -> times executed
  bool done() const { return pc >= seq.size(); }
};

}  // namespace

void schedule_table(Model const& m, std::ostream& os) {
  std::vector<TaskRun> runs(m.tasks.size());
  std::map<int, Credits> credits;
  long long sample = m.options.sample_iterations;
  for (size_t t = 0; t < m.tasks.size(); ++t) {
    ExpandOptions opt;
    opt.iterations = sample;
    runs[t].seq = expand(m.tasks[t].schedule, opt);
    for (auto const& s : m.tasks[t].schedule.steps) {
      if (s.resource < 0 || !m.resource(s.resource).pipelined()) continue;
      auto& c = credits[s.resource];
      c.stages = m.resource(s.resource).pipeline->num_stages;
      if (s.kind == ir::StepKind::Wait) {
        c.waited[int(t)];
        c.released[int(t)];
      }
    }
  }

  std::vector<std::string> header;
  for (auto const& t : m.tasks)
    header.push_back(t.name + "[" + std::to_string(t.warp_start) + ":" + std::to_string(t.warp_end()) + ")");
  std::vector<std::vector<std::string>> rows;

  auto stage_of = [&](ir::Step const& s, int task) -> std::string {
    if (s.resource < 0 || !credits.count(s.resource)) return "";
    auto& c = credits[s.resource];
    using K = ir::StepKind;
    long long n = 0;
    if (s.kind == K::Acquire || s.kind == K::TryAcquire) n = c.acquired;
    else if (s.kind == K::Commit) n = c.committed;
    else if (s.kind == K::Wait || s.kind == K::TryWait) n = c.waited[task];
    else if (s.kind == K::Release) n = c.released[task];
    else if (s.role == WorkRole::Producer || s.kind == K::QueueFetch) n = c.acquired - 1;
    else n = c.waited.count(task) ? c.waited[task] - 1 : c.acquired - 1;
    if (n < 0) n = 0;
    return "[" + std::to_string(n % c.stages) + "]";
  };

  bool deadlock = false;
  // A blocked step prints "is blocked!" on the row it first blocks, then stays quiet
  // until it runs (the final row of a deadlock repeats every blocked step).
  std::vector<long long> quiet_at(m.tasks.size(), -1);
  for (int guard = 0; guard < 1000000; ++guard) {
    bool all_done = true, progressed = false;
    std::vector<std::string> row(m.tasks.size());
    for (size_t t = 0; t < m.tasks.size(); ++t) {
      auto& r = runs[t];
      if (r.done()) continue;
      all_done = false;
      auto const& e = r.seq[r.pc];
      auto const& s = m.tasks[t].schedule.steps[e.step];
      std::string res = s.resource >= 0 ? m.resource(s.resource).name : std::string("-");
      bool enabled = true, handoff = false;
      Credits* c = (s.resource >= 0 && credits.count(s.resource)) ? &credits[s.resource] : nullptr;
      if (c && s.kind == ir::StepKind::Acquire) {
        enabled = c->acquired - c->min_released() < c->stages;
        handoff = c->acquired >= c->stages;
      } else if (c && s.kind == ir::StepKind::Wait) {
        enabled = c->committed > c->waited[int(t)];
        handoff = true;
      }
      std::string cell = res + " " + op_name(s) + stage_of(s, int(t)) + " " + e.phase_tag() + " " +
                         std::to_string(r.occurrences[e.step]);
      if (!enabled) {
        if (quiet_at[t] != static_cast<long long>(r.pc)) row[t] = cell + " is blocked!";
        quiet_at[t] = static_cast<long long>(r.pc);
        continue;
      }
      if (c) {
        using K = ir::StepKind;
        if (s.kind == K::Acquire) ++c->acquired;
        if (s.kind == K::Commit) ++c->committed;
        if (s.kind == K::Wait) ++c->waited[int(t)];
        if (s.kind == K::Release) ++c->released[int(t)];
      }
      ++r.occurrences[e.step];
      ++r.pc;
      progressed = true;
      row[t] = (handoff ? "=> " : "") + cell;
    }
    if (all_done) break;
    if (!progressed) {
      deadlock = true;
      for (size_t t = 0; t < m.tasks.size(); ++t) {
        auto const& r = runs[t];
        if (r.done() || !row[t].empty()) continue;
        auto const& e = r.seq[r.pc];
        auto const& s = m.tasks[t].schedule.steps[e.step];
        row[t] = m.resource(s.resource).name + " " + op_name(s) + stage_of(s, int(t)) + " " + e.phase_tag() + " " +
                 std::to_string(runs[t].occurrences.count(e.step) ? runs[t].occurrences.at(e.step) : 0) +
                 " is blocked!";
      }
      rows.push_back(row);
      break;
    }
    if (std::any_of(row.begin(), row.end(), [](auto const& c) { return !c.empty(); })) rows.push_back(row);
  }

  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (auto const& r : rows) width[c] = std::max(width[c], r[c].size());
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
  os << "Schedule (domain length " << sample << " where not static, 1 work tile, conditions taken):\n";
  rule();
  line(header);
  rule();
  for (auto const& r : rows) line(r);
  rule();
  if (deadlock) os << "Simulation stopped: every remaining task is blocked.\n";
  for (auto const& [rid, c] : credits) {
    std::string name = m.resource(rid).name;
    for (auto const& [t, w] : c.waited)
      if (c.committed > w)
        os << (c.committed - w) << "x ProducerCommit from " << name << " not consumed by " << m.tasks[t].name << "!\n";
    long long held = c.acquired - c.min_released();
    if (!c.waited.empty() && held > 0)
      os << held << "x ProducerAcquire from " << name << " not released!\n";
  }
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
    total += static_cast<long long>(regs) * t.num_warps * 32;
    int delta = regs - base;
    os << "  " << t.name << "[" << t.warp_start << ":" << t.warp_end() << ") " << regs << " regs/thread";
    if (!t.num_registers) os << " (launch budget)";
    else if (delta < 0) os << ", donates " << -delta << " x " << t.num_warps * 32 << " threads";
    else if (delta > 0) os << ", borrows " << delta << " x " << t.num_warps * 32 << " threads";
    os << "\n";
  }
  os << "  total " << total << " of 65536 registers" << (total <= 65536 ? " (fits)" : " (OVER BUDGET)") << "\n";
}

}  // namespace ts::print
