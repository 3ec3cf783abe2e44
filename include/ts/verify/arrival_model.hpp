// The arrival model of a pipeline stage (docs/pipeline-arrivals.md): how many
// arrivals a stage's full and empty mbarrier must expect, and how many transaction
// bytes the full barrier must see, given the pipeline type, the warps of the tasks that
// really signal it, the interleave stride, the cluster shape and the signalling mode.
// S6.10 and S6.11 compare these numbers with what the PipelineConfig declares.
#pragma once
#include <string>

#include "ts/core/pipeline_config.hpp"

namespace ts::verify {

enum class Backend { Cpu, Sm90a, Sm100a };
std::string to_string(Backend b);

// Who performs one side's arriving op (commit for the full barrier, release for the
// empty barrier) on a resource, summed over every task that issues it.
struct SideParticipants {
  int tasks = 0;   // distinct tasks issuing the op
  int warps = 0;   // their warps, summed
};

struct ArrivalExpectation {
  int full_arrivals = 0;        // per CTA, per stage: what the producers really deliver
  int empty_arrivals = 0;       // per CTA, per stage: what the consumers really deliver
  long long tx_bytes = 0;       // transaction bytes the full barrier expects (0: none)
  int empty_fan_in = 1;         // CTAs whose consumers arrive at one CTA's empty barrier
  bool supported = true;        // the backend can run this pipeline type for real
  std::string full_rule;        // one line each: how the number was derived
  std::string empty_rule;
};

// `producers` are the tasks that commit, `consumers` the tasks that release; strides are
// the commit / release interleave strides (a stage sees 1/stride of the participants).
ArrivalExpectation expected_arrivals(PipelineConfig const& cfg, SideParticipants producers,
                                     SideParticipants consumers, Backend backend = Backend::Cpu);

// Leader-routed TMA completions (S6.11): num_bytes_per_warp_per_cta x producing warps x CTAs.
long long expected_leader_routed_bytes(PipelineConfig const& cfg, int producing_warps);

}  // namespace ts::verify
