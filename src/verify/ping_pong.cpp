// S6.19 Ping-pong resources (a self-edge `{r, {r}}`: an in-place transform handed back
// and forth between two tasks, SPEC S11). The hand-off is only safe with a pipeline, a
// synchronous consumer side (Async: threads release after their work; an UMMA consumer
// would still be reading when the other side re-acquires), and tasks on both sides.
#include "passes.hpp"

namespace ts::verify {

void check_ping_pong(Model const& m, Diagnostics& out) {
  for (auto const& e : m.graph) {
    if (!contains(e.upstream, e.resource)) continue;
    int r = e.resource;
    auto const& res = m.resource(r);
    if (!res.pipelined()) {
      auto d = at_resource(m, r, "S6.19.ping-pong-needs-pipeline",
                           "'" + res.name + "' depends on itself (ping-pong) but has no pipeline to hand it over");
      d.expected = "a PipelineConfig with an Async consumer side";
      d.actual = "no pipeline";
      out.push_back(d);
      continue;
    }
    if (res.pipeline->consumer_engine() != Engine::Async) {
      auto d = at_resource(m, r, "S6.19.ping-pong-async-consumer",
                           "ping-pong '" + res.name + "' needs a synchronous (Async) consumer side");
      d.expected = "an Async consumer";
      d.actual = to_string(res.pipeline->type);
      out.push_back(d);
    }
    std::vector<int> producers, consumers;
    for (size_t t = 0; t < m.tasks.size(); ++t)
      for (auto const& s : m.tasks[t].schedule.steps) {
        if (s.resource != r) continue;
        if (is_producer_op(s) && !contains(producers, int(t))) producers.push_back(static_cast<int>(t));
        if (is_consumer_op(s) && !contains(consumers, int(t))) consumers.push_back(static_cast<int>(t));
      }
    bool distinct = false;
    for (int p : producers)
      for (int c : consumers) distinct |= p != c;
    if (!distinct) {
      auto d = at_resource(m, r, "S6.19.ping-pong-two-sides",
                           "ping-pong '" + res.name + "' needs one task on the producer side and another on the "
                           "consumer side");
      d.expected = "distinct producer and consumer tasks";
      d.actual = "producers [" + join_task_names(m, producers) + "], consumers [" + join_task_names(m, consumers) + "]";
      out.push_back(d);
    }
  }
}

}  // namespace ts::verify
