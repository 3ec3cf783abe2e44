// The position of one (task, resource) pair in a pipeline: CUTLASS's PipelineState (a
// stage index with its phase bit) four times, one per op that moves along the ring.
#pragma once
#include <cstdint>

#include "ts/core/macros.hpp"
#include "ts/core/stage_info.hpp"

namespace ts {

// A stage index with its phase bit: advancing past the last stage wraps the index and
// flips the phase.
struct PipelineState {
  int index = 0;
  uint32_t phase = 0;
  // A stride divides num_stages (S3.3), so one wrap is enough: a branch, not a loop, in
  // the hot path of every pipeline operation.
  TS_HD void advance(int num_stages, int by = 1) {
    index += by;
    if (index >= num_stages) {
      index -= num_stages;
      phase ^= 1u;
    }
  }
};

namespace exec {

// Opening and closing ops keep separate states, so split bracketing
// (`acquire; acquire; commit; commit`) and the interleave strides work. The stage the
// last opening op took is what the work calls of that side see (StageInfo::stage_idx).
struct ResourceState {
  PipelineState prod_open, prod_close, cons_open, cons_close;
  int prod_stage = kNoStage, cons_stage = kNoStage, active_stage = kNoStage;
  bool try_acquire_ready = false, try_wait_ready = false;
};

}  // namespace exec
}  // namespace ts
