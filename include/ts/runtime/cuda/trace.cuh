// In-kernel step tracing on the GPU (sm_90a). With LaunchOptions::trace set, the kernel
// runs with a TracingArch: the leading thread of every task (thread 0 of the task) writes
// one 16-byte record per schedule step it starts — %globaltimer, task, resource, kind — to
// its own region of a device buffer (no atomics: one writer per region). The host decodes
// the records into ts::Trace (step ids matched against the recorded schedules), which
// ts::print exports as Chrome trace-event JSON or draws as HTML. Tracing off compiles a
// different kernel with no hooks at all.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ts/core/trace.hpp"
#include "ts/schedule/model.hpp"
#include "ts/runtime/exec_context.hpp"
#include "ts/schedule/step_matching.hpp"

namespace ts::cuda {

struct TraceRecord {
  unsigned long long ns;  // %globaltimer at the step's start; 0 = unused slot
  int16_t task;
  int16_t resource;
  int16_t kind;           // SyncOp value (a sync op, or SyncOp::Work)
  int16_t pad;
};

// Device side: where the records go (carried in the kernel parameters).
struct TraceTarget {
  TraceRecord* records = nullptr;  // [grid][tasks][capacity]
  int capacity = 0;                // records per (CTA, task)
  int tasks = 0;
};

#if defined(__CUDACC__)
template <class Base>
struct TracingArch : Base {
  TraceTarget target;
  int written = 0;
  __device__ void record(int task, int resource, int16_t kind) {
    if (this->coord.thread_in_task != 0 || written >= target.capacity) return;
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    TraceRecord* r = target.records +
                     (size_t(this->coord.block_idx) * target.tasks + task) * size_t(target.capacity) + written++;
    *r = TraceRecord{t, int16_t(task), int16_t(resource), kind, 0};
  }
  __device__ void on_sync(int task, int resource, SyncOp op) { record(task, resource, int16_t(op)); }
  template <auto M>
  __device__ void on_work(int task, int resource) {
    record(task, resource, int16_t(SyncOp::Work));
  }
};
#endif

// Host side: a buffer for `grid` CTAs of a manager with `tasks` tasks.
struct TraceBuffer {
  TraceRecord* records = nullptr;
  int grid = 0, tasks = 0, capacity = 0;
  TraceBuffer(int grid_blocks, int num_tasks, int records_per_task) : grid(grid_blocks), tasks(num_tasks), capacity(records_per_task) {
    size_t bytes = size_t(grid) * tasks * capacity * sizeof(TraceRecord);
    if (cudaMalloc(&records, bytes) != cudaSuccess) throw std::runtime_error("ts::cuda::TraceBuffer: cudaMalloc failed");
    clear();
  }
  TraceBuffer(TraceBuffer const&) = delete;
  TraceBuffer& operator=(TraceBuffer const&) = delete;
  ~TraceBuffer() { cudaFree(records); }
  void clear(cudaStream_t s = nullptr) {
    cudaMemsetAsync(records, 0, size_t(grid) * tasks * capacity * sizeof(TraceRecord), s);
  }
  TraceTarget target() const { return TraceTarget{records, capacity, tasks}; }
};

// Decodes the records of the last traced launch (synchronize first) into step intervals:
// each step ends where the same leader's next step starts (a leader's last step gets 1 ns);
// times are relative to the earliest record. Returns the number of (CTA, task) regions
// that ran out of capacity (their later steps are missing).
inline int decode_trace(Model const& m, TraceBuffer const& b, Trace& out) {
  std::vector<TraceRecord> h(size_t(b.grid) * b.tasks * b.capacity);
  if (cudaMemcpy(h.data(), b.records, h.size() * sizeof(TraceRecord), cudaMemcpyDeviceToHost) != cudaSuccess)
    throw std::runtime_error("ts::cuda::decode_trace: cudaMemcpy failed");
  out.clock = "ns";
  out.events.clear();
  unsigned long long t0 = ~0ull;
  for (auto const& r : h)
    if (r.ns && r.ns < t0) t0 = r.ns;
  int full = 0;
  for (int cta = 0; cta < b.grid; ++cta)
    for (int task = 0; task < b.tasks && task < int(m.tasks.size()); ++task) {
      TraceRecord const* r = h.data() + (size_t(cta) * b.tasks + task) * b.capacity;
      int prev = -1;
      size_t first = out.events.size();
      int n = 0;
      for (; n < b.capacity && r[n].ns; ++n) {
        SyncOp kind = SyncOp(r[n].kind);
        int step = match_next_step(m.tasks[task].schedule, prev, kind, r[n].resource, nullptr);
        if (step < 0) continue;
        prev = step;
        out.events.push_back(TraceEvent{cta, task, step, (long long)(r[n].ns - t0), -1});
      }
      if (n == b.capacity) ++full;
      for (size_t i = first; i < out.events.size(); ++i)
        out.events[i].end = i + 1 < out.events.size() ? out.events[i + 1].begin : out.events[i].begin + 1;
    }
  return full;
}

}  // namespace ts::cuda
