// Runs every static validation pass (SPEC S6) in SPEC order. S6.9 is the exhaustive
// checker (src/check), S6.25 is enforced by the recorder at capture time.
#include "ts/verify/static_checks.hpp"

#include "passes.hpp"

namespace ts::verify {

std::vector<Diagnostic> run_static_checks(Model const& model) { return run_static_checks(model, Limits{}); }

std::vector<Diagnostic> run_static_checks(Model const& m, Limits const& limits) {
  Diagnostics out;
  check_domain_validity(m, out);
  check_resource_roles(m, out);
  check_graph_usage(m, out);
  check_work_bracketing(m, out);
  check_work_queue_placement(m, out);
  check_dma_ordering(m, out);
  check_pipeline_arrivals(m, out);
  check_interleave_rules(m, out);
  check_cluster_layouts(m, out);
  check_head_loop_overlap(m, out);
  check_work_dispatch(m, out);
  check_memory_capacity(m, limits, out);
  check_value_routing(m, out);
  check_ping_pong(m, out);
  check_split_consumer_override(m, out);
  check_skip_if_owner(m, out);
  check_registers(m, limits, out);
  check_pipeline_groups(m, out);
  check_turn_taking(m, out);
  // Messages are one sentence each; end them so format()'s "Expected ..." reads as the next.
  for (auto& d : out)
    if (!d.message.empty() && d.message.back() != '.') d.message += '.';
  return out;
}

}  // namespace ts::verify
