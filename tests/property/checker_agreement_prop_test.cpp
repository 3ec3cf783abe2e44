// Property (a): the checker's modes agree. Plain BFS and partial-order reduction give
// the same verdict and failure kind; the parametric proof agrees with concrete lengths
// (SAFE for all k implies SAFE at each k; UNSAFE at some k implies UNSAFE, and the
// shortest failing length's kind is the one reported).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "checker_runs.hpp"
#include "generators.hpp"
#include "known_bugs.hpp"
#include "mode_properties.hpp"

namespace {
using namespace prop;

RC_GTEST_PROP(CheckerAgreement, ReductionAgreesWithPlainBfs, (Recipe const& recipe)) {
  reduction_agrees_with_plain_bfs(build_program(recipe, kAvoidKnownBugs), "", true);
}

RC_GTEST_PROP(CheckerAgreement, ParametricAgreesWithConcreteLengths, (Recipe recipe)) {
  recipe.loop = LoopKind::RuntimeDomain;  // lengths matter only for runtime-length loops
  auto p = build_program(recipe, kAvoidKnownBugs);
  auto m = model_of(p);
  auto param = check(m, false);
  RC_TAG(verdict_name(param.verdict), param.kind);
  RC_PRE(param.verdict != ts::Verdict::Incomplete);
  std::string shortest_kind;
  for (long long k : {0, 1, 2, 3}) {  // the generated loops declare no minimum: k = 0 is a length
    auto c = check(m, false, {k});
    RC_PRE(c.verdict != ts::Verdict::Incomplete);
    if (param.safe()) {
      RC_LOG() << "length " << k << ": " << c.report;
      RC_ASSERT(c.safe());
    }
    if (c.unsafe() && shortest_kind.empty()) {
      shortest_kind = c.kind;
      RC_LOG() << "length " << k << " fails:\n" << c.report << "\nparametric:\n" << param.report;
      RC_ASSERT(param.unsafe());
      // With tasks of different length classes the default run explores per-class length
      // combinations (k_a, k_b) and reports the first failing one, while check_lengths={k}
      // runs only (k, k): both must fail, not necessarily the same way.
      if (p.late_start_task < 0) RC_ASSERT(param.kind == shortest_kind);
    }
  }
}

}  // namespace
