// ts::cuda::launch: runs a verified TaskManager on the GPU (sm_90a).
//
//   tm.print_and_verify();
//   ts::cuda::launch(tm, ts::cuda::persistent_grid(), stream);            // no register plan
//   ts::cuda::launch<ts::cuda::RegisterPlan<256, 40, 232>>(tm, grid, stream, {.pdl = true});
//
// The launch configuration comes from the tasks: block = all tasks' warps x 32,
// dynamic SMEM = the allocator's layout; the grid is 1-D (block_idx / grid_blocks in
// the schedules). Errors (unverified manager, register plan that disagrees with the
// tasks, CUDA errors) throw ts::cuda::LaunchError.
#pragma once
#include <cuda_runtime.h>

#include <sstream>
#include <stdexcept>
#include <string>

#include "ts/runtime/cuda/kernel.cuh"
#include "ts/runtime/kernel_params.hpp"

namespace ts::cuda {

struct LaunchError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct LaunchOptions {
  // Programmatic Dependent Launch: this grid may start while the previous kernel in
  // the stream runs; schedules order themselves with PdlWait / PdlLaunch resources.
  bool pdl = false;
  // Synchronize after the launch and report execution errors (tests, debugging).
  bool synchronize = false;
  // Step tracing (trace.cuh): the kernel variant with a tracing arch writes here.
  TraceBuffer const* trace = nullptr;
};

inline void check(cudaError_t e, char const* what) {
  if (e != cudaSuccess) throw LaunchError(std::string("ts::cuda::launch: ") + what + ": " + cudaGetErrorString(e));
}

inline int persistent_grid(int device = 0) {
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  return sms;
}

namespace detail {

// The plan the tasks ask for, spelled as the type the caller must pass.
inline std::string wanted_plan(Model const& m) {
  int warps = m.total_warps();
  std::ostringstream os;
  os << "ts::cuda::RegisterPlan<" << warps * 32;
  for (int wg = 0; wg < (warps + 3) / 4; ++wg) {
    int r = 0;
    for (auto const& t : m.tasks)
      if (t.num_registers && t.warp_start / 4 <= wg && (t.warp_start + t.num_warps - 1) / 4 >= wg) r = *t.num_registers;
    os << ", " << r;
  }
  os << ">";
  return os.str();
}

template <class Plan>
void check_register_plan(Model const& m, int block_threads) {
  bool any = false;
  for (auto const& t : m.tasks) any |= t.num_registers.has_value();
  if constexpr (Plan::per_task) {
    if (Plan::threads != block_threads)
      throw LaunchError("ts::cuda::launch: TaskRegisterBudgets has " + std::to_string(Plan::threads) +
                        " threads but the tasks use " + std::to_string(block_threads));
  } else if constexpr (!Plan::active) {
    if (any)
      throw LaunchError("ts::cuda::launch: tasks declare num_registers, so the kernel needs a register plan: call "
                        "ts::cuda::launch<" + wanted_plan(m) + ">(...)");
  } else {
    if (Plan::threads != block_threads)
      throw LaunchError("ts::cuda::launch: RegisterPlan has " + std::to_string(Plan::threads) +
                        " threads but the tasks use " + std::to_string(block_threads) + "; expected " + wanted_plan(m));
    for (auto const& t : m.tasks)
      for (int w = t.warp_start; w < t.warp_start + t.num_warps; ++w) {
        int planned = Plan::regs[w / 4];
        int asked = t.num_registers.value_or(0);
        if (planned != asked)
          throw LaunchError("ts::cuda::launch: task '" + t.name + "' asks for " +
                            (asked ? std::to_string(asked) : std::string("no")) +
                            " registers but the plan gives its warp group " + std::to_string(w / 4) + " " +
                            std::to_string(planned) + "; expected " + wanted_plan(m));
      }
  }
}

}  // namespace detail

namespace detail {

// A pipeline side run by an engine (TMA copies, UMMA) must be declared in the resource
// type (`static constexpr auto pipeline = ts::tma_async({...})`) to run on the GPU: the
// kernel then knows at compile time which work calls hand data to an engine and converge
// the task before them (runtime/handle.hpp); a config given at run time would put a
// possible barrier into every work call of every resource. The emulator runs both forms.
template <class R>
void check_engine_pipeline_is_static(Model const& m, LaunchLayout const& layout, int task, int id) {
  if constexpr (!exec::HasStaticPipeline<R>) {
    if (id < 0 || size_t(id) >= layout.pipes.size()) return;
    PipelineRuntime const& p = layout.pipes[size_t(id)];
    bool engine = p.pipelined && (p.producer == Engine::Tma || p.producer == Engine::Umma || p.consumer == Engine::Umma);
    if (engine)
      throw LaunchError("ts::cuda::launch: resource '" + m.resources[size_t(id)]->name + "' (task '" +
                        m.tasks[size_t(task)].name + "') has a pipeline with a " +
                        (p.producer == Engine::Tma    ? "TMA producer"
                         : p.producer == Engine::Umma ? "UMMA producer"
                                                      : "UMMA consumer") +
                        " given at run time (ts::resource(name, value, config)); on the GPU such a pipeline must be "
                        "declared in the resource type, e.g. `static constexpr auto pipeline = ts::tma_async({...});`, "
                        "so the kernel is specialised for it (docs/cuda-backend.md)");
  }
}
template <class Sched, class... R>
void check_task_engine_pipelines(ScheduledTask<Sched, R...> const&, Model const& m, LaunchLayout const& layout,
                                 int task) {
  auto const& ids = m.tasks[size_t(task)].schedule_args;
  int i = 0;
  (check_engine_pipeline_is_static<R>(m, layout, task, ids[size_t(i++)]), ...);
}
template <class M>
void check_engine_pipelines_are_static(M const& tm, LaunchLayout const& layout) {
  std::apply([&](auto const&... task) {
    int t = 0;
    (check_task_engine_pipelines(task, tm.model(), layout, t++), ...);
  }, tm.tasks());
}

}  // namespace detail

// tm: a ts::TaskManager (any RunnableManager, runtime/kernel_params.hpp). L: what a
// traced launch (o.trace set) records, fixed at compile time (trace.cuh).
template <class Plan = NoRegisterPlan, TraceLevel L = TraceLevel::Step, RunnableManager M>
void launch(M& tm, int grid_blocks, cudaStream_t stream = nullptr, LaunchOptions const& o = {}) {
  using Tasks = TasksOf<M>;
  constexpr int num_tasks = int(std::tuple_size_v<Tasks>);
  if (!tm.verified())
    throw LaunchError(
        "ts::cuda::launch: the TaskManager was not verified: call tm.print_and_verify() first (it must not "
        "throw and its verdict must not be UNSAFE)");
  LaunchLayout const& layout = tm.layout();
  detail::check_register_plan<Plan>(tm.model(), layout.block_threads);
  if constexpr (Plan::per_task) {
    // Each budget must be a compile-time property of the task's schedule.
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (
          [&] {
            using Sched = typename std::tuple_element_t<I, Tasks>::schedule_type;
            auto const& t = tm.model().tasks[I];
            if (t.num_registers && !HasRegisterBudget<Sched>)
              throw LaunchError("ts::cuda::launch<TaskRegisterBudgets>: task '" + t.name + "' asks for " +
                                std::to_string(*t.num_registers) +
                                " registers through .registers(); give its schedule ts::with_registers<" +
                                std::to_string(*t.num_registers) + ">(...) instead");
          }(),
          ...);
    }(std::make_index_sequence<num_tasks>{});
  }
  detail::check_engine_pipelines_are_static(tm, layout);
  if (layout.block_threads <= 0 || layout.block_threads > 1024)
    throw LaunchError("ts::cuda::launch: " + std::to_string(layout.block_threads) +
                      " threads per block (tasks' warps x 32) is outside 1..1024");
  if (grid_blocks <= 0) throw LaunchError("ts::cuda::launch: grid must have at least one block");

  auto params = make_kernel_params(tm, layout);
  using Params = std::remove_cv_t<decltype(params)>;
  if (o.trace) {
    if (o.trace->grid < grid_blocks || o.trace->tasks != num_tasks)
      throw LaunchError("ts::cuda::launch: the TraceBuffer is sized for " + std::to_string(o.trace->grid) + " CTAs x " +
                        std::to_string(o.trace->tasks) + " tasks; this launch has " + std::to_string(grid_blocks) +
                        " x " + std::to_string(num_tasks));
    params.trace = o.trace->records;
    params.trace_capacity = o.trace->capacity;
  }
  if (o.trace && layout.cluster_ctas > 1)
    throw LaunchError("ts::cuda::launch: tracing a kernel whose pipelines span clusters is not supported");
  auto kernel = o.trace                    ? kernel_for<Plan, Params, int(L), false>()
                : layout.cluster_ctas > 1 ? kernel_for<Plan, Params, 0, true>()
                                          : kernel_for<Plan, Params, 0, false>();
  // Slack to align the base to 1 KiB; a traced kernel keeps its records' rings after the
  // layout (p.smem_bytes, 16-byte aligned).
  unsigned const smem = layout.smem_bytes + 1024 + (o.trace ? trace_ring_bytes(num_tasks) : 0u);
  if (o.trace) {
    int device = 0, optin = 0;
    cudaFuncAttributes fa{};
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "cudaDeviceGetAttribute");
    check(cudaFuncGetAttributes(&fa, kernel), "cudaFuncGetAttributes");
    if (smem + fa.sharedSizeBytes > size_t(optin))
      throw LaunchError("ts::cuda::launch: tracing needs " + std::to_string(trace_ring_bytes(num_tasks)) +
                        " bytes of SMEM for the record rings (" + std::to_string(num_tasks) + " tasks x " +
                        std::to_string(kTraceBlockBytes) + " B) after the layout's " +
                        std::to_string(layout.smem_bytes) + " bytes; with the 1 KiB alignment slack and " +
                        std::to_string(fa.sharedSizeBytes) + " bytes of static SMEM the block would need " +
                        std::to_string(smem + fa.sharedSizeBytes) + " bytes, over the device's " +
                        std::to_string(optin) + "; trace a variant with fewer stages");
  }
  // Raised once per kernel instantiation (and again only for a larger layout): the call
  // costs microseconds, which short kernels would otherwise pay on every launch.
  static unsigned configured_smem[3] = {0, 0, 0};
  unsigned& configured = configured_smem[o.trace ? 1 : layout.cluster_ctas > 1 ? 2 : 0];
  if (smem > configured) {
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)),
          "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
    configured = smem;
  }

  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(unsigned(grid_blocks));
  cfg.blockDim = dim3(unsigned(layout.block_threads));
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cudaLaunchAttribute attr[2];
  unsigned n_attr = 0;
  if (o.pdl) {
    attr[n_attr].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[n_attr++].val.programmaticStreamSerializationAllowed = 1;
  }
  if (layout.cluster_ctas > 1) {  // the pipelines' cta_layout_vmnk: clusters along x
    if (grid_blocks % layout.cluster_ctas != 0)
      throw LaunchError("ts::cuda::launch: the pipelines span clusters of " + std::to_string(layout.cluster_ctas) +
                        " CTAs, so the grid must be a multiple of it; got " + std::to_string(grid_blocks));
    attr[n_attr].id = cudaLaunchAttributeClusterDimension;
    attr[n_attr].val.clusterDim.x = unsigned(layout.cluster_ctas);
    attr[n_attr].val.clusterDim.y = 1;
    attr[n_attr++].val.clusterDim.z = 1;
  }
  cfg.attrs = attr;
  cfg.numAttrs = n_attr;
  check(cudaLaunchKernelEx(&cfg, kernel, params), "cudaLaunchKernelEx");
  if (o.synchronize) check(cudaStreamSynchronize(stream), "kernel execution");
}

// CTAs of the manager's kernel that can be resident at once: one persistent wave. With
// clusters it is cudaOccupancyMaxActiveClusters x the cluster size, which can be less
// than the SM count (a GPC whose SMs do not split into whole clusters leaves some out;
// a persistent grid larger than this runs its last clusters after the others).
template <class Plan = NoRegisterPlan, RunnableManager M>
int resident_grid(M& tm) {
  LaunchLayout const& layout = tm.layout();
  auto params = make_kernel_params(tm, layout);
  using Params = std::remove_cv_t<decltype(params)>;
  auto kernel = layout.cluster_ctas > 1 ? kernel_for<Plan, Params, 0, true>() : kernel_for<Plan, Params, 0, false>();
  unsigned const smem = layout.smem_bytes + 1024;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)),
        "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
  if (layout.cluster_ctas > 1) {
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(unsigned(layout.cluster_ctas));
    cfg.blockDim = dim3(unsigned(layout.block_threads));
    cfg.dynamicSmemBytes = smem;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = unsigned(layout.cluster_ctas);
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    int clusters = 0;
    check(cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg), "cudaOccupancyMaxActiveClusters");
    return clusters * layout.cluster_ctas;
  }
  int per_sm = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, layout.block_threads, smem),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  return per_sm * persistent_grid();
}

// Zeroes a dynamic queue's counter before a launch (stream-ordered).
inline void reset_queue(unsigned* counter, cudaStream_t stream = nullptr) {
  check(cudaMemsetAsync(counter, 0, sizeof(unsigned), stream), "cudaMemsetAsync(queue counter)");
}

}  // namespace ts::cuda
