// Breadth-first exploration with optional partial-order reduction (persistent sets).
//
// Reduction (why it is sound here): a task's next step touches either nothing shared
// (Local), the credit counters of one pipe, or race/PDL-visible state. From a state we
// expand only a persistent set (see reduction.cpp): steps outside it, in any sequence, are
// independent of it, so every deadlock and terminal (balance-checked) state stays
// reachable; sets containing a visible step (aliased work, credit ops on aliased pipes,
// PDL) are rejected, so every race and PDL state stays reachable. Concrete runs
// are acyclic (every step moves a program counter or an iteration forward); parametric
// and every-tile-count runs can cycle: a state whose reduced successors include one
// already expanded is expanded in full (the cycle proviso: the last-expanded state of
// any cycle sees its successor on the cycle expanded, so every cycle of the reduced graph
// has a fully expanded state and no task's step is ignored around it). Shared-condition outcomes and the parametric
// remaining length are an oracle revealed lazily, so revealing them commutes too.
#include <time.h>

#include <chrono>

#include "reduction.hpp"
#include "semantics.hpp"
#include "state_store.hpp"

namespace ts::check {
namespace {

// States a block may add past the cap check (the store reserves them).
constexpr long long kSlack = 1 << 16;

double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

struct Search {
  Model const& m;
  ProgramSet const& ps;
  Config const& cfg;
  Semantics sem;
  StateCodec codec;
  StateStore store;
  bool too_wide = false;  // a state did not fit the narrow encoding: rerun wide
  std::vector<uint32_t> parent;
  std::vector<uint8_t> ptask;
  // Every-tile-count runs: how far the tile origin of each stored state is from tile 0
  // along its parent chain (states that differ only there are one state; the first
  // found keeps its chain, so traces number tiles absolutely).
  std::vector<uint32_t> tile_base;
  ExploreResult res;
  int nt;

  Search(Model const& mm, ProgramSet const& p, Config const& c, bool narrow)
      : m(mm), ps(p), cfg(c), sem(mm, p, c), codec(make_codec(sem, narrow)), store(codec.bytes(), c.state_cap + kSlack),
        nt(static_cast<int>(p.tasks.size())) {}
  static StateCodec make_codec(Semantics const& sem, bool narrow) {
    StateCodec k;
    k.words = sem.layout().words;
    k.narrow = narrow;
    return k;
  }
  std::vector<uint16_t> load(size_t i) const {
    std::vector<uint16_t> w(codec.words);
    codec.decode(store.at(i), w.data());
    return w;
  }

  std::vector<Event> trace(uint32_t idx) const {
    std::vector<Event> ev;
    while (parent[idx] != 0xffffffffu) {
      uint32_t p = parent[idx];
      int t = ptask[idx];
      auto sv = load(p);
      uint16_t const* s = sv.data();
      auto const& in = sem.instr(s, t);
      if (in.op != Op::Step) {  // a silent pause (an iteration without steps): nothing to show
        idx = p;
        continue;
      }
      Event e;
      e.task = t;
      e.step = in.step;
      e.section = m.tasks[t].schedule.steps[in.step].section;
      e.iteration = in.loop_region == kInside ? s[Layout::task_off(t) + 2] : -1;
      if (cfg.parametric && e.iteration >= 0) e.iteration = -1;
      e.tile = in.tile_region == kInside ? s[Layout::task_off(t) + 1] + base(p) : -1;
      ev.push_back(e);
      idx = p;
    }
    return {ev.rbegin(), ev.rend()};
  }

  long long base(uint32_t idx) const { return tile_base.empty() ? 0 : tile_base[idx]; }

  // The run's tile count: concrete runs have cfg.tiles; every-tile-count runs the
  // smallest count consistent with what the run revealed.
  int tiles_of(uint16_t const* s, uint32_t idx) const {
    bool any = false;
    for (auto const& t : ps.tasks) any |= t.has_tile_loop;
    if (!any) return -1;
    if (!sem.tile_mode()) return cfg.tiles;
    uint16_t left = s[sem.layout().glob + kGlobTilesLeft];
    return static_cast<int>(base(idx) + (left & ~kUnknown));  // exact, or the floor: the fewest tiles
  }

  std::string where(uint16_t const* s, int t, uint32_t idx) const {
    auto const& in = sem.instr(s, t);
    std::string w = m.tasks[t].name + " at " + m.step_text(t, in.step) + " (step " + std::to_string(in.step) + ", " +
                    ir::to_string(m.tasks[t].schedule.steps[in.step].section);
    if (in.loop_region == kInside && !cfg.parametric) w += ", iteration " + std::to_string(s[Layout::task_off(t) + 2]);
    if (in.tile_region == kInside) w += ", tile " + std::to_string(s[Layout::task_off(t) + 1] + base(idx));
    // A warp-lane op is several stage ops: say how many the task is blocked on.
    if (int k = ps.steps[t][in.step].weight; k > 1)
      w += "; warp-lane stride " + std::to_string(k) + ": this op is " + std::to_string(k) +
           " stage ops, one per warp, and passes when all of them can";
    return w + ")";
  }

  // A task whose ops on pipe p are warp-lane (StepInfo::weight): its counts are stage ops.
  std::string lane_note(int t, size_t p) const {
    for (auto const& si : ps.steps[t])
      if (si.pipe == static_cast<int>(p) && si.weight > 1)
        return " (its ops on " + m.resource(ps.pipes[p].resource).name + " are warp-lane, " +
               std::to_string(si.weight) + " stages each, one per warp)";
    return "";
  }

  void record(std::string kind, uint32_t idx) {
    if (res.failure) return;
    Counterexample c;
    c.kind = kind;
    c.events = trace(idx);
    c.length = cfg.parametric ? -1 : ps.any_runtime_loop ? cfg.length : -2;
    auto sv = load(idx);
    uint16_t const* s = sv.data();
    c.skipped_tiles = s[sem.layout().glob + kGlobSkipMask] != 0 || s[sem.layout().glob + kGlobSkipMask + 1] != 0;
    c.tiles = tiles_of(s, idx);
    auto runs = [&](Event const& e) {
      std::string w = m.tasks[e.task].name + " runs " + m.step_text(e.task, e.step) + " (step " + std::to_string(e.step) +
                      ", " + ir::to_string(e.section);
      if (e.iteration >= 0) w += ", iteration " + std::to_string(e.iteration);
      if (e.tile >= 0) w += ", tile " + std::to_string(e.tile);
      return w + ")";
    };
    auto resource_of = [&](Event const& e) { return m.resource(m.tasks[e.task].schedule.steps[e.step].resource).name; };
    // A TMA pipe with a stage committed empty (Layout::fill_off): names the commit that
    // left it without bytes, so the deadlock or the unwaited commit is explained.
    auto empty_stage_note = [&](uint16_t const* st, std::vector<Event> const& evs) -> std::string {
      std::string note;
      for (size_t p = 0; p < ps.pipes.size(); ++p) {
        int fo = sem.layout().fill_off[p];
        if (fo < 0 || !st[fo]) continue;
        int res = ps.pipes[p].resource;
        std::vector<Event const*> commits;
        for (auto const& e : evs)
          if (m.tasks[e.task].schedule.steps[e.step].resource == res && m.tasks[e.task].schedule.steps[e.step].kind == SyncOp::Commit)
            commits.push_back(&e);
        std::string r = m.resource(res).name, at;
        if (int k = int(commits.size()) - int(st[fo]); k >= 0) at = " (" + runs(*commits[size_t(k)]) + ")";
        note += "; TMA commit without TMA work: a stage of " + r + " was committed with no copy on it" + at +
                ", so its full barrier expects " + std::to_string(m.resource(res).pipeline->num_bytes) +
                " transaction bytes that never arrive and a wait on it never completes (a hang on hardware)";
      }
      return note;
    };
    if (kind == "deadlock" && (s[sem.layout().glob] & kEmptyTmaCommit)) {
      auto const& e = c.events.back();
      std::string r = resource_of(e);
      std::string bytes = std::to_string(m.resource(m.tasks[e.task].schedule.steps[e.step].resource).pipeline->num_bytes);
      if (m.tasks[e.task].schedule.steps[e.step].kind == SyncOp::Acquire)
        c.detail = "TMA stage left without a copy: " + runs(e) + " while the stage of " + r +
                   " it acquired before has had no producer work: a copy lands on the stage of the newest acquire, so "
                   "that stage's full barrier expects " + bytes +
                   " transaction bytes that no copy delivers; its commit, and any wait on it, never completes (a hang "
                   "on hardware)";
      else
        c.detail = "TMA commit without TMA work: " + runs(e) + " with no producer work on the stage since " + r +
                   ".acquire(): its full barrier expects " + bytes +
                   " transaction bytes that no copy delivers, so a wait on the stage never completes (a hang on hardware)";
      c.blocked.push_back("any task waiting on that stage of " + r + " would hang");
    } else if (kind == "unbalanced" && (s[sem.layout().glob] & kCommitNoAcquire)) {
      auto const& e = c.events.back();
      c.detail = "commit without acquire: " + m.tasks[e.task].name + " runs " + m.step_text(e.task, e.step) +
                 " while no stage of " + resource_of(e) + " is acquired and uncommitted (" + runs(e) + ")";
    } else if (kind == "deadlock") {
      for (int t = 0; t < nt; ++t)
        if (!sem.at_end(s, t)) c.blocked.push_back(where(s, t, idx) + " is blocked");
      c.detail = "no task can move while work remains" + empty_stage_note(s, c.events);
    } else if (kind == "unbalanced" && (s[sem.layout().glob] & kEarlyRelease) && turn_flag(s, kTurnRelease) >= 0) {
      c.detail = turn_release_detail(c.events.back());
    } else if (kind == "unbalanced" && (s[sem.layout().glob] & kEarlyRelease)) {
      auto const& e = c.events.back();
      int r = m.tasks[e.task].schedule.steps[e.step].resource;
      c.detail = "release before wait: " + m.tasks[e.task].name + " runs " + m.step_text(e.task, e.step) +
                 " while no stage of " + m.resource(r).name + " is waited and unreleased";
    } else if (kind == "unbalanced") {
      std::string note = empty_stage_note(s, c.events);
      for (size_t p = 0; p < ps.pipes.size(); ++p) {
        int o = sem.layout().pipe_off[p];
        std::string r = m.resource(ps.pipes[p].resource).name;
        if (s[o]) c.detail += r + ": " + std::to_string(s[o]) + " acquire(s) never committed; ";
        if (int to = sem.layout().turn_off[p]; to >= 0) {
          for (int st = 0; st < ps.pipes[p].stages; ++st)
            if (s[to + 1 + st] != 1)
              c.detail += r + ": stage " + std::to_string(st) + " committed but never released: no turn-taker (" +
                          consumers_of(p) + ") waited for its last commit; ";
          for (int k = 0; k < sem.layout().pipe_slots[p]; ++k)
            if (s[o + 3 + 2 * k] && ps.pipes[p].consumers[k] >= 0)
              c.detail += r + ": " + std::to_string(s[o + 3 + 2 * k]) + " wait(s) never released by " +
                          m.tasks[ps.pipes[p].consumers[k]].name + "; ";
          continue;
        }
        for (int k = 0; k < sem.layout().pipe_slots[p]; ++k) {
          auto role = ps.pipes[p].roles[k];
          int t = ps.pipes[p].consumers[k];
          std::string a = std::to_string(s[o + 2 + 2 * k]), b = std::to_string(s[o + 3 + 2 * k]);
          if (!s[o + 2 + 2 * k] && !s[o + 3 + 2 * k]) continue;
          switch (role) {
            case SlotRole::WaitRelease:
              if (s[o + 2 + 2 * k])
                c.detail += r + ": " + a + " commit(s) never waited by " + m.tasks[t].name + lane_note(t, p) + "; ";
              if (s[o + 3 + 2 * k]) c.detail += r + ": " + b + " wait(s) never released by " + m.tasks[t].name + "; ";
              break;
            case SlotRole::WaitOnly:
              c.detail += r + ": " + a + " commit(s) never waited by " + m.tasks[t].name + "; ";
              break;
            case SlotRole::ReleaseOnly:
              c.detail += r + ": " + a + " commit(s) never released by " + m.tasks[t].name + "; ";
              break;
            case SlotRole::Phantom: {
              std::string waiters;
              for (size_t j = 0; j < ps.pipes[p].consumers.size(); ++j)
                if (ps.pipes[p].roles[j] == SlotRole::WaitOnly)
                  waiters += (waiters.empty() ? "" : ", ") + m.tasks[ps.pipes[p].consumers[j]].name;
              if (ps.pipes[p].phantom_consumer)
                c.detail += r + ": " + a + " commit(s) never waited by any consumer task (none waits on it); ";
              else
                c.detail += r + ": " + a + " stage(s) never released by " + waiters + " (waits on " + r +
                            ", never releases it; no task releases it); ";
              break;
            }
          }
        }
      }
      if (!note.empty()) c.detail += note.substr(2);
    } else if (kind == "race" && turn_flag(s, kTurnPhase) >= 0) {
      c.detail = turn_phase_detail(s, c.events);
    } else if (kind == "race" && turn_flag(s, kReuseRace) >= 0) {
      auto const& e = c.events.back();
      int p = turn_flag(s, kReuseRace);
      std::string holders;
      int o = sem.layout().pipe_off[p];
      for (size_t k = 0; k < ps.pipes[p].consumers.size(); ++k)
        if (s[o + 3 + 2 * k] && ps.pipes[p].consumers[k] >= 0)
          holders += (holders.empty() ? "" : ", ") + m.tasks[ps.pipes[p].consumers[k]].name;
      c.detail = "stage reuse race: " + runs(e) + " refills stage " + std::to_string(turn_stage_of_acquire(s, p)) +
                 " of " + resource_of(e) + " while " + holders +
                 " still holds an earlier commit of that stage (waited, not released): another turn-taker released "
                 "it first, so two consumers took one commit";
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
      if (!c.detail.empty()) {
        c.detail = "aliasing race: " + c.detail;
      } else {
        for (size_t p = 0; p < ps.pipes.size() && c.detail.empty(); ++p) {
          if (!(s[sem.layout().pipe_off[p] + 1] & kReuseRace)) continue;
          auto const& pipe = ps.pipes[p];
          std::string readers, releasers;
          for (size_t k = 0; k < pipe.consumers.size(); ++k) {
            if (pipe.consumers[k] < 0) continue;
            std::string& l = pipe.roles[k] == SlotRole::WaitOnly ? readers : releasers;
            l += (l.empty() ? "" : ", ") + m.tasks[pipe.consumers[k]].name;
          }
          // Where the race is the write (Pipe::reuse_at_write), the last event is the
          // producer's work: name the acquire that took the stage, then the write.
          auto const& e = c.events.back();
          Event const* took = &e;
          std::string write;
          if (m.tasks[e.task].schedule.steps[e.step].kind == SyncOp::Work) {
            for (auto it = c.events.rbegin(); it != c.events.rend(); ++it)
              if (it->task == e.task && m.tasks[it->task].schedule.steps[it->step].kind == SyncOp::Acquire &&
                  m.tasks[it->task].schedule.steps[it->step].resource == pipe.resource) {
                took = &*it;
                break;
              }
            write = ", and the stage is written: " + runs(e);
          }
          c.detail = "stage reuse race: " + m.tasks[took->task].name + " runs " + m.step_text(took->task, took->step) +
                     " on a stage of " + m.resource(pipe.resource).name + " that " + readers +
                     " (waits, never releases) has not finished reading: " + (releasers.empty() ? "no task" : releasers) +
                     " gave it back first" + write +
                     ". Order the release after the last read (e.g. through a proxy resource committed after it)";
        }
      }
    } else if (kind == "pdl") {
      auto const& e = c.events.back();
      c.detail = "PDL launch before any PDL wait: " + m.tasks[e.task].name + " runs " + m.step_text(e.task, e.step) +
                 " while no task has completed a wait on a PdlWait resource";
    }
    res.failure = std::move(c);
  }

  // Turn pipes (docs/turns.md): the pipe whose flag word has `bit`, or -1.
  int turn_flag(uint16_t const* s, uint16_t bit) const {
    for (size_t p = 0; p < ps.pipes.size(); ++p)
      if (sem.layout().turn_off[p] >= 0 && (s[sem.layout().pipe_off[p] + 1] & bit)) return static_cast<int>(p);
    return -1;
  }
  size_t pipe_of(int resource) const {
    for (size_t p = 0; p < ps.pipes.size(); ++p)
      if (ps.pipes[p].resource == resource) return p;
    return 0;
  }
  std::string consumers_of(size_t p) const {
    std::string l;
    for (int t : ps.pipes[p].consumers)
      if (t >= 0) l += (l.empty() ? "" : ", ") + m.tasks[t].name;
    return l;
  }
  // The stage the last acquire took: head + U - 1 after it.
  int turn_stage_of_acquire(uint16_t const* s, int p) const {
    int S = ps.pipes[p].stages, o = sem.layout().pipe_off[p], to = sem.layout().turn_off[p];
    return ((s[to] + s[o] - 1) % S + S) % S;
  }
  std::string event_text(Event const& e) const {
    std::string w = m.tasks[e.task].name + " runs " + m.step_text(e.task, e.step) + " (step " + std::to_string(e.step) +
                    ", " + ir::to_string(e.section);
    if (e.iteration >= 0) w += ", iteration " + std::to_string(e.iteration);
    if (e.tile >= 0) w += ", tile " + std::to_string(e.tile);
    return w + ")";
  }
  std::string turn_release_detail(Event const& e) const {
    auto const& st = m.tasks[e.task].schedule.steps[e.step];
    std::string r = m.resource(st.resource).name;
    if (st.kind == SyncOp::Skip)
      return "skip over held stages: " + event_text(e) + " while it holds waited, unreleased stages of " + r +
             ": its release counter would pass over them and its later releases free stages it never waited. "
             "Expected every wait released before " + r + ".skip(), got a held stage";
    return "release of a free stage: " + event_text(e) + " arrives on a stage of " + r +
           " whose empty barrier already counts it free: the commit was released by another turn-taker too (two "
           "consumers took it) or the release matches no wait of its turn. Expected each commit of " + r +
           " waited and released by exactly one of " + consumers_of(pipe_of(st.resource)) + ", got a second release";
  }
  // The wait that passed on a wrong phase: stage, the phase waited, the phases reached
  // (absolute, from the commits of the run).
  std::string turn_phase_detail(uint16_t const* s, std::vector<Event> const& events) const {
    auto const& e = events.back();
    auto const& st = m.tasks[e.task].schedule.steps[e.step];
    int p = turn_flag(s, kTurnPhase);
    int S = ps.pipes[p].stages, o = sem.layout().pipe_off[p], to = sem.layout().turn_off[p];
    int slot = ps.steps[e.task][e.step].consumer_slot;
    long long P = 0;
    for (auto const& x : events)
      if (m.tasks[x.task].schedule.steps[x.step].kind == SyncOp::Commit &&
          m.tasks[x.task].schedule.steps[x.step].resource == st.resource)
        ++P;
    long long w = P - s[o + 2 + 2 * slot] + s[to + 1 + S + slot];
    long long stage = w % S, phase = w / S;
    long long done = P > stage ? (P - 1 - stage) / S + 1 : 0;
    std::string r = m.resource(st.resource).name, stuck;
    // An empty TMA stage (Layout::fill_off): its barrier stays in the poisoned commit's phase.
    if (int fo = sem.layout().fill_off[p]; fo >= 0 && s[fo] && (P - s[fo]) % S == stage) {
      done = (P - s[fo]) / S;
      stuck = ", its phase for commit " + std::to_string(P - s[fo]) + " never completing (TMA commit without TMA "
              "work: that commit had no copy on it)";
    }
    std::string what = phase >= done + 1
                           ? "the wait is " + std::to_string(phase - done + 1) +
                                 " phases ahead of the barrier, so try_wait.parity passes at once on an old phase "
                                 "(silent garbage on hardware). Order the turn-takers (an order barrier) so a consumer "
                                 "waits only once the producer is within num_stages of its position"
                           : "the stage was refilled past that phase: another turn-taker released it (two consumers "
                             "took one commit), so the wait reads a later commit's data";
    return "parity aliasing: " + event_text(e) + " waits on stage " + std::to_string(stage) + " of " + r +
           " for phase " + std::to_string(phase) + " (commit " + std::to_string(w) + ") while the stage's full "
           "barrier has completed " + std::to_string(done) + " phase(s) (" + std::to_string(P) + " commits so far" + stuck + "): " +
           what + ". Expected phase reached = " + std::to_string(phase) + " or " + std::to_string(phase + 1) +
           ", got " + std::to_string(done);
  }

  uint64_t choose(uint16_t const* s, uint64_t enabled) const {
    return cfg.reduction ? persistent_set(sem, ps, cfg.parametric || sem.tile_mode(), s, enabled) : enabled;
  }

  void run() {
    auto t0 = std::chrono::steady_clock::now();
    double c0 = cpu_now();
    std::vector<std::vector<uint16_t>> init;
    sem.initial(init);
    std::vector<uint8_t> enc(codec.bytes());
    for (auto& s : init) {
      uint16_t shift = s[sem.layout().glob + kGlobTileShift];
      s[sem.layout().glob + kGlobTileShift] = 0;
      if (!codec.encode(s.data(), enc.data())) {
        too_wide = true;
        return;
      }
      if (store.insert(enc.data()).second) {
        parent.push_back(0xffffffffu);
        ptask.push_back(0);
        if (sem.tile_mode()) tile_base.push_back(shift);
      }
    }
    int W = sem.layout().words, G = sem.layout().glob;
    size_t expect = size_t(std::min<long long>(cfg.state_cap, 1ll << 26));
    parent.reserve(expect);
    ptask.reserve(expect);
    int B = codec.bytes();
    std::vector<uint16_t> cur(W), succ;
    std::vector<uint8_t> packed;
    std::vector<uint8_t> owner;
    std::vector<uint32_t> from;
    std::vector<uint64_t> hashes;
    bool first_complete = true, stop = false;
    // States are expanded in blocks: all successors of a block of parents are generated,
    // hashed and their table slots prefetched before any is inserted, so the table's
    // cache misses overlap. Insertion keeps parent order, so the search stays BFS.
    constexpr size_t kBlock = 32;
    bool cyclic = cfg.parametric || sem.tile_mode();  // only these runs can revisit an expanded state
    struct Reduced { uint32_t parent; uint64_t rest; };
    std::vector<Reduced> reduced;       // parents of this block expanded with a reduced set
    std::vector<uint32_t> revisit;      // of those, the ones the cycle proviso expands in full
    // Encodes, hashes and inserts the successors in succ/owner/from, in order.
    auto insert_all = [&](bool note_revisits) {
      hashes.resize(owner.size());
      packed.resize(owner.size() * B);
      std::vector<uint16_t> shifts(owner.size(), 0);
      for (size_t k = 0; k < owner.size(); ++k) {
        uint16_t* w = succ.data() + k * W;
        shifts[k] = w[G + kGlobTileShift];  // renormalisation's tile shift: not part of the state
        w[G + kGlobTileShift] = 0;
        if (!codec.encode(w, packed.data() + k * B)) {
          too_wide = true;
          return;
        }
        hashes[k] = StateStore::hash(packed.data() + k * B, B);
        store.prefetch(hashes[k]);
      }
      for (size_t k = 0; k < owner.size(); ++k) {
        size_t o = k * W;
        ++res.stats.transitions;
        if (static_cast<long long>(store.size()) + 1 >= cfg.state_cap + kSlack) {
          res.stats.capped = true;
          stop = true;
          break;
        }
        auto [idx, fresh] = store.insert(packed.data() + k * B, hashes[k]);
        if (!fresh) {
          if (note_revisits && idx <= from[k])
            for (auto const& r : reduced)
              if (r.parent == from[k] && (revisit.empty() || revisit.back() != from[k])) revisit.push_back(from[k]);
          continue;
        }
        parent.push_back(from[k]);
        ptask.push_back(owner[k]);
        if (sem.tile_mode()) tile_base.push_back(tile_base[from[k]] + shifts[k]);
        uint16_t ng = succ[o + G];
        if (ng & kRace) {
          ++res.stats.races;
          record("race", idx);
        }
        if (ng & kPdlViolation) {
          ++res.stats.pdl;
          record("pdl", idx);
        }
        if (ng & (kEarlyRelease | kCommitNoAcquire)) {
          ++res.stats.unbalanced;
          record("unbalanced", idx);
        }
        if (ng & kEmptyTmaCommit) {
          ++res.stats.deadlocks;
          record("deadlock", idx);
        }
      }
    };
    auto expand = [&](uint32_t i, uint64_t set) {
      for (int t = 0; t < nt; ++t) {
        if (!(set >> t & 1)) continue;
        size_t before = succ.size();
        sem.successors(cur.data(), t, succ, /*known_enabled=*/true);  // set is within `enabled`
        size_t n = (succ.size() - before) / W;
        owner.insert(owner.end(), n, static_cast<uint8_t>(t));
        from.insert(from.end(), n, i);
      }
    };
    for (size_t i = 0; i < store.size() && !stop;) {
      size_t end = std::min(store.size(), i + kBlock);
      succ.clear();
      owner.clear();
      from.clear();
      reduced.clear();
      revisit.clear();
      for (; i < end; ++i) {
        if ((cfg.stop_at_first_failure && res.failure) || static_cast<long long>(store.size()) >= cfg.state_cap) {
          res.stats.capped = !(cfg.stop_at_first_failure && res.failure);
          stop = true;
          break;
        }
        codec.decode(store.at(i), cur.data());
        uint16_t g = cur[G];
        if (g & (kOverflow | kTableFull | kTileOverflow)) {
          bool tiles = g & kTileOverflow;
          (tiles ? res.stats.tile_overflow : res.stats.overflow) = true;
          res.note = tiles ? "the every-tile-count abstraction does not apply: a task can get " +
                                 std::to_string(sem.tile_window()) +
                                 " work tiles ahead of another (no pipeline bounds their distance in tiles)"
                     : g & kOverflow
                         ? "the parametric abstraction does not apply: tasks can drift apart by more than " +
                               std::to_string(sem.drift()) + " iterations (no pipeline bounds their distance)"
                         : "too many outstanding shared-condition outcomes for the state encoding";
          // Past the bound the abstraction is not exact: the search stops here and the
          // run is never SAFE (the report says so; concrete lengths or tiles are checked
          // instead when nothing failed). Exploring on within the bound costs too much where
          // tasks never synchronise; which failures a stopped search has met depends on
          // its order, so the reduced and the plain search may report different ones.
          stop = true;
          break;
        }
        if (g & kFailureFlags) continue;  // reported on discovery; not expanded
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
            // The run shown is the first complete one; a run with at least one work tile
            // says more than the zero-tile run BFS meets first, so it replaces that one.
            int tiles = tiles_of(cur.data(), static_cast<uint32_t>(i));
            if (first_complete || (res.run && res.run->tiles == 0 && tiles > 0)) {
              first_complete = false;
              Counterexample c;
              c.kind = "run";
              c.events = trace(static_cast<uint32_t>(i));
              c.length = cfg.parametric ? -1 : ps.any_runtime_loop ? cfg.length : -2;
              c.skipped_tiles = cur[G + kGlobSkipMask] != 0 || cur[G + kGlobSkipMask + 1] != 0;
              c.tiles = tiles;
              res.run = std::move(c);
            }
          }
          continue;
        }
        uint64_t set = choose(cur.data(), enabled);
        if (cyclic && set != enabled) reduced.push_back({static_cast<uint32_t>(i), enabled & ~set});
        expand(static_cast<uint32_t>(i), set);
      }
      insert_all(cyclic);
      if (too_wide) return;
      // Cycle proviso: a reduced parent that reached an already expanded state is
      // expanded in full (its other enabled tasks' successors are inserted now).
      if (!revisit.empty() && !stop) {
        succ.clear();
        owner.clear();
        from.clear();
        for (uint32_t p : revisit) {
          codec.decode(store.at(p), cur.data());
          for (auto const& r : reduced)
            if (r.parent == p) expand(p, r.rest);
        }
        insert_all(false);
        if (too_wide) return;
      }
    }
    res.stats.states = store.size();
    res.drift_bound = sem.drift();
    res.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    res.stats.cpu_seconds = cpu_now() - c0;
    bool bad = res.stats.deadlocks || res.stats.races || res.stats.pdl || res.stats.unbalanced;
    if (res.stats.overflow || res.stats.tile_overflow) {
      res.verdict = bad ? Verdict::Unsafe : Verdict::Incomplete;
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
  if (ps.tasks.size() > 64) {  // task sets are 64-bit masks
    ExploreResult r;
    r.verdict = Verdict::Incomplete;
    r.note = "more than 64 tasks: not supported by the checker";
    return r;
  }
  {
    Search s(m, ps, cfg, /*narrow=*/true);
    s.run();
    if (!s.too_wide) return std::move(s.res);
  }
  Search s(m, ps, cfg, /*narrow=*/false);
  s.run();
  return std::move(s.res);
}

}  // namespace ts::check
