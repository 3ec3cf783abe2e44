// The Model: everything verification, checking and printing read, as plain data.
// TaskManager builds it (resources numbered, schedules recorded); every pass in
// src/verify, src/print, src/check takes a Model const&. Part of the schedule layer: each
// task carries its recorded schedule IR (docs/architecture.md, "Layers").
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ts/core/pipeline_group.hpp"
#include "ts/core/resource.hpp"
#include "ts/schedule/ir.hpp"

namespace ts {

struct Options {
  bool verbose = true;                    // print the report blocks (S8); errors are raised regardless
  bool warning_mode = false;              // run every check but report as warnings (S5.3)
  bool exhaustive_check = true;           // run the interleaving checker (S7)
  long long state_cap = 20'000'000;       // checker state cap (1..2e9); hitting it is INCOMPLETE, never SAFE
  bool assume_pdl_wait_completed = false; // a PDL wait was done outside TS (S12)
  int sample_iterations = 3;              // domain-loop length the printout simulates when not static (1..256)
  // Exhaustive checker (S7). Domain lengths explored for loops whose bounds are not static.
  // Empty: first try the parametric proof for every length (SAFE_ALL_K); when it does not
  // apply, check the lengths 1, 2, 3 and sample_iterations and say so in the report.
  std::vector<long long> check_lengths;   // each 1..65535
  // Persistent schedules: first one proof for every number of work tiles (>= 0) and every
  // skip pattern; where that abstraction does not apply (docs/checker.md), or when
  // check_every_tile_count is false, exactly check_tiles tiles with every skip pattern.
  bool check_every_tile_count = true;
  int check_tiles = 2;                    // work tiles of the fallback (1..16)
  bool check_reduction = true;            // partial-order reduction; false = plain BFS (to measure it)
  // UNSAFE from the exhaustive checker throws ts::VerificationError carrying the failing
  // run and its JSON; false returns it in the report's verdict instead (warning_mode also
  // returns it). INCOMPLETE never throws: it is reported as the verdict (never a pass).
  bool throw_on_unsafe = true;
};
// Ranges of these fields: include/ts/schedule/validation.hpp (checked when a TaskManager is
// built and when the checker starts; a value outside them is a ts::OptionsError).

struct TaskModel {
  std::string name;
  int warp_start = 0;
  int num_warps = 0;
  std::vector<int> reads;    // src_resources, by resource id
  std::vector<int> writes;   // dst_resources
  std::vector<int> schedule_args;  // the resources bound to the schedule's parameters, in order
  std::optional<int> num_registers;
  ir::ScheduleIR schedule;
  int warp_end() const { return warp_start + num_warps; }
};

struct GraphEdge {
  int resource = -1;
  std::vector<int> upstream;  // resources that must be produced/consumed before it
};

// A pipeline group as the passes see it (SPEC S10): members by resource id, in the
// group's declaration order; -1 marks a member no task of this manager uses.
struct GroupModel {
  std::string name;
  GroupMode mode = GroupMode::Merge;
  std::vector<int> members;
  std::vector<std::string> member_names;
  int num_stages = 0;
  int total_bytes = 0;
};

struct Model {
  std::vector<ResourceRef> resources;
  std::vector<GroupModel> groups;
  std::vector<TaskModel> tasks;
  std::vector<GraphEdge> graph;
  Options options;

  ResourceDecl const& resource(int id) const { return *resources.at(id); }
  int find_resource(std::string const& name) const;
  int total_warps() const;
  // The group a resource belongs to (index into groups), or -1.
  int group_of(int resource) const;
  // Text of a step as the user wrote it, e.g. "smem.acquire()" or "in.InputGmem::get_item()".
  std::string step_text(int task, int step) const;
};

}  // namespace ts
