// Pictures of a model: the dependency graph (Graphviz DOT, Mermaid) and a
// self-contained HTML page drawing the side-by-side schedule as inline SVG.
#pragma once
#include <string>

#include "ts/core/model.hpp"

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

}  // namespace ts::print
