// S6.2 Resource roles: a task may only do consumer-side ops (try_wait / wait / release,
// consumer work, the queue's get_and_advance_work_tile) on resources it declares in
// reads(), and producer-side ops (try_acquire / acquire / commit, producer work,
// fetch_work_tile) on resources it declares in writes(). Auxiliary work is exempt: it
// touches descriptors and per-tile state, not the data the roles protect.
#include "passes.hpp"

namespace ts::verify {

void check_resource_roles(Model const& m, Diagnostics& out) {
  for (size_t ti = 0; ti < m.tasks.size(); ++ti) {
    auto const& t = m.tasks[ti];
    for (auto const& s : t.schedule.steps) {
      if (s.resource < 0) continue;
      std::string const& rname = m.resource(s.resource).name;
      if (is_consumer_op(s) && !contains(t.reads, s.resource)) {
        auto d = at_step(m, static_cast<int>(ti), s.id, "S6.2.consumer-op-not-read",
                         "a consumer-side op on '" + rname + "', which the task does not list in reads()");
        d.expected = "'" + rname + "' in reads()";
        d.actual = "not in reads()";
        d.hint = "add it with .reads(" + rname + ") or use the producer side";
        out.push_back(d);
      } else if (is_producer_op(s) && !contains(t.writes, s.resource)) {
        auto d = at_step(m, static_cast<int>(ti), s.id, "S6.2.producer-op-not-written",
                         "a producer-side op on '" + rname + "', which the task does not list in writes()");
        d.expected = "'" + rname + "' in writes()";
        d.actual = "not in writes()";
        d.hint = "add it with .writes(" + rname + ") or use the consumer side";
        out.push_back(d);
      }
    }
  }
}

}  // namespace ts::verify
