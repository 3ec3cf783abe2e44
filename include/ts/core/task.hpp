// Tasks (SPEC S1, S5.1): a contiguous warp range bound to one schedule, the resources
// it reads and writes, and an optional per-thread register budget.
//   auto t = ts::Task("CopyTask").warps(0, 8).reads(in).writes(out).schedule(CopySchedule{}, in, out);
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "ts/core/resource.hpp"

namespace ts {

struct TaskDecl {
  std::string name;
  int warp_start = 0;
  int num_warps = 0;
  std::vector<ResourceRef> reads;
  std::vector<ResourceRef> writes;
  std::optional<int> num_registers;
};

template <class Sched, class... R>
class ScheduledTask {
 public:
  using schedule_type = Sched;
  using resource_types = std::tuple<R...>;
  ScheduledTask(TaskDecl d, Sched s, std::tuple<Resource<R>...> args)
      : decl_(std::move(d)), sched_(std::move(s)), args_(std::move(args)) {}
  TaskDecl const& decl() const { return decl_; }
  Sched const& schedule() const { return sched_; }
  std::tuple<Resource<R>...> const& args() const { return args_; }

 private:
  TaskDecl decl_;
  Sched sched_;
  std::tuple<Resource<R>...> args_;
};

class Task {
 public:
  explicit Task(std::string name) { decl_.name = std::move(name); }
  Task& warps(int warp_start, int num_warps) {
    decl_.warp_start = warp_start;
    decl_.num_warps = num_warps;
    return *this;
  }
  template <class... Rs>
  Task& reads(Rs const&... rs) {
    (decl_.reads.push_back(ResourceRef(rs)), ...);
    return *this;
  }
  template <class... Rs>
  Task& writes(Rs const&... rs) {
    (decl_.writes.push_back(ResourceRef(rs)), ...);
    return *this;
  }
  Task& registers(int per_thread) {
    decl_.num_registers = per_thread;
    return *this;
  }
  // Binds the schedule functor and the resources passed to its parameters, in order.
  template <class Sched, class... R>
  ScheduledTask<Sched, R...> schedule(Sched s, Resource<R> const&... args) const {
    return ScheduledTask<Sched, R...>(decl_, std::move(s), std::tuple<Resource<R>...>(args...));
  }

 private:
  TaskDecl decl_;
};

// Dependency graph (SPEC S1): for each resource, the resources that must be produced
// or consumed before it. {{out, {in}}} reads "out depends on in".
struct DependencyGraph {
  struct Edge {
    ResourceRef resource;
    std::vector<ResourceRef> upstream;
  };
  std::vector<Edge> edges;
  DependencyGraph() = default;
  DependencyGraph(std::initializer_list<Edge> e) : edges(e) {}
};

}  // namespace ts
