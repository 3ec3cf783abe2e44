// Host-side resource objects: a named, optionally pipelined instance of a user's
// resource struct (SPEC S1, S2), created with
//   auto in   = ts::resource("in", InputGmem{src, n});
//   auto smem = ts::resource("smem", SmemRing{});  // SmemRing::pipeline, a constexpr ts::async_async({...})
//   auto smem = ts::resource("smem", SmemRing{}, cfg);  // a config built at run time (the type declares none)
// The value lives in shared storage so the allocator can write its SMEM/TMEM handle
// offsets once and every copy (tasks, kernel parameters) sees them.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "ts/core/allocation_decl.hpp"
#include "ts/core/pipeline_config.hpp"
#include "ts/core/protocol.hpp"
#include "ts/core/resource_types.hpp"

namespace ts {

struct GroupDecl;

struct ResourceDecl {
  std::string name;
  std::string type_name;
  ResourceKind kind = ResourceKind::Memory;
  // The config the passes, the checker and the layout read: `declared_pipeline` with the
  // counts it leaves to the verifier filled in (verify::derive_pipeline_fields, run by the
  // TaskManager once the schedules are recorded).
  std::optional<PipelineConfig> pipeline;
  std::optional<PipelineConfig> declared_pipeline;  // as written (the type's or the argument)
  Allocations allocations;
  // Pipeline-group membership (SPEC S10), set by ts::pipeline_group.
  std::shared_ptr<GroupDecl const> group;
  int group_member = -1;
  bool pipelined() const { return pipeline.has_value(); }
};

using ResourceRef = std::shared_ptr<ResourceDecl>;

template <class T>
concept DeclaresAllocations = requires(T& t, Allocations& a) { t.declare_allocations(a); };

template <class T>
constexpr ResourceKind resource_kind_of() {
  if constexpr (requires { T::is_work_queue; }) return ResourceKind::WorkQueue;
  else if constexpr (requires { T::is_pdl_wait; }) return ResourceKind::PdlWait;
  else if constexpr (requires { T::is_pdl_launch; }) return ResourceKind::PdlLaunch;
  else return ResourceKind::Memory;
}

template <class T>
class Resource {
 public:
  using value_type = T;
  Resource(ResourceRef decl, std::shared_ptr<T> value) : decl_(std::move(decl)), value_(std::move(value)) {}
  ResourceRef const& decl() const { return decl_; }
  std::string const& name() const { return decl_->name; }
  T& value() { return *value_; }
  T const& value() const { return *value_; }
  T* operator->() { return value_.get(); }
  T const* operator->() const { return value_.get(); }
  operator ResourceRef() const { return decl_; }  // NOLINT: resources are named in graphs and task lists

 private:
  ResourceRef decl_;
  std::shared_ptr<T> value_;
};

namespace detail {
template <class T>
Resource<T> make_resource(std::string name, T value, std::optional<PipelineConfig> pipeline) {
  static_assert(std::is_trivially_copyable_v<T>,
                "ts::resource: a resource struct is passed to the kernel by value, so it must be trivially copyable");
  auto decl = std::make_shared<ResourceDecl>();
  decl->name = std::move(name);
  decl->type_name = demangle(typeid(T).name());
  decl->kind = resource_kind_of<T>();
  decl->pipeline = pipeline;
  decl->declared_pipeline = std::move(pipeline);
  auto v = std::make_shared<T>(std::move(value));
  if constexpr (DeclaresAllocations<T>) v->declare_allocations(decl->allocations);
  return Resource<T>(std::move(decl), std::move(v));
}
}  // namespace detail

// A resource whose type declares its pipeline (`static constexpr auto pipeline = ...`)
// takes that one; otherwise it is unpipelined.
template <class T>
Resource<T> resource(std::string name, T value) {
  if constexpr (DeclaresPipeline<T>) return detail::make_resource(std::move(name), std::move(value), T::pipeline);
  else return detail::make_resource(std::move(name), std::move(value), std::nullopt);
}
// A config built at run time, for a type that declares none (its handle then picks the
// protocol at run time). A type that declares its pipeline is its one source.
template <class T>
  requires(!DeclaresPipeline<T>)
Resource<T> resource(std::string name, T value, std::optional<PipelineConfig> pipeline) {
  static_assert(resource_kind_of<T>() != ResourceKind::WorkQueue,
                "ts::resource: a dynamic work queue declares its ClcFetchAsync pipeline in its type "
                "(static constexpr auto pipeline = ts::clc_fetch_async({...})); a queue type without one is static");
  return detail::make_resource(std::move(name), std::move(value), std::move(pipeline));
}

}  // namespace ts
