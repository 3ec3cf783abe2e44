// A TS kernel under the dynamic (global-counter) scheduler, as the GEMM benches launch it:
// the manager and its queue's device state (ts::cuda::GlobalCounterQueue: the counter is
// zeroed on the stream before each launch).
#pragma once
#include <memory>

#include "ts/runtime/cuda/global_counter_queue.cuh"
#include "ts/runtime/cuda/launch.cuh"

namespace bench {

template <class Manager>
struct DynamicRun {
  std::unique_ptr<Manager> tm;
  std::unique_ptr<ts::cuda::GlobalCounterQueue> queue;
  int grid = 0;
  // One CTA per SM, at most one per queue item; the scheduler state to build the manager with.
  ts::GlobalCounterScheduler allocate(int items, int sms) {
    grid = items < sms ? items : sms;
    queue = std::make_unique<ts::cuda::GlobalCounterQueue>(grid);
    return queue->scheduler();
  }
  void launch(cudaStream_t st = 0) const {
    queue->reset(st);
    ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>>(*tm, grid, st);
  }
};

}  // namespace bench
