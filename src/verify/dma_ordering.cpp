// S6.8 DMA ordering. TMA, UMMA and CLC producer work only *issues* an asynchronous
// operation that reads its upstream buffers later; releasing such an upstream buffer
// before the operation is issued lets the upstream producer overwrite data the engine
// has not read yet. Rule, per task: for a release() of resource U, if the task does
// producer work on a downstream D (D depends on U in the graph, D's producer engine is
// Tma/Umma/ClcFetch), some such work must lie between the wait() on U that opened the
// bracket and the release(). A D-producer work found only after the release is the
// mistake this pass reports.
#include "passes.hpp"

namespace ts::verify {

namespace {

bool async_engine_producer(ResourceDecl const& r) {
  if (!r.pipeline) return false;
  auto e = r.pipeline->producer_engine();
  return e == Engine::Tma || e == Engine::Umma || e == Engine::ClcFetch;
}

std::vector<int> async_downstreams(Model const& m, int upstream) {
  std::vector<int> out;
  for (auto const& e : m.graph)
    if (e.resource != upstream && contains(e.upstream, upstream) && async_engine_producer(m.resource(e.resource)))
      out.push_back(e.resource);
  return out;
}

}  // namespace

void check_dma_ordering(Model const& m, Diagnostics& out) {
  for (size_t ti = 0; ti < m.tasks.size(); ++ti) {
    int task = static_cast<int>(ti);
    auto const& steps = m.tasks[ti].schedule.steps;
    for (auto const& rel : steps) {
      if (rel.kind != SyncOp::Release) continue;
      int opened = -1;  // the wait() that opened this bracket
      for (int i = rel.id - 1; i >= 0 && opened < 0; --i)
        if (steps[i].resource == rel.resource && steps[i].kind == SyncOp::Wait) opened = i;
      for (int down : async_downstreams(m, rel.resource)) {
        auto is_down_work = [&](ir::Step const& s) {
          return s.kind == SyncOp::Work && s.role == WorkRole::Producer && s.resource == down;
        };
        bool issued_inside = false;
        for (int i = opened + 1; i < rel.id; ++i) issued_inside |= is_down_work(steps[i]);
        if (issued_inside) continue;
        int late = -1;
        for (size_t i = rel.id + 1; i < steps.size() && late < 0; ++i)
          if (is_down_work(steps[i])) late = static_cast<int>(i);
        if (late < 0) continue;
        auto const& dres = m.resource(down);
        auto d = at_step(m, task, rel.id, "S6.8.release-before-async-read",
                         "'" + m.resource(rel.resource).name + "' is released before the " +
                             to_string(dres.pipeline->producer_engine()) + " producer work `" +
                             m.step_text(task, late) + "` (step " + std::to_string(late) + ") on '" + dres.name +
                             "' that reads it has been issued");
        d.expected = "release() after step " + std::to_string(late);
        d.actual = "release() at step " + std::to_string(rel.id);
        d.hint = "move " + m.resource(rel.resource).name + ".release() after the " + dres.name + " work";
        out.push_back(d);
      }
    }
  }
}

}  // namespace ts::verify
