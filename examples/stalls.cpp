// ts_stalls <trace.json> [--stall-pct P] [--dominance R]: reads a trace exported by
// ts::print::trace_chrome_json (emulator or GPU) and prints the stall attribution: per
// task, per task and resource, per resource, and the verdict (docs/pictures.md).
// Exit status: 0 printed, 1 the file is not a usable trace, 2 usage.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "ts/print/stall_report.hpp"

int main(int argc, char** argv) {
  auto usage = [] {
    std::cerr << "usage: ts_stalls <trace.json> [--stall-pct P] [--dominance R]\n"
                 "  P: a side is blocked at >= P % of its time in wait/acquire (default 10)\n"
                 "  R: one side dominates at >= R times the other side's share (default 2)\n";
    return 2;
  };
  std::string path;
  ts::print::StallThresholds th;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "--stall-pct" || a == "--dominance") && i + 1 < argc) {
      char* end = nullptr;
      double v = std::strtod(argv[++i], &end);
      if (!end || *end) return usage();
      (a == "--stall-pct" ? th.stall_pct : th.dominance) = v;
    } else if (a == "-h" || a == "--help") {
      return usage();
    } else if (path.empty() && (a.empty() || a[0] != '-')) {
      path = a;
    } else {
      return usage();
    }
  }
  if (path.empty()) return usage();
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "ts_stalls: cannot read " << path << "\n";
    return 1;
  }
  std::stringstream buf;
  buf << in.rdbuf();
  try {
    auto report = ts::print::stall_report(ts::print::stall_trace_from_chrome_json(buf.str()), th);
    std::cout << ts::print::stall_table(report);
  } catch (ts::print::StallError const& e) {
    std::cerr << "ts_stalls: " << path << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
