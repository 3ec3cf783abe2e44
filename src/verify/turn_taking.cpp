// S6.26 Turn-taking consumers (docs/turns.md): a ring whose consumer tasks take turns,
// each passing over the stages the others consume with ring.skip(n). What the checker's
// exact turn model (check/turn_credits.cpp) and the backends need:
//   turn-ring-shape:   a pipelined memory ring with an Async consumer side, no interleave
//                      stride or split counters, no pipeline group, no alias group, and
//                      at least two consumer tasks that each wait and release, with equal
//                      warp counts (each stage's empty barrier counts one of them);
//   skip-while-holding: no skip between a wait and its release (program order): the
//                      counters would pass over held stages;
//   skip-count:        a runtime count is provably the trip count of another turn-taker's
//                      domain loop (the same affine form), so the stages skipped are
//                      exactly what that task consumes per turn.
// Whether the turns cover every commit exactly once, and whether a wait can land two
// phases ahead of its barrier (parity aliasing), is the checker's: it depends on timing.
#include "passes.hpp"
#include "ts/schedule/turns.hpp"

namespace ts::verify {
namespace {

void shape(Model const& m, int task, int step, std::string why, std::string expected, std::string actual,
           std::string hint, Diagnostics& out) {
  auto d = at_step(m, task, step, "S6.26.turn-ring-shape", std::move(why));
  d.expected = std::move(expected);
  d.actual = std::move(actual);
  d.hint = std::move(hint);
  out.push_back(d);
}

}  // namespace

void check_turn_taking(Model const& m, Diagnostics& out) {
  for (size_t ri = 0; ri < m.resources.size(); ++ri) {
    int r = static_cast<int>(ri);
    auto skippers = tasks_issuing(m, r, SyncOp::Skip);
    if (skippers.empty()) continue;
    auto const& res = m.resource(r);
    int t0 = skippers.front();
    int s0 = first_step(m.tasks[t0], r, SyncOp::Skip);
    std::string rn = "'" + res.name + "'";
    if (res.kind != ResourceKind::Memory || !res.pipelined()) {
      shape(m, t0, s0, rn + ".skip(): only a pipelined memory ring has stages to pass over",
            "a pipelined memory resource", "a " + to_string(res.kind) + " resource" + (res.pipelined() ? "" : " without a pipeline"),
            "give the ring a pipeline config, or drop the skip", out);
      continue;
    }
    auto const& cfg = *res.pipeline;
    auto waiters = tasks_issuing(m, r, SyncOp::Wait);
    auto releasers = tasks_issuing(m, r, SyncOp::Release);
    if (cfg.consumer_engine() != Engine::Async)
      shape(m, t0, s0, rn + ".skip(): turn-taking consumers are modelled for thread (Async) consumers only",
            "an Async consumer side", to_string(cfg.consumer_engine()), "release the stages from threads", out);
    auto const& st = cfg.interleave_stride;
    if (st.wait != 1 || st.release != 1 || cfg.advance_on_wait)
      shape(m, t0, s0, rn + ".skip(): a turn ring advances its consumer counters one stage per op",
            "interleave stride 1 and no advance_on_wait", "wait stride " + std::to_string(st.wait) + ", release stride " +
                std::to_string(st.release) + (cfg.advance_on_wait ? ", advance_on_wait" : ""),
            "take turns with skip() or with domain lanes, not both", out);
    if (m.group_of(r) >= 0)
      shape(m, t0, s0, rn + ".skip(): a pipeline group member's barriers are shared with the group",
            "a ring outside pipeline groups", "a member of group '" + m.groups[m.group_of(r)].name + "'",
            "take turns on a ring of its own", out);
    bool aliased = false;
    for (auto const& a : res.allocations.decls()) aliased |= !a.alias_group.empty();
    if (aliased)
      shape(m, t0, s0, rn + ".skip(): the checker's turn model does not track access windows of aliased rings",
            "no alias group on the ring", "an allocation in an alias group", "alias the staging buffers instead", out);
    for (int w : waiters)
      if (!contains(releasers, w))
        shape(m, w, first_step(m.tasks[w], r, SyncOp::Wait),
              rn + " has turn-taking consumers: each turn-taker releases the stages it waited for (one release frees "
                   "a stage)", "'" + m.tasks[w].name + "' releases " + res.name, "wait without release",
              "release in the waiting task; a split consumer cannot take turns", out);
    for (int rl : releasers)
      if (!contains(waiters, rl))
        shape(m, rl, first_step(m.tasks[rl], r, SyncOp::Release),
              rn + " has turn-taking consumers: a task that releases also waits", "'" + m.tasks[rl].name + "' waits on " + res.name,
              "release without wait", "release in the waiting task", out);
    if (waiters.size() < 2)
      shape(m, t0, s0, rn + ".skip(): turns need at least two consumer tasks that wait on the ring",
            ">= 2 tasks waiting on " + res.name, std::to_string(waiters.size()) + " (" + join_task_names(m, waiters) + ")",
            "with one consumer, wait for every stage instead of skipping", out);
    for (int w : waiters)
      if (m.tasks[w].num_warps != m.tasks[waiters.front()].num_warps)
        shape(m, w, first_step(m.tasks[w], r, SyncOp::Wait),
              rn + ": each stage's empty barrier counts one turn-taker's arrivals, so the turn-takers need equal warp counts",
              std::to_string(m.tasks[waiters.front()].num_warps) + " warps (as '" + m.tasks[waiters.front()].name + "')",
              std::to_string(m.tasks[w].num_warps) + " warps", "give every turn-taker the same warps", out);

    for (int t : skippers) {
      auto const& ir = m.tasks[t].schedule;
      int open = -1;  // the last wait on r not yet released, in program order
      for (auto const& s : ir.steps) {
        if (s.resource != r) continue;
        if (s.kind == SyncOp::Wait) open = s.id;
        if (s.kind == SyncOp::Release) open = -1;
        if (s.kind != SyncOp::Skip) continue;
        if (open >= 0) {
          auto d = at_step(m, t, s.id, "S6.26.skip-while-holding",
                           rn + ".skip() runs after " + res.name + ".wait() (step " + std::to_string(open) +
                               ") and before its release: the wait and release counters would pass over a stage the "
                               "task still holds");
          d.expected = res.name + ".release() before " + res.name + ".skip()";
          d.actual = "an open wait (step " + std::to_string(open) + ")";
          d.hint = "release every waited stage of the turn first";
          out.push_back(d);
        }
        if (s.count.kind == ir::Bound::Kind::Static) continue;
        int other = turn_count_task(m, r, s.count, t);
        if (other >= 0 && other != t) continue;
        std::string want;
        for (int w : waiters)
          if (w != t) want += (want.empty() ? "" : " or ") + ("'" + m.tasks[w].name + "'s domain loop (" +
                                                             (ir::trip_text(m.tasks[w].schedule).empty()
                                                                  ? std::string("no comparable length")
                                                                  : ir::trip_text(m.tasks[w].schedule)) + ")");
        auto d = at_step(m, t, s.id, "S6.26.skip-count",
                         rn + ".skip(" + s.count.expr + "): a runtime count must be provably the number of stages "
                              "another turn-taker consumes in its turn, the trip count of its domain loop");
        d.expected = want.empty() ? "another task waiting on " + res.name : "the trip count of " + want;
        d.actual = s.count.expr + (s.count.form_known ? " (form " + s.count.form.to_string() + ")" : "");
        d.hint = "pass the same bound as that task's domain_loop, e.g. ts::runtime(k, \"k_iters\") in both";
        out.push_back(d);
      }
    }
  }
}

}  // namespace ts::verify
