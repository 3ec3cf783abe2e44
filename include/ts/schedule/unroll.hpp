// Unroll hint for domain_loop (SPEC S4.2): ts::unroll<4>, or ts::unroll_compiler_choice.
#pragma once

namespace ts {
template <int N>
struct Unroll {
  static_assert(N >= 0, "ts::unroll<N>: N must be >= 1, or use ts::unroll_compiler_choice");
  static constexpr int factor = N;  // 0: compiler's choice
};
template <int N>
inline constexpr Unroll<N> unroll{};
inline constexpr Unroll<0> unroll_compiler_choice{};
}  // namespace ts
