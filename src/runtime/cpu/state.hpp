// Internal state of the CPU emulator (not installed): fibers, CTAs, kernels, emulated
// mbarriers and the pieces of Emulator::Impl each .cpp file in this folder works on.
#pragma once
#include <ucontext.h>

#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <set>
#include <utility>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "ts/runtime/cpu/emulator.hpp"

namespace ts::cpu {

using VClock = std::vector<uint32_t>;
void vc_join(VClock& into, VClock const& from);

struct Fiber;
struct Cta;
struct Kernel;

// One emulated mbarrier (PTX semantics): the current phase completes when its pending
// arrivals reach zero and its transaction count is zero; waits test a phase parity.
struct MbarState {
  bool init = false;
  int expected = 0;
  int pending = 0;
  long long tx = 0;
  uint32_t phase = 0;       // parity of the phase in progress
  long long completed = 0;  // phases completed so far
  std::vector<int> arrived; // threads that arrived in the phase in progress
  std::vector<Fiber*> waiters;
  VClock accum, released;   // race detection: releases of the phase in progress / of the last completed
};

enum class FiberState { Runnable, Blocked, Done };
enum class WaitKind { None, Mbar, CtaSync, Pdl, Replay, WarpSync, NamedBarrier };

struct Fiber {
  int id = 0;  // creation order, global: part of the deterministic choice order
  Cta* cta = nullptr;
  int tid = 0;  // thread in block
  ucontext_t uc{};
  std::unique_ptr<char[]> stack;
  FiberState state = FiberState::Runnable;
  WaitKind wait = WaitKind::None;
  uint64_t* wait_bar = nullptr;
  uint32_t wait_parity = 0;
  WaitSite site{};
  int replay_index = -1;
  long long sync_gen = 0;
  // Schedule position, for replay and for reports.
  int task = -1;
  int step = -1;
  int match_from = -1;  // the next step is matched after this one (on_step, on_loop)
  int domain_loops_done = 0;  // in the current work tile (on_loop: which of several loops)
  std::vector<long long> occurrences;  // per step id
  bool trigger_counted = false;        // PDL: launch_dependents issued or exited
  int trace_open = -1;                 // RunOptions::trace: index of this thread's open step
  VClock vc;
};

struct ShadowCell {
  int w_tid = -1;
  uint32_t w_clk = 0;
  int w_step = -1;
  std::vector<std::tuple<int, uint32_t, int>> reads;  // (thread, clock, step)
};

enum class CtaStatus : uint8_t { Pending, Running, Done, Canceled };

struct Cta {
  Kernel* kernel = nullptr;
  int idx = 0;
  unsigned char* smem = nullptr;
  uint32_t smem_bytes = 0;
  std::vector<std::unique_ptr<Fiber>> fibers;
  int live = 0;
  int async_inflight = 0;
  std::unordered_map<uint32_t, MbarState> bars;  // by SMEM offset
  int sync_arrived = 0;
  long long sync_gen = 0;
  std::vector<Fiber*> sync_waiters;
  struct Warp {
    int live = 0, arrived = 0;
    long long gen = 0;
    std::vector<Fiber*> waiters;
  };
  std::vector<Warp> warps;  // lane reconvergence at synchronization steps
  std::vector<Warp> conv;   // explicit __syncwarp (Emulator::warp_converge)
  struct NamedBarrier {
    int expected = 0;
    long long gen = 0;
    std::vector<Fiber*> arrived;  // in the phase in progress
    std::vector<Fiber*> waiters;
  };
  NamedBarrier named[16];  // bar.sync 1 .. 15 (0 is the CTA barrier)
  std::deque<std::function<void()>> mma_queue;  // the CTA's MMA engine, in issue order
  // Race detection: the asynchronous engines are actors of their own, with thread ids
  // from fibers.size() on in the vector clocks (EngineActor, engine_actor()).
  struct EngineActor {
    bool mma = false;  // an MMA actor (reads), else a copy engine (writes)
    std::vector<std::pair<int, int>> issued;  // (thread, step) of the operation per actor clock value
    VClock vc;                                // MMA actors: the reads so far (a commit releases them)
  };
  std::vector<EngineActor> actors;
  std::map<std::pair<bool, uint32_t>, int> actor_index;  // (mma, issuing thread | barrier offset)
  // The MMA actor of one issuing thread: its MMAs read SMEM when they execute (not at the
  // issue), after what the thread did before the issue; its tcgen05.commit completes
  // after them and releases their reads, and no other thread's commit does (PTX: a
  // commit tracks the async tcgen05 operations of the executing thread). The copy engine
  // of one completion mbarrier (bulk and tensor copies, CLC responses): a copy writes
  // when it lands, after what its issuer did before the issue but not after what the
  // issuer does next, and only a wait on that barrier orders a reader after the write.
  // One actor per barrier; its copies are ordered among themselves only as far as each
  // issuer waited for the earlier ones (two copies landing in one phase are unordered).
  int engine_actor(bool mma, uint32_t key) {
    auto [it, fresh] = actor_index.try_emplace({mma, key}, int(actors.size()));
    if (fresh) actors.push_back({mma, {}, {}});
    return it->second;
  }
  int actor_tid(int actor) const { return int(fibers.size()) + actor; }
  std::vector<float> tmem;                      // 128 lanes x columns
  bool pdl_waited = false;                      // a thread of this CTA ran griddepcontrol.wait
  uint32_t tmem_columns = 0;
  bool clc_failed_seen = false;
  bool claimed = false;  // Emulator::cta_claim_once: the CTA's one claim and its value
  int claim_value = 0;
  int triggers = 0;
  std::vector<ShadowCell> shadow;
  ~Cta();
};

struct Kernel {
  KernelSpec spec;
  int index = 0;
  std::vector<CtaStatus> status;
  std::vector<std::unique_ptr<Cta>> ctas;  // running ones (null when not running)
  int finished = 0;   // done + canceled
  int triggered = 0;  // CTAs that ran launch_dependents in every thread, exited or were canceled
  bool complete() const { return finished == spec.grid_blocks; }
  std::vector<Fiber*> pdl_waiters;
  // Per task, the first and last step of its domain loop and of its work-tile loop
  // (Emulator::on_loop; ts::loop_step_range), filled at the task's first loop edge.
  struct LoopSteps {
    bool known = false;
    std::pair<int, int> range[2];  // domain, work tile; {-1, -1}: no such loop or no step in it
    // Several domain loops, each directly in the tile body (so every tile runs each once,
    // in program order): their step ranges in that order, told apart by a thread's count
    // of the domain loops it has left in the current tile. Empty otherwise.
    std::vector<std::pair<int, int>> domain_loops;
  };
  std::vector<LoopSteps> loop_steps;
};

struct AsyncOp {
  Cta* cta = nullptr;
  std::function<void()> fn;
};

struct Emulator::Impl {
  RunOptions opt;
  Emulator* self = nullptr;
  std::vector<std::unique_ptr<Kernel>> kernels;
  std::vector<Fiber*> runnable;
  std::vector<AsyncOp> async_ops;
  int running_ctas = 0;
  int next_fiber_id = 0;
  uint64_t rng = 0;
  ucontext_t sched_uc{};
  Fiber* current = nullptr;
  std::exception_ptr error;
  RunStats stats;
  // replay
  std::vector<ReplayEvent> replay;
  std::map<std::tuple<int, int, int, long long>, int> replay_index;
  std::set<int> replay_held_ctas;  // UnlistedSteps::WaitUntilReplayed: the CTAs the events name
  int replay_cursor = 0;      // events before it have happened
  Fiber* replay_owner = nullptr;  // the lane whose step is the event in progress
  void replay_close(Fiber& f);
  std::vector<Fiber*> replay_waiters;

  uint64_t next_random();
  Fiber& fiber();  // the running fiber; fails outside one
  void switch_to(Fiber* f);
  void to_scheduler();
  void block(WaitKind k);
  void make_runnable(Fiber* f);
  void wake_all(std::vector<Fiber*>& list);
  void launch_cta(Kernel& k, int idx);
  void fiber_done(Fiber* f);
  void maybe_retire(Cta& c);
  Kernel* launchable_kernel();
  void count_trigger(Fiber& f);
  void cta_sync_check(Cta& c);
  void warp_sync(Fiber& f);
  void warp_sync_check(Cta& c, int warp);
  void converge_check(Cta& c, int warp);

  MbarState& bar(Cta& c, uint64_t* b, char const* what);
  void mbar_arrive_by(Cta& c, uint64_t* b, int tid, VClock const* vc, char const* who);
  void complete_tx(Cta& c, uint64_t* b, uint32_t bytes);
  void complete_phase_if_done(Cta& c, MbarState& s);
  void check_smem_range(Cta& c, void const* p, std::size_t bytes, char const* what);
  // An access by thread (or engine actor) tid at its clock vc[tid], ordered after what vc
  // knows. An engine actor's operations are not in program order (copies of one barrier
  // may land side by side): for them `knows` is what the issuer knew at the issue, the
  // actor's own earlier accesses included only as far as the issuer waited for them.
  void record_access(Cta& c, int tid, VClock const& vc, int step, uint32_t off, std::size_t bytes, bool write) {
    record_access_at(c, tid, size_t(tid) < vc.size() ? vc[size_t(tid)] : 0, vc, step, off, bytes, write, true);
  }
  void record_access_at(Cta& c, int tid, uint32_t clk, VClock const& knows, int step, uint32_t off, std::size_t bytes,
                        bool write, bool program_order);
  void record_response_read(Cta& c, void const* response);
  // The write of an asynchronous copy that lands now, by the copy engine of barrier b.
  void record_copy_write(Cta& c, uint64_t* b, int issuer, int step, VClock const& issued, void const* dst,
                         std::size_t bytes);

  // reports
  std::string where(Fiber const& f) const;
  std::string site_text(Cta const& c, WaitSite const& s) const;
  std::string barrier_name(Cta const& c, uint64_t* b) const;
  std::string smem_name(Cta const& c, uint32_t off) const;
  // The replay event at replay_cursor that never happened, and why (the run's end or a
  // deadlock before it): the same EmulationError from either place.
  [[noreturn]] void replay_diverged(std::string const& why) const;
  [[noreturn]] void deadlock();
};

void fiber_trampoline();

}  // namespace ts::cpu
