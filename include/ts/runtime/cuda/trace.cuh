// In-kernel step tracing on the GPU (sm_90a). With LaunchOptions::trace set, the kernel
// runs with a TracingArch: one thread of every task (lane 31 of its first warp) keeps
// one 8-byte record per traced step (the SM clock's low word, kind, resource) in a ring
// in SMEM, and hands each full half of it (16 records) to the copy engine, which writes
// it to the task's region of a device buffer. Each tile boundary (the queue advance)
// adds an anchor tying the clock to %globaltimer. The host decodes the records into
// ts::Trace (ns; step ids matched against the recorded schedules), which ts::print
// exports as Chrome trace-event JSON or draws as HTML. Tracing off compiles a different
// kernel with no hooks at all.
//
// Why on chip: a 16-byte global store, its address arithmetic and a %globaltimer read per
// step, inside the wgmma issue loop, cost the 8192^3 GEMM 9-21 % (bench/RESULTS.md); an
// SMEM store and a clock read per step cost a few cycles, and one bulk copy per 16 steps
// a few more.
//
// The level is a compile-time choice (ts::cuda::launch<Plan, Level>):
//   Tile  — one record per tile (the queue advance): per-tile time of every task;
//   Stage — the blocking ops (acquire, wait), each closed by a record of the step after
//           it: exactly the blocked intervals the stall report needs, and the tiles;
//   Step  — every schedule step.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ts/arch/cuda_copy.cuh"
#include "ts/runtime/cuda/trace_records.hpp"
#include "ts/runtime/exec_context.hpp"

namespace ts::cuda {

// Device side: where the records go (carried in the kernel parameters).
struct TraceTarget {
  TraceRecord* records = nullptr;  // [grid][tasks][capacity]
  int capacity = 0;                // records per (CTA, task), anchors included
  int tasks = 0;
};

#if defined(__CUDACC__)
namespace detail {
struct TraceHeader {
  TraceRecord* out;  // this (CTA, task)'s region
  int written;       // records copied there (a multiple of a half)
  int capacity;
};
// The low word of clock64 (a fixed-latency read; %clock is not).
__device__ __forceinline__ uint32_t trace_cycles() {
  unsigned long long c;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c));
  return uint32_t(c);
}
// No "memory" clobber: nothing but the copy engine reads the ring, and the copy is
// ordered after these stores by fence.proxy.async (a clobbering asm); a clobber here
// would pin every memory access of the issue loop around each traced step.
__device__ __forceinline__ void trace_put(uint32_t at, uint32_t t, int kind, int resource) {
  uint32_t meta = uint32_t(uint16_t(kind + kTraceCodeBias)) | (uint32_t(uint16_t(resource)) << 16);
  asm volatile("st.shared.v2.b32 [%0], {%1, %2};" ::"r"(at), "r"(t), "r"(meta));
}
// The same store by the threads where `on` holds, as a predicated instruction: every
// thread of a task runs the hook, and a branch around the tracer's store would split
// its warp (and stall the warp group's next wgmma) at every traced step.
__device__ __forceinline__ void trace_put_if(bool on, uint32_t at, uint32_t t, int kind, int resource) {
  uint32_t meta = uint32_t(uint16_t(kind + kTraceCodeBias)) | (uint32_t(uint16_t(resource)) << 16);
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %0, 0;\n @p st.shared.v2.b32 [%1], {%2, %3};\n}" ::"r"(uint32_t(on)),
      "r"(at), "r"(t), "r"(meta));
}
__device__ __forceinline__ unsigned long long trace_ns() {
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}
}  // namespace detail

// Before any task starts (one thread; the barrier initialisation's __syncthreads
// publishes it): every task's header, and the anchor that opens its lane (the clock is
// per SM, so any thread of the CTA reads the tracer's clock).
__device__ __forceinline__ void init_trace_blocks(TraceTarget const& t, unsigned char* blocks) {
  uint32_t base = uint32_t(__cvta_generic_to_shared(blocks));
  for (int task = 0; task < t.tasks; ++task) {
    auto* h = reinterpret_cast<detail::TraceHeader*>(blocks + task * kTraceBlockBytes);
    h->out = t.records + (size_t(blockIdx.x) * t.tasks + task) * size_t(t.capacity);
    h->written = 0;
    h->capacity = t.capacity;
    uint32_t ring = base + task * kTraceBlockBytes + 16;
    unsigned long long ns = detail::trace_ns();
    detail::trace_put(ring, uint32_t(ns), kTraceAnchorNsLow, -1);
    detail::trace_put(ring + 8, uint32_t(ns >> 32), kTraceAnchorNsHigh, -1);
    detail::trace_put(ring + 16, detail::trace_cycles(), kTraceAnchorCycles, -1);
  }
}

template <class Base, TraceLevel L = TraceLevel::Step>
struct TracingArch : Base {
  uint32_t blocks = 0;   // shared-window address of task 0's trace block (all tasks' follow)
  int fill = 3;          // records in the tracer's ring (the opening anchor's three)
  bool closing = false;  // Stage: the next step ends a blocking op's interval

  // Every thread of a task runs the same hooks in the same order, so each keeps the
  // tracer's `fill` and takes the copy branch with it: only the stores and the copies are
  // the tracer's. The tracer is lane 31 of the task's first warp, not thread 0: bulk
  // groups are per thread, and thread 0 is the one that issues a task's own bulk stores
  // (the GEMM's epilogue); waiting for a trace copy there would wait for the epilogue's
  // store too, at every tile boundary. Lane 31 runs in step with lane 0, so its times are
  // the task's.
  static constexpr int kTracerThread = 31;
  __device__ bool tracer() const { return this->coord.thread_in_task == kTracerThread; }
  __device__ uint32_t ring_of(int task) const { return blocks + uint32_t(task) * kTraceBlockBytes + 16; }
  // The half ending at `fill` is complete: hand it to the copy engine (or drop it when
  // the region is full: decode_trace reports such regions), and make sure the copy of
  // the other half has read its SMEM before the tracer writes there again.
  __device__ void flush_half(int task) {
    if (tracer()) {
      uint32_t ring = ring_of(task);
      auto* h = reinterpret_cast<detail::TraceHeader*>(__cvta_shared_to_generic(ring - 16));
      int written = h->written;
      if (written + kTraceHalfRecords <= h->capacity) {
        uint32_t half = ring + uint32_t(fill - kTraceHalfRecords) * uint32_t(sizeof(TraceRecord));
        fence_proxy_async();  // this thread's st.shared -> the copy engine's read
        bulk_store(h->out + written, __cvta_shared_to_generic(half), kTraceHalfRecords * sizeof(TraceRecord));
        bulk_commit();
        h->written = written + kTraceHalfRecords;
      }
      bulk_wait_read<1>();  // the previous half's copy (issued 16 records ago) has read it
    }
    if (fill == kTraceRingRecords) fill = 0;
  }
  __device__ void push(int task, uint32_t t, int kind, int resource) {
    detail::trace_put_if(tracer(), ring_of(task) + uint32_t(fill) * uint32_t(sizeof(TraceRecord)), t, kind, resource);
    if (++fill % kTraceHalfRecords == 0) flush_half(task);
  }
  __device__ void record(int task, int resource, SyncOp op) {
    if constexpr (L == TraceLevel::Tile) {
      if (op != SyncOp::Advance) return;
    } else if constexpr (L == TraceLevel::Stage) {
      bool blocking = op == SyncOp::Acquire || op == SyncOp::Wait;
      bool keep = blocking || closing || op == SyncOp::Advance;
      closing = blocking;
      if (!keep) return;
    }
    push(task, detail::trace_cycles(), int(op), resource);
    if (op == SyncOp::Advance) {  // a tile boundary: anchor the next tile's cycles
      unsigned long long ns = detail::trace_ns();
      uint32_t c = detail::trace_cycles();
      push(task, uint32_t(ns), kTraceAnchorNsLow, -1);
      push(task, uint32_t(ns >> 32), kTraceAnchorNsHigh, -1);
      push(task, c, kTraceAnchorCycles, -1);
    }
  }
  // The task's schedule returned: pad the open half with unused slots, copy it, and
  // wait for every copy (the SMEM goes away with the CTA).
  __device__ void on_task_end(int task) {
    if (!tracer()) return;
    if (fill % kTraceHalfRecords != 0) {
      while (fill % kTraceHalfRecords != 0) {
        asm volatile("st.shared.v2.b32 [%0], {%1, %1};" ::"r"(ring_of(task) + uint32_t(fill) * 8u), "r"(0u));
        ++fill;
      }
      flush_half(task);
    }
    bulk_wait<0>();
  }
  __device__ void on_sync(int task, int resource, SyncOp op) { record(task, resource, op); }
  template <auto M>
  __device__ void on_work(int task, int resource) {
    record(task, resource, SyncOp::Work);
  }
};
#endif

// Host side: a buffer for `grid` CTAs of a manager with `tasks` tasks.
struct TraceBuffer {
  TraceRecord* records = nullptr;
  int grid = 0, tasks = 0, capacity = 0;
  TraceBuffer(int grid_blocks, int num_tasks, int records_per_task) : grid(grid_blocks), tasks(num_tasks), capacity(records_per_task) {
    if (capacity < kTraceHalfRecords || capacity % kTraceHalfRecords != 0)
      throw std::runtime_error("ts::cuda::TraceBuffer: records per task must be a positive multiple of " +
                               std::to_string(kTraceHalfRecords) + " (one copy's worth); got " +
                               std::to_string(records_per_task));
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

// Decodes the records of the last traced launch (synchronize first): see
// decode_trace_records (trace_records.hpp).
inline int decode_trace(Model const& m, TraceBuffer const& b, Trace& out) {
  std::vector<TraceRecord> h(size_t(b.grid) * b.tasks * b.capacity);
  if (cudaMemcpy(h.data(), b.records, h.size() * sizeof(TraceRecord), cudaMemcpyDeviceToHost) != cudaSuccess)
    throw std::runtime_error("ts::cuda::decode_trace: cudaMemcpy failed");
  return decode_trace_records(m, h, b.grid, b.tasks, b.capacity, out);
}

}  // namespace ts::cuda
