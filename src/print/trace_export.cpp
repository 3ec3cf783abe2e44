// Step traces as Chrome trace-event JSON (Perfetto) and as an HTML/SVG timeline with a
// time axis, legend, labelled lanes, tile boundaries, zoom and pan, and the stall summary.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "json_writer.hpp"
#include "simulation.hpp"
#include "svg_style.hpp"
#include "ts/print/pictures.hpp"
#include "ts/print/stall_report.hpp"

namespace ts::print {

using namespace svg;

namespace {

// Events per (CTA, task) lane, in recording order (one leader per lane: time order).
std::map<std::pair<int, int>, std::vector<TraceEvent const*>> lanes_of(Trace const& t) {
  std::map<std::pair<int, int>, std::vector<TraceEvent const*>> lanes;
  for (auto const& e : t.events) lanes[{e.cta, e.task}].push_back(&e);
  return lanes;
}

bool is_loop(ir::BlockKind k) { return k == ir::BlockKind::DomainLoop || k == ir::BlockKind::WorkTileLoop; }

// The innermost loop block enclosing both steps, or -1.
int common_loop(ir::ScheduleIR const& s, int a, int b) {
  auto ea = ir::enclosing_blocks(s, s.steps.at(a).block);
  auto eb = ir::enclosing_blocks(s, s.steps.at(b).block);
  std::set<int> inb(eb.begin(), eb.end());
  for (int blk : ea)
    if (inb.count(blk) && is_loop(s.blocks.at(blk).kind)) return blk;
  return -1;
}

// Ticks of an axis over [v0, v0 + vw) on `clock`: a 1-2-5 step giving about 8 ticks.
double nice_step(double raw, bool integral) {
  if (!(raw > 0)) return 1;
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double n = raw / mag;
  double s = (n < 1.5 ? 1 : n < 3.5 ? 2 : n < 7.5 ? 5 : 10) * mag;
  return integral ? std::max(1.0, std::round(s)) : s;
}
// The unit a tick step is shown in: {scale (clock units per shown unit), name}.
std::pair<double, std::string> unit_of(std::string const& clock, double step) {
  if (clock == "ns") {
    if (step >= 1e6) return {1e6, "ms"};
    if (step >= 1e3) return {1e3, "\xc2\xb5s"};
    return {1, "ns"};
  }
  if (clock == "us") {
    if (step >= 1e3) return {1e3, "ms"};
    return {1, "\xc2\xb5s"};
  }
  return {1, clock == "logical" ? "decisions" : clock};
}
std::string tick_text(double v, double step, double scale) {
  double s = step / scale;
  int dec = s >= 1 ? 0 : int(std::ceil(-std::log10(s) - 1e-9));
  char b[48];
  std::snprintf(b, sizeof b, "%.*f", std::min(dec, 6), v / scale);
  return b;
}

}  // namespace

std::vector<TraceTile> trace_tiles(Model const& m, Trace const& t) {
  std::vector<TraceTile> out;
  for (auto const& [key, evs] : lanes_of(t)) {
    auto const& s = m.tasks.at(key.second).schedule;
    int L = s.work_tile_loop >= 0 ? s.work_tile_loop : s.domain_loop;
    if (L < 0) continue;
    auto in_loop = [&](int step) {
      auto enc = ir::enclosing_blocks(s, s.steps.at(step).block);
      return std::find(enc.begin(), enc.end(), L) != enc.end();
    };
    TraceTile cur{key.first, key.second, -1, 0, 0};
    bool open = false;
    TraceEvent const* prev = nullptr;
    for (TraceEvent const* e : evs) {
      bool in = in_loop(e->step);
      bool start = in && (!prev || !in_loop(prev->step) ||
                          (e->step <= prev->step && common_loop(s, prev->step, e->step) == L));
      if (start) {
        if (open) out.push_back(cur);
        cur.index++;
        cur.begin = e->begin;
        open = true;
      }
      if (in) cur.end = e->end;
      if (!in && open) {
        out.push_back(cur);
        open = false;
      }
      prev = e;
    }
    if (open) out.push_back(cur);
  }
  return out;
}

std::string trace_chrome_json(Model const& m, Trace const& t) {
  JsonWriter w;
  bool ns = t.clock == "ns";
  w.begin_object();
  w.key("displayTimeUnit").value(ns ? "ns" : "ms");
  w.key("otherData").begin_object();
  w.field("clock", t.clock);
  std::vector<std::string> tasks, resources;
  for (auto const& task : m.tasks) tasks.push_back(task.name);
  for (size_t r = 0; r < m.resources.size(); ++r) resources.push_back(m.resource(int(r)).name);
  w.strings("tasks", tasks);
  w.strings("resources", resources);
  if (!t.events.empty()) {
    try {
      auto rep = stall_report(m, t);
      w.field("stall_bound", rep.bound);
      w.field("stall_verdict", rep.verdict);
    } catch (StallError const& e) {
      w.field("stall_error", std::string(e.what()));
    }
  }
  w.end_object();
  w.key("traceEvents").begin_array();
  std::map<int, bool> ctas;
  for (auto const& e : t.events) ctas[e.cta] = true;
  auto tiles = trace_tiles(m, t);
  std::set<std::pair<int, int>> tiled;
  for (auto const& tl : tiles) tiled.insert({tl.cta, tl.task});
  for (auto const& [cta, _] : ctas) {
    w.begin_object().field("ph", "M").field("name", "process_name").field("pid", cta).key("args").begin_object();
    w.field("name", "CTA " + std::to_string(cta)).end_object().end_object();
    for (size_t task = 0; task < m.tasks.size(); ++task) {
      w.begin_object().field("ph", "M").field("name", "thread_name").field("pid", cta).field("tid", int(task));
      w.key("args").begin_object().field("name", m.tasks[task].name).end_object().end_object();
      w.begin_object().field("ph", "M").field("name", "thread_sort_index").field("pid", cta).field("tid", int(task));
      w.key("args").begin_object().field("sort_index", int(2 * task)).end_object().end_object();
      if (!tiled.count({cta, int(task)})) continue;
      w.begin_object().field("ph", "M").field("name", "thread_name").field("pid", cta).field("tid", 1000 + int(task));
      w.key("args").begin_object().field("name", m.tasks[task].name + " tiles").end_object().end_object();
      w.begin_object().field("ph", "M").field("name", "thread_sort_index").field("pid", cta).field("tid", 1000 + int(task));
      w.key("args").begin_object().field("sort_index", int(2 * task + 1)).end_object().end_object();
    }
  }
  // Chrome timestamps are microseconds: nanoseconds become fractional microseconds,
  // logical ticks map 1:1.
  auto stamp = [&](long long v) -> JsonWriter& { return ns ? w.number(double(v) * 1e-3) : w.value(v); };
  for (auto const& e : t.events) {
    auto const& step = m.tasks.at(e.task).schedule.steps.at(e.step);
    w.begin_object();
    w.field("name", m.step_text(e.task, e.step));
    w.field("cat", op_name(step));
    w.field("ph", "X");
    w.key("ts");
    stamp(e.begin);
    w.key("dur");
    if (ns) w.number(std::max(1e-3, double(e.end - e.begin) * 1e-3));
    else w.value(std::max(1LL, e.end - e.begin));
    w.field("pid", e.cta);
    w.field("tid", e.task);
    w.key("args").begin_object().field("step", e.step).field("section", ir::to_string(step.section));
    w.field("resource", step.resource >= 0 && step.resource < int(m.resources.size()) ? m.resource(step.resource).name
                                                                                       : std::string());
    w.field("stall", kind_of(op_name(step)));
    w.field("begin", e.begin).field("end", e.end);
    w.end_object();
    w.end_object();
  }
  for (auto const& tl : tiles)
    for (int edge = 0; edge < 2; ++edge) {
      w.begin_object();
      w.field("name", "tile " + std::to_string(tl.index));
      w.field("cat", "tile");
      w.field("ph", edge ? "E" : "B");
      w.key("ts");
      stamp(edge ? tl.end : tl.begin);
      w.field("pid", tl.cta);
      w.field("tid", 1000 + tl.task);
      if (!edge) w.key("args").begin_object().field("tile", tl.index).end_object();
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
  std::set<std::string> kinds;
  for (auto const& e : t.events) {
    lane.emplace(std::make_pair(e.cta, e.task), 0);
    t0 = first ? e.begin : std::min(t0, e.begin);
    t1 = first ? e.end : std::max(t1, e.end);
    first = false;
    kinds.insert(kind_of(op_name(m.tasks.at(e.task).schedule.steps.at(e.step))));
  }
  int i = 0;
  for (auto& [k, v] : lane) v = i++;
  long long span = std::max(1LL, t1 - t0);
  int const label = 200, plot_w = 870, width = label + plot_w + 24;
  int const lane_h = lane.size() > 48 ? 12 : 22, axis_h = 36;
  int const plot_h = std::max(1, int(lane.size()) * lane_h);
  int const height = axis_h + plot_h + 8;
  std::string clock = t.clock.empty() ? "logical" : t.clock;

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"ts-trace\" id=\"ts-trace\" width=\"" << width
      << "\" height=\"" << height << "\" font-family=\"monospace\" font-size=\"11\" data-clock=\"" << xml(clock)
      << "\" data-span=\"" << span << "\" data-plot-x=\"" << label << "\" data-plot-w=\"" << plot_w << "\" data-axis-h=\""
      << axis_h << "\" data-plot-h=\"" << plot_h << "\">\n";
  // CTA bands behind the lanes (alternating), lane labels (task names, always visible).
  int prev_cta = -1, band = 0;
  for (auto const& [k, v] : lane) {
    if (k.first != prev_cta) {
      prev_cta = k.first;
      ++band;
    }
    int y = axis_h + v * lane_h;
    svg << "<rect class=\"cta-band\" x=\"0\" y=\"" << y << "\" width=\"" << width - 4 << "\" height=\"" << lane_h
        << "\" fill=\"" << (band % 2 ? "#f8fafc" : "#eef2f7") << "\"/>\n";
  }
  for (auto const& [k, v] : lane)
    svg << "<text class=\"trace-lane\" data-cta=\"" << k.first << "\" data-task=\"" << xml(m.tasks[k.second].name)
        << "\" x=\"6\" y=\"" << axis_h + v * lane_h + lane_h / 2 + 4 << "\" font-weight=\""
        << (k.second == 0 ? "bold" : "normal") << "\">CTA " << k.first << " " << xml(m.tasks[k.second].name)
        << "</text>\n";
  // The axis: drawn for the whole trace here, redrawn by the script on zoom and pan.
  double step = nice_step(double(span) / 8.0, clock == "logical");
  auto [scale, unit] = unit_of(clock, step);
  svg << "<g class=\"trace-axis\" id=\"ts-axis\">\n";
  for (double v = 0; v <= double(span) + 1e-9; v += step) {
    double x = label + v / double(span) * plot_w;
    svg << "<g class=\"axis-tick\"><line x1=\"" << x << "\" x2=\"" << x << "\" y1=\"" << axis_h - 10 << "\" y2=\""
        << axis_h + plot_h << "\" stroke=\"#cbd5e1\" stroke-width=\"0.6\"/><text x=\"" << x << "\" y=\"" << axis_h - 13
        << "\" text-anchor=\"middle\">" << tick_text(v, step, scale) << "</text></g>\n";
  }
  svg << "<line class=\"axis-line\" x1=\"" << label << "\" x2=\""
      << label + plot_w << "\" y1=\"" << axis_h - 5.5 << "\" y2=\"" << axis_h - 5.5
      << "\" stroke=\"#334155\" shape-rendering=\"crispEdges\"/>\n";
  svg << "</g>\n<text class=\"axis-unit\" id=\"ts-axis-unit\" x=\"6\" y=\"" << axis_h - 13 << "\">time (" << xml(unit)
      << ")</text>\n";
  // The plot: a nested SVG in trace time units, stretched to the plot width; zoom and pan
  // change its viewBox only (strokes keep their width).
  svg << "<svg class=\"trace-plot\" id=\"ts-plot\" x=\"" << label << "\" y=\"" << axis_h << "\" width=\"" << plot_w
      << "\" height=\"" << plot_h << "\" viewBox=\"0 0 " << span << " " << plot_h
      << "\" preserveAspectRatio=\"none\">\n";
  for (auto const& e : t.events) {
    auto const& st = m.tasks.at(e.task).schedule.steps.at(e.step);
    std::string kind = kind_of(op_name(st));
    int y = lane[{e.cta, e.task}] * lane_h;
    svg << "<rect class=\"trace-step step-" << kind << "\" x=\"" << e.begin - t0 << "\" y=\"" << y + 2 << "\" width=\""
        << std::max(0LL, e.end - e.begin) << "\" height=\"" << lane_h - 4 << "\" fill=\"" << color_of(kind)
        << "\" stroke=\"#64748b\" stroke-width=\"0.3\" vector-effect=\"non-scaling-stroke\">"
        << "<title>CTA " << e.cta << " " << xml(m.tasks[e.task].name) << ": " << xml(m.step_text(e.task, e.step))
        << " [" << e.begin << ", " << e.end << ") " << ir::to_string(st.section) << "</title></rect>\n";
  }
  for (auto const& tl : trace_tiles(m, t)) {
    int y = lane[{tl.cta, tl.task}] * lane_h;
    svg << "<line class=\"tile-boundary\" x1=\"" << tl.begin - t0 << "\" x2=\"" << tl.begin - t0 << "\" y1=\"" << y
        << "\" y2=\"" << y + lane_h << "\" stroke=\"#0f172a\" stroke-width=\"1.5\" vector-effect=\"non-scaling-stroke\">"
        << "<title>CTA " << tl.cta << " " << xml(m.tasks[tl.task].name) << ": tile " << tl.index << " [" << tl.begin
        << ", " << tl.end << ")</title></line>\n";
  }
  svg << "</svg>\n<g class=\"step-labels\" id=\"ts-labels\" font-size=\"10\" pointer-events=\"none\"></g>\n</svg>\n";

  std::ostringstream legend;
  legend << "<div class=\"trace-legend\" id=\"ts-legend\">";
  for (auto const& k : kColors)
    if (kinds.count(k.kind))
      legend << "<span class=\"legend-item\" data-kind=\"" << k.kind
             << "\"><svg width=\"14\" height=\"10\"><rect width=\"14\" height=\"10\" fill=\"" << k.color
             << "\" stroke=\"#64748b\" stroke-width=\"0.5\"/></svg> " << k.kind << "</span>";
  legend << "<span class=\"legend-item\" data-kind=\"tile-boundary\"><svg width=\"14\" height=\"10\"><line x1=\"7\" "
            "x2=\"7\" y1=\"0\" y2=\"10\" stroke=\"#0f172a\" stroke-width=\"2\"/></svg> tile boundary</span></div>\n";

  std::string stalls;
  try {
    stalls = stall_html(stall_report(m, t));
  } catch (StallError const& e) {
    stalls = "<section class=\"ts-stalls\"><h2>Stall attribution</h2><p class=\"stall-error\">" +
             xml(e.what()) + "</p></section>\n";
  }

  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << xml(title) << "</title><style>\n"
     << "body{font-family:sans-serif;margin:16px;color:#0f172a}\n"
     << ".trace-legend{margin:6px 0;font-size:13px}.legend-item{margin-right:14px;white-space:nowrap}\n"
     << ".legend-item svg{vertical-align:middle}\n"
     << ".trace-toolbar{margin:6px 0;font-size:13px}.trace-toolbar button{margin-right:4px}\n"
     << "#ts-trace{cursor:grab;user-select:none}#ts-trace.dragging{cursor:grabbing}\n"
     << ".stall-table{border-collapse:collapse;margin:6px 0;font-size:13px}\n"
     << ".stall-table td,.stall-table th{border:1px solid #cbd5e1;padding:2px 8px;text-align:right}\n"
     << ".stall-table td:first-child,.stall-table th:first-child{text-align:left}\n"
     << ".stall-verdict{max-width:1080px;background:#fef9c3;padding:8px;border-left:4px solid #ca8a04}\n"
     << ".stall-note{font-size:12px;color:#475569}\n</style></head>\n<body>\n<h1>" << xml(title) << "</h1>\n<p>"
     << t.events.size() << " steps, " << lane.size() << " lanes (CTA x task), clock: " << xml(clock)
     << ". Hover a step for its name and interval.</p>\n"
     << stalls << "<h2>Timeline</h2>\n" << legend.str()
     << "<div class=\"trace-toolbar\"><button id=\"ts-zoom-in\" title=\"zoom in (+)\">+</button>"
        "<button id=\"ts-zoom-out\" title=\"zoom out (-)\">&#8722;</button><button id=\"ts-reset\" title=\"whole "
        "trace (0)\">reset</button> <span id=\"ts-view\"></span> &#8212; wheel over the lanes: zoom; drag: pan; "
        "arrow keys: pan; #view=start,width in the URL</div>\n"
     << svg.str() << R"JS(<script>
(function () {
  var svg = document.getElementById('ts-trace'), plot = document.getElementById('ts-plot');
  var axis = document.getElementById('ts-axis'), unitEl = document.getElementById('ts-axis-unit');
  var span = +svg.dataset.span, clock = svg.dataset.clock, PX = +svg.dataset.plotX, PW = +svg.dataset.plotW;
  var AH = +svg.dataset.axisH, PH = +svg.dataset.plotH, NS = 'http://www.w3.org/2000/svg';
  var v0 = 0, vw = span, minw = Math.min(span, clock === 'logical' ? 4 : 10);
  function niceStep(raw) {
    if (!(raw > 0)) return 1;
    var mag = Math.pow(10, Math.floor(Math.log10(raw))), n = raw / mag;
    var s = (n < 1.5 ? 1 : n < 3.5 ? 2 : n < 7.5 ? 5 : 10) * mag;
    return clock === 'logical' ? Math.max(1, Math.round(s)) : s;
  }
  function unitOf(step) {
    if (clock === 'ns') return step >= 1e6 ? [1e6, 'ms'] : step >= 1e3 ? [1e3, '\u00b5s'] : [1, 'ns'];
    if (clock === 'us') return step >= 1e3 ? [1e3, 'ms'] : [1, '\u00b5s'];
    return [1, clock === 'logical' ? 'decisions' : clock];
  }
  function el(name, attrs, text) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // Step names on the steps wide enough to hold them (at the current zoom).
  var steps = plot.querySelectorAll('rect.trace-step'), labels = document.getElementById('ts-labels');
  function drawLabels() {
    while (labels.childNodes.length > 0) labels.removeChild(labels.lastChild);
    var k = PW / vw, n = 0;
    for (var i = 0; i < steps.length && n < 3000; ++i) {
      var r = steps[i], x = +r.getAttribute('x'), w = +r.getAttribute('width');
      var x0 = Math.max(x, v0), x1 = Math.min(x + w, v0 + vw), chars = Math.floor(((x1 - x0) * k - 6) / 6.1);
      if (chars < 4) continue;
      var t = r.firstChild ? r.firstChild.textContent : '', a = t.indexOf(': '), b = t.lastIndexOf(' [');
      var name = t.substring(a + 2, b > a ? b : t.length);
      if (name.length > chars) name = name.substring(0, chars - 1) + '\u2026';
      labels.appendChild(el('text', {'class': 'step-label', x: PX + (x0 - v0) * k + 3,
                                     y: AH + +r.getAttribute('y') + +r.getAttribute('height') / 2 + 3.5}, name));
      ++n;
    }
  }
  function draw() {
    plot.setAttribute('viewBox', v0 + ' 0 ' + vw + ' ' + PH);
    drawLabels();
    while (axis.childNodes.length > 0) axis.removeChild(axis.lastChild);
    var step = niceStep(vw / 8), u = unitOf(step), s = step / u[0];
    var dec = s >= 1 ? 0 : Math.min(6, Math.ceil(-Math.log10(s) - 1e-9));
    for (var v = Math.ceil(v0 / step) * step; v <= v0 + vw + 1e-9; v += step) {
      var x = PX + (v - v0) / vw * PW, g = el('g', {'class': 'axis-tick'});
      g.appendChild(el('line', {x1: x, x2: x, y1: AH - 10, y2: AH + PH, stroke: '#cbd5e1', 'stroke-width': 0.6}));
      g.appendChild(el('text', {x: x, y: AH - 13, 'text-anchor': 'middle'}, (v / u[0]).toFixed(dec)));
      axis.appendChild(g);
    }
    axis.appendChild(el('line', {'class': 'axis-line', x1: PX, x2: PX + PW, y1: AH - 5.5, y2: AH - 5.5, stroke: '#334155',
                                   'shape-rendering': 'crispEdges'}));
    unitEl.textContent = 'time (' + u[1] + ')';
    document.getElementById('ts-view').textContent = 'view ' + (v0 / u[0]).toFixed(dec) + ' .. ' +
      ((v0 + vw) / u[0]).toFixed(dec) + ' ' + u[1] + ' (' + (100 * vw / span).toFixed(1) + ' % of the trace)';
  }
  function clamp() {
    vw = Math.max(minw, Math.min(span, vw));
    v0 = Math.max(0, Math.min(span - vw, v0));
  }
  function zoom(f, at) {  // at: fraction of the plot width that stays put
    var t = v0 + at * vw;
    vw *= f;
    v0 = t - at * vw;
    clamp();
    draw();
  }
  svg.addEventListener('wheel', function (e) {
    var r = plot.getBoundingClientRect(), at = (e.clientX - r.left) / r.width;
    if (at < 0 || at > 1) return;
    e.preventDefault();
    zoom(e.deltaY < 0 ? 0.8 : 1.25, at);
  }, {passive: false});
  var drag = null;
  svg.addEventListener('mousedown', function (e) { drag = {x: e.clientX, v0: v0}; svg.classList.add('dragging'); });
  window.addEventListener('mousemove', function (e) {
    if (!drag) return;
    v0 = drag.v0 - (e.clientX - drag.x) / plot.getBoundingClientRect().width * vw;
    clamp();
    draw();
  });
  window.addEventListener('mouseup', function () { drag = null; svg.classList.remove('dragging'); });
  document.getElementById('ts-zoom-in').onclick = function () { zoom(0.5, 0.5); };
  document.getElementById('ts-zoom-out').onclick = function () { zoom(2, 0.5); };
  document.getElementById('ts-reset').onclick = function () { v0 = 0; vw = span; draw(); };
  window.addEventListener('keydown', function (e) {
    if (e.key === '+' || e.key === '=') zoom(0.5, 0.5);
    else if (e.key === '-') zoom(2, 0.5);
    else if (e.key === '0') { v0 = 0; vw = span; draw(); }
    else if (e.key === 'ArrowLeft') { v0 -= vw / 4; clamp(); draw(); }
    else if (e.key === 'ArrowRight') { v0 += vw / 4; clamp(); draw(); }
  });
  window.tsTrace = {zoom: zoom, view: function () { return [v0, vw]; },
                    set: function (a, w) { v0 = a; vw = w; clamp(); draw(); }};
  // #view=<start>,<width> (trace clock units from the first step) opens a zoomed view.
  var m = /view=([0-9.e+-]+),([0-9.e+-]+)/.exec(location.hash);
  if (m) { v0 = +m[1]; vw = +m[2]; clamp(); }
  draw();
})();
</script>
)JS" << "</body></html>\n";
  return os.str();
}

}  // namespace ts::print
