// The CPU implementation of the Arch interface the executing context calls
// (runtime/exec_context.hpp), forwarding to the emulator. It also observes every
// schedule step (on_sync / on_work), which makes steps scheduling points, lets replay
// force an order and lets errors name the step.
#pragma once
#include <cstring>
#include <string>

#include "ts/core/queue_response.hpp"

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

  // Tile-scheduler primitives (runtime/scheduler/): the emulator has Cluster Launch
  // Control (ClcArch) and the global-counter ones (GlobalCounterArch), so both dynamic
  // schedulers run here, through the same scheduler code as on the GPU.
  void clc_try_cancel(void* response, uint64_t* full) { emu->clc_try_cancel(response, full); }
  bool clc_is_canceled(void const* response) { return emu->clc_is_canceled(response); }
  int clc_first_ctaid(void const* response) { return emu->clc_first_ctaid(response); }
  // Fibers run one at a time: a plain add is atomic.
  unsigned atomic_add(unsigned* p, unsigned v) {
    unsigned old = *p;
    *p = old + v;
    return old;
  }
  template <class F>
  int claim_once_per_cta(F&& claim) {
    return emu->cta_claim_once([&] { return static_cast<int>(claim()); });
  }
  // The global staging slot, then a 16-byte bulk copy into SMEM completing on `full`, as
  // on the GPU (the race detector sees the copy's write and the readers' reads).
  void publish_response(QueueResponse* g, QueueResponse const& r, void* response, uint64_t* full) {
    *g = r;
    emu->bulk_copy_g2s(response, g, kQueueResponseBytes, full);
  }
  QueueResponse read_response(void const* response) {
    emu->smem_access(response, kQueueResponseBytes, false);
    QueueResponse r;
    std::memcpy(&r, response, sizeof r);
    return r;
  }
  void pdl_wait() { emu->pdl_wait(); }
  void pdl_launch() { emu->pdl_launch(); }
  [[noreturn]] void fail(char const* what, WaitSite const& s) { emu->fail(what, s); }

  void on_sync(int task, int resource, SyncOp op) { emu->on_step(task, resource, op, nullptr); }
  void on_loop(int task, exec::LoopKind kind, exec::LoopEdge edge) { emu->on_loop(task, kind, edge); }
  template <auto M>
  void on_work(int task, int resource) {
    static std::string const name = member_name<M>();
    emu->on_step(task, resource, SyncOp::Work, name.c_str());
  }
};

}  // namespace ts::cpu
