// A TS kernel under the dynamic (global-counter) scheduler, as the GEMM benches launch it:
// the manager, the queue's counter (zeroed on the stream before each launch) and its
// response scratch (grid x ts::kQueueMaxStages), both in device memory.
#pragma once
#include <cstddef>
#include <memory>

#include "../cuda_check.cuh"
#include "ts/runtime/cuda/launch.cuh"

namespace bench {

template <class Manager>
struct DynamicRun {
  std::unique_ptr<Manager> tm;
  unsigned* counter = nullptr;
  ts::QueueResponse* scratch = nullptr;
  int grid = 0;
  // One CTA per SM, at most one per queue item; the scheduler state to build the manager with.
  ts::GlobalCounterScheduler allocate(int items, int sms) {
    grid = items < sms ? items : sms;
    BENCH_CHECK(cudaMalloc(&counter, sizeof(unsigned)));
    BENCH_CHECK(cudaMalloc(&scratch, sizeof(ts::QueueResponse) * size_t(grid) * ts::kQueueMaxStages));
    return ts::GlobalCounterScheduler{counter, scratch};
  }
  void launch(cudaStream_t st = 0) const {
    ts::cuda::reset_queue(counter, st);
    ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>>(*tm, grid, st);
  }
  ~DynamicRun() {
    cudaFree(counter);
    cudaFree(scratch);
  }
};

}  // namespace bench
