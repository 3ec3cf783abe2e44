// S6.10 Pipeline thread counts and bytes, S6.11 leader-routed completions.
// The runtime initialises each stage's full/empty barrier with the count the config
// DECLARES (PipelineConfig::declared_full_arrivals / declared_empty_arrivals). This pass
// recomputes what the schedules really deliver (arrival_model.hpp, from the warps of
// the tasks that commit / release the resource) and reports any difference with both
// numbers: too few declared arrivals completes a phase early (a race), too many never
// completes it (a hang).
#include "missing_signal.hpp"
#include "passes.hpp"
#include "ts/core/queue_response.hpp"
#include "ts/verify/arrival_model.hpp"

namespace ts::verify {

namespace {

constexpr long long kMaxTxBytes = (1 << 20) - 1;  // mbarrier transaction-count range

SideParticipants participants(Model const& m, std::vector<int> const& tasks) {
  SideParticipants p;
  for (int t : tasks) {
    p.tasks += 1;
    p.warps += m.tasks[t].num_warps;
  }
  return p;
}

std::vector<int> producer_work_tasks(Model const& m, int r) {
  std::vector<int> out;
  for (size_t t = 0; t < m.tasks.size(); ++t)
    for (auto const& s : m.tasks[t].schedule.steps)
      if (s.resource == r && s.kind == SyncOp::Work && s.role == WorkRole::Producer) {
        out.push_back(static_cast<int>(t));
        break;
      }
  return out;
}

Diagnostic count_mismatch(Model const& m, std::vector<int> const& tasks, int r, SyncOp op, std::string check,
                          std::string barrier, int expected, int declared, std::string const& rule,
                          std::string hint) {
  int t0 = tasks.front();
  auto d = at_step(m, t0, first_step(m.tasks[t0], r, op), std::move(check),
                   "the " + barrier + " barrier of '" + m.resource(r).name + "' is declared with " +
                       std::to_string(declared) + " arrival(s) per stage, but task(s) " + join_task_names(m, tasks) +
                       " deliver " + std::to_string(expected) + " at " + ir::to_string(op) + "() (" + rule + ")");
  d.task = join_task_names(m, tasks);
  d.expected = std::to_string(expected);
  d.actual = std::to_string(declared);
  d.hint = std::move(hint);
  return d;
}

std::string group_hint(char const* which, Signal s, int expected) {
  if (s == Signal::All) return std::string("set ") + which + " = {ts::Agent::Thread, " + std::to_string(expected) + "}";
  if (s == Signal::CtaLeader) return "use one releasing task, or a TaskWarpLeader signal";
  return std::string("set ") + which + " = {ts::Agent::Warp, " + std::to_string(expected) + "}";
}

void check_bytes(Model const& m, int r, Diagnostics& out) {
  auto const& res = m.resource(r);
  auto const& cfg = *res.pipeline;
  auto engine = cfg.producer_engine();
  if (engine == Engine::ClcFetch && cfg.num_bytes != kQueueResponseBytes) {
    auto d = at_resource(m, r, "S6.10.clc-bytes", "a CLC response is 16 bytes per stage (SPEC S13.3)");
    d.expected = std::to_string(kQueueResponseBytes);
    d.actual = std::to_string(cfg.num_bytes);
    out.push_back(d);
  }
  if (engine != Engine::Tma) return;
  if (cfg.num_bytes > kMaxTxBytes) {
    auto d = at_resource(m, r, "S6.10.tx-bytes-range", "num_bytes exceeds what one mbarrier transaction count holds");
    d.expected = "<= " + std::to_string(kMaxTxBytes);
    d.actual = std::to_string(cfg.num_bytes);
    out.push_back(d);
  }
  long long smem = 0;
  for (auto const& a : res.allocations.decls())
    if (a.space == MemSpace::Smem && a.side != AccessSide::Consumer) smem += a.bytes();
  if (smem > 0 && static_cast<long long>(cfg.num_bytes) * cfg.num_stages > smem) {
    auto d = at_resource(m, r, "S6.10.tx-bytes-exceed-stage",
                         "each stage expects " + std::to_string(cfg.num_bytes) +
                             " transaction bytes but the resource declares only " + std::to_string(smem) +
                             " bytes of SMEM for " + std::to_string(cfg.num_stages) + " stage(s)");
    d.expected = "<= " + std::to_string(smem / cfg.num_stages);
    d.actual = std::to_string(cfg.num_bytes);
    out.push_back(d);
  }
}

}  // namespace

void check_pipeline_arrivals(Model const& m, Diagnostics& out) {
  for (size_t ri = 0; ri < m.resources.size(); ++ri) {
    int r = static_cast<int>(ri);
    auto const& res = m.resource(r);
    if (!res.pipelined()) continue;
    auto const& cfg = *res.pipeline;
    auto producers = tasks_issuing(m, r, SyncOp::Commit);
    auto consumers = tasks_issuing(m, r, SyncOp::Release);
    // Turn-taking consumers (S6.26): each stage is released by one of them, so its empty
    // barrier counts one turn-taker's arrivals (S6.26 checks they are alike).
    bool turns = !tasks_issuing(m, r, SyncOp::Skip).empty() && !consumers.empty();
    auto x = expected_arrivals(cfg, participants(m, producers),
                               participants(m, turns ? std::vector<int>{consumers.front()} : consumers));
    // A forgotten commit/release is blamed on the task that forgot it (missing_signal.hpp).
    auto forgot_commit = x.full_arrivals != cfg.declared_full_arrivals()
                             ? missing_signal(m, r, true, producers, consumers) : std::nullopt;
    auto forgot_release = x.empty_arrivals != cfg.declared_empty_arrivals()
                              ? missing_signal(m, r, false, producers, consumers) : std::nullopt;
    if (forgot_commit) out.push_back(*forgot_commit);
    if (forgot_release) out.push_back(*forgot_release);
    if (!forgot_commit && !producers.empty() && x.full_arrivals != cfg.declared_full_arrivals())
      out.push_back(count_mismatch(m, producers, r, SyncOp::Commit, "S6.10.full-arrivals", "full",
                                   x.full_arrivals, cfg.declared_full_arrivals(), x.full_rule,
                                   cfg.producer_engine() == Engine::Async
                                       ? group_hint("producer_group", cfg.producer_signal, x.full_arrivals)
                                       : "let one task commit each stage (its elected thread arrives once)"));
    if (!forgot_release && !consumers.empty() && x.empty_arrivals != cfg.declared_empty_arrivals())
      out.push_back(count_mismatch(m, consumers, r, SyncOp::Release, "S6.10.empty-arrivals", "empty",
                                   x.empty_arrivals, cfg.declared_empty_arrivals(), x.empty_rule,
                                   cfg.consumer_engine() == Engine::Async
                                       ? group_hint("consumer_group", cfg.consumer_signal, x.empty_arrivals)
                                       : "let one task release each stage (one tcgen05.commit)"));
    check_bytes(m, r, out);

    // S6.11: leader-routed TMA completions land on one barrier, so the bytes it waits
    // for are every producing warp's share from every CTA of the cluster.
    if (cfg.num_bytes_per_warp_per_cta > 0) {
      auto workers = producer_work_tasks(m, r);
      if (workers.empty()) workers = producers;
      if (workers.empty()) continue;
      int warps = participants(m, workers).warps;
      if (cfg.interleave_stride.commit > 1) warps /= cfg.interleave_stride.commit;
      long long want = expected_leader_routed_bytes(cfg, warps);
      if (want == cfg.num_bytes) continue;
      int t0 = workers.front();
      int step = first_step(m.tasks[t0], r, SyncOp::Commit);
      Diagnostic d = step >= 0 ? at_step(m, t0, step, "S6.11.leader-routed-bytes", "")
                               : at_task(m, t0, "S6.11.leader-routed-bytes", "", r);
      d.task = join_task_names(m, workers);
      d.message = "leader-routed completions of '" + res.name + "': num_bytes must be num_bytes_per_warp_per_cta (" +
                  std::to_string(cfg.num_bytes_per_warp_per_cta) + ") x producing warps (" + std::to_string(warps) +
                  ") x CTAs (" + std::to_string(cfg.cluster_ctas()) + ")";
      d.expected = std::to_string(want);
      d.actual = std::to_string(cfg.num_bytes);
      out.push_back(d);
    }
  }
}

}  // namespace ts::verify
