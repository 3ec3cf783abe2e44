// Running a verified TaskManager on the CPU emulator:
//   auto stats = ts::cpu::run(tm, {.grid_blocks = 4, .resident_blocks = 2, .seed = 7});
//   ts::cpu::run_chain(primary, secondary, opts);     // PDL: secondary depends on primary
//   ts::cpu::replay(tm, events, opts);                // force a checker counterexample's order
// This header is the templated part: it instantiates ts::run_thread with the CPU arch.
// The scheduler and the emulated hardware are compiled once in src/runtime/cpu/.
#pragma once
#include <memory>
#include <vector>

#include "ts/runtime/cpu/cpu_arch.hpp"
#include "ts/runtime/cpu/emulator.hpp"
#include "ts/runtime/cpu/run_validation.hpp"
#include "ts/runtime/barrier_init.hpp"
#include "ts/runtime/dispatch.hpp"
#include "ts/runtime/kernel_params.hpp"

namespace ts::cpu {

// The kernel body of one emulated thread, mirroring the CUDA kernel body
// (ts::cuda::kernel_body and init_barriers, runtime/cuda/kernel.cuh): thread 0 initialises
// every pipeline barrier (ts::init_pipeline_barriers, shared with it), the CTA
// synchronises, then the thread runs its task's schedule.
template <class Params>
void kernel_entry(Params const& p, ThreadEntry const& e) {
  CpuArch arch{e.emu, e.coord, e.kctx};
  if (arch.coord.thread_in_block == 0)
    init_pipeline_barriers(p.pipes, p.num_resources, e.kctx.smem_base,
                           [&](uint64_t* bar, int count) { e.emu->mbar_init(bar, count); });
  e.emu->cta_sync();
  ts::run_thread(arch, p);
}

// tm: a ts::TaskManager (any RunnableManager, runtime/kernel_params.hpp).
template <RunnableManager M>
KernelSpec kernel_spec(M& tm, RunOptions const& o, int grid_blocks) {
  if (o.require_verified && !tm.verified())
    throw EmulationError(
        "ts::cpu::run: the TaskManager was not verified; call print_and_verify() first "
        "(or set RunOptions::require_verified = false to run an unchecked schedule on purpose)");
  LaunchLayout const& layout = tm.layout();
  auto params = std::make_shared<KernelParamsFor<M>>(make_kernel_params(tm, layout));
  KernelSpec k;
  k.grid_blocks = grid_blocks;
  k.block_threads = layout.block_threads;
  k.smem_bytes = layout.smem_bytes;
  k.tmem_columns = layout.tmem_columns;
  k.pipes = layout.pipes;
  k.placements = layout.placements;
  k.model = &tm.model();
  k.entry = [params](ThreadEntry const& e) { kernel_entry(*params, e); };
  return k;
}

template <RunnableManager M>
RunStats run(M& tm, RunOptions const& o = {}) {
  Emulator emu(o);
  emu.add_kernel(kernel_spec(tm, o, o.grid_blocks));
  return emu.run();
}

// Two kernels launched back to back with Programmatic Dependent Launch: the secondary's
// CTAs may start once every primary CTA ran launch_dependents (a PdlLaunch commit) or
// exited; a PdlWait in the secondary blocks until the primary grid has completed.
template <RunnableManager TM1, RunnableManager TM2>
RunStats run_chain(TM1& primary, TM2& secondary, RunOptions const& o = {}, int secondary_grid = 0) {
  Emulator emu(o);
  emu.add_kernel(kernel_spec(primary, o, o.grid_blocks));
  emu.add_kernel(kernel_spec(secondary, o, secondary_grid > 0 ? secondary_grid : o.grid_blocks));
  return emu.run();
}

// Replays an interleaving at the granularity of schedule steps: a thread reaching a
// listed (cta, task, step, iteration) waits until every earlier event has happened.
// Steps not listed run freely under the seeded scheduler, or, with
// UnlistedSteps::WaitUntilReplayed, wait until every event has happened.
template <RunnableManager M>
RunStats replay(M& tm, std::vector<ReplayEvent> const& events, RunOptions const& o = {},
                UnlistedSteps unlisted = UnlistedSteps::RunFreely) {
  validate_replay_events(tm.model(), events, o.grid_blocks);
  Emulator emu(o);
  emu.add_kernel(kernel_spec(tm, o, o.grid_blocks));
  emu.set_replay(events, unlisted);
  return emu.run();
}

}  // namespace ts::cpu
