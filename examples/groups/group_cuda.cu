// The pipeline-group examples (11 Merge, 12 Fork, 13 FusedMerge) on the CUDA backend:
// the same resources and schedules the emulator runs, bound to device buffers, launched
// through ts::cuda::launch and checked against the host reference. The executing group
// view signals each shared barrier once, through the lead member: a second arrival would
// complete a phase early and the outputs would differ.
#include <memory>
#include <random>
#include <sstream>
#include <vector>

#include "copy/copy_cuda.cuh"
#include "groups/group_examples.hpp"
#include "ts/runtime/cuda/launch.cuh"

namespace examples {

namespace {

struct DeviceBuffers {
  long long n, padded;
  int16_t *x = nullptr, *y = nullptr, *out = nullptr, *out2 = nullptr;
  explicit DeviceBuffers(GroupBuffers const& h) : n(h.n), padded(GroupBuffers::padded(h.n)) {
    ts::cuda::check(cudaMalloc(&x, padded * 2), "cudaMalloc");
    ts::cuda::check(cudaMalloc(&y, padded * 2), "cudaMalloc");
    ts::cuda::check(cudaMalloc(&out, n * 2), "cudaMalloc");
    ts::cuda::check(cudaMalloc(&out2, n * 2), "cudaMalloc");
    ts::cuda::check(cudaMemcpy(x, h.x.data(), padded * 2, cudaMemcpyHostToDevice), "cudaMemcpy");
    ts::cuda::check(cudaMemcpy(y, h.y.data(), padded * 2, cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  ~DeviceBuffers() {
    cudaFree(x);
    cudaFree(y);
    cudaFree(out);
    cudaFree(out2);
  }
  void clear() {
    ts::cuda::check(cudaMemset(out, 0, n * 2), "cudaMemset");
    ts::cuda::check(cudaMemset(out2, 0, n * 2), "cudaMemset");
  }
  void fetch(GroupBuffers& h) const {
    ts::cuda::check(cudaMemcpy(h.out.data(), out, n * 2, cudaMemcpyDeviceToHost), "cudaMemcpy");
    ts::cuda::check(cudaMemcpy(h.out2.data(), out2, n * 2, cudaMemcpyDeviceToHost), "cudaMemcpy");
  }
};

template <class TM, class Check>
CudaExampleResult run_one(std::string name, TM tm, DeviceBuffers& d, GroupBuffers& h, int grid, std::ostream& log,
                          Check check) {
  CudaExampleResult r;
  r.name = std::move(name);
  std::ostringstream sink;
  r.verdict = ts::to_string(tm.print_and_verify(sink).verdict);
  log << sink.str();
  d.clear();
  ts::cuda::launch(tm, grid);
  ts::cuda::check(cudaDeviceSynchronize(), "kernel execution");
  d.fetch(h);
  r.result = check(h) ? "PASS" : "FAIL";
  r.detail = std::to_string(h.n) + " elements, " + std::to_string(grid) + " CTAs";
  return r;
}

}  // namespace

std::vector<CudaExampleResult> run_group_examples_cuda(long long elems, std::ostream& log) {
  std::vector<CudaExampleResult> out;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    out.push_back({"groups", "-", "SKIP", "no CUDA device"});
    return out;
  }
  GroupBuffers h(elems);
  DeviceBuffers d(h);
  int grid = ts::cuda::persistent_grid() * 4;
  ts::Options o;
  o.verbose = false;
  auto guarded = [&](std::string name, auto&& body) {
    try {
      out.push_back(body());
    } catch (std::exception const& e) {
      out.push_back({std::move(name), "?", "FAIL", e.what()});
    }
  };
  guarded("11_merge_sum", [&] {
    return run_one("11_merge_sum", make_merge_sum(d.x, d.y, d.out, d.n, o), d, h, grid, log,
                   [](GroupBuffers const& b) { return b.sum_matches(); });
  });
  guarded("12_fork_copy", [&] {
    return run_one("12_fork_copy", make_fork_copy(d.x, d.out, d.out2, d.n, o), d, h, grid, log,
                   [](GroupBuffers const& b) { return b.fork_matches(); });
  });
  guarded("13_fused_merge_sum", [&] {
    return run_one("13_fused_merge_sum", make_fused_merge_sum(d.x, d.y, d.out, d.n, o), d, h, grid, log,
                   [](GroupBuffers const& b) { return b.sum_matches(); });
  });
  return out;
}

}  // namespace examples
