// Helpers shared by the CPU emulator tests.
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>

#include "ts/arch/portable.hpp"
#include "ts/runtime/cpu/run.hpp"
#include "ts/ts.hpp"

namespace cpu_test {

inline ts::Options quiet() {
  ts::Options o;
  o.verbose = false;
  return o;
}

// For models that deliberately contain a protocol mistake the static checks also catch:
// every finding becomes a warning, so the manager counts as verified and the emulator
// can show its own runtime detection of the same mistake.
inline ts::Options warnings_only() {
  ts::Options o = quiet();
  o.warning_mode = true;
  return o;
}

// The check ids of a verification report, for assertion messages.
inline std::string check_ids(ts::VerifyReport const& rep) {
  std::string s;
  for (auto const& d : rep.diagnostics) s += (s.empty() ? "" : ", ") + d.check;
  return s.empty() ? "(none)" : s;
}

// True when the report has a diagnostic with check id `id`, downgraded to a warning.
inline bool has_warning(ts::VerifyReport const& rep, std::string const& id) {
  for (auto const& d : rep.diagnostics)
    if (d.check == id && d.severity == ts::Severity::Warning) return true;
  return false;
}

// Runs a hand-written kernel body (no TaskManager) on the emulator.
inline ts::cpu::RunStats run_raw(std::function<void(ts::cpu::ThreadEntry const&)> body, int block_threads = 32,
                                 uint32_t smem_bytes = 1024, ts::cpu::RunOptions o = {}) {
  ts::cpu::Emulator emu(o);
  ts::cpu::KernelSpec k;
  k.grid_blocks = o.grid_blocks;
  k.block_threads = block_threads;
  k.smem_bytes = smem_bytes;
  k.entry = std::move(body);
  emu.add_kernel(std::move(k));
  return emu.run();
}

inline uint64_t* bar_at(ts::cpu::ThreadEntry const& e, int i) {
  return reinterpret_cast<uint64_t*>(e.kctx.smem_base) + i;
}

// Expects `f` to throw E whose message contains every one of `parts`.
template <class E, class F>
void expect_error(F&& f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "expected an exception";
  } catch (E const& e) {
    std::string msg = e.what();
    for (auto const& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "missing '" << p << "' in:\n" << msg;
  }
}

}  // namespace cpu_test
