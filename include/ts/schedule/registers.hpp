// A task's per-thread register budget, as a compile-time property of its schedule, so
// the kernel can issue setmaxnreg with an immediate inside that task's warp-role branch:
//   ts::Task("Math").warps(4, 8).schedule(ts::with_registers<232>(MathSchedule{}), ...)
// The TaskManager takes the count into the task's num_registers (a different explicit
// .registers(n) is an error).
#pragma once
#include "ts/core/macros.hpp"

namespace ts {

template <int N, class Sched>
struct WithRegisters : Sched {
  static_assert(N % 8 == 0 && N >= 24 && N <= 256, "with_registers<N>: N must be a multiple of 8 in [24, 256]");
  static constexpr int registers = N;
};

template <int N, class Sched>
WithRegisters<N, Sched> with_registers(Sched s) {
  return WithRegisters<N, Sched>{s};
}

template <class Sched>
concept HasRegisterBudget = requires { Sched::registers; };

}  // namespace ts
