// TaskManager (SPEC S1, S5): ties tasks, resources and the dependency graph together,
// records every schedule into the Model, prints it and verifies it. Backends run a
// verified manager: ts::cpu::run(tm, ...) and ts::cuda::launch(tm, ...).
#pragma once
#include <iostream>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "ts/check/explore.hpp"
#include "ts/schedule/model.hpp"
#include "ts/core/task.hpp"
#include "ts/schedule/validation.hpp"
#include "ts/runtime/launch_layout.hpp"
#include "ts/schedule/recorder.hpp"
#include "ts/schedule/registers.hpp"
#include "ts/schedule/runtime_names.hpp"
#include "ts/verify/report.hpp"

namespace ts {

class TaskManagerBase {
 public:
  Model const& model() const { return model_; }
  Options const& options() const { return model_.options; }

  // S8.1 schedule table and S8.2 register budget (silenced by verbose=false).
  void print(std::ostream& os = std::cout) const;
  // Prints (when verbose), runs every static check and, when enabled, the exhaustive
  // checker. Throws ts::VerificationError on static errors, and on an UNSAFE verdict
  // (carrying the counterexample and its JSON) while Options::throw_on_unsafe is set;
  // warning_mode reports both instead. INCOMPLETE is returned, never thrown.
  VerifyReport print_and_verify(std::ostream& os = std::cout);
  bool verified() const { return verified_; }
  VerifyReport const& last_report() const { return report_; }
  // The exhaustive checker's shortest failing run from the last print_and_verify() (set
  // only when it reported UNSAFE) and its JSON export; ts::cpu::replay_counterexample
  // replays it on the emulator (docs/emulator.md).
  std::optional<check::Counterexample> const& last_counterexample() const { return counterexample_; }
  std::string const& last_counterexample_json() const { return counterexample_json_; }
  // Stable JSON export of the captured model (docs/ir-json.md).
  std::string to_json() const;
  // The kernel's SMEM/TMEM/barrier layout, made on first use and then fixed: the
  // allocator writes each declared handle's offset exactly once (SPEC S9.1).
  LaunchLayout const& layout();

 protected:
  explicit TaskManagerBase(Options o) {
    validate_options(o);
    model_.options = o;
  }
  int register_resource(ResourceRef const& r);
  void add_graph(DependencyGraph const& g);
  // Numbers the pipeline groups of the registered resources (SPEC S10).
  void collect_groups();
  void derive_pipelines();  // the counts configs leave to the verifier (verify::derive_pipeline_fields)
  std::vector<ResourceInfoForRecording> recording_infos() const;

  Model model_;
  bool verified_ = false;
  VerifyReport report_;
  std::optional<check::Counterexample> counterexample_;
  std::string counterexample_json_;
  std::optional<LaunchLayout> layout_;
};

template <class... Tasks>
class TaskManager : public TaskManagerBase {
 public:
  TaskManager(std::tuple<Tasks...> tasks, DependencyGraph const& graph, Options options = {})
      : TaskManagerBase(options), tasks_(std::move(tasks)) {
    std::apply([&](auto const&... t) { (register_task_resources(t), ...); }, tasks_);
    validate_task_layout(model_);  // before recording: a task's thread count comes from its warps
    add_graph(graph);
    collect_groups();
    std::apply([&](auto const&... t) { (record_task(t), ...); }, tasks_);
    derive_pipelines();
    check_runtime_names(model_);
  }
  std::tuple<Tasks...> const& tasks() const { return tasks_; }

 private:
  template <class T>
  void register_task_resources(T const& t) {
    TaskModel m;
    m.name = t.decl().name;
    m.warp_start = t.decl().warp_start;
    m.num_warps = t.decl().num_warps;
    m.num_registers = t.decl().num_registers;
    using Sched = typename T::schedule_type;
    if constexpr (HasRegisterBudget<Sched>) {
      if (m.num_registers && *m.num_registers != Sched::registers) {
        Diagnostic d;
        d.check = "model.register-budget-mismatch";
        d.task = m.name;
        d.message = "the task's .registers() and its schedule's with_registers<N> disagree";
        d.expected = std::to_string(Sched::registers);
        d.actual = std::to_string(*m.num_registers);
        throw ModelError(d);
      }
      m.num_registers = Sched::registers;
    }
    std::apply([&](auto const&... r) { (m.schedule_args.push_back(register_resource(r.decl())), ...); }, t.args());
    for (auto const& r : t.decl().reads) m.reads.push_back(register_resource(r));
    for (auto const& r : t.decl().writes) m.writes.push_back(register_resource(r));
    model_.tasks.push_back(std::move(m));
  }

  template <class T>
  void record_task(T const& t) {
    size_t index = recorded_++;
    TaskModel& m = model_.tasks[index];
    ScheduleRecorder rec(type_name<typename T::schedule_type>(), m.name, recording_infos());
    rec::Context ctx(&rec, m.num_warps * 32);
    record_with_handles(t, rec, ctx, m, std::index_sequence_for<>{}, std::make_index_sequence<
        std::tuple_size_v<typename T::resource_types>>{});
    m.schedule = rec.finish();
  }
  template <class T, size_t... Is>
  void record_with_handles(T const& t, ScheduleRecorder& rec, rec::Context& ctx, TaskModel const& m,
                           std::index_sequence<>, std::index_sequence<Is...>) {
    auto handles = std::make_tuple(
        rec::Handle<typename std::tuple_element_t<Is, typename T::resource_types>>(
            &rec, m.schedule_args[Is], &std::get<Is>(t.args()).value())...);
    std::apply([&](auto&... h) { t.schedule()(ctx, h...); }, handles);
  }

  std::tuple<Tasks...> tasks_;
  size_t recorded_ = 0;
};

template <class... T>
std::tuple<T...> tasks(T const&... t) {
  return std::tuple<T...>(t...);
}

}  // namespace ts
