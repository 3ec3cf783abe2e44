// S6.24 Pipeline-group consistency in the schedules (SPEC S10.3). The members' configs
// were checked when the group was declared (src/core/pipeline_group.cpp); here:
//  - every member is used by this manager (the group's shared barriers need them all);
//  - an op on the collapsed side goes through the group view, never one member
//    (a lone a.release() of a Merge would arrive on the shared empty barrier for a
//    and b alike);
//  - the group view is used for the collapsed side only (the other side's barriers are
//    per member, so a group op there would signal each member's barrier on behalf of
//    a task that only produced or consumed one of them).
#include "passes.hpp"

namespace ts::verify {

namespace {

bool on_collapsed_side(GroupMode mode, SyncOp k) {
  return collapses_consumer(mode) ? ir::is_consumer_sync(k) : ir::is_producer_sync(k);
}

std::string side(GroupMode mode, bool collapsed) {
  bool consumer = collapses_consumer(mode) == collapsed;
  return consumer ? "consumer" : "producer";
}

std::string view_text(GroupModel const& g) {
  std::string s;
  for (auto const& n : g.member_names) s += (s.empty() ? "" : ", ") + n;
  return "ts::group(" + s + ")";
}

}  // namespace

void check_pipeline_groups(Model const& m, Diagnostics& out) {
  for (auto const& g : m.groups)
    for (size_t i = 0; i < g.members.size(); ++i) {
      if (g.members[i] >= 0) continue;
      Diagnostic d;
      d.check = "S6.24.member-unused";
      d.resource = g.member_names[i];
      d.message = "member '" + g.member_names[i] + "' of " + to_string(g.mode) + " group '" + g.name +
                  "' is used by no task of this manager; the group's shared barriers need every member";
      d.expected = "tasks using all of " + view_text(g);
      d.actual = "'" + g.member_names[i] + "' unused";
      out.push_back(d);
    }
  for (size_t ti = 0; ti < m.tasks.size(); ++ti)
    for (auto const& s : m.tasks[ti].schedule.steps) {
      if (!ir::is_sync(s.kind) || s.resource < 0) continue;
      int gi = m.group_of(s.resource);
      if (gi < 0) continue;
      auto const& g = m.groups[gi];
      bool collapsed = on_collapsed_side(g.mode, s.kind);
      int task = static_cast<int>(ti);
      if (collapsed && s.group < 0) {
        auto d = at_step(m, task, s.id, "S6.24.member-op-on-collapsed-side",
                         "'" + m.resource(s.resource).name + "' is a member of " + to_string(g.mode) + " group '" +
                             g.name + "', whose " + side(g.mode, true) + " side is collapsed: " +
                             ir::to_string(s.kind) + " goes through the group once");
        d.expected = view_text(g) + "." + ir::to_string(s.kind) + "()";
        d.actual = m.resource(s.resource).name + "." + ir::to_string(s.kind) + "()";
        out.push_back(d);
      } else if (!collapsed && s.group >= 0 && s.group_lead) {
        auto d = at_step(m, task, s.id, "S6.24.group-op-on-member-side",
                         "the " + side(g.mode, false) + " side of " + to_string(g.mode) + " group '" + g.name +
                             "' keeps per-member barriers: " + ir::to_string(s.kind) + " is a member op");
        d.expected = "<member>." + ir::to_string(s.kind) + "() on each member's own task";
        d.actual = view_text(g) + "." + ir::to_string(s.kind) + "()";
        out.push_back(d);
      }
    }
}

}  // namespace ts::verify
