// Breadth-first exploration with optional partial-order reduction (persistent sets).
//
// Reduction (why it is sound here): a task's next step touches either nothing shared
// (Local), the credit counters of one pipe, or race/PDL-visible state. From a state we
// expand only a persistent set: either one task whose next step is Local, or the
// closure of a task under "may touch the same pipe" (all tasks that have any credit op
// on the pipes the closure's next steps use, enabled or blocked). Steps outside the
// set can never touch those pipes, so they commute with it; sets containing a visible
// step (aliased work, credit ops on aliased pipes, PDL) are rejected, so every race and
// PDL state stays reachable; deadlocks are preserved by persistent sets. Concrete runs
// are acyclic (every step moves a program counter or an iteration forward); parametric
// runs can cycle, so there the set must not close onto a visited state (cycle proviso),
// else the state is fully expanded. Shared-condition outcomes and the parametric
// remaining length are an oracle revealed lazily, so revealing them commutes too.
#include <chrono>

#include "semantics.hpp"
#include "state_store.hpp"

namespace ts::check {
namespace {

struct Search {
  Model const& m;
  ProgramSet const& ps;
  Config const& cfg;
  Semantics sem;
  StateStore store;
  std::vector<uint32_t> parent;
  std::vector<uint8_t> ptask;
  ExploreResult res;
  int nt;

  Search(Model const& mm, ProgramSet const& p, Config const& c)
      : m(mm), ps(p), cfg(c), sem(mm, p, c), store(sem.layout().words), nt(static_cast<int>(p.tasks.size())) {}

  std::vector<Event> trace(uint32_t idx) const {
    std::vector<Event> ev;
    while (parent[idx] != 0xffffffffu) {
      uint32_t p = parent[idx];
      int t = ptask[idx];
      uint16_t const* s = store.at(p);
      auto const& in = sem.instr(s, t);
      Event e;
      e.task = t;
      e.step = in.step;
      e.section = m.tasks[t].schedule.steps[in.step].section;
      e.iteration = in.loop_region == kInside ? s[Layout::task_off(t) + 2] : -1;
      if (cfg.parametric && e.iteration >= 0) e.iteration = -1;
      e.tile = in.tile_region == kInside ? s[Layout::task_off(t) + 1] : -1;
      ev.push_back(e);
      idx = p;
    }
    return {ev.rbegin(), ev.rend()};
  }

  std::string where(uint16_t const* s, int t) const {
    auto const& in = sem.instr(s, t);
    std::string w = m.tasks[t].name + " at " + m.step_text(t, in.step) + " (step " + std::to_string(in.step) + ", " +
                    ir::to_string(m.tasks[t].schedule.steps[in.step].section);
    if (in.loop_region == kInside && !cfg.parametric) w += ", iteration " + std::to_string(s[Layout::task_off(t) + 2]);
    if (in.tile_region == kInside) w += ", tile " + std::to_string(s[Layout::task_off(t) + 1]);
    return w + ")";
  }

  void record(std::string kind, uint32_t idx) {
    if (res.failure) return;
    Counterexample c;
    c.kind = kind;
    c.events = trace(idx);
    c.length = cfg.parametric ? -1 : ps.any_runtime_loop ? cfg.length : -2;
    uint16_t const* s = store.at(idx);
    c.skipped_tiles = s[sem.layout().glob + 1] != 0;
    if (kind == "deadlock") {
      for (int t = 0; t < nt; ++t)
        if (!sem.at_end(s, t)) c.blocked.push_back(where(s, t) + " is blocked");
      c.detail = "no task can move while work remains";
    } else if (kind == "unbalanced") {
      for (size_t p = 0; p < ps.pipes.size(); ++p) {
        int o = sem.layout().pipe_off[p];
        std::string r = m.resource(ps.pipes[p].resource).name;
        if (s[o]) c.detail += r + ": " + std::to_string(s[o]) + " acquire(s) never committed; ";
        for (int k = 0; k < sem.layout().pipe_slots[p]; ++k) {
          std::string who = ps.pipes[p].phantom_consumer ? "any consumer task (none waits on it)"
                                                         : m.tasks[ps.pipes[p].consumers[k]].name;
          if (s[o + 2 + 2 * k]) c.detail += r + ": " + std::to_string(s[o + 2 + 2 * k]) + " commit(s) never waited by " + who + "; ";
          if (s[o + 3 + 2 * k]) c.detail += r + ": " + std::to_string(s[o + 3 + 2 * k]) + " wait(s) never released by " + who + "; ";
        }
      }
    } else if (kind == "race") {
      for (auto const& p : ps.pairs) {
        int wa = -2, wb = -2, ra = -2, rb = -2;
        bool Wa = sem.writing(s, p.a, &wa), Wb = sem.writing(s, p.b, &wb);
        bool Ra = sem.reading(s, p.a, &ra), Rb = sem.reading(s, p.b, &rb);
        auto side = [&](int alias, bool w, int who) {
          std::string r = m.resource(ps.aliased[alias].resource).name;
          std::string by = who >= 0 ? m.tasks[who].name : std::string("the asynchronous engine");
          return r + " " + (w ? "written" : "read") + " by " + by;
        };
        if (Wa && (Wb || Rb)) c.detail = p.why + ": " + side(p.a, true, wa) + " while " + side(p.b, Wb, Wb ? wb : rb);
        else if (Wb && Ra) c.detail = p.why + ": " + side(p.b, true, wb) + " while " + side(p.a, false, ra);
        if (!c.detail.empty()) break;
      }
      c.detail = "aliasing race: " + c.detail;
    } else if (kind == "pdl") {
      auto const& e = c.events.back();
      c.detail = "PDL launch before any PDL wait: " + m.tasks[e.task].name + " runs " + m.step_text(e.task, e.step) +
                 " while no task has completed a wait on a PdlWait resource";
    }
    res.failure = std::move(c);
  }

  // Persistent set: a bit mask of tasks to expand.
  uint64_t choose(uint16_t const* s, uint64_t enabled) const {
    if (!cfg.reduction) return enabled;
    for (int t = 0; t < nt; ++t)
      if ((enabled >> t & 1) && sem.next_effect(s, t) == Effect::Local) return uint64_t(1) << t;
    uint64_t best = enabled;
    int best_n = __builtin_popcountll(enabled);
    for (int t = 0; t < nt && best_n > 1; ++t) {
      if (!(enabled >> t & 1)) continue;
      uint64_t set = uint64_t(1) << t, done = 0;
      bool ok = true;
      while (ok && set != done) {
        for (int u = 0; u < nt; ++u) {
          if (!(set >> u & 1) || (done >> u & 1)) continue;
          done |= uint64_t(1) << u;
          if (sem.at_end(s, u)) continue;
          if ((enabled >> u & 1) && sem.visible(s, u)) { ok = false; break; }
          int p = sem.next_pipe(s, u);
          if (p >= 0) set |= ps.pipes[p].users;
        }
      }
      if (!ok) continue;
      int n = __builtin_popcountll(set & enabled);
      if (n < best_n) {
        best = set & enabled;
        best_n = n;
      }
    }
    return best;
  }

  void run() {
    auto t0 = std::chrono::steady_clock::now();
    std::vector<std::vector<uint16_t>> init;
    sem.initial(init);
    for (auto const& s : init)
      if (store.insert(s.data()).second) {
        parent.push_back(0xffffffffu);
        ptask.push_back(0);
      }
    int W = sem.layout().words, G = sem.layout().glob;
    std::vector<uint16_t> cur(W), succ;
    bool first_complete = true;
    for (size_t i = 0; i < store.size(); ++i) {
      if (static_cast<long long>(store.size()) >= cfg.state_cap) {
        res.stats.capped = true;
        break;
      }
      std::copy(store.at(i), store.at(i) + W, cur.begin());
      uint16_t g = cur[G];
      if (g & kOverflow) {
        res.stats.overflow = true;
        break;
      }
      if (g & (kRace | kPdlViolation)) continue;  // reported on discovery; not expanded
      uint64_t enabled = 0;
      bool all_end = true;
      for (int t = 0; t < nt; ++t) {
        if (!sem.at_end(cur.data(), t)) all_end = false;
        if (sem.enabled(cur.data(), t)) enabled |= uint64_t(1) << t;
      }
      if (!enabled) {
        if (!all_end) {
          ++res.stats.deadlocks;
          record("deadlock", static_cast<uint32_t>(i));
        } else if (!sem.balanced(cur.data())) {
          ++res.stats.unbalanced;
          record("unbalanced", static_cast<uint32_t>(i));
        } else {
          ++res.stats.complete;
          if (first_complete) {
            first_complete = false;
            Counterexample c;
            c.kind = "run";
            c.events = trace(static_cast<uint32_t>(i));
            c.length = cfg.parametric ? -1 : ps.any_runtime_loop ? cfg.length : -2;
            c.skipped_tiles = cur[G + 1] != 0;
            res.run = std::move(c);
          }
        }
        continue;
      }
      uint64_t set = choose(cur.data(), enabled);
      for (int pass = 0; pass < 2; ++pass) {
        bool revisit = false;
        for (int t = 0; t < nt; ++t) {
          if (!(set >> t & 1)) continue;
          succ.clear();
          sem.successors(cur.data(), t, succ);
          for (size_t o = 0; o < succ.size(); o += W) {
            ++res.stats.transitions;
            auto [idx, fresh] = store.insert(succ.data() + o);
            if (!fresh) {
              revisit = true;
              continue;
            }
            parent.push_back(static_cast<uint32_t>(i));
            ptask.push_back(static_cast<uint8_t>(t));
            uint16_t ng = succ[o + G];
            if (ng & kRace) {
              ++res.stats.races;
              record("race", idx);
            }
            if (ng & kPdlViolation) {
              ++res.stats.pdl;
              record("pdl", idx);
            }
          }
        }
        // Cycle proviso (parametric runs only): a reduced set reaching a visited state
        // may be ignoring a task forever; expand the rest.
        if (!(cfg.parametric && set != enabled && revisit)) break;
        set = enabled & ~set;
      }
    }
    res.stats.states = store.size();
    res.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bool bad = res.stats.deadlocks || res.stats.races || res.stats.pdl || res.stats.unbalanced;
    if (res.stats.overflow) {
      res.verdict = Verdict::Incomplete;
      res.note = "the parametric abstraction does not apply (tasks drift apart further than the pipelines bound, "
                 "or too many outstanding shared conditions)";
    } else if (bad) {
      res.verdict = Verdict::Unsafe;
    } else if (res.stats.capped) {
      res.verdict = Verdict::Incomplete;
    } else {
      res.verdict = cfg.parametric ? Verdict::SafeAllK : Verdict::Safe;
    }
  }
};

}  // namespace

ExploreResult explore(Model const& m, ProgramSet const& ps, Config const& cfg) {
  Search s(m, ps, cfg);
  s.run();
  return std::move(s.res);
}

}  // namespace ts::check
