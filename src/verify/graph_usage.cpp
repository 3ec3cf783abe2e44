// S6.3-S6.5 Dependency graph and resource usage.
//   S6.3 the graph is realizable: every resource it names is used by some schedule, and
//        every edge `down <- up` has a task reading `up` and a task writing `down`.
//   S6.4 every resource a schedule touches appears in the graph. Work queues and PDL
//        resources are exempt: they order tiles and launches, not data.
//   S6.5 every resource a task declares in reads()/writes() is used by its schedule.
#include "passes.hpp"

namespace ts::verify {

namespace {

bool any_task_uses(Model const& m, int r) {
  for (auto const& t : m.tasks)
    if (schedule_uses(t, r)) return true;
  return false;
}

bool any_task_lists(Model const& m, int r, bool in_writes) {
  for (auto const& t : m.tasks)
    if (contains(in_writes ? t.writes : t.reads, r)) return true;
  return false;
}

bool in_graph(Model const& m, int r) {
  for (auto const& e : m.graph)
    if (e.resource == r || contains(e.upstream, r)) return true;
  return false;
}

}  // namespace

void check_graph_usage(Model const& m, Diagnostics& out) {
  // S6.3: named resources used, edges backed by a reader and a writer.
  std::vector<int> reported;
  for (auto const& e : m.graph) {
    std::vector<int> named = e.upstream;
    named.push_back(e.resource);
    for (int r : named) {
      if (contains(reported, r) || any_task_uses(m, r)) continue;
      reported.push_back(r);
      auto d = at_resource(m, r, "S6.3.unused-graph-resource",
                           "the dependency graph names '" + m.resource(r).name + "' but no task's schedule uses it");
      d.hint = "remove it from the graph or give a task a schedule that uses it";
      out.push_back(d);
    }
    for (int up : e.upstream) {
      if (!any_task_lists(m, up, false)) {
        auto d = at_resource(m, up, "S6.3.edge-without-reader",
                             "the edge '" + m.resource(e.resource).name + "' <- '" + m.resource(up).name +
                                 "' has no task that reads '" + m.resource(up).name + "'");
        d.expected = "a task with .reads(" + m.resource(up).name + ")";
        d.actual = "none";
        out.push_back(d);
      }
    }
    if (!any_task_lists(m, e.resource, true)) {
      auto d = at_resource(m, e.resource, "S6.3.edge-without-writer",
                           "the graph makes '" + m.resource(e.resource).name +
                               "' depend on other resources, but no task writes it");
      d.expected = "a task with .writes(" + m.resource(e.resource).name + ")";
      d.actual = "none";
      out.push_back(d);
    }
  }

  for (size_t ti = 0; ti < m.tasks.size(); ++ti) {
    auto const& t = m.tasks[ti];
    int task = static_cast<int>(ti);
    // S6.4: used resources appear in the graph.
    std::vector<int> seen;
    for (auto const& s : t.schedule.steps) {
      int r = s.resource;
      if (r < 0 || contains(seen, r)) continue;
      seen.push_back(r);
      if (m.resource(r).kind != ResourceKind::Memory || in_graph(m, r)) continue;
      auto d = at_step(m, task, s.id, "S6.4.resource-not-in-graph",
                       "the schedule uses '" + m.resource(r).name + "' but the dependency graph does not name it");
      d.hint = "add an edge for it, e.g. {" + m.resource(r).name + ", {...}} or list it as an upstream";
      out.push_back(d);
    }
    // S6.5: declared resources used.
    auto declared = t.reads;
    declared.insert(declared.end(), t.writes.begin(), t.writes.end());
    std::vector<int> done;
    for (int r : declared) {
      if (contains(done, r)) continue;
      done.push_back(r);
      if (schedule_uses(t, r)) continue;
      auto d = at_task(m, task, "S6.5.declared-resource-unused",
                       "the task declares '" + m.resource(r).name + "' in " +
                           (contains(t.reads, r) ? "reads()" : "writes()") + " but its schedule never uses it",
                       r);
      d.hint = "drop it from the task's declaration or use it in the schedule";
      out.push_back(d);
    }
  }
}

}  // namespace ts::verify
