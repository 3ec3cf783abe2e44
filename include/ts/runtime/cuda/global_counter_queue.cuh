// The device state of one kernel's dynamic (global-counter) work queue, owned: the tile
// counter, zeroed on the launch's stream before each launch, and the scratch of staged
// responses (grid x kQueueMaxStages, runtime/scheduler/global_counter_scheduler.hpp). One
// such state per kernel that launches one after another; overlapping launches need one
// each. Errors throw ts::cuda::LaunchError.
#pragma once
#include <cstddef>

#include "ts/runtime/cuda/launch.cuh"
#include "ts/runtime/scheduler/global_counter_scheduler.hpp"

namespace ts::cuda {

class GlobalCounterQueue {
 public:
  explicit GlobalCounterQueue(int grid) {
    check(cudaMalloc(&counter_, sizeof(unsigned)), "cudaMalloc(queue counter)");
    check(cudaMalloc(&scratch_, sizeof(QueueResponse) * size_t(grid) * kQueueMaxStages), "cudaMalloc(queue scratch)");
  }
  GlobalCounterQueue(GlobalCounterQueue const&) = delete;
  GlobalCounterQueue& operator=(GlobalCounterQueue const&) = delete;
  ~GlobalCounterQueue() {
    cudaFree(counter_);
    cudaFree(scratch_);
  }
  // The scheduler value a manager is built with (make_gemm(p, q.scheduler()), ...).
  GlobalCounterScheduler scheduler() const { return GlobalCounterScheduler{counter_, scratch_}; }
  // Before every launch, on the launch's stream.
  void reset(cudaStream_t stream) const { reset_queue(counter_, stream); }

 private:
  unsigned* counter_ = nullptr;
  QueueResponse* scratch_ = nullptr;
};

}  // namespace ts::cuda
