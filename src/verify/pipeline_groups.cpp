// S6.24 Pipeline-group consistency (SPEC S10). PENDING: pipeline groups do not exist in
// the model yet, so no resource is a group. Until they land this pass only rejects IR
// that refers to a group member (Step::member >= 0) on a resource, since no resource can
// have members; the real consistency rules (homogeneous collapsed side, equal
// num_stages, matching group sizes, member ops on the collapsed side) arrive with S10.
#include "passes.hpp"

namespace ts::verify {

void check_pipeline_groups(Model const& m, Diagnostics& out) {
  for (size_t ti = 0; ti < m.tasks.size(); ++ti)
    for (auto const& s : m.tasks[ti].schedule.steps) {
      if (s.member < 0) continue;
      auto d = at_step(m, static_cast<int>(ti), s.id, "S6.24.member-of-non-group",
                       "the step addresses member " + std::to_string(s.member) +
                           " of a pipeline group, but the resource is not a group");
      d.expected = "member -1";
      d.actual = std::to_string(s.member);
      out.push_back(d);
    }
}

}  // namespace ts::verify
