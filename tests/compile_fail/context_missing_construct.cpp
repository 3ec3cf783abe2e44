// EXPECT: does not meet ts::ScheduleContext
// A schedule context with every construct of the contract but `skippable` (as if a new
// construct had been added to the other side only): its side's contract check fails.
#include "ts/schedule/contract.hpp"
#include "ts/schedule/recorder.hpp"

struct Forgetful {
  static constexpr bool is_recording = true;
  int task_threads() const { return 32; }
  int task_thread() const { return 0; }
  int block_idx() const { return 0; }
  int grid_blocks() const { return 1; }
  int global_thread() const { return 0; }
  int grid_threads() const { return 32; }
  template <class A, class B, class C, class F>
  void domain_loop(A, B, C, F&&) {}
  template <class A, class B, class C, int N, class F>
  void domain_loop(A, B, C, ts::Unroll<N>, F&&) {}
  template <class Q, class F>
  void work_tile_loop(Q const&, F&&) {}
  template <class F>
  void first_iter(F&&) {}
  template <class F>
  void last_iter(F&&) {}
  template <class F>
  void every(int, int, F&&) {}
  template <class F>
  void every(int, F&&) {}
  void break_loop() {}
  template <class C, class F>
  void when_true(C const&, F&&) {}
  template <class C, class F>
  void when_false(C const&, F&&) {}
  template <class C, class F>
  void when_true(C const&, ts::Key, F&&) {}
  template <class C, class F>
  void when_false(C const&, ts::Key, F&&) {}
};

TS_ASSERT_SCHEDULE_CONTRACT(Forgetful, ts::rec::Handle<ts::contract::ProbeQueue>, ts::Token<bool>,
                            ts::rec::Handle<ts::contract::ProbeMemory>, ts::rec::DomainLoopHandle,
                            ts::rec::WorkTileLoopHandle);
int main() {}
