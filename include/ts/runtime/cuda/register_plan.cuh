// Register reallocation per warp group (setmaxnreg, sm_90a).
//
// Why a compile-time plan: setmaxnreg.{inc,dec}.sync.aligned.u32 takes its count as an
// immediate, and it only takes effect when the kernel has a register cap at entry
// (__launch_bounds__(threads, 1)), so both the thread count and every warp group's
// budget must be template values. The tasks' num_registers stay the single source of
// truth: ts::cuda::launch compares the plan with them and refuses a mismatch, naming
// the plan to write (e.g. "ts::cuda::RegisterPlan<256, 40, 232>").
//
//   ts::cuda::launch<ts::cuda::RegisterPlan<256, 40, 232>>(tm, grid, stream);
//
// An entry of 0 leaves that warp group at the entry budget.
#pragma once
#include <cstdint>
#include <utility>

#include "ts/arch/cuda_registers.cuh"  // entry_registers, set_max_registers

namespace ts::cuda {

struct NoRegisterPlan {
  static constexpr int threads = 0;
  static constexpr int warp_groups = 0;
  static constexpr bool active = false;
  static constexpr bool per_task = false;
  static constexpr int budget(int) { return 0; }
};

// Budgets taken from the tasks' schedules (ts::with_registers<N>), applied inside each
// task's own branch of the dispatch, so ptxas sees only that task's code after the
// setmaxnreg. Use it when the roles' register needs differ widely (a 40-register TMA
// producer beside 232-register MMA warp groups): a per-warp-group plan runs the whole
// dispatch after the setmaxnreg and cannot fit it in 40 registers.
template <int Threads>
struct TaskRegisterBudgets {
  static constexpr int threads = Threads;
  static constexpr int warp_groups = Threads / 128;
  static constexpr bool active = true;
  static constexpr bool per_task = true;
  static constexpr int entry = entry_registers(Threads);
};

template <int Threads, int... Regs>
struct RegisterPlan {
  static constexpr int threads = Threads;
  static constexpr int warp_groups = sizeof...(Regs);
  static constexpr bool active = true;
  static constexpr bool per_task = false;
  static constexpr int entry = entry_registers(Threads);
  static constexpr int regs[sizeof...(Regs)] = {Regs...};
  static constexpr int budget(int wg) { return regs[wg] == 0 ? entry : regs[wg]; }

  static_assert(Threads % 128 == 0 && Threads / 128 == int(sizeof...(Regs)),
                "RegisterPlan<Threads, R...>: give one budget per warp group (Threads / 128 values)");
  static_assert(((Regs == 0 || (Regs >= 24 && Regs <= 256 && Regs % 8 == 0)) && ...),
                "RegisterPlan: each budget is 0 (keep) or 24..256 in steps of 8 (setmaxnreg's range)");
  // setmaxnreg.inc takes only registers a dec gave back to the CTA, which holds entry x
  // Threads from launch (not the 64 Ki file): above that an inc waits forever.
  static_assert(((Regs == 0 ? entry : Regs) + ... + 0) * 128 <= entry * Threads,
                "RegisterPlan: the warp groups' budgets exceed what the CTA holds at launch (entry x threads)");
};

#if defined(__CUDACC__)
// Runs f() in every thread after its warp group took its budget. Each warp group's
// role is one branch of one if/else chain, which is what ptxas needs to honour
// setmaxnreg (otherwise it warns C7508 and ignores it).
template <class Plan, class F>
__device__ __forceinline__ void with_warp_group_registers(F&& f) {
  if constexpr (!Plan::active || Plan::per_task) {
    f();
  } else {
    int const wg = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x) / 128, 0);  // warp-uniform
    [&]<int... I>(std::integer_sequence<int, I...>) {
      (void)((wg == I ? (set_max_registers<Plan::regs[I], Plan::entry>(), f(), true) : false) || ...);
    }(std::make_integer_sequence<int, Plan::warp_groups>{});
  }
}
#endif

}  // namespace ts::cuda
