// Expansion of one schedule into the linear sequence of steps one thread executes,
// for a concrete choice of loop length, tile count and runtime conditions. Used by the
// printout's side-by-side simulation; the checker explores all choices instead.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "ts/schedule/ir.hpp"

namespace ts {

struct ExpandedStep {
  int step = 0;             // id in ScheduleIR::steps
  ir::Section section = ir::Section::Head;
  long long iteration = -1; // domain-loop iteration count, -1 outside the loop
  long long iterations = 0; // the loop's length in this expansion
  int tile = 0;             // work-tile iteration
  std::string phase_tag() const;  // H, F, M, L, FL or T
};

struct ExpandOptions {
  long long iterations = 3;      // domain length when the bounds are not all static
  int tiles = 1;                 // work tiles to run when there is a work_tile_loop
  bool conditions = true;        // outcome of every when_true condition (when_false is the negation)
  bool skip_tiles = false;       // skip the skippable region on every tile
  bool take_break = false;       // whether a reached break_loop() fires
};

// Trip count of a domain loop when all three bounds are static, else -1.
long long static_trip_count(ir::Block const& loop);

std::vector<ExpandedStep> expand(ir::ScheduleIR const& ir, ExpandOptions const& opt);

}  // namespace ts
