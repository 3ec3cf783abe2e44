// S6.3-S6.5 Dependency graph and resource usage.
//   S6.3 the graph is realizable: every resource it names is used by some schedule, and
//        every edge `down <- up` has a task reading `up` and a task writing `down`, and
//        (edge-without-task) one task doing both: the edge claims `down` is produced from
//        `up`, which only a task that reads `up` and writes `down` does. Without that,
//        naming the wrong upstream ({out, {in}} for in -> P -> buf -> C -> out) passed.
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

std::vector<int> tasks_listing(Model const& m, int r, bool in_writes) {
  std::vector<int> out;
  for (size_t t = 0; t < m.tasks.size(); ++t)
    if (contains(in_writes ? m.tasks[t].writes : m.tasks[t].reads, r)) out.push_back(static_cast<int>(t));
  return out;
}

// The edge `down <- up` as some task realizes it: it reads up and writes down.
bool some_task_derives(Model const& m, int down, int up) {
  for (auto const& t : m.tasks)
    if (contains(t.reads, up) && contains(t.writes, down)) return true;
  return false;
}

// What the tasks writing `down` read: the upstream the edge should name.
std::string upstream_suggestion(Model const& m, int down) {
  std::vector<int> read;
  for (int t : tasks_listing(m, down, true))
    for (int r : m.tasks[t].reads)
      if (r != down && !contains(read, r)) read.push_back(r);
  std::string s;
  for (int r : read) s += (s.empty() ? "" : ", ") + m.resource(r).name;
  return s;
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
    // Self-edges are ping-pong resources (S6.19); a missing reader/writer is reported above.
    for (int up : e.upstream) {
      if (up == e.resource || !any_task_lists(m, up, false) || !any_task_lists(m, e.resource, true)) continue;
      if (some_task_derives(m, e.resource, up)) continue;
      auto const& down_name = m.resource(e.resource).name;
      auto const& up_name = m.resource(up).name;
      auto d = at_resource(m, e.resource, "S6.3.edge-without-task",
                           "the edge '" + down_name + "' <- '" + up_name + "' says '" + down_name +
                               "' is produced from '" + up_name + "', but no task both reads '" + up_name +
                               "' and writes '" + down_name + "' (reading '" + up_name + "': " +
                               join_task_names(m, tasks_listing(m, up, false)) + "; writing '" + down_name +
                               "': " + join_task_names(m, tasks_listing(m, e.resource, true)) + ")");
      d.task = join_task_names(m, tasks_listing(m, e.resource, true));
      d.expected = "a task with .reads(" + up_name + ").writes(" + down_name + ")";
      d.actual = "none";
      std::string suggestion = upstream_suggestion(m, e.resource);
      d.hint = suggestion.empty() ? "name as upstream what the tasks writing '" + down_name + "' read"
                                  : "name what the tasks writing '" + down_name + "' read: {" + down_name + ", {" +
                                        suggestion + "}}";
      out.push_back(d);
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
