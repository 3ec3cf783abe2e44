// Pipeline groups (SPEC S10): several pipelined resources synchronised as one on one
// side, the *collapsed* side.
//   Merge      N producers -> 1 consumer: per-member full barriers, one shared empty
//              barrier; the consumer waits and releases the group once.
//   Fork       1 producer -> N consumers: one shared full barrier, per-member empty
//              barriers; the producer acquires and commits the group once.
//   FusedMerge Merge with one shared full barrier too: every producer's arrivals and
//              transaction bytes land on it; the consumer waits and releases once.
// Barriers per stage: N + 1 (Merge, Fork) or 2 (FusedMerge), instead of 2 per member.
//
//   auto ab = ts::pipeline_group("ab", ts::GroupMode::Merge, smem_a, smem_b);
// Members keep their own configs and data; declaring the group checks them (equal
// stage counts, one engine kind and one cooperative-group size on the collapsed side)
// and throws ts::ConfigError naming the group, the member and the expected value.
// Schedules call member ops on the member handles and collapsed ops on the group
// view, `ts::group(a, b).release()` (schedule/group.hpp; executing: runtime/exec_context.hpp).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "ts/core/resource.hpp"

namespace ts {

enum class GroupMode { Merge, Fork, FusedMerge };
std::string to_string(GroupMode m);

// The collapsed side of a mode: the consumer side for Merge/FusedMerge, the producer
// side for Fork.
inline bool collapses_consumer(GroupMode m) { return m != GroupMode::Fork; }
inline bool shares_full(GroupMode m) { return m != GroupMode::Merge; }
inline bool shares_empty(GroupMode m) { return m != GroupMode::Fork; }

struct GroupDecl {
  std::string name;
  GroupMode mode = GroupMode::Merge;
  std::vector<std::string> members;  // member resource names, in declaration order
  int num_stages = 0;
  int total_bytes = 0;               // summed per-stage transaction bytes of the members
};

class PipelineGroup {
 public:
  explicit PipelineGroup(std::shared_ptr<GroupDecl const> d) : decl_(std::move(d)) {}
  std::string const& name() const { return decl_->name; }
  GroupMode mode() const { return decl_->mode; }
  GroupDecl const& decl() const { return *decl_; }

 private:
  std::shared_ptr<GroupDecl const> decl_;
};

namespace detail {
// Checks the members (S6.24 / S10.2) and links them to the group; throws ConfigError.
PipelineGroup make_pipeline_group(std::string name, GroupMode mode, std::vector<ResourceRef> const& members);
}  // namespace detail

template <class... R>
PipelineGroup pipeline_group(std::string name, GroupMode mode, Resource<R> const&... members) {
  return detail::make_pipeline_group(std::move(name), mode, {ResourceRef(members)...});
}

}  // namespace ts
