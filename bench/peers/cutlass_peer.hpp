// bench/peers: the CUTLASS peer kernels behind a plain interface (no CUTLASS type here, so
// the bench's own translation unit compiles with the TS flags and never sees CUTLASS).
// Every configuration is one translation unit (cutlass_<config>.cu) that only #includes
// CUTLASS from TS_CUTLASS_DIR; CUTLASS sources are never part of this repository.
#pragma once
#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

namespace peers {

// D (M x N, row-major) = A (M x K, row-major) * B^T with B stored N x K row-major: the
// layout of the TS GEMM (in CUTLASS's terms A RowMajor, B ColumnMajor, D RowMajor: "TN").
// bf16 operands and output, fp32 accumulate, alpha 1, beta 0 (no C operand).
struct GemmArgs {
  int m, n, k;
  void const* a;
  void const* b;
  void* d;
  int sms;
};

// One initialised CUTLASS GEMM (its parameters and workspace made once, so run() is only
// the launch).
class Runner {
 public:
  virtual ~Runner() = default;
  virtual bool ok() const = 0;             // can_implement and initialize succeeded
  virtual std::string const& why() const = 0;  // when not ok
  virtual void run(cudaStream_t stream) = 0;
};

struct Config {
  char const* name;  // e.g. coop_128x256x64_c1x2
  std::unique_ptr<Runner> (*make)(GemmArgs const&, int swizzle);
};

// The configurations of issue 15.4, in a fixed order.
std::vector<Config> const& cutlass_configs();

// CUTLASS_MAJOR.MINOR.PATCH of the headers the configurations were built with.
std::string cutlass_version();

}  // namespace peers
