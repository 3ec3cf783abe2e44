// The static validation passes, one per check family (SPEC S6). Each appends what it
// finds; run_static_checks (static_checks.cpp) runs them in SPEC order.
#pragma once
#include "pass_support.hpp"
#include "ts/verify/static_checks.hpp"

namespace ts::verify {

void check_domain_validity(Model const& m, Diagnostics& out);        // S6.1
void check_resource_roles(Model const& m, Diagnostics& out);         // S6.2
void check_graph_usage(Model const& m, Diagnostics& out);            // S6.3, S6.4, S6.5
void check_work_bracketing(Model const& m, Diagnostics& out);        // S6.6
void check_work_queue_placement(Model const& m, Diagnostics& out);   // S6.7
void check_dma_ordering(Model const& m, Diagnostics& out);           // S6.8
void check_pipeline_arrivals(Model const& m, Diagnostics& out);      // S6.10, S6.11
void check_interleave_rules(Model const& m, Diagnostics& out);       // S6.12
void check_warp_lanes(Model const& m, int resource, Diagnostics& out);  // S6.12, warp-lane mode (called by the above)
void check_cluster_layouts(Model const& m, Diagnostics& out);        // S6.13
void check_head_loop_overlap(Model const& m, Diagnostics& out);      // S6.14
void check_work_dispatch(Model const& m, Diagnostics& out);          // S6.15
void check_memory_capacity(Model const& m, Limits const& l, Diagnostics& out);  // S6.16, S6.17
void check_value_routing(Model const& m, Diagnostics& out);          // S6.18
void check_ping_pong(Model const& m, Diagnostics& out);              // S6.19
void check_split_consumer_override(Model const& m, Diagnostics& out);  // S6.20
void check_skip_if_owner(Model const& m, Diagnostics& out);          // S6.21
void check_registers(Model const& m, Limits const& l, Diagnostics& out);  // S6.22, S6.23
void check_pipeline_groups(Model const& m, Diagnostics& out);        // S6.24 (pipeline groups, SPEC S10)
void check_turn_taking(Model const& m, Diagnostics& out);            // S6.26 (turn-taking consumers)

}  // namespace ts::verify
