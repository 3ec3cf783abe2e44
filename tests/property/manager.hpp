// Builds the TaskManager of a Program: one task per TaskProgram (one warp each), every
// task bound to the same fixed resource list, reads/writes declared from the ops it uses.
#pragma once
#include <array>
#include <optional>
#include <set>

#include "interpreter.hpp"

namespace prop {

ts::PipelineConfig pipeline_config(MemSpec const& m);
ts::PipelineConfig base_config(MemSpec const& m);  // before strides and derived groups
// Which Mem slots task `t` produces into (writes) and consumes from (reads), and whether
// it uses flags / PDL / the queue.
struct TaskUse {
  std::set<int> writes, reads;
  bool flags = false, pdl_in = false, pdl_out = false;
};
TaskUse task_use(Program const& p, int t);

// Calls f(tm) with the manager (its type depends on the task count). The Program must
// outlive the manager: the schedules point into it.
template <class F>
decltype(auto) with_manager(Program const& p, ts::Options o, F&& f) {
  auto mem = [&](int i) {
    Mem v;
    v.alias_group = p.mem[i].alias_group;
    v.alias_phase = p.mem[i].alias_phase;
    char const* names[] = {"m0", "m1", "m2", "m3"};
    std::optional<ts::PipelineConfig> cfg;
    if (p.mem[i].pipe != PipeKind::None) cfg = pipeline_config(p.mem[i]);
    return ts::resource(names[i], v, cfg);
  };
  auto m0 = mem(0), m1 = mem(1), m2 = mem(2), m3 = mem(3);
  auto flags = ts::resource("flags", Mem{});
  auto pin = ts::resource("pdl_in", PdlIn{});
  auto pout = ts::resource("pdl_out", PdlOut{});
  auto queue = ts::resource("queue", Queue{{p.tiles, 0}, &p.length});
  std::array<ts::Resource<Mem>, kMemSlots> mems{m0, m1, m2, m3};
  auto task = [&](int t) {
    static char const* names[] = {"T0", "T1", "T2", "T3"};
    ts::Task d(names[t]);
    int start = 0;
    for (int u = 0; u < t; ++u) start += p.warps[u];
    d.warps(start, p.warps[t]);
    auto use = task_use(p, t);
    for (int i : use.writes) d.writes(mems[i]);
    for (int i : use.reads) d.reads(mems[i]);
    if (use.flags) d.reads(flags);
    if (use.pdl_in) d.reads(pin);
    if (use.pdl_out) d.writes(pout);
    if (has_tile_loop(p.loop)) d.reads(queue);
    return d.schedule(Interpreter{&p, t}, m0, m1, m2, m3, flags, pin, pout, queue);
  };
  // Every resource some task uses is named in the graph, without ordering between them
  // (the schedules alone say what waits for what): an edge per written resource, the
  // read-only ones (flags, pdl_in, the queue, rings no task writes) upstream of the first.
  std::set<int> written, read;
  bool any_flags = false, any_in = false, any_out = false;
  for (int t = 0; t < int(p.tasks.size()); ++t) {
    auto use = task_use(p, t);
    written.insert(use.writes.begin(), use.writes.end());
    read.insert(use.reads.begin(), use.reads.end());
    any_flags |= use.flags;
    any_in |= use.pdl_in;
    any_out |= use.pdl_out;
  }
  // Each read-only resource goes upstream of an edge one of its readers writes (S6.3: an
  // edge r <- u needs a task reading u and writing r); the first edge where none does.
  std::vector<std::pair<int, ts::ResourceRef>> read_only;  // (a reading task, or -1 for any), resource
  for (int i : read)
    if (!written.count(i)) read_only.push_back({-1, ts::ResourceRef(mems[i])});
  if (any_flags) read_only.push_back({-2, ts::ResourceRef(flags)});
  if (any_in) read_only.push_back({-3, ts::ResourceRef(pin)});
  if (has_tile_loop(p.loop)) read_only.push_back({-4, ts::ResourceRef(queue)});
  ts::DependencyGraph g;
  std::vector<int> edge_of_mem(kMemSlots, -1);
  int edge_of_out = -1;
  for (int i : written) {
    edge_of_mem[i] = int(g.edges.size());
    g.edges.push_back({ts::ResourceRef(mems[i]), {}});
  }
  if (any_out) {
    edge_of_out = int(g.edges.size());
    g.edges.push_back({ts::ResourceRef(pout), {}});
  }
  int ro_index = 0;
  for (auto& [tag, ref] : read_only) {
    int ro_mem = -1;  // the Mem slot of a read-only ring
    if (tag == -1) {
      int k = 0;
      for (int i : read)
        if (!written.count(i) && k++ == ro_index) ro_mem = i;
      ++ro_index;
    }
    int edge = -1;
    for (int t = 0; t < int(p.tasks.size()) && edge < 0; ++t) {
      auto use = task_use(p, t);
      bool reads = tag == -1 ? use.reads.count(ro_mem) > 0 : tag == -2 ? use.flags : tag == -3 ? use.pdl_in : true;
      if (!reads) continue;
      if (!use.writes.empty()) edge = edge_of_mem[*use.writes.begin()];
      else if (use.pdl_out) edge = edge_of_out;
    }
    if (edge < 0 && !g.edges.empty()) edge = 0;
    if (edge >= 0) g.edges[edge].upstream.push_back(ref);
  }
  switch (p.tasks.size()) {
    case 2: {
      auto tm = ts::TaskManager(ts::tasks(task(0), task(1)), g, o);
      return f(tm);
    }
    case 3: {
      auto tm = ts::TaskManager(ts::tasks(task(0), task(1), task(2)), g, o);
      return f(tm);
    }
    default: {
      auto tm = ts::TaskManager(ts::tasks(task(0), task(1), task(2), task(3)), g, o);
      return f(tm);
    }
  }
}

}  // namespace prop
