#include "ts/task_manager.hpp"

#include "ts/print/printout.hpp"
#include "ts/check/checker.hpp"
#include "ts/verify/arrival_model.hpp"
#include "ts/verify/static_checks.hpp"
#include "unsafe_verdict.hpp"

namespace ts {

int TaskManagerBase::register_resource(ResourceRef const& r) {
  for (size_t i = 0; i < model_.resources.size(); ++i) {
    if (model_.resources[i] == r) return static_cast<int>(i);
    if (model_.resources[i]->name == r->name) {
      Diagnostic d;
      d.check = "model.duplicate-resource-name";
      d.resource = r->name;
      d.message = "two different resources are both named '" + r->name + "'; names identify resources in every report";
      throw ModelError(d);
    }
  }
  model_.resources.push_back(r);
  return static_cast<int>(model_.resources.size() - 1);
}

void TaskManagerBase::add_graph(DependencyGraph const& g) {
  for (auto const& e : g.edges) {
    GraphEdge ge;
    ge.resource = register_resource(e.resource);
    for (auto const& u : e.upstream) ge.upstream.push_back(register_resource(u));
    model_.graph.push_back(std::move(ge));
  }
}

void TaskManagerBase::collect_groups() {
  for (auto const& r : model_.resources) {
    if (!r->group) continue;
    bool known = false;
    for (auto const& g : model_.groups) known |= g.name == r->group->name;
    if (known) continue;
    GroupModel g;
    g.name = r->group->name;
    g.mode = r->group->mode;
    g.num_stages = r->group->num_stages;
    g.total_bytes = r->group->total_bytes;
    g.member_names = r->group->members;
    for (auto const& name : g.member_names) g.members.push_back(model_.find_resource(name));
    model_.groups.push_back(std::move(g));
  }
}

void TaskManagerBase::derive_pipelines() { verify::derive_pipeline_fields(model_); }

std::vector<ResourceInfoForRecording> TaskManagerBase::recording_infos() const {
  std::vector<ResourceInfoForRecording> v;
  for (size_t i = 0; i < model_.resources.size(); ++i) {
    auto const& r = model_.resources[i];
    ResourceInfoForRecording info{r->name, r->pipelined(), r->kind == ResourceKind::WorkQueue};
    info.group = model_.group_of(static_cast<int>(i));
    info.group_member = r->group_member;
    if (info.group >= 0) info.group_model = &model_.groups[info.group];
    v.push_back(std::move(info));
  }
  return v;
}

void TaskManagerBase::print(std::ostream& os) const {
  print::schedule_table(model_, os);
  print::register_budget(model_, os);
  // The layout the kernel gets (computed without placing anything when not yet made).
  print::memory_report(model_, layout_ ? *layout_ : make_launch_layout(model_, kSm90SmemCapacity, true), os);
}

VerifyReport TaskManagerBase::print_and_verify(std::ostream& os) {
  VerifyReport rep;
  if (model_.options.verbose) print(os);
  counterexample_.reset();
  counterexample_json_.clear();
  rep.diagnostics = verify::run_static_checks(model_);
  bool errors = false;
  for (auto& d : rep.diagnostics) {
    if (model_.options.warning_mode) d.severity = Severity::Warning;
    if (d.severity == Severity::Error) errors = true;
  }
  std::optional<VerificationError> unsafe;
  if (!errors && model_.options.exhaustive_check) {
    auto r = check::run_exhaustive(model_);
    if (r.verdict == Verdict::Unsafe && model_.options.throw_on_unsafe && !model_.options.warning_mode)
      unsafe = unsafe_verdict_error(model_, r);
    rep.verdict = r.verdict;
    rep.checker_text = r.report;
    if (r.verdict == Verdict::Unsafe) {
      counterexample_ = std::move(r.failure);
      counterexample_json_ = std::move(r.failure_json);
    }
    if (model_.options.verbose && !r.report.empty()) os << r.report;
  }
  for (auto const& d : rep.diagnostics)
    if (d.severity == Severity::Warning) os << d.format() << "\n";
  report_ = rep;
  if (errors) throw VerificationError(rep.diagnostics);
  verified_ = rep.verdict != Verdict::Unsafe || model_.options.warning_mode;
  // Thrown after report_ and the counterexample are kept: a caller that catches it can
  // still read last_report() / last_counterexample().
  if (unsafe) throw *unsafe;
  return rep;
}

LaunchLayout const& TaskManagerBase::layout() {
  if (!layout_) layout_ = make_launch_layout(model_);
  return *layout_;
}

std::string TaskManagerBase::to_json() const { return print::model_json(model_); }

}  // namespace ts
