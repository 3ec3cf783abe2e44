// Bad input inside a TaskManager run is reported with the task, resource and step;
// unordered SMEM accesses are reported as data races when detect_races is on.
#include "cpu_test_util.hpp"

using namespace cpu_test;

namespace {
struct Scratch : ts::MemoryResource {
  ts::SmemArray<int32_t> buf;
  void declare_allocations(ts::Allocations& a) { a.smem("buf", buf, 32, 128); }
  void overrun(ts::ProducerStage const& si) const { ts::arch::smem_store(buf.ptr(si.context) + 4096, 1); }
  void write(ts::ProducerStage const& si) const { ts::arch::smem_store(buf.ptr(si.context) + si.thread.lane(), 7); }
  int32_t read(ts::ConsumerStage const& si) const { return ts::arch::smem_load(buf.ptr(si.context) + si.thread.lane()); }
};
}  // namespace
TS_WORK_SLOTS(&Scratch::read, ts::Slot<int32_t>{"v", 0, "value"});
namespace {
struct Overrun {
  template <class S, class R>
  void operator()(S&, R& r) const { ts::work<&Scratch::overrun>(r); }
};
struct Writer {
  template <class S, class R>
  void operator()(S&, R& r) const { ts::work<&Scratch::write>(r); }
};
struct Reader {
  template <class S, class R>
  void operator()(S&, R& r) const { (void)ts::work<&Scratch::read>(r); }
};
}  // namespace

TEST(CpuErrors, OutOfRangeAccessNamesTaskAndStep) {
  auto r = ts::resource("scratch", Scratch{});
  auto t = ts::Task("Bad").warps(0, 1).writes(r).schedule(Overrun{}, r);
  auto tm = ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{r, {}}}, quiet());
  tm.print_and_verify();
  expect_error<ts::cpu::EmulationError>([&] { ts::cpu::run(tm); },
                                        {"out-of-range shared-memory access", "task 'Bad'", "scratch.", "overrun"});
}

TEST(CpuErrors, UnverifiedManagerIsRefused) {
  auto r = ts::resource("scratch", Scratch{});
  auto t = ts::Task("W").warps(0, 1).writes(r).schedule(Writer{}, r);
  auto tm = ts::TaskManager(ts::tasks(t), ts::DependencyGraph{}, quiet());
  expect_error<ts::cpu::EmulationError>([&] { ts::cpu::run(tm); }, {"not verified"});
}

TEST(CpuRaces, UnorderedWriteAndReadAreReported) {
  auto r = ts::resource("scratch", Scratch{});
  auto w = ts::Task("Writer").warps(0, 1).writes(r).schedule(Writer{}, r);
  auto rd = ts::Task("Reader").warps(1, 1).reads(r).schedule(Reader{}, r);
  // No edge orders the reader after the writer: that is the race under test.
  auto tm = ts::TaskManager(ts::tasks(w, rd), ts::DependencyGraph{{r, {}}}, quiet());
  tm.print_and_verify();
  for (uint64_t seed = 1; seed <= 3; ++seed)
    expect_error<ts::cpu::RaceError>([&] { ts::cpu::run(tm, {.seed = seed, .detect_races = true}); },
                                     {"data race on shared memory", "'scratch.buf'", "task 'Writer'", "task 'Reader'"});
  ts::cpu::run(tm, {.seed = 1});  // without detection the same run completes
}

namespace {
struct Stage : ts::MemoryResource {
  void arrive_early(ts::ProducerStage const& si) const { ts::arch::mbar_arrive(si.barrier); }
};
struct DoubleArrive {
  template <class S, class R>
  void operator()(S&, R& r) const {
    r.acquire();
    ts::work<&Stage::arrive_early>(r);  // the bug: the body arrives, then commit arrives again
    r.commit();
  }
};
struct Consume {
  template <class S, class R>
  void operator()(S&, R& r) const {
    r.wait();
    r.release();
  }
};
}  // namespace

TEST(CpuErrors, OverArrivalNamesTaskBarrierAndStep) {
  // The full barrier is declared with 64 arrivals for a 32-thread producer so that the
  // early arrive and commit's arrive land in the same phase. The arrive inside the work
  // body is invisible to the static checks, but the mismatched declared count is not
  // (S6.10); warning_mode keeps the mistake runnable for the emulator to name it.
  auto r = ts::resource("ring", Stage{}, ts::PipelineConfig::async_async({.num_stages = 2,
                                                                           .producer_group = {ts::Agent::Thread, 64},
                                                                           .consumer_group = {ts::Agent::Thread, 32}}));
  auto p = ts::Task("P").warps(0, 1).writes(r).schedule(DoubleArrive{}, r);
  auto c = ts::Task("C").warps(1, 1).reads(r).schedule(Consume{}, r);
  auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{r, {}}}, warnings_only());
  std::ostringstream warnings;
  auto rep = tm.print_and_verify(warnings);
  ASSERT_TRUE(has_warning(rep, "S6.10.full-arrivals")) << check_ids(rep);
  ASSERT_TRUE(tm.verified());  // warning_mode: run() accepts it with require_verified on
  expect_error<ts::cpu::EmulationError>([&] { ts::cpu::run(tm, {.seed = 3}); },
                                        {"over-arrival", "arrived twice", "ring.full[0]", "task 'P'", "ring.commit()"});
}
