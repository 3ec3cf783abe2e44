// S6.20 Split-consumer signalling override. wait_signal_override describes the waiting
// task of a split consumer (one task waits, another releases, SPEC S11). With no split
// (every task that waits also releases) the override would silently change how a task
// that releases is counted, so it is rejected.
#include "passes.hpp"

namespace ts::verify {

void check_split_consumer_override(Model const& m, Diagnostics& out) {
  for (size_t ri = 0; ri < m.resources.size(); ++ri) {
    int r = static_cast<int>(ri);
    auto const& res = m.resource(r);
    if (!res.pipelined() || !res.pipeline->wait_signal_override) continue;
    auto waiters = tasks_issuing(m, r, SyncOp::Wait);
    auto releasers = tasks_issuing(m, r, SyncOp::Release);
    bool split = false;
    for (int w : waiters) split |= !contains(releasers, w);
    for (int rl : releasers) split |= !contains(waiters, rl);
    if (split || waiters.empty()) continue;
    int t0 = waiters.front();
    auto d = at_step(m, t0, first_step(m.tasks[t0], r, SyncOp::Wait), "S6.20.override-without-split",
                     "'" + res.name + "' sets wait_signal_override (" + to_string(*res.pipeline->wait_signal_override) +
                         ") but the same task(s) wait and release it, so there is no split consumer");
    d.task = join_task_names(m, waiters);
    d.expected = "wait() and release() in different tasks";
    d.actual = "both in " + join_task_names(m, waiters);
    d.hint = "drop wait_signal_override, or split the consumer into a waiting and a releasing task";
    out.push_back(d);
  }
}

}  // namespace ts::verify
