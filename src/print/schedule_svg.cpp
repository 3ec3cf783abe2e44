// The schedule picture: the sample run of simulation.hpp drawn as SVG lanes.
#include <algorithm>
#include <iterator>
#include <sstream>

#include "simulation.hpp"
#include "svg_style.hpp"
#include "ts/print/pictures.hpp"

namespace ts::print {

using namespace svg;

namespace {

char const* band_color(ir::Section s) {
  switch (s) {
    case ir::Section::Head: return "#f1f5f9";
    case ir::Section::Loop: return "#e0e7ff";
    case ir::Section::Tail: return "#fae8ff";
  }
  return "#ffffff";
}
// The strip at a band's left edge: the section at a glance.
char const* strip_color(ir::Section s) {
  switch (s) {
    case ir::Section::Head: return "#94a3b8";
    case ir::Section::Loop: return "#6366f1";
    case ir::Section::Tail: return "#d946ef";
  }
  return "#ffffff";
}

// Lane geometry: lanes kLaneWidth apart plus a gutter the handoff arrows run in, so an
// arrow never crosses a step label (it crosses other lanes only between two rows).
constexpr int kGutter = 28, kPitch = kLaneWidth + kGutter;
constexpr int kStrip = 6;                                  // section strip at the band's left
constexpr int kCellX = kStrip + 4, kCellW = kLaneWidth - 8 - kCellX - 4;  // cell inside the band
constexpr int kBandW = kLaneWidth - 8;
constexpr int kMaxChars = (kCellW - 12) * 10 / 66;         // monospace 11 px: about 6.6 px a character

std::string fit(std::string const& text) {
  if (int(text.size()) <= kMaxChars) return text;
  return text.substr(0, kMaxChars - 1) + "\u2026";
}

}  // namespace

std::string schedule_svg(Model const& m) {
  Simulation sim = simulate(m);
  int lanes = static_cast<int>(sim.headers.size());
  int rows = static_cast<int>(sim.rows.size());
  int width = kLeft * 2 + lanes * kPitch - kGutter;
  int legend_y = kHeader + rows * kRowHeight + 20;
  int per_row = std::max(1, (width - 2 * kLeft) / 120);
  int legend_rows = (static_cast<int>(std::size(kColors)) + 3 + per_row - 1) / per_row;
  int height = legend_y + legend_rows * 20 + 40 + static_cast<int>(sim.unbalanced.size()) * 18;
  auto cx = [&](int lane) { return kLeft + lane * kPitch; };
  auto cy = [&](int row) { return kHeader + row * kRowHeight; };

  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"ts-schedule\" width=\"" << width << "\" height=\"" << height
     << "\" font-family=\"monospace\" font-size=\"11\">\n";
  os << "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" "
        "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#475569\"/></marker></defs>\n";
  for (int l = 0; l < lanes; ++l) {
    os << "<g class=\"lane\" data-task=\"" << xml(m.tasks[l].name) << "\">\n";
    os << "<text class=\"lane-title\" x=\"" << cx(l) + kCellPad << "\" y=\"24\" font-size=\"13\" font-weight=\"bold\">"
       << xml(sim.headers[l]) << "</text>\n";
    // Section bands: each row's background shows where that task's step sits.
    for (int r = 0; r < rows; ++r) {
      auto const& c = sim.rows[r][l];
      if (!c) continue;
      os << "<rect class=\"band band-" << ir::to_string(c->section) << "\" x=\"" << cx(l) << "\" y=\"" << cy(r)
         << "\" width=\"" << kBandW << "\" height=\"" << kRowHeight << "\" fill=\"" << band_color(c->section)
         << "\"/><rect class=\"band-strip\" x=\"" << cx(l) << "\" y=\"" << cy(r) << "\" width=\"" << kStrip
         << "\" height=\"" << kRowHeight << "\" fill=\"" << strip_color(c->section) << "\"/>\n";
    }
    for (int r = 0; r < rows; ++r) {
      auto const& c = sim.rows[r][l];
      if (!c) continue;
      std::string kind = kind_of(c->op);
      os << "<g class=\"step step-" << kind << (c->blocked ? " blocked" : "") << "\" data-step=\"" << c->step
         << "\" data-row=\"" << r << "\">";
      os << "<rect x=\"" << cx(l) + kCellX << "\" y=\"" << cy(r) + 3 << "\" width=\"" << kCellW
         << "\" height=\"" << kRowHeight - 6 << "\" rx=\"4\" fill=\"" << color_of(kind) << "\""
         << (c->blocked ? " stroke=\"#dc2626\" stroke-width=\"2\" stroke-dasharray=\"4 2\"" : "") << "/>";
      os << "<title>" << xml(c->text) << (c->blocked ? " (blocked)" : "") << "</title>";
      os << "<text x=\"" << cx(l) + kCellX + 6 << "\" y=\"" << cy(r) + 17 << "\">"
         << xml(fit(c->text + (c->blocked ? "  BLOCKED" : ""))) << "</text></g>\n";
    }
    os << "</g>\n";
  }
  // Handoff arrows: from the commit/release that handed over the credit to the step that
  // took it, routed orthogonally: out of the source cell into the gutter beside it, along
  // the gutter, across any lanes in between on the row boundary above the target row (the
  // gap between two cells), down the gutter beside the target, into the target cell.
  // Arrows sharing a gutter are spread over a few tracks.
  auto gutter_x = [&](int left_lane, int track) {
    return cx(left_lane) + kBandW + (kPitch - kBandW) / 2 + (track % 5 - 2) * 5;
  };
  int arrow = 0;
  for (int r = 0; r < rows; ++r)
    for (int l = 0; l < lanes; ++l) {
      auto const& c = sim.rows[r][l];
      if (!c || !c->handoff || c->from_row < 0 || c->from_task == l) continue;
      int a = c->from_task, track = arrow++;
      bool rightward = a < l;
      int x1 = rightward ? cx(a) + kCellX + kCellW : cx(a) + kCellX;
      int x2 = rightward ? cx(l) + kCellX : cx(l) + kCellX + kCellW;
      int g1 = gutter_x(rightward ? a : a - 1, track), g2 = gutter_x(rightward ? l - 1 : l, track);
      int y1 = cy(c->from_row) + kRowHeight / 2, y2 = cy(r) + kRowHeight / 2;
      std::ostringstream d;
      d << "M" << x1 << "," << y1 << " H" << g1;
      if (g1 != g2) d << " V" << cy(r) + (track % 3 - 1) << " H" << g2;
      d << " V" << y2 << " H" << x2;
      os << "<path class=\"handoff\" data-from=\"" << xml(m.tasks[a].name) << "\" data-to=\"" << xml(m.tasks[l].name)
         << "\" d=\"" << d.str() << "\" fill=\"none\" stroke=\"#475569\" stroke-width=\"1.5\" "
         << "stroke-linejoin=\"round\" marker-end=\"url(#arrow)\"/>\n";
    }
  // Legend.
  int i = 0;
  for (auto const& k : kColors) {
    int x = kLeft + (i % per_row) * 120, ly = legend_y + (i / per_row) * 20;
    os << "<g class=\"legend\"><rect x=\"" << x << "\" y=\"" << ly << "\" width=\"14\" height=\"14\" fill=\""
       << k.color << "\"/><text x=\"" << x + 18 << "\" y=\"" << ly + 11 << "\">" << k.kind << "</text></g>\n";
    ++i;
  }
  for (ir::Section sec : {ir::Section::Head, ir::Section::Loop, ir::Section::Tail}) {
    int x = kLeft + (i % per_row) * 120, ly = legend_y + (i / per_row) * 20;
    os << "<g class=\"legend band-legend\"><rect x=\"" << x << "\" y=\"" << ly << "\" width=\"14\" height=\"14\" fill=\""
       << band_color(sec) << "\"/><rect x=\"" << x << "\" y=\"" << ly << "\" width=\"4\" height=\"14\" fill=\""
       << strip_color(sec) << "\"/><text x=\"" << x + 18 << "\" y=\"" << ly + 11 << "\">" << ir::to_string(sec)
       << " band</text></g>\n";
    ++i;
  }
  int y = legend_y + legend_rows * 20 + 20;
  if (sim.deadlock) {
    os << "<text class=\"deadlock\" x=\"" << kLeft << "\" y=\"" << y
       << "\" fill=\"#dc2626\">Simulation stopped: every remaining task is blocked.</text>\n";
    y += 18;
  }
  for (auto const& u : sim.unbalanced) {
    os << "<text class=\"unbalanced\" x=\"" << kLeft << "\" y=\"" << y << "\" fill=\"#b45309\">" << xml(u) << "</text>\n";
    y += 18;
  }
  os << "</svg>\n";
  return os.str();
}

std::string schedule_html(Model const& m, std::string const& title) {
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << xml(title) << "</title>\n"
     << "<style>body{font-family:sans-serif;margin:16px} .note{color:#475569;font-size:13px}</style></head>\n"
     << "<body>\n<h1>" << xml(title) << "</h1>\n"
     << "<p class=\"note\">One sample run (domain length " << m.options.sample_iterations
     << " where not static, one work tile, conditions taken); arrows are barrier handoffs (routed between the lanes); "
        "bands and the strip at their left: head (grey), loop (indigo), tail (magenta).</p>\n"
     << schedule_svg(m) << "</body></html>\n";
  return os.str();
}

}  // namespace ts::print
