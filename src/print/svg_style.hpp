// Shared look of the SVG pictures: XML escaping, step kinds and their colours.
#pragma once
#include <iterator>
#include <string>

namespace ts::print::svg {


inline constexpr int kLaneWidth = 300, kRowHeight = 26, kHeader = 40, kLeft = 20, kCellPad = 4;

inline std::string xml(std::string const& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

// Fill colour per step kind; the legend uses the same table.
struct KindColor {
  char const* kind;
  char const* color;
};
inline constexpr KindColor kColors[] = {
    {"acquire", "#93c5fd"}, {"commit", "#3b82f6"}, {"wait", "#86efac"}, {"release", "#22c55e"},
    {"producer-work", "#fde68a"}, {"consumer-work", "#fdba74"}, {"aux-work", "#e5e7eb"}, {"queue", "#c4b5fd"},
    {"break", "#fca5a5"},
};

inline std::string kind_of(std::string const& op) {
  if (op.find("Acquire") != std::string::npos) return "acquire";
  if (op == "ProducerCommit") return "commit";
  if (op.find("Wait") != std::string::npos) return "wait";
  if (op == "ConsumerRelease") return "release";
  if (op.rfind("ProducerWork", 0) == 0) return "producer-work";
  if (op.rfind("ConsumerWork", 0) == 0) return "consumer-work";
  if (op.rfind("AuxWork", 0) == 0) return "aux-work";
  if (op.rfind("Queue", 0) == 0) return "queue";
  return "break";
}

inline char const* color_of(std::string const& kind) {
  for (auto const& k : kColors)
    if (kind == k.kind) return k.color;
  return "#ffffff";
}

}  // namespace ts::print::svg
