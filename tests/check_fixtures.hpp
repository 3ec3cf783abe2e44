// Small schedules for the checker tests: each failure kind and its fixed version.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ts/check/counterexample.hpp"
#include "ts/ts.hpp"
#include "ts/check/checker.hpp"

namespace chk {

struct Buf : ts::MemoryResource {
  TS_HD void put(ts::ProducerStage const&) const {}
  TS_HD void take(ts::ConsumerStage const&) const {}
};
// Two resources whose SMEM shares one alias group in different phases (S9.4).
struct Ring : ts::MemoryResource {
  ts::SmemArray<float> data;
  void declare_allocations(ts::Allocations& a) { a.smem("data", data, 1024).alias("g", 0); }
  TS_HD void put(ts::ProducerStage const&) const {}
  TS_HD void take(ts::ConsumerStage const&) const {}
};
struct Scratch : ts::MemoryResource {
  ts::SmemArray<float> tmp;
  void declare_allocations(ts::Allocations& a) { a.smem("tmp", tmp, 1024).alias("g", 1); }
  TS_HD void scribble(ts::ProducerStage const&) const {}
};
struct Queue : ts::WorkQueue {
  TS_HD bool empty_tile(ts::WorkTile const&) const { return false; }
};
struct PdlIn : ts::PdlWait {};
struct PdlOut : ts::PdlLaunch {};

inline ts::Options opts(std::vector<long long> lengths = {}) {
  ts::Options o;
  o.verbose = false;
  o.check_lengths = std::move(lengths);
  return o;
}
// Every loop of these schedules runs at least once (k = 0 is covered by the tests that
// use ts::runtime without a minimum).
inline auto N() { return ts::runtime(4, "n").at_least(1); }

inline ts::PipelineConfig async1() { return ts::PipelineConfig::async_async({.num_stages = 1}); }

// Runs the checker on a model, with or without reduction, and checks that the other
// mode agrees on the verdict and the kind of failure (reduction must lose nothing).
inline ts::check::CheckerResult check(ts::Model m, bool reduction = true) {
  m.options.check_reduction = reduction;
  auto r = ts::check::run_exhaustive(m);
  m.options.check_reduction = !reduction;
  auto other = ts::check::run_exhaustive(m);
  EXPECT_EQ(r.verdict, other.verdict) << "POR and plain BFS disagree\n" << r.report << other.report;
  EXPECT_EQ(bool(r.failure), bool(other.failure));
  if (r.failure && other.failure) {
    EXPECT_EQ(r.failure->kind, other.failure->kind);
  }
  if (std::getenv("TS_CHECK_PRINT")) std::printf("%s%s\n", r.report.c_str(), r.failure_json.c_str());
  return r;
}

}  // namespace chk
