#include "ts/check/counterexample.hpp"

#include <sstream>

namespace ts::check {
namespace {
std::string quote(std::string const& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (c == '\n') { o += "\\n"; continue; }
    o += c;
  }
  return o + "\"";
}
}  // namespace

std::string to_json(Model const& m, Counterexample const& c) {
  std::ostringstream os;
  os << "{\"kind\": " << quote(c.kind) << ", \"detail\": " << quote(c.detail)
     << ", \"domain_length\": " << c.length;
  if (!c.class_length.empty()) {
    os << ", \"class_lengths\": [";
    for (size_t i = 0; i < c.class_length.size(); ++i) os << (i ? ", " : "") << c.class_length[i];
    os << "]";
  }
  if (c.tiles >= 0) os << ", \"tiles\": " << c.tiles;
  os << ", \"skipped_tiles\": " << (c.skipped_tiles ? "true" : "false")
     << ", \"blocked\": [";
  for (size_t i = 0; i < c.blocked.size(); ++i) os << (i ? ", " : "") << quote(c.blocked[i]);
  os << "], \"events\": [";
  for (size_t i = 0; i < c.events.size(); ++i) {
    auto const& e = c.events[i];
    os << (i ? ",\n  " : "\n  ") << "{\"task\": " << e.task << ", \"task_name\": " << quote(m.tasks[e.task].name)
       << ", \"step\": " << e.step << ", \"text\": " << quote(m.step_text(e.task, e.step))
       << ", \"section\": " << quote(ir::to_string(e.section)) << ", \"iteration\": " << e.iteration
       << ", \"tile\": " << e.tile << "}";
  }
  os << "]}";
  return os.str();
}

}  // namespace ts::check
