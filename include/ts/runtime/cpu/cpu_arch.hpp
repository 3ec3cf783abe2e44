// The CPU implementation of the Arch interface the executing context calls
// (runtime/exec_context.hpp), forwarding to the emulator. It also observes every
// schedule step (on_sync / on_work), which makes steps scheduling points, lets replay
// force an order and lets errors name the step.
#pragma once
#include <string>

#include "ts/runtime/cpu/emulator.hpp"
#include "ts/schedule/names.hpp"

namespace ts::cpu {

struct CpuArch {
  Emulator* emu;
  ThreadCoord coord;
  KernelContext kctx;

  ThreadCoord const& thread() const { return coord; }
  KernelContext const& kernel() const { return kctx; }
  void mbar_arrive(uint64_t* b) { emu->mbar_arrive(b); }
  void mbar_expect_tx(uint64_t* b, uint32_t bytes) { emu->mbar_expect_tx(b, bytes); }
  void mbar_arrive_expect_tx(uint64_t* b, uint32_t bytes) { emu->mbar_arrive_expect_tx(b, bytes); }
  bool mbar_try_wait(uint64_t* b, uint32_t phase) { return emu->mbar_try_wait(b, phase); }
  void mbar_wait(uint64_t* b, uint32_t phase, WaitSite const& s) { emu->mbar_wait(b, phase, s); }
  void umma_commit(uint64_t* b) { emu->umma_commit(b); }
  void warp_sync() { emu->warp_converge(); }
  void task_sync(int barrier_id, int threads) { emu->named_barrier(barrier_id, threads); }

  template <class Q>
  WorkTile first_tile(Q const& q) {
    return q.make_tile(coord.block_idx);
  }
  template <class Q>
  void queue_fetch(Q const&, void* response, uint64_t* full) {
    emu->clc_try_cancel(response, full);
  }
  // Query is_canceled first and read the id only when it is set (SPEC S13.3).
  template <class Q>
  WorkTile queue_read(Q const& q, void const* response) {
    if (!emu->clc_is_canceled(response)) {
      WorkTile t;
      t.tile_idx = -1;
      t.valid = false;
      return t;
    }
    return q.make_tile(emu->clc_first_ctaid(response));
  }
  void pdl_wait() { emu->pdl_wait(); }
  void pdl_launch() { emu->pdl_launch(); }
  [[noreturn]] void fail(char const* what, WaitSite const& s) { emu->fail(what, s); }

  void on_sync(int task, int resource, SyncOp op) { emu->on_step(task, resource, op, nullptr); }
  template <auto M>
  void on_work(int task, int resource) {
    static std::string const name = member_name<M>();
    emu->on_step(task, resource, SyncOp::Work, name.c_str());
  }
};

}  // namespace ts::cpu
