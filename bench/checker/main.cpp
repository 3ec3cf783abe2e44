// Checker benchmark: every named schedule at several domain lengths, with and without
// partial-order reduction, plus the parametric (every k) proof. One line per run.
//   bench_checker [--quick] [--cap N] [--only NAME] [--tiles T]
#include <cstdio>
#include <cstring>
#include <string>

#include "checker/schedules.hpp"
#include "ts/check/explore.hpp"

namespace {
const char* verdict_name(ts::Verdict v) {
  switch (v) {
    case ts::Verdict::Safe: return "SAFE";
    case ts::Verdict::SafeAllK: return "SAFE_ALL_K";
    case ts::Verdict::Unsafe: return "UNSAFE";
    default: return "INCOMPLETE";
  }
}
void line(std::string const& name, ts::Model const& m, ts::check::ProgramSet const& ps, ts::check::Config const& c) {
  auto r = ts::check::explore(m, ps, c);
  // Seconds are the exploring thread's CPU time: the benchmark box is shared, and wall
  // time there measures the neighbours as much as the checker.
  double secs = r.stats.cpu_seconds;
  double rate = secs > 0 ? double(r.stats.states) / secs : 0;
  std::string k = c.parametric ? "all" : std::to_string(c.length);
  std::printf("checker %s tasks=%zu k=%s mode=%s states=%llu seconds=%.3f states_per_s=%.0f verdict=%s\n", name.c_str(),
              m.tasks.size(), k.c_str(), c.reduction ? "por" : "bfs", (unsigned long long)r.stats.states,
              secs, rate, verdict_name(r.verdict));
  std::fflush(stdout);
}
}  // namespace

int main(int argc, char** argv) {
  long long cap = 20'000'000;
  bool quick = false;
  std::string only;
  int tiles = 2;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    if (!std::strcmp(argv[i], "--cap") && i + 1 < argc) cap = std::atoll(argv[++i]);
    if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    if (!std::strcmp(argv[i], "--tiles") && i + 1 < argc) tiles = std::atoi(argv[++i]);
  }
  for (auto const& s : bench::all_schedules()) {
    if (!only.empty() && s.name != only) continue;
    auto m = s.make();
    auto ps = ts::check::compile(m);
    std::vector<long long> ks = quick ? std::vector<long long>{8} : std::vector<long long>{8, 16, 64, 1024};
    for (bool por : {true, false}) {
      ts::check::Config c;
      c.state_cap = cap;
      c.tiles = tiles;
      c.reduction = por;
      c.parametric = true;
      line(s.name, m, ps, c);
      c.parametric = false;
      for (long long k : ks) {
        c.length = k;
        line(s.name, m, ps, c);
      }
    }
  }
}
