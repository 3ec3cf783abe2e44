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

namespace ts {
struct Model;
}

namespace ts::verify {

// The counts a config leaves to the verifier, filled in from the recorded schedules
// (called by the TaskManager once every schedule is recorded, before any check runs):
//  - a derived group (size 0, ts::kDerived) becomes the group whose declared arrivals are
//    what the tasks issuing that side's arriving op deliver (expected_arrivals): All ->
//    {Thread, arrivals}, TaskWarpLeader -> {Warp, arrivals}, otherwise {Warp, their warps};
//    a side no task signals keeps one arrival ({Thread, 1}), so S6.10 names the missing op;
//  - a TMA producer's num_bytes 0 becomes the resource's SMEM on its producer side (or both
//    sides) per stage; a ConfigError when there is none or it does not split into stages;
//  - a pipeline group's total bytes are summed again from its members.
// Each resource's config as written is kept (ResourceDecl::declared_pipeline), so a
// second manager over the same resources derives again from it.
void derive_pipeline_fields(Model& m);

}  // namespace ts::verify
