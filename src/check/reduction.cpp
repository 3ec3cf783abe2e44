// Partial-order reduction: which tasks to expand from a state (see reduction.hpp).
#include "reduction.hpp"

namespace ts::check {

// Persistent set: a bit mask of tasks to expand. In this model two different tasks'
// invisible steps are independent unless both are acquires of one pipe: commit and
// wait only add to counters the other side reads, wait moves a stage from full to
// held (the producer's view is unchanged), release only ever enables. So one task's
// enabled invisible step is a persistent set on its own, except an acquire on a pipe
// with several producer tasks, which brings those producers along. Visible steps
// (Semantics::visible: aliased work, a step closing an open access window, credit ops on
// aliased or split pipes, PDL, steps that would raise a failure flag) are never in a
// reduced set. docs/checker.md, "Soundness", gives the whole argument.
//
// Cycle proviso (parametric runs; concrete runs are acyclic): the abstract state can
// only repeat after every task inside a parametric loop has advanced (the slowest
// one moves the loop's origin), and nothing else can cycle. Tasks outside those
// loops are preferred, and one of them with a visible enabled step forces a full
// expansion, so on a reduced cycle every enabled task is a looping task that takes
// its pending step within the cycle: no step is ignored forever.
uint64_t persistent_set(Semantics const& sem, ProgramSet const& ps, bool parametric, uint16_t const* s,
                        uint64_t enabled) {
  int nt = static_cast<int>(ps.tasks.size());
  uint64_t best = enabled;
  int best_n = __builtin_popcountll(enabled);
  for (int pass = parametric ? 0 : 1; pass < 2; ++pass) {
    for (int t = 0; t < nt && best_n > 1; ++t) {
      if (!(enabled >> t & 1)) continue;
      if (parametric && sem.in_param_loop(s, t) == (pass == 0)) continue;
      if (sem.visible(s, t)) {
        if (pass == 0) return enabled;
        continue;
      }
      Effect e = sem.next_effect(s, t);
      if (e != Effect::Acquire) return uint64_t(1) << t;
      uint64_t set = ps.pipes[sem.next_pipe(s, t)].acquirers;
      bool ok = true;
      for (int u = 0; u < nt; ++u)
        if ((set & enabled) >> u & 1) ok &= !sem.visible(s, u);
      int n = __builtin_popcountll(set & enabled);
      if (ok && n < best_n) {
        best = set & enabled;
        best_n = n;
      }
    }
    if (best != enabled) return best;
  }
  return best;
}

}  // namespace ts::check
