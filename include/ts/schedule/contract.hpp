// The contract between the two contexts a schedule body is instantiated with (SPEC S4):
// the recording side (ts::rec::Context / Handle, schedule/recorder.hpp) and the executing
// side (ts::exec::Context / Handle, runtime/exec_context.hpp, handle.hpp). Every construct
// a schedule may call is listed here once; each side static_asserts its types against the
// concepts (TS_ASSERT_SCHEDULE_CONTRACT), so a construct added to one side and forgotten in
// the other fails to compile at that side's header, naming the concept, instead of in the
// first user schedule that happens to call it on the other backend.
//
// What the concepts cannot say: the two sides' types differ on purpose (a recorded loop
// bound is an ir::Bound, an executed one a number; a recorded condition a Token<bool>, an
// executed one a bool), so each side names its own handle and condition types.
#pragma once
#include <concepts>

#include "ts/core/macros.hpp"
#include "ts/core/resource_types.hpp"
#include "ts/schedule/key.hpp"
#include "ts/schedule/unroll.hpp"

namespace ts {

namespace contract {
// A block body: the constructs call it with nothing or with their loop handle. (A probe
// type, not a lambda: nvcc rejects lambdas inside a requires-expression.)
struct Body {
  template <class... A>
  TS_HD void operator()(A&...) const {}
};
// The resource types the sides instantiate their handles with to be checked.
struct ProbeMemory : MemoryResource {};
struct ProbeQueue : WorkQueue {};
}  // namespace contract

// A resource handle: the pipeline ops, turn-taking, groups, the resource itself.
template <class H>
concept ResourceHandle = requires(H const& h, long long n) {
  typename H::resource_type;
  { h.id() } -> std::convertible_to<int>;
  h.get();
  h.operator->();
  h.try_acquire();
  h.acquire();
  h.commit();
  h.try_wait();
  h.wait();
  h.release();
  h.skip(n);
  h.group_with(h);
};

// A work queue's handle: a resource handle with the queue's bookkeeping.
template <class H>
concept QueueHandle = ResourceHandle<H> && requires(H const& h) {
  h.get_and_advance_work_tile();
  h.fetch_work_tile();
};

// The domain loop's handle (guards and break) and the work-tile loop's (skippable).
template <class L>
concept DomainLoopHandle = requires(L& d, contract::Body f) {
  d.first_iter(f);
  d.last_iter(f);
  d.every(2, 1, f);
  d.every(2, f);
  d.break_loop();
};
template <class L>
concept TileLoopHandle = requires(L& t, contract::Body f) {
  t.skippable(f);
  t.tile_idx();
};

// A schedule context over its queue handle QH and condition type Cond.
template <class C, class QH, class Cond>
concept ScheduleContext = QueueHandle<QH> && requires(C& s, QH const& q, Cond const& c, contract::Body f) {
  { C::is_recording } -> std::convertible_to<bool>;
  s.task_threads();
  s.task_thread();
  s.block_idx();
  s.grid_blocks();
  s.global_thread();
  s.grid_threads();
  s.domain_loop(0, 1, 1, f);
  s.domain_loop(0, 1, 1, Unroll<2>{}, f);
  s.work_tile_loop(q, f);
  s.first_iter(f);
  s.last_iter(f);
  s.every(2, 1, f);
  s.every(2, f);
  s.break_loop();
  s.skippable(f);
  s.when_true(c, f);
  s.when_false(c, f);
  s.when_true(c, Key{"k"}, f);
  s.when_false(c, Key{"k"}, f);
};

}  // namespace ts

// One side's check: its context C (over queue handle QH, conditions Cond), its memory
// handle MH and its two loop handles DL, TL.
#define TS_ASSERT_SCHEDULE_CONTRACT(C, QH, Cond, MH, DL, TL)                                                         \
  static_assert(::ts::ScheduleContext<C, QH, Cond>,                                                                \
                "this schedule context does not meet ts::ScheduleContext (schedule/contract.hpp): a construct "    \
                "is missing on this side or has another signature than on the other");                            \
  static_assert(::ts::ResourceHandle<MH>, "this side's resource handle does not meet ts::ResourceHandle");          \
  static_assert(::ts::QueueHandle<QH>, "this side's queue handle does not meet ts::QueueHandle");                   \
  static_assert(::ts::DomainLoopHandle<DL>, "this side's domain-loop handle does not meet ts::DomainLoopHandle");   \
  static_assert(::ts::TileLoopHandle<TL>, "this side's work-tile-loop handle does not meet ts::TileLoopHandle")
