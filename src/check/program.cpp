// Flattening schedules into programs, and the static facts the explorer needs
// (pipes, consumer slots, alias pairs, shared condition keys). See check/program.hpp.
#include "ts/check/program.hpp"

#include <algorithm>
#include <map>

#include "ts/check/length_classes.hpp"
#include "ts/core/errors.hpp"
#include "ts/schedule/lane_mode.hpp"
#include "ts/schedule/expand.hpp"
#include "ts/schedule/turns.hpp"

namespace ts::check {
namespace {

// Positions keep a tile's loop progress in 8 bits (Instr::loop_progress: 2n per loop).
constexpr int kMaxLoopsInATile = 127;

struct Compiler {
  ir::ScheduleIR const& ir;
  ProgramSet& ps;
  int task;
  std::string const& task_name;
  TaskProgram out;
  uint8_t loop_region = kBefore, tile_region = kBefore;
  // Domain loops begun so far in the current tile body (or the schedule, without a tile
  // loop): inside a loop, that loop's number. Keys asked in a later loop are told apart
  // from the first loop's (the WhenTrue case), positions order the loops (Instr).
  int loops_begun = 0;
  std::vector<int> loop_exits_to_patch;  // Break instructions waiting for the loop's exit

  int emit(Instr in) {
    in.loop_region = loop_region;
    in.tile_region = tile_region;
    in.loops_begun = static_cast<uint8_t>(loops_begun);
    out.code.push_back(in);
    return static_cast<int>(out.code.size()) - 1;
  }
  int key_index(std::string const& k) {
    for (size_t i = 0; i < ps.keys.size(); ++i)
      if (ps.keys[i].name == k) {
        ps.keys[i].users |= uint64_t(1) << task;
        return static_cast<int>(i);
      }
    ps.keys.push_back({k, uint64_t(1) << task});
    return static_cast<int>(ps.keys.size()) - 1;
  }
  void children(ir::Block const& b) {
    for (auto const& n : b.children) {
      if (n.is_block) {
        block(ir.blocks[n.index]);
      } else if (ir.steps[n.index].kind == SyncOp::BreakLoop) {
        loop_exits_to_patch.push_back(emit({.op = Op::Break, .step = n.index}));
      } else {
        emit({.op = Op::Step, .step = n.index});
      }
    }
  }
  // A block whose body runs only when a test holds: test instruction, body, patch exit.
  void guarded(Instr test, ir::Block const& b) {
    int at = emit(test);
    children(b);
    out.code[at].target = static_cast<int>(out.code.size());
  }
  void block(ir::Block const& b) {
    using BK = ir::BlockKind;
    switch (b.kind) {
      case BK::Root: children(b); break;
      case BK::DomainLoop: {
        out.has_loop = true;
        out.static_trip = static_trip_count(b);
        if (out.static_trip < 0) ps.any_runtime_loop = true;
        if (out.static_trip < 0 && tile_region == kInside && !same_in_every_tile(b)) ps.lengths_vary_per_tile = true;
        if (++loops_begun > kMaxLoopsInATile) {
          Diagnostic d;
          d.check = "check.loops-per-tile";
          d.task = task_name;
          d.message = "too many domain loops one after another in one tile for the checker's positions";
          d.expected = "at most " + std::to_string(kMaxLoopsInATile);
          d.actual = std::to_string(loops_begun);
          throw ModelError(d);
        }
        emit({.op = Op::LoopInit});
        loop_region = kInside;
        int head = emit({.op = Op::LoopHead});
        auto outer_breaks = std::move(loop_exits_to_patch);
        loop_exits_to_patch.clear();
        children(b);
        if (static_cast<int>(out.code.size()) == head + 1) {
          // An empty body: no step, so its length cannot matter. Emitting no loop keeps
          // the parametric abstraction exact (an empty loop would let the task drift
          // ahead of the others without bound); the task still counts as looping.
          out.code.resize(head - 1);
          loop_region = kAfter;
          loop_exits_to_patch = std::move(outer_breaks);
          break;
        }
        emit({.op = Op::LoopEnd, .target = head});
        out.loop_emitted = true;
        loop_region = kAfter;
        int exit = static_cast<int>(out.code.size());
        out.code[head].target = exit;
        for (int br : loop_exits_to_patch) out.code[br].target = exit;
        loop_exits_to_patch = std::move(outer_breaks);
        break;
      }
      case BK::WorkTileLoop: {
        out.has_tile_loop = true;
        emit({.op = Op::TileInit});
        tile_region = kInside;
        loop_region = kBefore;  // a domain loop inside the tile body restarts every tile
        loops_begun = 0;
        int head = emit({.op = Op::TileHead});
        children(b);
        // Several domain loops in the tile body share its loop slot: until the last
        // loop starts, the task still has a loop to start from iteration 0 in it.
        bool ahead = false;
        for (int i = static_cast<int>(out.code.size()) - 1; i > head; --i) {
          ahead |= out.code[i].op == Op::LoopInit;
          out.code[i].loop_ahead = ahead;
        }
        emit({.op = Op::TileEnd, .target = head});
        tile_region = kAfter;
        out.code[head].target = static_cast<int>(out.code.size());
        break;
      }
      case BK::Skippable:
        ps.any_skippable = true;
        guarded({.op = Op::Skip}, b);
        break;
      case BK::FirstIter:
      case BK::LastIter:
      case BK::Every:
        guarded({.op = Op::Guard, .guard = b.kind, .period = b.period > 0 ? b.period : 1, .start = b.every_start}, b);
        break;
      case BK::WhenTrue:
      case BK::WhenFalse: {
        std::string k = b.cond_key.empty() ? ("slot" + std::to_string(b.cond_slot) + "@" + std::to_string(task))
                                           : b.cond_key;
        // Outcomes are shared per (tile, iteration), and a tile's domain loops share its
        // iterations: iteration i of its second loop is not iteration i of its first
        // (the ping-pong GEMM's loops cover different sub-tiles, where one method may
        // answer differently). Inside a later loop the key gets the loop's number: the
        // same loop of other tasks still shares it; other loops get independent
        // outcomes, a superset of the real runs.
        if (loop_region == kInside && loops_begun > 1) k += " (domain loop " + std::to_string(loops_begun) + ")";
        guarded({.op = Op::Cond, .key = key_index(k), .polarity = b.kind == BK::WhenTrue}, b);
        break;
      }
    }
  }
};

bool async_engine(Engine e) { return e != Engine::Async; }

// Shared condition keys correlate outcomes per (tile, iteration), counting iterations
// from each task's loop start: that only names the same data when the tasks' domain loops
// provably start at the same value with the same step. Where they do not (or a bound's
// form is unknown), "iteration i" of one task is not iteration i of the other, and each
// group of aligned tasks gets a key of its own: independent outcomes, a superset of the
// real runs (found by the property tests: loops starting at 0 and at 1 sharing a key).
void split_unaligned_keys(Model const& m, ProgramSet& ps) {
  int nt = static_cast<int>(ps.tasks.size());
  auto alignment = [&](int t) -> std::string {
    auto const& ir = m.tasks[t].schedule;
    if (ir.domain_loop < 0) return "no loop";
    auto const& b = ir.blocks[ir.domain_loop];
    if (!b.start.form_known || !b.step.form_known) return "unknown #" + std::to_string(t);
    return b.start.form.to_string() + " step " + b.step.form.to_string();
  };
  size_t nkeys = ps.keys.size();
  for (size_t k = 0; k < nkeys; ++k) {
    if (__builtin_popcountll(ps.keys[k].users) < 2) continue;
    std::vector<std::pair<std::string, int>> groups;  // alignment -> key index
    for (int t = 0; t < nt; ++t) {
      if (!(ps.keys[k].users >> t & 1)) continue;
      std::string a = alignment(t);
      int key = -1;
      for (auto const& [ga, gk] : groups)
        if (ga == a) key = gk;
      if (key < 0) {
        key = groups.empty() ? static_cast<int>(k) : static_cast<int>(ps.keys.size());
        if (!groups.empty()) ps.keys.push_back({ps.keys[k].name + " (loop " + a + ")", 0});
        groups.push_back({a, key});
      }
      if (key == static_cast<int>(k)) continue;
      ps.keys[k].users &= ~(uint64_t(1) << t);
      ps.keys[key].users |= uint64_t(1) << t;
      for (auto& in : ps.tasks[t].code)
        if (in.op == Op::Cond && in.key == static_cast<int>(k)) in.key = key;
    }
  }
}

// Consumer slots (see SlotRole): one per task that waits on or releases the pipe, in task
// order; a Phantom slot when no task releases it (its stages are never given back).
// Pipe::reuse_at_write: where the producer's write into a stage is one work step of the
// one acquiring task on its newest acquired stage (the runtime's prod_stage), the stage
// reuse race under a WaitOnly reader is that write, as on the emulator, whose race
// detector sees the write, not the acquire. Not for engines that write without a work
// step per stage (UMMA accumulators, CLC responses) nor warp-lane acquires (several
// stages written at once): there the acquire stays the race.
void mark_reuse_at_write(Model const& m, ProgramSet& ps, int nt) {
  for (size_t p = 0; p < ps.pipes.size(); ++p) {
    auto& pipe = ps.pipes[p];
    bool reader = std::find(pipe.roles.begin(), pipe.roles.end(), SlotRole::WaitOnly) != pipe.roles.end();
    Engine e = m.resource(pipe.resource).pipeline->producer_engine();
    if (!reader || !pipe.own_producer() || (e != Engine::Async && e != Engine::Tma)) continue;
    bool one_task = true;
    for (int t = 0; t < nt; ++t)
      for (auto const& s : m.tasks[t].schedule.steps) {
        if (s.resource != pipe.resource) continue;
        bool acquirer = pipe.acquirers >> t & 1;
        if (s.kind == SyncOp::Work && s.role == WorkRole::Producer && !acquirer) one_task = false;
        if (s.kind == SyncOp::Acquire && ps.steps[t][s.id].weight != 1) one_task = false;
      }
    if (!one_task) continue;
    pipe.reuse_at_write = true;
    for (int t = 0; t < nt; ++t)
      for (auto const& s : m.tasks[t].schedule.steps)
        if (s.kind == SyncOp::Work && s.role == WorkRole::Producer && s.resource == pipe.resource)
          ps.steps[t][s.id].reuse_pipe = static_cast<int>(p);
  }
}

void assign_consumer_slots(Model const& m, std::vector<int> const& pipe_of, ProgramSet& ps) {
  int nt = static_cast<int>(m.tasks.size());
  for (size_t p = 0; p < ps.pipes.size(); ++p) {
    auto& pipe = ps.pipes[p];
    bool any_waiter = false, any_releaser = false;
    for (int t = 0; t < nt; ++t) {
      bool waits = false, releases = false;
      for (auto const& s : m.tasks[t].schedule.steps) {
        if (s.resource < 0 || pipe_of[s.resource] != static_cast<int>(p)) continue;
        waits |= s.kind == SyncOp::Wait;
        releases |= s.kind == SyncOp::Release;
      }
      bool skips = false;
      for (auto const& s : m.tasks[t].schedule.steps)
        skips |= s.kind == SyncOp::Skip && s.resource >= 0 && pipe_of[s.resource] == static_cast<int>(p);
      if (!waits && !releases && !skips) continue;
      any_waiter |= waits;
      any_releaser |= releases;
      pipe.consumers.push_back(t);
      // A turn-taker that only skips holds a WaitRelease slot (it never takes a turn).
      pipe.roles.push_back(waits == releases ? SlotRole::WaitRelease : waits ? SlotRole::WaitOnly : SlotRole::ReleaseOnly);
      if (waits != releases) pipe.split = true;
    }
    if (!any_releaser) {
      pipe.consumers.push_back(-1);
      pipe.roles.push_back(SlotRole::Phantom);
    }
    pipe.phantom_consumer = !any_waiter;
  }
}

// TaskProgram::may_read by a backward fixpoint over the instruction graph: a consumer
// work on pipe p reads it; a wait or release on p ends the reach.
std::vector<uint64_t> may_read(TaskProgram const& prog, ir::ScheduleIR const& ir, ProgramSet const& ps,
                               std::vector<int> const& pipe_of, int task) {
  uint64_t tracked = 0;
  for (size_t p = 0; p < ps.pipes.size() && p < 64; ++p)
    for (size_t k = 0; k < ps.pipes[p].consumers.size(); ++k)
      if (ps.pipes[p].consumers[k] == task && ps.pipes[p].roles[k] == SlotRole::WaitOnly) tracked |= uint64_t(1) << p;
  std::vector<uint64_t> out(prog.code.size(), 0);
  if (!tracked) return out;
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = static_cast<int>(prog.code.size()) - 1; i >= 0; --i) {
      auto const& in = prog.code[i];
      uint64_t v = 0;
      auto succ = [&](int j) { if (j >= 0 && j < static_cast<int>(out.size())) v |= out[j]; };
      switch (in.op) {
        case Op::End: break;
        case Op::LoopEnd: case Op::TileEnd: case Op::Break: succ(in.target); break;
        case Op::LoopHead: case Op::TileHead: case Op::Skip: case Op::Guard: case Op::Cond:
          succ(i + 1); succ(in.target); break;
        case Op::Step: {
          succ(i + 1);
          auto const& st = ir.steps[in.step];
          int p = st.resource >= 0 ? pipe_of[st.resource] : -1;
          if (p >= 0 && p < 64 && (tracked >> p & 1)) {
            if (st.kind == SyncOp::Wait || st.kind == SyncOp::Release) v &= ~(uint64_t(1) << p);
            if (st.kind == SyncOp::Work && st.role == WorkRole::Consumer) v |= uint64_t(1) << p;
          }
          break;
        }
        default: succ(i + 1); break;
      }
      v &= tracked;
      if (v != out[i]) { out[i] = v; changed = true; }
    }
  }
  return out;
}

}  // namespace

// Cumulative commits (Pipe::commit_fenced_reads): the issuing release of UMMA-consumer
// pipe P is a tcgen05.commit of task T, which completes after every MMA T issued before
// it, so it also bounds T's reads of another ring R. Only plain rings on both sides (a
// domain-lane or turn pipe's released reads do not end at a counted reacquire), and only
// aliased R (its reads matter to aliasing races alone).
static void mark_commit_fences(ProgramSet& ps) {
  for (size_t p = 0; p < ps.pipes.size(); ++p) {
    auto& fence = ps.pipes[p];
    if (!fence.umma_consumer || fence.umma_release_slot < 0 || fence.lanes || fence.turns) continue;
    for (size_t r = 0; r < ps.pipes.size(); ++r) {
      auto const& read = ps.pipes[r];
      if (r == p || !read.umma_consumer || !read.aliased || read.lanes || read.turns) continue;
      if (read.umma_issuer == fence.umma_issuer) fence.commit_fenced_reads.push_back(static_cast<int>(r));
    }
  }
}

// Does a skipped tile run only local steps in every task (the part of the tile body
// outside `skippable`, and the whole body of a task that never skips)? Then skipping a
// tile removes nothing but local steps, and a run with skipped tiles is a run with
// fewer tiles (the every-tile-count proof then leaves skips out; docs/checker.md).
static bool skipped_tiles_silent(ProgramSet const& ps) {
  for (size_t t = 0; t < ps.tasks.size(); ++t) {
    auto const& code = ps.tasks[t].code;
    if (!ps.tasks[t].has_tile_loop) continue;
    std::vector<bool> skippable(code.size(), false);
    for (size_t i = 0; i < code.size(); ++i)
      if (code[i].op == Op::Skip)
        for (int j = static_cast<int>(i) + 1; j < code[i].target; ++j) skippable[j] = true;
    for (size_t i = 0; i < code.size(); ++i) {
      auto const& in = code[i];
      if (in.tile_region != kInside || skippable[i]) continue;
      switch (in.op) {
        case Op::TileHead: case Op::TileEnd: case Op::Skip: break;
        case Op::Step: {
          auto const& si = ps.steps[t][in.step];
          if (si.effect != Effect::Local || si.fills_pipe >= 0) return false;
          break;
        }
        default: return false;  // loops, guards, conditions, breaks outside skippable
      }
    }
  }
  return true;
}

// Does every task with a tile loop run only local steps in its tile body outside its
// domain loop (and have no task a runtime-length loop outside a tile loop)? Then a tile
// whose domain loop runs no iteration changes nothing another task can see: it is a tile
// fewer, and the every-tile-count proof need not explore zero-trip tiles.
static bool zero_trip_tiles_silent(ProgramSet const& ps) {
  for (size_t t = 0; t < ps.tasks.size(); ++t) {
    auto const& task = ps.tasks[t];
    if (!task.has_tile_loop) {
      if (task.has_loop && task.static_trip < 0) return false;
      continue;
    }
    for (auto const& in : task.code) {
      if (in.tile_region != kInside || in.loop_region == kInside) continue;
      switch (in.op) {
        case Op::TileHead: case Op::TileEnd: case Op::Skip: case Op::LoopInit: break;
        case Op::Step: {
          auto const& si = ps.steps[t][in.step];
          if (si.effect != Effect::Local || si.fills_pipe >= 0) return false;
          break;
        }
        default: return false;
      }
    }
  }
  return true;
}

ProgramSet compile(Model const& m) {
  ProgramSet ps;
  int nres = static_cast<int>(m.resources.size());
  std::vector<int> pipe_of(nres, -1), alias_of(nres, -1);

  // Pipes: every pipelined resource gets credit counters.
  for (int r = 0; r < nres; ++r) {
    auto const& d = m.resource(r);
    if (!d.pipelined()) continue;
    Pipe p;
    p.resource = r;
    p.stages = d.pipeline->num_stages;
    p.async_producer = async_engine(d.pipeline->producer_engine());
    p.umma_consumer = d.pipeline->consumer_engine() == Engine::Umma;
    pipe_of[r] = static_cast<int>(ps.pipes.size());
    ps.pipes.push_back(p);
  }

  // Aliasing: allocations of different phases in one alias group share memory.
  struct Use { int resource; int phase; AccessSide side; std::string alloc; };
  std::map<std::string, std::vector<Use>> groups;
  for (int r = 0; r < nres; ++r)
    for (auto const& a : m.resource(r).allocations.decls())
      if (!a.alias_group.empty()) groups[a.alias_group].push_back({r, a.alias_phase, a.side, a.name});
  auto aliased_index = [&](int r) {
    if (alias_of[r] < 0) {
      alias_of[r] = static_cast<int>(ps.aliased.size());
      AliasedResource ar;
      ar.resource = r;
      ar.pipe = pipe_of[r];
      ar.producer_side = ar.consumer_side = false;
      ps.aliased.push_back(ar);
      if (pipe_of[r] >= 0) {
        ps.pipes[pipe_of[r]].aliased = true;
        ps.pipes[pipe_of[r]].alias = alias_of[r];
      }
    }
    return alias_of[r];
  };
  for (auto const& [g, uses] : groups)
    for (size_t i = 0; i < uses.size(); ++i)
      for (size_t j = i + 1; j < uses.size(); ++j) {
        auto const& u = uses[i];
        auto const& v = uses[j];
        if (u.resource == v.resource || u.phase == v.phase) continue;
        int a = aliased_index(u.resource), b = aliased_index(v.resource);
        for (auto [ix, use] : {std::pair{a, &u}, std::pair{b, &v}}) {
          if (use->side != AccessSide::Consumer) ps.aliased[ix].producer_side = true;
          if (use->side != AccessSide::Producer) ps.aliased[ix].consumer_side = true;
        }
        bool seen = false;
        for (auto const& p : ps.pairs) seen |= (p.a == a && p.b == b) || (p.a == b && p.b == a);
        if (!seen)
          ps.pairs.push_back({a, b, "group " + g + ": " + m.resource(u.resource).name + "." + u.alloc + " (phase " +
                                        std::to_string(u.phase) + ") / " + m.resource(v.resource).name + "." +
                                        v.alloc + " (phase " + std::to_string(v.phase) + ")"});
      }

  int nt = static_cast<int>(m.tasks.size());
  assign_consumer_slots(m, pipe_of, ps);
  for (int t = 0; t < nt; ++t) {
    auto const& ir = m.tasks[t].schedule;
    Compiler c{.ir = ir, .ps = ps, .task = t, .task_name = m.tasks[t].name};
    c.block(ir.blocks.at(0));
    c.emit({.op = Op::End});
    ps.tasks.push_back(std::move(c.out));

    std::vector<StepInfo> infos(ir.steps.size());
    for (auto const& s : ir.steps) {
      StepInfo& si = infos[s.id];
      if (s.resource < 0) continue;
      auto kind = m.resource(s.resource).kind;
      int pipe = pipe_of[s.resource];
      using SK = SyncOp;
      switch (s.kind) {
        case SK::Work:
          if (alias_of[s.resource] >= 0 && s.role != WorkRole::Auxiliary) {
            si.effect = Effect::AliasWork;
            si.alias = alias_of[s.resource];
            si.pipe = pipe;
            si.writes = s.role == WorkRole::Producer;
          }
          break;
        case SK::Acquire:
        case SK::Commit:
          if (kind == ResourceKind::PdlLaunch && s.kind == SK::Commit) {
            si.effect = Effect::PdlLaunch;
            ++ps.pdl_launches;
          } else if (pipe >= 0) {
            si.effect = s.kind == SK::Acquire ? Effect::Acquire : Effect::Commit;
            si.pipe = pipe;
            si.weight = warp_lane_weight(m, t, s);
            ps.pipes[pipe].users |= uint64_t(1) << t;
            if (s.kind == SK::Acquire) ps.pipes[pipe].acquirers |= uint64_t(1) << t;
            else ps.pipes[pipe].committers |= uint64_t(1) << t;
          }
          break;
        case SK::Wait:
        case SK::Release:
          if (kind == ResourceKind::PdlWait && s.kind == SK::Wait) {
            si.effect = Effect::PdlWait;
            ++ps.pdl_waits;
          } else if (pipe >= 0) {
            si.effect = s.kind == SK::Wait ? Effect::Wait : Effect::Release;
            si.pipe = pipe;
            si.weight = warp_lane_weight(m, t, s);
            ps.pipes[pipe].users |= uint64_t(1) << t;
            auto const& cons = ps.pipes[pipe].consumers;
            int slot = static_cast<int>(std::find(cons.begin(), cons.end(), t) - cons.begin());
            si.consumer_slot = slot;
          }
          break;
        case SK::Skip:
          if (pipe >= 0) {
            si.effect = Effect::StageSkip;
            si.pipe = pipe;
            ps.pipes[pipe].users |= uint64_t(1) << t;
            ps.pipes[pipe].turns = true;
            auto const& cons = ps.pipes[pipe].consumers;
            si.consumer_slot = static_cast<int>(std::find(cons.begin(), cons.end(), t) - cons.begin());
            if (s.count.kind == ir::Bound::Kind::Static) {
              si.skip_static = std::max<long long>(s.count.value, 0);
            } else {
              si.skip_task = turn_count_task(m, s.resource, s.count, t);
              ps.runtime_skips = true;
              if (si.skip_task < 0) si.skip_task = t;  // S6.26.skip-count rejects it; the own loop's length
            }
          }
          break;
        default: break;  // try_ ops, queue bookkeeping, break: local
      }
    }
    ps.steps.push_back(std::move(infos));
  }
  // The one task issuing an UMMA-consumer pipe's MMA reads (Pipe::umma_issuer) and, where
  // it holds a releasing slot, that slot (Pipe::umma_release_slot). Consumer work on such
  // a pipe is an MMA reading its stage, aliased or not (a non-aliased pipe's issuer
  // matters to the rings its commits fence, Pipe::commit_fenced_reads).
  for (size_t p = 0; p < ps.pipes.size(); ++p) {
    auto& pipe = ps.pipes[p];
    if (!pipe.umma_consumer) continue;
    for (int t = 0; t < nt; ++t)
      for (auto const& s : m.tasks[t].schedule.steps)
        if (s.kind == SyncOp::Work && s.resource == pipe.resource && s.role == WorkRole::Consumer) {
          pipe.umma_issuer = pipe.umma_issuer == -1 ? t : -2;
          break;
        }
    auto it = std::find(pipe.consumers.begin(), pipe.consumers.end(), pipe.umma_issuer);
    if (pipe.umma_issuer < 0 || it == pipe.consumers.end()) continue;
    int slot = static_cast<int>(it - pipe.consumers.begin());
    if (pipe.roles[slot] == SlotRole::WaitRelease || pipe.roles[slot] == SlotRole::ReleaseOnly)
      pipe.umma_release_slot = slot;
  }
  // Paired accumulator waits: an UMMA-producer pipe committed by exactly the task that is
  // the one consumer of an UMMA-consumer pipe fences that pipe's reads. Only where that
  // task commits no other UMMA-producer pipe (one fence bit per consumer pipe), and no
  // other task issues MMAs reading the pipe (a commit fences its own thread's MMAs only).
  for (size_t p = 0; p < ps.pipes.size(); ++p) {
    auto& cons = ps.pipes[p];
    if (!cons.umma_consumer || cons.consumers.size() != 1 || cons.consumers[0] < 0) continue;
    int mma_task = cons.consumers[0];
    if (cons.umma_issuer != -1 && cons.umma_issuer != mma_task) continue;
    int fence = -1, fences = 0;
    for (size_t q = 0; q < ps.pipes.size(); ++q) {
      auto const& acc = ps.pipes[q];
      if (m.resource(acc.resource).pipeline->producer_engine() != Engine::Umma) continue;
      bool commits = false;
      for (auto const& s : m.tasks[mma_task].schedule.steps) commits |= s.kind == SyncOp::Commit && s.resource == acc.resource;
      if (commits) fence = static_cast<int>(q), ++fences;
    }
    if (fences == 1) ps.pipes[fence].fenced_reads.push_back(static_cast<int>(p));
  }
  // Empty TMA commits: checked where one task both acquires and does all producer work, or
  // where no task does any (then every commit is one: found by the property tests,
  // Regression.TmaCommitWithNoCopyOnThePipeIsAHang).
  for (size_t p = 0; p < ps.pipes.size(); ++p) {
    auto& pipe = ps.pipes[p];
    if (m.resource(pipe.resource).pipeline->producer_engine() != Engine::Tma) continue;
    uint64_t workers = 0;
    for (int t = 0; t < nt; ++t)
      for (auto const& s : m.tasks[t].schedule.steps)
        if (s.kind == SyncOp::Work && s.role == WorkRole::Producer && s.resource == pipe.resource)
          workers |= uint64_t(1) << t;
    pipe.tma_fill_check = __builtin_popcountll(pipe.acquirers) == 1 && (workers == pipe.acquirers || workers == 0);
    if (!pipe.tma_fill_check) continue;
    for (int t = 0; t < nt; ++t)
      for (auto const& s : m.tasks[t].schedule.steps)
        if (s.kind == SyncOp::Work && s.role == WorkRole::Producer && s.resource == pipe.resource)
          ps.steps[t][s.id].fills_pipe = static_cast<int>(p);
  }
  mark_reuse_at_write(m, ps, nt);
  for (int t = 0; t < nt; ++t) ps.tasks[t].may_read = may_read(ps.tasks[t], m.tasks[t].schedule, ps, pipe_of, t);
  for (auto& p : ps.pipes) {
    if (p.split || p.phantom_consumer || p.turns) continue;  // lanes only for tasks that wait and release
    auto lanes = consumer_lanes(m, p.resource, p.consumers);
    if (lanes.empty()) continue;
    p.lanes = static_cast<int>(lanes.size());
    p.slot_of_lane.assign(lanes.size(), -1);
    for (size_t c = 0; c < lanes.size(); ++c) p.slot_of_lane[lanes[c]] = static_cast<int>(c);
  }
  mark_commit_fences(ps);
  split_unaligned_keys(m, ps);
  assign_length_classes(m, ps);
  ps.skipped_tiles_silent = ps.any_skippable && skipped_tiles_silent(ps);
  ps.zero_trip_tiles_silent = ps.any_runtime_loop && zero_trip_tiles_silent(ps);
  return ps;
}

// Lane mode only where it is exact: one committing task (commit order decides the lane)
// and one consumer task per lane. Other shapes keep the broadcast model, so lanes that do
// not cover the ring show as unconsumed commits or a deadlock rather than passing.
std::vector<int> consumer_lanes(Model const& m, int resource, std::vector<int> const& waiting_tasks) {
  auto const& res = m.resource(resource);
  if (!res.pipelined()) return {};
  auto const& st = res.pipeline->interleave_stride;
  int s = st.wait;
  if (s <= 1 || st.release != s || static_cast<int>(waiting_tasks.size()) != s) return {};
  int committers = 0;
  for (auto const& t : m.tasks) {
    bool commits = false;
    for (auto const& step : t.schedule.steps) commits |= step.kind == SyncOp::Commit && step.resource == resource;
    committers += commits;
  }
  if (committers != 1) return {};
  std::vector<int> lanes;
  std::vector<bool> taken(s, false);
  for (int t : waiting_tasks) {
    int lane = ir::domain_lane(m.tasks[t].schedule, resource, SyncOp::Wait, s);
    if (lane < 0 || taken[lane]) return {};
    taken[lane] = true;
    lanes.push_back(lane);
  }
  return lanes;
}

}  // namespace ts::check
