// Pictures of a model: the dependency graph (Graphviz DOT, Mermaid) and a
// self-contained HTML page drawing the side-by-side schedule as inline SVG.
#pragma once
#include <string>
#include <vector>

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
std::string counterexample_html(Model const& m, check::Counterexample const& c,
                                std::string const& title = "TS checker counterexample");

// One iteration of a task's outermost loop (the work-tile loop, else the domain loop) in
// a trace: from the start of its first step to the end of its last. A new tile starts
// where the leader's step sequence wraps around that loop (or first enters it).
struct TraceTile {
  int cta = 0, task = 0;
  int index = 0;  // 0-based, per (CTA, task)
  long long begin = 0, end = 0;
};
std::vector<TraceTile> trace_tiles(Model const& m, Trace const& t);

// A run's step trace (ts::Trace) as Chrome trace-event JSON (chrome://tracing, Perfetto):
// one process per CTA (pid = CTA), one thread per task (tid = task) with one complete
// ("X") event per step, and a thread per task ("<task> tiles", tid = 1000 + task) with one
// "B"/"E" pair per tile. ts/dur in microseconds (fractional for nanosecond clocks); args
// carry the step, section, resource, stall class and the exact begin/end on the trace's
// clock; otherData the clock, the task and resource names and the stall verdict.
std::string trace_chrome_json(Model const& m, Trace const& t);
// The same trace as a self-contained page (plain JS, no network): a time axis with
// units, a legend, one labelled lane per (CTA, task), tile boundaries, zoom (wheel,
// buttons) and pan (drag), and the stall attribution (ts/print/stall_report.hpp) above.
std::string trace_html(Model const& m, Trace const& t, std::string const& title = "TS kernel trace");

}  // namespace ts::print
