// Step traces as Chrome trace-event JSON and as an HTML/SVG timeline.
#include <algorithm>
#include <map>
#include <sstream>

#include "json_writer.hpp"
#include "simulation.hpp"
#include "svg_style.hpp"
#include "ts/print/pictures.hpp"

namespace ts::print {

using namespace svg;

std::string trace_chrome_json(Model const& m, Trace const& t) {
  JsonWriter w;
  w.begin_object();
  w.key("displayTimeUnit").value(t.clock == "ns" ? "ns" : "ms");
  w.key("otherData").begin_object();
  w.field("clock", t.clock);
  w.end_object();
  w.key("traceEvents").begin_array();
  std::map<int, bool> ctas;
  for (auto const& e : t.events) ctas[e.cta] = true;
  for (auto const& [cta, _] : ctas) {
    w.begin_object().field("ph", "M").field("name", "process_name").field("pid", cta).key("args").begin_object();
    w.field("name", "CTA " + std::to_string(cta)).end_object().end_object();
    for (size_t task = 0; task < m.tasks.size(); ++task) {
      w.begin_object().field("ph", "M").field("name", "thread_name").field("pid", cta).field("tid", int(task));
      w.key("args").begin_object().field("name", m.tasks[task].name).end_object().end_object();
    }
  }
  // Chrome timestamps are microseconds: nanoseconds scale down, logical ticks map 1:1.
  double scale = t.clock == "ns" ? 1e-3 : 1.0;
  for (auto const& e : t.events) {
    auto const& step = m.tasks.at(e.task).schedule.steps.at(e.step);
    std::ostringstream ts_s, dur_s;
    w.begin_object();
    w.field("name", m.step_text(e.task, e.step));
    w.field("cat", op_name(step));
    w.field("ph", "X");
    w.key("ts").value(static_cast<long long>(e.begin * scale));
    w.key("dur").value(std::max(1LL, static_cast<long long>((e.end - e.begin) * scale)));
    w.field("pid", e.cta);
    w.field("tid", e.task);
    w.key("args").begin_object().field("step", e.step).field("section", ir::to_string(step.section)).end_object();
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.str();
}

std::string trace_html(Model const& m, Trace const& t, std::string const& title) {
  // Lanes: every (CTA, task) pair that recorded a step, in order.
  std::map<std::pair<int, int>, int> lane;
  long long t0 = 0, t1 = 1;
  bool first = true;
  for (auto const& e : t.events) {
    lane.emplace(std::make_pair(e.cta, e.task), 0);
    t0 = first ? e.begin : std::min(t0, e.begin);
    t1 = first ? e.end : std::max(t1, e.end);
    first = false;
  }
  int i = 0;
  for (auto& [k, v] : lane) v = i++;
  int const label = 160, width = 1100, lane_h = 22;
  double px = double(width - label - 20) / double(std::max(1LL, t1 - t0));
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"ts-trace\" width=\"" << width << "\" height=\""
      << 30 + int(lane.size()) * lane_h + 20 << "\" font-family=\"monospace\" font-size=\"11\">\n";
  for (auto const& [k, v] : lane)
    svg << "<text class=\"trace-lane\" x=\"4\" y=\"" << 30 + v * lane_h + 15 << "\">CTA " << k.first << " "
        << xml(m.tasks[k.second].name) << "</text>\n";
  for (auto const& e : t.events) {
    auto const& step = m.tasks.at(e.task).schedule.steps.at(e.step);
    std::string kind = kind_of(op_name(step));
    int y = 30 + lane[{e.cta, e.task}] * lane_h;
    double x = label + (e.begin - t0) * px, w = std::max(1.0, (e.end - e.begin) * px);
    svg << "<rect class=\"trace-step step-" << kind << "\" x=\"" << x << "\" y=\"" << y + 2 << "\" width=\"" << w
        << "\" height=\"" << lane_h - 4 << "\" fill=\"" << color_of(kind) << "\" stroke=\"#64748b\" stroke-width=\"0.3\">"
        << "<title>" << xml(m.step_text(e.task, e.step)) << " [" << e.begin << ", " << e.end << ")</title></rect>\n";
  }
  svg << "</svg>\n";
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << xml(title)
     << "</title><style>body{font-family:sans-serif;margin:16px}</style></head>\n<body>\n<h1>" << xml(title)
     << "</h1>\n<p>" << t.events.size() << " steps, clock: " << xml(t.clock) << " (hover a step for its name)</p>\n"
     << svg.str() << "</body></html>\n";
  return os.str();
}

}  // namespace ts::print
