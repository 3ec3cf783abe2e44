// Loop edges an executing thread reports to a backend that numbers its steps by the
// recorded IR (the CPU emulator: its reports, traces and replays). Matching each executed
// step to the next step of the same kind in program order cannot tell a guarded step
// inside a loop from a step of the same kind after the loop once the guard skipped the
// first (the GEMM's lagged release with a loop of one iteration); knowing where each
// iteration starts and where the loop ends settles it. The GPU arch has no such hook, so
// the calls compile away there.
#pragma once

namespace ts::exec {

enum class LoopKind { Domain, WorkTile };  // the schedule's domain_loop or work_tile_loop
enum class LoopEdge { Iteration, Exit };   // an iteration starts; the loop is left

template <class A>
concept HasLoopHooks = requires(A& a) { a.on_loop(0, LoopKind::Domain, LoopEdge::Exit); };

}  // namespace ts::exec
