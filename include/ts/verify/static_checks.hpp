// Static validation (SPEC S6, all items but S6.9): one pass per check family, each in
// its own file under src/verify/. docs/checks.md lists every check identifier.
#pragma once
#include <vector>

#include "ts/core/errors.hpp"
#include "ts/schedule/model.hpp"

namespace ts::verify {

// Hardware limits the capacity checks use. Defaults are the H200 (sm_90) ones; TMEM is
// sm_100's 512 columns (modelled for the CPU backend).
struct Limits {
  long long smem_bytes = 232448;  // 227 KB of dynamic shared memory per block
  int tmem_columns = 512;
  int register_file = 65536;      // 32-bit registers per block
};

// Runs every static check and returns all findings (errors, plus S6.14 warnings).
std::vector<Diagnostic> run_static_checks(Model const& model);
std::vector<Diagnostic> run_static_checks(Model const& model, Limits const& limits);

}  // namespace ts::verify
