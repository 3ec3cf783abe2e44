#include <sstream>

#include "ts/print/pictures.hpp"

namespace ts::print {

namespace {

std::string resource_label(ResourceDecl const& r) {
  std::string l = r.name + "\\n" + r.type_name;
  if (r.pipeline) l += "\\n" + to_string(r.pipeline->type) + " x" + std::to_string(r.pipeline->num_stages);
  return l;
}

std::string task_label(TaskModel const& t) {
  return t.name + "\\n[" + std::to_string(t.warp_start) + ":" + std::to_string(t.warp_end()) + ")";
}

std::string esc(std::string s) {
  std::string o;
  for (char c : s) o += (c == '"') ? std::string("\\\"") : std::string(1, c);
  return o;
}

}  // namespace

std::string dependency_dot(Model const& m, std::string const& title) {
  std::ostringstream os;
  os << "digraph \"" << esc(title) << "\" {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n";
  for (size_t r = 0; r < m.resources.size(); ++r) {
    auto const& d = *m.resources[r];
    os << "  r" << r << " [shape=box, style=\"rounded" << (d.pipelined() ? ",filled\", fillcolor=\"#dbeafe\"" : "\"")
       << ", label=\"" << esc(resource_label(d)) << "\"];\n";
  }
  for (size_t t = 0; t < m.tasks.size(); ++t)
    os << "  t" << t << " [shape=ellipse, style=filled, fillcolor=\"#fef3c7\", label=\"" << esc(task_label(m.tasks[t]))
       << "\"];\n";
  for (size_t t = 0; t < m.tasks.size(); ++t) {
    for (int r : m.tasks[t].reads) os << "  r" << r << " -> t" << t << " [label=\"reads\"];\n";
    for (int r : m.tasks[t].writes) os << "  t" << t << " -> r" << r << " [label=\"writes\"];\n";
  }
  for (auto const& e : m.graph)
    for (int u : e.upstream)
      os << "  r" << u << " -> r" << e.resource << " [style=dashed, color=\"#6b7280\", label=\"before\"];\n";
  os << "}\n";
  return os.str();
}

std::string dependency_mermaid(Model const& m) {
  std::ostringstream os;
  auto mer = [](std::string s) {
    std::string o;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == 'n') {
        o += "<br/>";
        ++i;
      } else if (s[i] == '"') {
        o += "#quot;";
      } else {
        o += s[i];
      }
    }
    return o;
  };
  os << "flowchart LR\n";
  for (size_t r = 0; r < m.resources.size(); ++r)
    os << "  r" << r << "[\"" << mer(resource_label(*m.resources[r])) << "\"]\n";
  for (size_t t = 0; t < m.tasks.size(); ++t) os << "  t" << t << "([\"" << mer(task_label(m.tasks[t])) << "\"])\n";
  for (size_t t = 0; t < m.tasks.size(); ++t) {
    for (int r : m.tasks[t].reads) os << "  r" << r << " -->|reads| t" << t << "\n";
    for (int r : m.tasks[t].writes) os << "  t" << t << " -->|writes| r" << r << "\n";
  }
  for (auto const& e : m.graph)
    for (int u : e.upstream) os << "  r" << u << " -.->|before| r" << e.resource << "\n";
  return os.str();
}

}  // namespace ts::print
