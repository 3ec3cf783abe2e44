// Warp-lane interleaving on the executing side (SPEC S3.3, S6.12; schedule/lane_mode.hpp):
// on a side whose ops run in warp-lane mode with stride s, warp w of the task is lane w:
// its opening and closing counters start at stage w and each op moves them s stages
// (PipelineState::advance by the stride), so warp w handles stages w, w + s, w + 2s, ...
// and one task op is s stage ops, one per warp, as the checker counts it.
#pragma once
#include "ts/core/macros.hpp"
#include "ts/runtime/pipeline/params.hpp"
#include "ts/runtime/pipeline/state.hpp"
#include "ts/runtime/pipeline_runtime.hpp"

namespace ts::exec {

// Called once per thread, before the task's first op (the handle's constructor). A warp
// past the stride is no lane (S6.12.warp-lane-warps rejects such tasks; the checker and
// the verifier never let one run): its counters stay where they are. T: the resource
// type; a static stride-1 side compiles to nothing (params.hpp, may_have_lanes).
template <class T>
TS_HD void start_warp_lanes(ResourceState& st, PipelineRuntime const& rt, int warp_in_task) {
  if (!rt.pipelined) return;
  if (may_have_lanes<T>(true) && rt.producer_warp_lanes && warp_in_task < rt.stride_acquire) {
    st.prod_open.advance(rt.num_stages, warp_in_task);
    st.prod_close.advance(rt.num_stages, warp_in_task);
  }
  if (may_have_lanes<T>(false) && rt.consumer_warp_lanes && warp_in_task < rt.stride_wait) {
    st.cons_open.advance(rt.num_stages, warp_in_task);
    st.cons_close.advance(rt.num_stages, warp_in_task);
  }
}

}  // namespace ts::exec
