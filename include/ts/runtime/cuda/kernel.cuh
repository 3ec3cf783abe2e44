// The library's kernel entry: one CTA runs every task of a TaskManager, each warp in
// the role of the task that owns it (ts::run_thread), over one dynamic SMEM block laid
// out by the allocator (LaunchLayout).
#pragma once
#include <cstdint>
#include <type_traits>

#include "ts/arch/cuda_registers.cuh"
#include "ts/arch/cuda_sm90.cuh"
#include "ts/runtime/cuda/register_plan.cuh"
#include "ts/runtime/cuda/trace.cuh"
#include "ts/runtime/barrier_init.hpp"
#include "ts/runtime/dispatch.hpp"

namespace ts::cuda {

// Every pipelined resource's full/empty barriers, in one pass by one thread, made
// visible to the CTA (and the async proxy) before any task starts.
template <class Params>
__device__ __forceinline__ void init_barriers(Params const& p, unsigned char* smem) {
  if (threadIdx.x == 0) {
    init_pipeline_barriers(p.pipes, p.num_resources, smem, [](uint64_t* bar, int count) { mbar_init(bar, count); });
    fence_barrier_init();
    reset_first_tile_claim();
  }
  __syncthreads();
}

// kTrace: 0 compiles the kernel without step hooks; otherwise it is the TraceLevel the
// tracing arch records at (trace.cuh).
// kClustered: the pipelines span clusters (LaunchLayout::cluster_ctas > 1). A separate
// instantiation, because the cluster barriers cost an unclustered kernel 4-5% even when a
// runtime test skips them (grid-stride copy, bench/RESULTS.md).
template <class Plan, class Params, int kTrace, bool kClustered = false>
__device__ __forceinline__ void kernel_body(Params const& p) {
  extern __shared__ __align__(1024) unsigned char ts_smem_raw[];
  // The layout's alignments (1024 B for swizzled TMA tiles) are relative to this base;
  // the launcher asks for 1 KiB of slack.
  unsigned char* ts_smem =
      reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(ts_smem_raw) + 1023) & ~uintptr_t(1023));
  if constexpr (kTrace > 0)
    if (threadIdx.x == 0)
      init_trace_blocks(TraceTarget{static_cast<TraceRecord*>(p.trace), p.trace_capacity,
                                    int(std::tuple_size_v<std::remove_cvref_t<decltype(p.tasks)>>)},
                        ts_smem + p.smem_bytes);
  init_barriers(p, ts_smem);  // ends with __syncthreads: the trace blocks are published too
  if constexpr (kClustered) cluster_sync();  // peers' barriers are initialised before any remote arrive
  with_warp_group_registers<Plan>([&] {
    using Base = std::conditional_t<Plan::per_task, WithRegisterControl<Sm90Arch, Plan::threads>, Sm90Arch>;
    std::conditional_t<(kTrace > 0), TracingArch<Base, TraceLevel(kTrace > 0 ? kTrace : 3)>, Base> arch;
    if constexpr (kTrace > 0)  // the trace blocks follow the layout (launch sized the SMEM for them)
      arch.blocks = uint32_t(__cvta_generic_to_shared(ts_smem + p.smem_bytes));
    arch.coord.thread_in_block = threadIdx.x;
    arch.coord.block_threads = blockDim.x;
    arch.coord.block_idx = blockIdx.x;
    arch.coord.grid_blocks = gridDim.x;
    arch.kctx.smem_base = ts_smem;
    run_thread(arch, p);
  });
  if constexpr (kClustered) {  // no CTA leaves while a peer may still arrive on its barriers
    __syncwarp();
    cluster_sync();
  }
}

// With a register plan: the cap at entry that setmaxnreg needs.
template <class Plan, class Params, int kTrace = 0, bool kClustered = false>
__global__ void __launch_bounds__(Plan::threads, 1) bounded_kernel(__grid_constant__ Params const p) {
  kernel_body<Plan, Params, kTrace, kClustered>(p);
}

// Without one: the compiler chooses (at most 1024 threads per block).
template <class Params, int kTrace = 0, bool kClustered = false>
__global__ void plain_kernel(__grid_constant__ Params const p) {
  kernel_body<NoRegisterPlan, Params, kTrace, kClustered>(p);
}

template <class Plan, class Params, int kTrace = 0, bool kClustered = false>
constexpr auto kernel_for() {
  if constexpr (Plan::active) return &bounded_kernel<Plan, Params, kTrace, kClustered>;
  else return &plain_kernel<Params, kTrace, kClustered>;
}

}  // namespace ts::cuda
