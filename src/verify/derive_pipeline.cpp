// Derived pipeline counts (arrival_model.hpp, derive_pipeline_fields): the values a
// resource author need not type, because the arrival model computes them from the tasks.
#include "pass_support.hpp"
#include "ts/core/errors.hpp"
#include "ts/schedule/model.hpp"
#include "ts/verify/arrival_model.hpp"

namespace ts::verify {

namespace {

SideParticipants side(Model const& m, int r, SyncOp op) {
  SideParticipants p;
  for (int t : tasks_issuing(m, r, op)) {
    p.tasks += 1;
    p.warps += m.tasks[t].num_warps;
  }
  return p;
}

CooperativeGroup derived_group(Engine engine, Signal s, SideParticipants p, int arrivals) {
  if (p.tasks == 0) return {Agent::Thread, 1};
  if (engine == Engine::Async && s == Signal::All) return {Agent::Thread, arrivals};
  if (engine == Engine::Async && (unsigned(s) & unsigned(Signal::TaskWarpLeader)) != 0) return {Agent::Warp, arrivals};
  return {Agent::Warp, p.warps};
}

[[noreturn]] void bytes_error(ResourceDecl const& res, std::string why, std::string expected, long long actual) {
  Diagnostic d;
  d.check = "config.derived-bytes";
  d.resource = res.name;
  d.message = "'" + res.name + "' (" + to_string(res.pipeline->type) + ") leaves num_bytes to be derived, but " + why;
  d.expected = std::move(expected);
  d.actual = std::to_string(actual);
  d.hint = "declare the stages' SMEM (Allocations::smem) or give num_bytes";
  throw ConfigError(d);
}

}  // namespace

void derive_pipeline_fields(Model& m) {
  for (size_t ri = 0; ri < m.resources.size(); ++ri) {
    auto& res = *m.resources[ri];
    if (!res.declared_pipeline) continue;
    int r = static_cast<int>(ri);
    PipelineConfig cfg = *res.declared_pipeline;
    res.pipeline = cfg;  // derived below from the config as written
    SideParticipants producers = side(m, r, SyncOp::Commit), consumers = side(m, r, SyncOp::Release);
    // A ring whose consumers take turns (ring.skip, docs/turns.md): each stage is released
    // by one turn-taker (S6.26 makes their warp counts equal), not by all of them.
    if (!tasks_issuing(m, r, SyncOp::Skip).empty() && consumers.tasks > 1) {
      consumers.warps /= consumers.tasks;
      consumers.tasks = 1;
    }
    if (cfg.producer_group.derived() || cfg.consumer_group.derived()) {
      // Groups first (a derived group counts nothing yet): expected_arrivals reads none.
      ArrivalExpectation x = expected_arrivals(cfg, producers, consumers);
      if (cfg.producer_group.derived())
        res.pipeline->producer_group =
            derived_group(cfg.producer_engine(), cfg.producer_signal, producers, x.full_arrivals);
      if (cfg.consumer_group.derived())
        res.pipeline->consumer_group =
            derived_group(cfg.consumer_engine(), cfg.consumer_signal, consumers, x.empty_arrivals);
    }
    if (cfg.producer_engine() == Engine::Tma && cfg.num_bytes == 0) {
      long long smem = 0;
      for (auto const& a : res.allocations.decls())
        if (a.space == MemSpace::Smem && a.side != AccessSide::Consumer) smem += a.bytes();
      if (smem == 0) bytes_error(res, "it declares no SMEM on its producer side", "> 0 bytes of SMEM", 0);
      if (smem % cfg.num_stages != 0)
        bytes_error(res, "its " + std::to_string(smem) + " bytes of producer-side SMEM do not split into " +
                             std::to_string(cfg.num_stages) + " equal stages",
                    "a multiple of " + std::to_string(cfg.num_stages), smem);
      res.pipeline->num_bytes = static_cast<int>(smem / cfg.num_stages);
    }
  }
  for (auto& g : m.groups) {
    g.total_bytes = 0;
    for (int r : g.members)
      if (r >= 0 && m.resources[r]->pipeline) g.total_bytes += m.resources[r]->pipeline->num_bytes;
  }
}

}  // namespace ts::verify
