// Implements the rules written down in docs/pipeline-arrivals.md; keep the two in step.
#include "ts/verify/arrival_model.hpp"

#include <algorithm>

#include "ts/core/queue_response.hpp"

namespace ts::verify {

std::string to_string(Backend b) {
  switch (b) {
    case Backend::Cpu: return "cpu";
    case Backend::Sm90a: return "sm_90a";
    case Backend::Sm100a: return "sm_100a";
  }
  return "?";
}

namespace {

bool has_cta_leader(Signal s) { return (unsigned(s) & unsigned(Signal::CtaLeader)) != 0; }
bool has_warp_leader(Signal s) { return (unsigned(s) & unsigned(Signal::TaskWarpLeader)) != 0; }

// Per-stage share of the participants: with an interleave stride s, each stage is
// handled by 1/s of the issuing warps (warp-lane) or of the issuing tasks (domain-lane).
int per_stage(int n, int stride) { return stride > 1 ? n / stride : n; }

// Arrivals plain threads deliver on one stage barrier.
int async_arrivals(Signal s, SideParticipants p, int stride, std::string& rule) {
  int warps = per_stage(p.warps, stride);
  if (has_warp_leader(s)) {
    rule = std::to_string(warps) + " warp(s) x 1 leader lane (" + to_string(s) + ")";
    return warps;
  }
  if (has_cta_leader(s)) {
    int tasks = std::max(1, per_stage(p.tasks, stride));
    rule = std::to_string(tasks) + " task(s) x 1 CTA-leader thread (CtaLeader)";
    return tasks;
  }
  rule = std::to_string(warps) + " warp(s) x 32 threads (All)";
  return warps * 32;
}

// One elected thread per issuing task: the TMA / CLC commit arrival (bytes armed in acquire), tcgen05.commit.
int elected_arrivals(SideParticipants p, int stride, std::string const& what, std::string& rule) {
  int tasks = std::max(1, per_stage(p.tasks, stride));
  rule = std::to_string(tasks) + " task(s) x 1 elected " + what;
  return tasks;
}

}  // namespace

ArrivalExpectation expected_arrivals(PipelineConfig const& cfg, SideParticipants producers,
                                     SideParticipants consumers, Backend backend) {
  using E = Engine;
  ArrivalExpectation x;
  auto const& st = cfg.interleave_stride;
  switch (cfg.producer_engine()) {
    case E::Async: x.full_arrivals = async_arrivals(cfg.producer_signal, producers, st.commit, x.full_rule); break;
    case E::Tma: x.full_arrivals = elected_arrivals(producers, st.commit, "commit arrival (bytes armed by expect_tx)", x.full_rule); break;
    case E::Umma: x.full_arrivals = elected_arrivals(producers, st.commit, "tcgen05.commit", x.full_rule); break;
    case E::ClcFetch: x.full_arrivals = elected_arrivals(producers, st.commit, "commit arrival (bytes armed by expect_tx)", x.full_rule); break;
    case E::None: break;  // a config's producer is never None
  }
  if (cfg.consumer_engine() == E::Async)
    x.empty_arrivals = async_arrivals(cfg.consumer_signal, consumers, st.release, x.empty_rule);
  else
    x.empty_arrivals = elected_arrivals(consumers, st.release, "tcgen05.commit", x.empty_rule);

  // Transaction bytes: TMA and CLC producers complete by bytes, everything else by arrivals.
  if (cfg.producer_engine() == E::Tma) x.tx_bytes = cfg.num_bytes;
  if (cfg.producer_engine() == E::ClcFetch) x.tx_bytes = kQueueResponseBytes;

  // Multicast TMA: every CTA of the multicast row and column reads the stage, so their
  // consumers all release the producer CTA's empty barrier, unless only the CTA leader
  // signals. The fan-in multiplies declared and real counts alike (docs).
  x.empty_fan_in = cfg.multicast_fan_in();

  // Counts are the same on every backend; only whether the type runs for real differs.
  // sm_90a has no tcgen05 (UMMA); its dynamic queue emulates CLC with a global counter
  // that keeps the 1-arrival / 16-byte contract.
  bool umma = cfg.producer_engine() == E::Umma || cfg.consumer_engine() == E::Umma;
  if (backend == Backend::Sm90a) x.supported = !umma;
  return x;
}

long long expected_leader_routed_bytes(PipelineConfig const& cfg, int producing_warps) {
  return static_cast<long long>(cfg.num_bytes_per_warp_per_cta) * producing_warps * cfg.cluster_ctas();
}

}  // namespace ts::verify
