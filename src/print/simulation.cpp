#include "simulation.hpp"

#include <algorithm>
#include <map>

#include "ts/check/credit_model.hpp"
#include "ts/check/program.hpp"
#include "ts/schedule/expand.hpp"
#include "ts/schedule/lane_mode.hpp"

namespace ts::print {

std::string op_name(ir::Step const& s) {
  using K = SyncOp;
  switch (s.kind) {
    case K::TryAcquire: return "ProducerTryAcquire";
    case K::Acquire: return "ProducerAcquire";
    case K::Commit: return "ProducerCommit";
    case K::TryWait: return "ConsumerTryWait";
    case K::Wait: return "ConsumerWait";
    case K::Release: return "ConsumerRelease";
    case K::Advance: return "QueueAdvance";
    case K::Fetch: return "QueueFetch";
    case K::BreakLoop: return "BreakLoop";
    case K::Skip: return "ConsumerSkip";
    case K::Work: break;
  }
  std::string role = s.role == WorkRole::Producer   ? "ProducerWork"
                     : s.role == WorkRole::Consumer ? "ConsumerWork"
                                                    : "AuxWork";
  return role + ":" + ir::short_name(s);
}

namespace {

// Where one pipelined resource's ops land, for the stage labels and the hand-over
// arrows: counts of acquires, commits, waits and releases and the rows they happened on.
// When an op may pass is not decided here but by the checker's credit model
// (check::CreditModel); these counters only follow the ops it let through.
struct Ring {
  int stages = 0;
  long long acquired = 0, committed = 0;
  std::vector<std::pair<int, int>> commit_at;                   // (row, task) per commit
  std::map<int, long long> waited, released;                    // per consumer task
  std::map<int, std::vector<std::pair<int, int>>> release_at;   // per consumer task
  std::map<int, int> release_for;  // releasing task -> the waiting task it releases for
  // Domain-lane consumers (S3.3): lane per waiting task; commit k belongs to lane
  // k mod lanes only. 0 = every waiting task consumes every commit.
  int lanes = 0;
  std::map<int, int> lane_of;
  // Turn-taking consumers (a skip on the ring, docs/turns.md): each task's wait and
  // release counters are positions in commit order that its skips move on.
  bool turns = false;
  std::map<int, long long> wait_pos, release_pos;       // per consumer task
  std::map<long long, std::pair<int, int>> released_at;  // position -> (row, task)
  // The commit consumed by `task`'s k-th wait (and freed by its k-th release).
  long long item(int task, long long k) const {
    if (turns) return wait_pos.count(task) ? wait_pos.at(task) : 0;
    return lanes ? lane_of.at(task) + k * lanes : k;
  }
  int owner(int task) const { return release_for.count(task) ? release_for.at(task) : task; }
};

// Where the credit an op passing now takes was handed over: the release that freed the
// stage an acquire reuses (the last of them), the commit a wait consumes.
void hand_over(Ring const& c, ir::Step const& s, int task, SimCell& cell) {
  auto from = [&](std::pair<int, int> const& at) {
    cell.handoff = true;
    std::tie(cell.from_row, cell.from_task) = at;
  };
  if (s.kind == SyncOp::Acquire) {
    long long prev = c.acquired - c.stages;  // the stage's previous occupant
    if (prev < 0) return;
    if (c.turns) {
      if (auto it = c.released_at.find(prev); it != c.released_at.end()) from(it->second);
      return;
    }
    for (auto const& [releaser, rel] : c.release_at) {
      if (c.lanes && c.lane_of.count(releaser) && c.lane_of.at(releaser) != prev % c.lanes) continue;
      long long j = c.lanes ? prev / c.lanes : prev;
      if (j < static_cast<long long>(rel.size()) && rel[j].first >= cell.from_row) from(rel[j]);
    }
  } else if (s.kind == SyncOp::Wait) {
    auto it = c.waited.find(task);
    long long k = c.item(task, it == c.waited.end() ? 0 : it->second);
    if (k < static_cast<long long>(c.commit_at.size())) from(c.commit_at[k]);
  }
}

struct TaskRun {
  std::vector<ExpandedStep> seq;
  size_t pc = 0;
  std::map<int, int> occurrences;
  bool done() const { return pc >= seq.size(); }
};

}  // namespace

Simulation simulate(Model const& m) {
  Simulation sim;
  sim.sample_iterations = m.options.sample_iterations;
  size_t n = m.tasks.size();
  std::vector<TaskRun> runs(n);
  std::map<int, Ring> credits;
  check::CreditModel model(m, m.options.sample_iterations);
  for (size_t t = 0; t < n; ++t) {
    auto const& tm = m.tasks[t];
    sim.headers.push_back(tm.name + "[" + std::to_string(tm.warp_start) + ":" + std::to_string(tm.warp_end()) + ")");
    ExpandOptions opt;
    opt.iterations = m.options.sample_iterations;
    runs[t].seq = expand(tm.schedule, opt);
    for (auto const& s : tm.schedule.steps) {
      if (s.resource < 0 || !m.resource(s.resource).pipelined()) continue;
      auto& c = credits[s.resource];
      c.stages = m.resource(s.resource).pipeline->num_stages;
      if (s.kind == SyncOp::Wait) {
        c.waited[int(t)];
        c.released[int(t)];
      }
      if (s.kind == SyncOp::Skip) c.turns = true;
    }
  }
  // Ring positions follow the checker's consumer slots (check/program.cpp): a task that releases
  // without waiting releases for the one waiting task (split consumer); symmetric
  // consumer strides with one waiting task per domain lane split the commits by lane.
  for (auto& [rid, c] : credits) {
    for (size_t t = 0; t < n; ++t)
      for (auto const& s : m.tasks[t].schedule.steps)
        if (s.resource == rid && s.kind == SyncOp::Release && !c.waited.count(int(t)) && c.waited.size() == 1)
          c.release_for[int(t)] = c.waited.begin()->first;
    std::vector<int> waiting;
    for (auto const& [t, w] : c.waited) waiting.push_back(t);
    auto lanes = check::consumer_lanes(m, rid, waiting);
    c.lanes = static_cast<int>(lanes.size());
    for (size_t i = 0; i < lanes.size(); ++i) c.lane_of[waiting[i]] = lanes[i];
  }

  auto stage_of = [&](ir::Step const& s, int task) -> std::string {
    if (s.resource < 0 || !credits.count(s.resource)) return "";
    auto& c = credits[s.resource];
    using K = SyncOp;
    long long k = 0;
    if (s.kind == K::Acquire || s.kind == K::TryAcquire) k = c.acquired;
    else if (s.kind == K::Commit) k = c.committed;
    else if (s.kind == K::Wait || s.kind == K::TryWait) k = c.item(task, c.waited[task]);
    else if (s.kind == K::Release && c.turns) k = c.release_pos[task];
    else if (s.kind == K::Skip) k = c.wait_pos[task];
    else if (s.kind == K::Release) k = c.item(c.owner(task), c.released[c.owner(task)]);
    else if (s.role == WorkRole::Producer || s.kind == K::Fetch) k = c.acquired - 1;
    else if (c.turns) k = c.wait_pos[task] - 1;
    else k = c.waited.count(task) ? c.item(task, c.waited[task] - 1) : c.acquired - 1;
    return "[" + std::to_string(std::max(0LL, k) % c.stages) + "]";
  };
  auto make_cell = [&](size_t t) {
    auto& r = runs[t];
    auto const& e = r.seq[r.pc];
    auto const& s = m.tasks[t].schedule.steps[e.step];
    SimCell c;
    c.task = int(t);
    c.step = e.step;
    c.op = op_name(s);
    c.section = e.section;
    std::string res = s.resource >= 0 ? m.resource(s.resource).name : std::string("-");
    // A member's part of a collapsed group op: "xy:ring_x" (SPEC S10.3).
    if (s.group >= 0 && s.group < static_cast<int>(m.groups.size())) res = m.groups[s.group].name + ":" + res;
    c.text = res + " " + c.op + stage_of(s, int(t)) + " " + e.phase_tag() + " " + std::to_string(r.occurrences[e.step]);
    return c;
  };

  // A blocked step shows on the row it first blocks; the final row of a deadlock
  // repeats every blocked step.
  std::vector<long long> quiet_at(n, -1);
  for (int guard = 0; guard < 1000000; ++guard) {
    bool all_done = true, progressed = false;
    std::vector<std::optional<SimCell>> row(n);
    int row_index = static_cast<int>(sim.rows.size());
    for (size_t t = 0; t < n; ++t) {
      auto& r = runs[t];
      if (r.done()) continue;
      all_done = false;
      auto const& s = m.tasks[t].schedule.steps[r.seq[r.pc].step];
      Ring* c = (s.resource >= 0 && credits.count(s.resource)) ? &credits[s.resource] : nullptr;
      SimCell cell = make_cell(t);
      bool const enabled = model.enabled(int(t), s.id);
      // Positions: a warp-lane op is one stage op per warp of the task (docs/warp-lanes.md),
      // as the credit model steps it; lane ops never mix with turn-taking or domain lanes.
      long long const w = c && !c->turns && !c->lanes ? warp_lane_weight(m, int(t), s) : 1;
      if (enabled && c) hand_over(*c, s, int(t), cell);
      if (!enabled) {
        cell.blocked = true;
        if (quiet_at[t] != static_cast<long long>(r.pc)) row[t] = cell;
        quiet_at[t] = static_cast<long long>(r.pc);
        continue;
      }
      model.apply(int(t), s.id);
      if (c) {
        using K = SyncOp;
        if (s.kind == K::Acquire) c->acquired += w;
        if (s.kind == K::Commit)
          for (long long i = 0; i < w; ++i) {
            ++c->committed;
            c->commit_at.push_back({row_index, int(t)});
          }
        if (c->turns && (s.kind == K::Wait || s.kind == K::Release || s.kind == K::Skip)) {
          // Skip counts as the bound's value, or the sampled iterations of a runtime length.
          long long n = s.count.kind == ir::Bound::Kind::Static ? s.count.value : sim.sample_iterations;
          if (s.kind == K::Wait) ++c->wait_pos[int(t)], ++c->waited[int(t)];
          if (s.kind == K::Release) c->released_at[c->release_pos[int(t)]++] = {row_index, int(t)};
          if (s.kind == K::Skip) c->wait_pos[int(t)] += n, c->release_pos[int(t)] += n;
        } else if (s.kind == K::Wait) c->waited[int(t)] += w;
        if (s.kind == K::Release && !c->turns) {
          int o = c->owner(int(t));  // a split consumer's releaser frees its waiter's stage
          for (long long i = 0; i < w; ++i) {
            ++c->released[o];
            c->release_at[o].push_back({row_index, int(t)});
          }
        }
      }
      ++r.occurrences[r.seq[r.pc].step];
      ++r.pc;
      progressed = true;
      row[t] = cell;
    }
    if (all_done) break;
    if (!progressed) {
      sim.deadlock = true;
      for (size_t t = 0; t < n; ++t)
        if (!runs[t].done() && !row[t]) {
          SimCell cell = make_cell(t);
          cell.blocked = true;
          row[t] = cell;
        }
      sim.rows.push_back(row);
      break;
    }
    if (std::any_of(row.begin(), row.end(), [](auto const& c) { return c.has_value(); })) sim.rows.push_back(row);
  }

  for (auto const& d : model.debts()) {
    std::string name = m.resource(d.resource).name, n = std::to_string(d.count);
    if (d.kind == check::CreditDebt::Unreleased)
      sim.unbalanced.push_back(n + "x ProducerAcquire from " + name + " not released!");
    else if (d.task < 0)
      sim.unbalanced.push_back(n + "x ProducerCommit from " + name + " not consumed by any turn-taker!");
    else
      sim.unbalanced.push_back(n + "x ProducerCommit from " + name + " not consumed by " + m.tasks[d.task].name + "!");
  }
  return sim;
}

}  // namespace ts::print
