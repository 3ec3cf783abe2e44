// Flattening schedules into programs, and the static facts the explorer needs
// (pipes, consumer slots, alias pairs, shared condition keys). See check/program.hpp.
#include "ts/check/program.hpp"

#include <algorithm>
#include <map>

#include "ts/check/length_classes.hpp"
#include "ts/schedule/expand.hpp"

namespace ts::check {
namespace {

struct Compiler {
  ir::ScheduleIR const& ir;
  ProgramSet& ps;
  int task;
  TaskProgram out;
  uint8_t loop_region = kBefore, tile_region = kBefore;
  std::vector<int> loop_exits_to_patch;  // Break instructions waiting for the loop's exit

  int emit(Instr in) {
    in.loop_region = loop_region;
    in.tile_region = tile_region;
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
      } else if (ir.steps[n.index].kind == ir::StepKind::BreakLoop) {
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
        emit({.op = Op::LoopInit});
        loop_region = kInside;
        int head = emit({.op = Op::LoopHead});
        auto outer_breaks = std::move(loop_exits_to_patch);
        loop_exits_to_patch.clear();
        children(b);
        emit({.op = Op::LoopEnd, .target = head});
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
        int head = emit({.op = Op::TileHead});
        children(b);
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
        guarded({.op = Op::Cond, .key = key_index(k), .polarity = b.kind == BK::WhenTrue}, b);
        break;
      }
    }
  }
};

bool async_engine(PipelineConfig::Engine e) { return e != PipelineConfig::Engine::Async; }

}  // namespace

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
    p.umma_consumer = d.pipeline->consumer_engine() == PipelineConfig::Engine::Umma;
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
  // Consumer slots go to the tasks that wait, in task order; a task that only releases
  // (the releasing half of a split consumer) is given its waiter's slot below.
  for (int t = 0; t < nt; ++t)
    for (auto const& s : m.tasks[t].schedule.steps)
      if (s.kind == ir::StepKind::Wait && s.resource >= 0 && pipe_of[s.resource] >= 0) {
        auto& cons = ps.pipes[pipe_of[s.resource]].consumers;
        if (std::find(cons.begin(), cons.end(), t) == cons.end()) cons.push_back(t);
      }
  std::vector<size_t> waiters(ps.pipes.size());
  for (size_t p = 0; p < ps.pipes.size(); ++p) waiters[p] = ps.pipes[p].consumers.size();
  for (int t = 0; t < nt; ++t) {
    auto const& ir = m.tasks[t].schedule;
    Compiler c{ir, ps, t, {}, kBefore, kBefore, {}};
    c.block(ir.blocks.at(0));
    c.emit({.op = Op::End});
    ps.tasks.push_back(std::move(c.out));

    std::vector<StepInfo> infos(ir.steps.size());
    for (auto const& s : ir.steps) {
      StepInfo& si = infos[s.id];
      if (s.resource < 0) continue;
      auto kind = m.resource(s.resource).kind;
      int pipe = pipe_of[s.resource];
      using SK = ir::StepKind;
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
            ps.pipes[pipe].users |= uint64_t(1) << t;
            if (s.kind == SK::Acquire) ps.pipes[pipe].acquirers |= uint64_t(1) << t;
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
            ps.pipes[pipe].users |= uint64_t(1) << t;
            auto& cons = ps.pipes[pipe].consumers;
            int slot = -1;
            for (size_t i = 0; i < cons.size(); ++i)
              if (cons[i] == t) slot = static_cast<int>(i);
            if (slot < 0 && waiters[pipe] == 1) {  // split consumer: release for the waiter
              slot = 0;
              ps.pipes[pipe].split = true;
            }
            if (slot < 0) {
              cons.push_back(t);
              slot = static_cast<int>(cons.size()) - 1;
            }
            si.consumer_slot = slot;
          }
          break;
        default: break;  // try_ ops, queue bookkeeping, break: local
      }
    }
    ps.steps.push_back(std::move(infos));
  }
  for (auto& p : ps.pipes)
    if (p.consumers.empty()) p.phantom_consumer = true;
  for (auto& p : ps.pipes) {
    auto lanes = consumer_lanes(m, p.resource, p.consumers);
    if (lanes.empty()) continue;
    p.lanes = static_cast<int>(lanes.size());
    p.slot_of_lane.assign(lanes.size(), -1);
    for (size_t c = 0; c < lanes.size(); ++c) p.slot_of_lane[lanes[c]] = static_cast<int>(c);
  }
  assign_length_classes(m, ps);
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
    for (auto const& step : t.schedule.steps) commits |= step.kind == ir::StepKind::Commit && step.resource == resource;
    committers += commits;
  }
  if (committers != 1) return {};
  std::vector<int> lanes;
  std::vector<bool> taken(s, false);
  for (int t : waiting_tasks) {
    int lane = ir::domain_lane(m.tasks[t].schedule, resource, ir::StepKind::Wait, s);
    if (lane < 0 || taken[lane]) return {};
    taken[lane] = true;
    lanes.push_back(lane);
  }
  return lanes;
}

}  // namespace ts::check
