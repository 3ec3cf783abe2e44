// ts_examples_cuda: the copy and pipeline-group examples on the GPU, checked against the host data.
//   ts_examples_cuda [bytes]      (default 64 MiB + 4 KiB, so tails are exercised)
// One line per example:
//   example <name> backend=cuda verdict=<...> result=<PASS|FAIL|SKIP>
#include <cstdlib>
#include <iostream>

#include "copy_cuda.cuh"

int main(int argc, char** argv) {
  long long bytes = argc > 1 ? std::atoll(argv[1]) : (64ll << 20) + 4096;
  bytes = bytes / 64 * 64;
  auto results = examples::run_copy_examples_cuda(bytes, std::cout);
  for (auto& r : examples::run_group_examples_cuda(bytes / 2 + 17, std::cout)) results.push_back(r);
  bool failed = false;
  for (auto const& r : results) {
    std::cout << "example " << r.name << " backend=cuda verdict=" << r.verdict << " result=" << r.result << "  ("
              << r.detail << ")\n";
    failed |= r.result == "FAIL";
  }
  return failed ? 1 : 0;
}
