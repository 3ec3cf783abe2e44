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

void reduction_agrees_with_plain_bfs(Program const& p, std::string const& tag, bool every_kind) {
  auto m = model_of(p);
  auto bfs = check(m, false);
  auto por = check(m, true);
  RC_TAG(verdict_name(bfs.verdict), bfs.kind, tag);
  RC_PRE(bfs.verdict != ts::Verdict::Incomplete && por.verdict != ts::Verdict::Incomplete);
  RC_LOG() << "plain BFS:\n" << bfs.report << "\nreduced:\n" << por.report << "\n";
  RC_ASSERT(verdict_name(por.verdict) == verdict_name(bfs.verdict));
  auto stopped = [](Verdict const& v) {
    return v.report.find("the parametric search stopped there") != std::string::npos ||
           v.report.find("the every-tile-count search stopped there") != std::string::npos ||
           v.report.find("WARNING: too many outstanding shared-condition outcomes") != std::string::npos;
  };
  if (every_kind && !stopped(por) && !stopped(bfs)) RC_ASSERT(por.kinds_reached == bfs.kinds_reached);
  RC_ASSERT(bfs.kind.empty() == por.kind.empty());
}

}  // namespace prop
