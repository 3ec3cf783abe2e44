// Declaring a pipeline group (SPEC S10.2, S6.24): the members' configs must agree where
// the group makes them share barriers, and a resource joins at most one group.
#include "ts/core/pipeline_group.hpp"

#include "ts/core/errors.hpp"

namespace ts {

std::string to_string(GroupMode m) {
  switch (m) {
    case GroupMode::Merge: return "Merge";
    case GroupMode::Fork: return "Fork";
    case GroupMode::FusedMerge: return "FusedMerge";
  }
  return "?";
}

namespace detail {

namespace {

[[noreturn]] void group_error(std::string check, std::string const& group, std::string resource, std::string msg,
                              std::string expected, std::string actual, std::string hint = {}) {
  Diagnostic d;
  d.check = std::move(check);
  d.resource = std::move(resource);
  d.message = "pipeline group '" + group + "': " + msg;
  d.expected = std::move(expected);
  d.actual = std::move(actual);
  d.hint = std::move(hint);
  throw ConfigError(d);
}

std::string side_name(GroupMode m) { return collapses_consumer(m) ? "consumer" : "producer"; }

std::string group_text(CooperativeGroup const& g) {
  return std::to_string(g.size) + (g.agent == Agent::Warp ? " warp(s)" : " thread(s)");
}

}  // namespace

PipelineGroup make_pipeline_group(std::string name, GroupMode mode, std::vector<ResourceRef> const& members) {
  if (members.size() < 2)
    group_error("S6.24.group-size", name, "", "a group joins at least two pipelined resources", ">= 2 members",
                std::to_string(members.size()) + " member(s)");
  auto g = std::make_shared<GroupDecl>();
  g->name = name;
  g->mode = mode;
  bool consumer_side = collapses_consumer(mode);
  ResourceDecl const& first = *members.front();
  for (size_t i = 0; i < members.size(); ++i) {
    ResourceDecl const& r = *members[i];
    for (size_t j = 0; j < i; ++j)
      if (members[j] == members[i])
        group_error("S6.24.member-twice", name, r.name, "'" + r.name + "' is listed twice", "distinct members",
                    "'" + r.name + "' at positions " + std::to_string(j) + " and " + std::to_string(i));
    if (!r.pipelined())
      group_error("S6.24.member-not-pipelined", name, r.name, "member '" + r.name + "' has no pipeline",
                  "a PipelineConfig on every member", "no pipeline");
    if (r.group)
      group_error("S6.24.member-in-two-groups", name, r.name,
                  "'" + r.name + "' already belongs to pipeline group '" + r.group->name + "'", "one group per resource",
                  "groups '" + r.group->name + "' and '" + name + "'");
    auto const& c = *r.pipeline;
    auto const& c0 = *first.pipeline;
    if (c.num_stages != c0.num_stages)
      group_error("S6.24.stages-differ", name, r.name,
                  "every member needs the same num_stages (the group's stages share barriers)",
                  std::to_string(c0.num_stages) + " (as '" + first.name + "')", std::to_string(c.num_stages));
    if (c.interleave_stride.is_interleaved())
      group_error("S6.24.interleaved-member", name, r.name,
                  "member '" + r.name + "' is interleaved; a group's shared barriers are not split into lanes",
                  "interleave_stride 1", "interleaved strides");
    auto engine = consumer_side ? c.consumer_engine() : c.producer_engine();
    auto engine0 = consumer_side ? c0.consumer_engine() : c0.producer_engine();
    if (engine != engine0)
      group_error("S6.24.collapsed-kind", name, r.name,
                  "the collapsed (" + side_name(mode) + ") side of a " + to_string(mode) +
                      " group must be one engine kind: one barrier op serves every member",
                  to_string(engine0) + " (as '" + first.name + "')", to_string(engine) + " (" + to_string(c.type) + ")");
    auto const& cg = consumer_side ? c.consumer_group : c.producer_group;
    auto const& cg0 = consumer_side ? c0.consumer_group : c0.producer_group;
    auto sig = consumer_side ? c.consumer_signal : c.producer_signal;
    auto sig0 = consumer_side ? c0.consumer_signal : c0.producer_signal;
    if (!(cg == cg0) || sig != sig0)
      group_error("S6.24.collapsed-group-size", name, r.name,
                  "the collapsed (" + side_name(mode) + ") side's cooperative group and signalling must match "
                  "across members: the shared barrier counts one set of arrivals",
                  group_text(cg0) + ", " + to_string(sig0) + " (as '" + first.name + "')",
                  group_text(cg) + ", " + to_string(sig));
    g->members.push_back(r.name);
    g->total_bytes += c.num_bytes;
  }
  g->num_stages = first.pipeline->num_stages;
  for (size_t i = 0; i < members.size(); ++i) {
    members[i]->group = g;
    members[i]->group_member = static_cast<int>(i);
  }
  return PipelineGroup(g);
}

}  // namespace detail
}  // namespace ts
