// Small resources and helpers shared by the verify_*_test.cpp files. Each test writes
// its own schedule struct next to the assertion, so the mistake under test is visible.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ts/ts.hpp"
#include "ts/verify/static_checks.hpp"

namespace vt {

inline ts::Options quiet() { return ts::Options{.verbose = false, .exhaustive_check = false}; }

struct Src : ts::MemoryResource {
  int n = 8;
  TS_HD int load(ts::ConsumerStage const&) const { return 0; }
  TS_HD bool flag(ts::ConsumerStage const&) const { return true; }
  TS_HD void touch_in(ts::ConsumerStage const&) const {}
};
struct Dst : ts::MemoryResource {
  TS_HD void store(ts::ProducerStage const&, int) const {}
  TS_HD int bad_output(ts::ProducerStage const&) const { return 0; }
};
struct Buf : ts::MemoryResource {
  TS_HD void put(ts::ProducerStage const&, int) const {}
  TS_HD void fill(ts::ProducerStage const&) const {}
  TS_HD int take(ts::ConsumerStage const&) const { return 0; }
  TS_HD void touch(ts::ConsumerStage const&) const {}
  TS_HD void describe(ts::AuxStage const&) const {}
  TS_HD bool skip_tile(ts::WorkTile const&) const { return false; }
};
struct Queue : ts::WorkQueue {
  TS_HD bool skip_tile(ts::WorkTile const&) const { return false; }
};

inline ts::PipelineConfig async_cfg(int stages = 2, ts::CooperativeGroup prod = {ts::Agent::Thread, 32},
                                    ts::CooperativeGroup cons = {ts::Agent::Thread, 32}) {
  return ts::PipelineConfig::async_async({.num_stages = stages, .producer_group = prod, .consumer_group = cons});
}

// The canonical producer / consumer pair through a pipelined Buf (the near-miss base).
struct Produce {
  template <class S, class In, class B>
  void operator()(S& s, In& in, B& b) const {
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) {
      b.acquire();
      auto v = ts::work<&Src::load>(in);
      ts::work<&Buf::put>(b, v);
      b.commit();
    });
  }
};
struct Consume {
  template <class S, class B, class Out>
  void operator()(S& s, B& b, Out& out) const {
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) {
      b.wait();
      auto v = ts::work<&Buf::take>(b);
      ts::work<&Dst::store>(out, v);
      b.release();
    });
  }
};

inline std::vector<ts::Diagnostic> diags(ts::Model const& m) { return ts::verify::run_static_checks(m); }
inline std::vector<ts::Diagnostic> diags(ts::TaskManagerBase const& tm) { return diags(tm.model()); }

// The first diagnostic whose check id starts with `id` (a copy: callers often pass a
// temporary list), or nothing.
inline std::optional<ts::Diagnostic> find(std::vector<ts::Diagnostic> const& ds, std::string const& id) {
  for (auto const& d : ds)
    if (d.check.rfind(id, 0) == 0) {
      // TS_PRINT_DIAGS=1 prints the matched message: docs/checks.md quotes these.
      if (std::getenv("TS_PRINT_DIAGS")) std::fprintf(stderr, "DIAG %s\n", d.format().c_str());
      return d;
    }
  return std::nullopt;
}
// Prints a diagnostic caught as an exception under TS_PRINT_DIAGS=1 (docs/checks.md).
inline void note(ts::Diagnostic const& d) {
  if (std::getenv("TS_PRINT_DIAGS")) std::fprintf(stderr, "DIAG %s\n", d.format().c_str());
}
inline bool has(std::vector<ts::Diagnostic> const& ds, std::string const& id) { return find(ds, id).has_value(); }
inline std::string all(std::vector<ts::Diagnostic> const& ds) {
  std::string s;
  for (auto const& d : ds) s += d.format() + "\n";
  return s;
}

// A copy of the model whose resource declarations can be edited without touching the
// manager's (the declarations are shared pointers).
inline ts::Model editable(ts::TaskManagerBase const& tm) {
  ts::Model m = tm.model();
  for (auto& r : m.resources) r = std::make_shared<ts::ResourceDecl>(*r);
  return m;
}

}  // namespace vt
