// The named barriers (bar.sync ids) of a TS kernel. The SM has 64 of them for all its
// resident CTAs, and a kernel holds as many per CTA as its highest id + 1, so the ids in
// use are kept low: with the task barriers at 8 .. 15, a two-warp copy CTA held 10 and
// the H200 kept 6 of them per SM instead of 32 (bench/RESULTS.md, stop 22).
#pragma once

namespace ts {

inline constexpr int kCtaBarrier = 0;        // __syncthreads
inline constexpr int kTaskBarrierBase = 1;   // task t converges at kTaskBarrierBase + t
inline constexpr int kTaskBarriers = 8;      // tasks 0 .. 7 have one (exec::Context::converge)
inline constexpr int kFirstBodyBarrier = kTaskBarrierBase + kTaskBarriers;  // 9 .. 15: work bodies

}  // namespace ts
