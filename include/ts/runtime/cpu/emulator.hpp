// The CPU emulator of one grid (or a PDL chain of grids): emulated CTAs, each thread a
// fiber run one at a time under a seeded deterministic scheduler, and the hardware the
// Arch interface talks to (mbarriers, CTA barrier, SMEM, TMEM, copy / MMA / CLC engines).
// Kernels are described by a KernelSpec; ts::cpu::run() builds one from a TaskManager.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ts/arch/portable.hpp"
#include "ts/core/stage_info.hpp"
#include "ts/runtime/cpu/errors.hpp"
#include "ts/runtime/cpu/options.hpp"
#include "ts/runtime/exec_context.hpp"
#include "ts/runtime/launch_layout.hpp"

namespace ts {
struct Model;
}

namespace ts::cpu {

class Emulator;

// What one emulated thread gets at entry: its coordinates and CTA context.
struct ThreadEntry {
  Emulator* emu;
  ThreadCoord coord;
  KernelContext kctx;
};

struct KernelSpec {
  std::string name = "kernel";
  int grid_blocks = 1;
  int block_threads = 32;
  uint32_t smem_bytes = 0;
  uint32_t tmem_columns = 0;
  std::vector<PipelineRuntime> pipes;   // barriers the CTA prologue initialises
  std::vector<Placement> placements;    // names SMEM offsets in race / range reports
  Model const* model = nullptr;         // names tasks, resources and steps; may be null
  std::function<void(ThreadEntry const&)> entry;  // body of one thread
};

class Emulator {
 public:
  explicit Emulator(RunOptions o);
  ~Emulator();
  Emulator(Emulator const&) = delete;
  Emulator& operator=(Emulator const&) = delete;

  // Kernel i > 0 is the programmatic dependent of kernel i-1 (PDL).
  int add_kernel(KernelSpec k);
  void set_replay(std::vector<ReplayEvent> events, UnlistedSteps unlisted = UnlistedSteps::RunFreely);
  RunStats run();

  // The emulator whose thread is running now (throws outside an emulated thread).
  static Emulator& current();
  static bool in_emulated_thread();

  // ---- hardware, called from the running emulated thread ----
  void mbar_init(uint64_t* bar, int count);
  void mbar_arrive(uint64_t* bar);
  void mbar_arrive_expect_tx(uint64_t* bar, uint32_t bytes);
  void mbar_expect_tx(uint64_t* bar, uint32_t bytes);
  bool mbar_try_wait(uint64_t* bar, uint32_t phase);
  void mbar_wait(uint64_t* bar, uint32_t phase, WaitSite const& site);
  void cta_sync();
  // __syncwarp over the live lanes / bar.sync id, threads: both order the participants'
  // accesses (the race detector joins their clocks), unlike the implicit reconvergence at
  // steps (RunOptions::converged_warps), which only limits the interleaving.
  void warp_converge();
  void named_barrier(int id, int threads);
  void umma_commit(uint64_t* bar);
  void pdl_wait();
  void pdl_launch();
  void clc_try_cancel(void* response, uint64_t* bar);
  bool clc_is_canceled(void const* response);
  int clc_first_ctaid(void const* response);
  // The first caller in its CTA runs `claim`; every caller of that CTA gets its value
  // (the CTA-shared claim of the global-counter scheduler's first tile).
  int cta_claim_once(std::function<int()> const& claim);
  void bulk_copy_g2s(void* dst, void const* src, uint32_t bytes, uint64_t* bar);
  void bulk_copy_s2g(void* dst, void const* src, uint32_t bytes);
  // The box at element (x, y) of the map (arch/portable.hpp); elements outside the tensor
  // are zero-filled, as TMA does.
  void tensor_copy_2d_g2s(void* dst, arch::TensorMap2D const& map, long long x, long long y, uint64_t* bar);
  // Runs later, in order, on the CTA's MMA engine; the engine reads `reads` (SMEM ranges)
  // then, which the race detector checks against every access not ordered before it.
  struct SmemRange {
    void const* p;
    std::size_t bytes;
  };
  void umma_issue(std::function<void()> op, std::vector<SmemRange> reads = {});
  float* tmem(uint32_t column, int lane);      // emulated tensor memory (128 lanes x columns)
  void smem_access(void const* p, std::size_t bytes, bool write);  // range + race check
  void on_step(int task, int resource, SyncOp kind, char const* method);  // a sync op, or SyncOp::Work
  void on_loop(int task, exec::LoopKind kind, exec::LoopEdge edge);       // loop_hooks.hpp
  void yield();  // a scheduling point
  [[noreturn]] void fail(std::string const& what, WaitSite const& site);
  [[noreturn]] void fail(std::string const& what);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace ts::cpu
