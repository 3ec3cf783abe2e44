// What a pipeline protocol works on: one handle's barriers, its PipelineState for each op,
// its parameters (StaticParams or RuntimeParams) and the executing context (Arch
// primitives, convergence, who signals). The protocols (protocols.hpp, built from the
// sides in sides.hpp) say which of these steps each op of their type takes; the steps
// themselves live here once.
#pragma once
#include <cstdint>

#include "ts/core/macros.hpp"
#include "ts/core/protocol.hpp"
#include "ts/core/sync_op.hpp"
#include "ts/runtime/pipeline/state.hpp"
#include "ts/runtime/pipeline_runtime.hpp"

namespace ts::exec {

template <class Ctx, class Params>
struct Pipe {
  Ctx& ctx;
  ResourceState& st;
  PipelineRuntime const& rt;  // barrier placement, group membership
  Params prm;
  int id;

  TS_HD uint64_t* full(int stage) const {
    return reinterpret_cast<uint64_t*>(ctx.kernel().smem_base + rt.full_offset) + stage;
  }
  TS_HD uint64_t* empty(int stage) const {
    return reinterpret_cast<uint64_t*>(ctx.kernel().smem_base + rt.empty_offset) + stage;
  }

  // --- the four moves along the ring: wait where the op opens a stage, then advance ---
  // acquire: the empty barrier of the producer's next stage (parity phase ^ 1, so the
  // first pass through every stage is free), unless try_acquire saw it done.
  TS_HD int open_producer() {
    PipelineState& c = st.prod_open;
    if (!st.try_acquire_ready) ctx.arch_.mbar_wait(empty(c.index), c.phase ^ 1u, site(SyncOp::Acquire, c));
    st.try_acquire_ready = false;
    int s = c.index;
    st.prod_stage = st.active_stage = s;
    c.advance(prm.num_stages(), prm.stride_acquire());
    if (prm.producer_warp_lanes()) converge_lanes();
    return s;
  }
  TS_HD int close_producer() {
    if (prm.producer_warp_lanes()) converge_lanes();
    return close(st.prod_close, prm.stride_commit());
  }
  // wait: the full barrier of the consumer's next stage.
  TS_HD int open_consumer() {
    PipelineState& c = st.cons_open;
    if (!st.try_wait_ready) ctx.arch_.mbar_wait(full(c.index), c.phase, site(SyncOp::Wait, c));
    st.try_wait_ready = false;
    int s = c.index;
    st.cons_stage = st.active_stage = s;
    c.advance(prm.num_stages(), prm.stride_wait());
    if (prm.consumer_warp_lanes()) converge_lanes();
    return s;
  }
  TS_HD int close_consumer() {
    if (prm.consumer_warp_lanes()) converge_lanes();
    return close(st.cons_close, prm.stride_release());
  }
  // Warp-lane sides (warp_lanes.hpp): each warp opens and closes its own stage, but the
  // checker counts the task's op as its `stride` lane ops at once. The task converges
  // after every opening op (no warp works on its stage before every lane's stage is
  // there: the op ends when the last lane's wait passes) and before every closing op
  // (no lane signals before every warp finished what precedes the op), so each op is
  // atomic across the task's warps, as the model assumes.
  TS_HD void converge_lanes() { ctx.converge(Signal::CtaLeader); }
  // Turn-taking consumers (docs/turns.md): pass over `n` stages another consumer task of
  // the ring waits for and releases. Only this thread's wait and release states move
  // (index and phase, as n waits and n releases would move them); no barrier is touched.
  // The checker proves the skipped stages are the other task's and that no later wait
  // lands two phases ahead of its barrier (parity aliasing).
  TS_HD void skip_consumer(long long n) {
    int S = prm.num_stages();
    auto pass = [&](PipelineState& c) {
      long long to = c.index + n;
      c.phase ^= uint32_t((to / S) & 1);
      c.index = int(to % S);
    };
    pass(st.cons_open);
    pass(st.cons_close);
  }
  TS_HD void try_open_producer() {
    st.try_acquire_ready = ctx.arch_.mbar_try_wait(empty(st.prod_open.index), st.prod_open.phase ^ 1u);
  }
  TS_HD void try_open_consumer() {
    st.try_wait_ready = ctx.arch_.mbar_try_wait(full(st.cons_open.index), st.cons_open.phase);
  }

  // --- who signals: a collapsed group op signals a barrier the members share through the
  // group's lead member only (SPEC S10); every other op signals its own barrier ---
  TS_HD bool signals_full(bool collapsed) const { return !(collapsed && rt.shared_full && !rt.group_lead); }
  TS_HD bool signals_empty(bool collapsed) const { return !(collapsed && rt.shared_empty && !rt.group_lead); }

  // --- the signals ---
  // TMA / CLC acquire: the CTA leader arms the stage's transaction bytes, without arriving
  // (the arrival is the commit's), so the stage turns full at the commit AND when its
  // bytes have landed, as the checker models it. Acquire converges nothing: this only
  // publishes the leader's own copy issue, after the leader's own wait.
  TS_HD void expect_stage_bytes(uint64_t* bar) {
    if (ctx.signals(Signal::CtaLeader)) ctx.arch_.mbar_expect_tx(bar, prm.stage_bytes());
  }
  // One elected arrival for the task after the task converged (TMA / CLC commit).
  TS_HD void arrive_leader(uint64_t* bar) {
    ctx.converge(Signal::CtaLeader);
    if (ctx.signals(Signal::CtaLeader)) ctx.arch_.mbar_arrive(bar);
  }
  // The MMA engine's arrival (tcgen05.commit), issued by the task's leader.
  TS_HD void umma_commit(uint64_t* bar) {
    ctx.converge(Signal::CtaLeader);
    if (ctx.signals(Signal::CtaLeader)) ctx.arch_.umma_commit(bar);
  }
  // Plain threads publish a stage they wrote: the task converges as `sig` needs, then the
  // signalling threads arrive (AsyncLoad: when this thread's cp.async copies have landed;
  // backends without cp.async arrive directly).
  TS_HD void arrive_threads(uint64_t* bar, Signal sig) {
    ctx.converge(sig);
    if (!ctx.signals(sig)) return;
    if constexpr (requires { ctx.arch_.cp_async_arrive(bar); }) {
      if (prm.async_load()) {
        ctx.arch_.cp_async_arrive(bar);
        return;
      }
    }
    ctx.arch_.mbar_arrive(bar);
  }
  // Plain threads hand a stage back. A leader's arrival releases it for the whole task,
  // whose every lane may still read it: converge first. A multicast stage is written by
  // every CTA of the cluster, so the release arrives in each of them: with TaskWarpLeader
  // signalling, lanes 0 .. n-1 of each warp take one CTA each, in parallel.
  TS_HD void release_threads(uint64_t* bar) {
    Signal sig = prm.consumer_signal();
    ctx.converge(sig);
    int n = prm.multicast_ctas();
    if (n > 1 && sig == Signal::TaskWarpLeader) {
      int lane = ctx.thread().thread_in_task & 31;
      if (lane < n) arrive_at(bar, lane);
    } else if (ctx.signals(sig)) {
      if (n > 1) {
        for (int r = 0; r < n; ++r) arrive_at(bar, r);
      } else {
        ctx.arch_.mbar_arrive(bar);
      }
    }
  }

  TS_HD WaitSite site(SyncOp op, PipelineState const& c) const {
    WaitSite w;
    w.task = ctx.task_id_;
    w.resource = id;
    w.op = op;
    w.stage = c.index;
    w.phase = c.phase;
    return w;
  }

 private:
  TS_HD int close(PipelineState& c, int stride) {
    int s = c.index;
    c.advance(prm.num_stages(), stride);
    return s;
  }
  // An Arch without clusters (the CPU emulator: every CTA is its own cluster) takes all
  // the arrivals locally, which keeps the counts right.
  TS_HD void arrive_at(uint64_t* bar, int cta_rank) {
    if constexpr (requires { ctx.arch_.mbar_arrive_cluster(bar, cta_rank); })
      ctx.arch_.mbar_arrive_cluster(bar, cta_rank);
    else
      ctx.arch_.mbar_arrive(bar);
  }
};

}  // namespace ts::exec
