// The checker's counterexample drawn as lanes (see pictures.hpp).
#include <sstream>

#include "simulation.hpp"
#include "svg_style.hpp"
#include "ts/print/pictures.hpp"

namespace ts::print {

using namespace svg;

std::string counterexample_html(Model const& m, check::Counterexample const& c, std::string const& title) {
  int lanes = static_cast<int>(m.tasks.size());
  int rows = static_cast<int>(c.events.size());
  bool deadlock = c.kind == "deadlock";
  // Blocked lines read "<task> at <step text>": one red box per blocked task under its lane.
  std::vector<std::string> blocked_at(lanes);
  for (auto const& b : c.blocked)
    for (int t = 0; t < lanes; ++t)
      if (b.rfind(m.tasks[t].name + " ", 0) == 0) blocked_at[t] = b.substr(m.tasks[t].name.size() + 1);
  int extra = deadlock ? 1 : 0;
  int width = kLeft * 2 + lanes * kLaneWidth;
  int height = kHeader + (rows + extra) * kRowHeight + 40;
  auto cx = [&](int lane) { return kLeft + lane * kLaneWidth; };
  auto cy = [&](int row) { return kHeader + row * kRowHeight; };

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"ts-counterexample\" width=\"" << width << "\" height=\""
      << height << "\" font-family=\"monospace\" font-size=\"11\">\n";
  for (int l = 0; l < lanes; ++l)
    svg << "<text class=\"lane-title\" x=\"" << cx(l) + kCellPad << "\" y=\"24\" font-size=\"13\" font-weight=\"bold\">"
        << xml(m.tasks[l].name + "[" + std::to_string(m.tasks[l].warp_start) + ":" +
               std::to_string(m.tasks[l].warp_end()) + ")")
        << "</text>\n";
  for (int r = 0; r < rows; ++r) {
    auto const& e = c.events[r];
    auto const& step = m.tasks.at(e.task).schedule.steps.at(e.step);
    std::string kind = kind_of(op_name(step));
    // A race or PDL violation happens at the run's last steps: highlight the final event
    // of each task that appears in the checker's explanation.
    bool culprit = false;
    if (!deadlock && c.kind != "run") {
      bool last_of_task = true;
      for (int k = r + 1; k < rows; ++k)
        if (c.events[k].task == e.task) last_of_task = false;
      culprit = last_of_task && c.detail.find(m.tasks[e.task].name) != std::string::npos;
    }
    std::string text = m.step_text(e.task, e.step) + " " + ir::to_string(e.section) +
                       (e.iteration >= 0 ? " it " + std::to_string(e.iteration) : "") +
                       (e.tile >= 0 ? " tile " + std::to_string(e.tile) : "");
    svg << "<g class=\"event step-" << kind << (culprit ? " culprit" : "") << "\" data-task=\""
        << xml(m.tasks[e.task].name) << "\" data-step=\"" << e.step << "\">";
    svg << "<rect x=\"" << cx(e.task) + kCellPad << "\" y=\"" << cy(r) + 3 << "\" width=\"" << kLaneWidth - 16
        << "\" height=\"" << kRowHeight - 6 << "\" rx=\"4\" fill=\"" << color_of(kind) << "\""
        << (culprit ? " stroke=\"#dc2626\" stroke-width=\"3\"" : "") << "/>";
    svg << "<text x=\"" << cx(e.task) + kCellPad + 6 << "\" y=\"" << cy(r) + 17 << "\">" << r << "  " << xml(text)
        << "</text></g>\n";
  }
  if (deadlock)
    for (int l = 0; l < lanes; ++l) {
      if (blocked_at[l].empty()) continue;
      svg << "<g class=\"event blocked culprit\" data-task=\"" << xml(m.tasks[l].name) << "\"><rect x=\""
          << cx(l) + kCellPad << "\" y=\"" << cy(rows) + 3 << "\" width=\"" << kLaneWidth - 16 << "\" height=\""
          << kRowHeight - 6 << "\" rx=\"4\" fill=\"#fee2e2\" stroke=\"#dc2626\" stroke-width=\"3\"/><text x=\""
          << cx(l) + kCellPad + 6 << "\" y=\"" << cy(rows) + 17 << "\">BLOCKED at " << xml(blocked_at[l])
          << "</text></g>\n";
    }
  svg << "</svg>\n";

  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << xml(title) << "</title>\n"
     << "<style>body{font-family:sans-serif;margin:16px} .detail{color:#b91c1c}</style></head>\n<body>\n<h1>"
     << xml(title) << "</h1>\n<p class=\"kind\">" << xml(c.kind)
     << (c.length > 0 ? ", domain length " + std::to_string(c.length) : std::string()) << "</p>\n<p class=\"detail\">"
     << xml(c.detail) << "</p>\n"
     << svg.str() << "</body></html>\n";
  return os.str();
}

}  // namespace ts::print
