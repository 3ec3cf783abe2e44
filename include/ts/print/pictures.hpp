// Pictures of a model: the dependency graph (Graphviz DOT, Mermaid) and a
// self-contained HTML page drawing the side-by-side schedule as inline SVG.
#pragma once
#include <string>

#include "ts/check/explore.hpp"
#include "ts/schedule/model.hpp"
#include "ts/core/trace.hpp"

namespace ts::print {

// Resources (boxes; pipelined ones show type and stage count), tasks (ellipses, with
// warp ranges), "reads"/"writes" edges between them, and dependency-graph edges (dashed).
std::string dependency_dot(Model const& m, std::string const& title = "ts");
std::string dependency_mermaid(Model const& m);

// One lane per task, steps coloured by kind, head/loop/tail bands, barrier handoffs as
// arrows, blocked steps outlined red. No network, no scripts.
std::string schedule_html(Model const& m, std::string const& title = "TS schedule");

// The SVG element alone (for embedding several in one page).
std::string schedule_svg(Model const& m);

// The checker's counterexample (an UNSAFE verdict's shortest failing run, or one complete
// run) as a self-contained page: one lane per task, the events in execution order, the
// culprit highlighted — each blocked task's waiting step for a deadlock, the last steps of
// the run for a race or PDL violation — and the checker's explanation.
// A run's step trace (ts::Trace) as Chrome trace-event JSON (chrome://tracing, Perfetto):
// one process per CTA, one thread per task, one complete event per step.
std::string trace_chrome_json(Model const& m, Trace const& t);
// The same trace as a self-contained page: one lane per (CTA, task), steps coloured by kind.
std::string trace_html(Model const& m, Trace const& t, std::string const& title = "TS kernel trace");

std::string counterexample_html(Model const& m, check::Counterexample const& c,
                                std::string const& title = "TS checker counterexample");

}  // namespace ts::print
