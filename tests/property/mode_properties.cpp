#include "mode_properties.hpp"

#include <rapidcheck.h>

#include "checker_runs.hpp"

namespace prop {

void parametric_agrees_with_concrete_lengths(Program const& p, std::vector<long long> const& lengths) {
  auto m = model_of(p);
  auto param = check(m, false);
  RC_TAG(verdict_name(param.verdict), param.kind);
  RC_PRE(param.verdict != ts::Verdict::Incomplete);
  bool any_unsafe = false;
  for (long long k : lengths) {
    auto c = check(m, false, {k});
    RC_PRE(c.verdict != ts::Verdict::Incomplete);
    if (param.safe()) RC_ASSERT(c.safe());
    if (c.unsafe() && !any_unsafe) {
      any_unsafe = true;
      RC_ASSERT(param.unsafe());
      if (p.late_start_task < 0) RC_ASSERT(param.kind == c.kind);
    }
  }
}

}  // namespace prop
