// The copy examples on the CUDA backend. Each maker builds, prints (when verbose) and
// verifies the TaskManager for device buffers and returns a launcher the examples
// binary and the bench both call; run_copy_examples_cuda runs all of them against a
// host reference.
#pragma once
#include <cuda_runtime.h>

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace examples {

// Launches one copy of `bytes` bytes from src to dst on `stream`.
using CudaCopy = std::function<void(cudaStream_t)>;

struct CudaCopyInfo {
  std::string name;     // 01_grid_stride_copy ...
  std::string verdict;  // print_and_verify's verdict
  CudaCopy launch;
};

// bytes: a multiple of 64 (int16 chunks of 32 lanes) for 01/02, of 16 for 03;
// 04 copies whole tiles of kTileElems int32. `os` receives the printouts (may be null).
CudaCopyInfo make_grid_stride_copy_cuda(void const* src, void* dst, long long bytes, std::ostream* os);
CudaCopyInfo make_pipelined_copy_cuda(void const* src, void* dst, long long bytes, std::ostream* os);
CudaCopyInfo make_tma_copy_cuda(void const* src, void* dst, long long bytes, std::ostream* os);
// 03 with warp-group-sized tasks and a register plan (setmaxnreg): correctness only.
CudaCopyInfo make_tma_copy_regplan_cuda(void const* src, void* dst, long long bytes, std::ostream* os);
CudaCopyInfo make_dynamic_tile_copy_cuda(void const* src, void* dst, long long bytes, unsigned* counter,
                                         std::ostream* os);

struct CudaExampleResult {
  std::string name, verdict, result;  // result PASS | FAIL | SKIP
  std::string detail;
};

// Runs every example at `bytes` (random data, checked byte-for-byte against the
// source); returns one result per example. No GPU: one SKIP result.
std::vector<CudaExampleResult> run_copy_examples_cuda(long long bytes, std::ostream& log);

// The pipeline-group examples 11-13 (examples/groups/group_cuda.cu) at `elems` int16
// elements, checked against the host reference; no GPU: one SKIP result.
std::vector<CudaExampleResult> run_group_examples_cuda(long long elems, std::ostream& log);

}  // namespace examples
