// Golden tests pinning the printout format (SPEC S8.1, S8.2) and the JSON export.
// Set TS_UPDATE_GOLDEN=1 to rewrite the files after an intended format change.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "copy/copy_examples.hpp"
#include "golden_util.hpp"
#include "test_resources.hpp"
#include "ts/print/printout.hpp"

using golden::printed;
inline void expect_golden(std::string const& name, std::string const& actual) { golden::expect(name, actual); }

TEST(Printout, GridStrideCopyGolden) {
  examples::CopyBuffers b(100);
  expect_golden("grid_stride_copy.txt", printed(examples::make_grid_stride_copy(b, tst::quiet())));
}

TEST(Printout, PipelinedCopyGolden) {
  examples::CopyBuffers b(100);
  expect_golden("pipelined_copy.txt", printed(examples::make_pipelined_copy(b, tst::quiet())));
}

TEST(Printout, PipelinedCopyJsonGolden) {
  examples::CopyBuffers b(100);
  expect_golden("pipelined_copy.json", examples::make_pipelined_copy(b, tst::quiet()).to_json() + "\n");
}

namespace {
// A producer that never commits: the consumer blocks and the printout says so.
struct AcquireOnly {
  template <class S, class R, class A>
  void operator()(S& s, R& ring, A& a) const {
    s.domain_loop(0, 2, 1, [&] {
      ring.acquire();
      ts::work<&tst::Ring::fill>(ring, ts::work<&tst::Src::get>(a));
    });
  }
};
struct Drain {
  template <class S, class R, class B>
  void operator()(S& s, R& ring, B& b) const {
    s.domain_loop(0, 2, 1, [&] {
      ring.wait();
      ts::work<&tst::Dst::put>(b, ts::work<&tst::Ring::drain>(ring));
      ring.release();
    });
  }
};
// Commits three times, consumer waits twice: one commit is never consumed.
struct CommitThrice {
  template <class S, class R, class A>
  void operator()(S& s, R& ring, A& a) const {
    s.domain_loop(0, 3, 1, [&] {
      ring.acquire();
      ts::work<&tst::Ring::fill>(ring, ts::work<&tst::Src::get>(a));
      ring.commit();
    });
  }
};
template <class P>
std::string two_task_printout(P producer, int stages) {
  auto src = ts::resource("src", tst::Src{});
  auto dst = ts::resource("dst", tst::Dst{});
  auto ring = ts::resource("ring", tst::Ring{}, tst::ring_config(stages));
  auto p = ts::Task("P").warps(0, 1).reads(src).writes(ring).schedule(producer, ring, src);
  auto c = ts::Task("C").warps(1, 1).reads(ring).writes(dst).schedule(Drain{}, ring, dst);
  auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{ring, {src}}, {dst, {ring}}}, tst::quiet());
  return printed(tm);
}
}  // namespace

TEST(Printout, BlockedStepsAndDeadlockGolden) {
  std::string out = two_task_printout(AcquireOnly{}, 1);
  EXPECT_NE(out.find("is blocked!"), std::string::npos);
  EXPECT_NE(out.find("Simulation stopped: every remaining task is blocked."), std::string::npos);
  expect_golden("blocked.txt", out);
}

TEST(Printout, UnconsumedCommitGolden) {
  std::string out = two_task_printout(CommitThrice{}, 4);
  EXPECT_NE(out.find("1x ProducerCommit from ring not consumed by C!"), std::string::npos);
  expect_golden("unconsumed.txt", out);
}

namespace {
// A TMA producer that commits stages no copy ever fills: each full barrier expects bytes
// that never land, so on the GPU the consumer's first wait never passes. The table's
// sample run steps the checker's credit model (ts/check/credit_model.hpp), which knows
// that; the printout's own model, before, let the wait pass and showed a clean run.
struct CommitWithoutCopy {
  template <class S, class R, class A>
  void operator()(S& s, R& ring, A& a) const {
    s.domain_loop(0, 2, 1, [&] {
      ring.acquire();
      ts::work<&tst::Src::get>(a);
      ring.commit();
    });
  }
};
}  // namespace

TEST(Printout, TmaStageCommittedWithoutACopyBlocksTheWait) {
  auto src = ts::resource("src", tst::Src{});
  auto dst = ts::resource("dst", tst::Dst{});
  auto ring = ts::resource("ring", tst::Ring{}, ts::tma_async({.num_stages = 2, .num_bytes = 64}));
  auto p = ts::Task("P").warps(0, 1).reads(src).writes(ring).schedule(CommitWithoutCopy{}, ring, src);
  auto c = ts::Task("C").warps(1, 1).reads(ring).writes(dst).schedule(Drain{}, ring, dst);
  auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{ring, {src}}, {dst, {ring}}}, tst::quiet());
  std::string out = printed(tm);
  EXPECT_NE(out.find("ring ConsumerWait[0] F 0 is blocked!"), std::string::npos) << out;
  EXPECT_NE(out.find("Simulation stopped: every remaining task is blocked."), std::string::npos) << out;
  EXPECT_NE(out.find("2x ProducerCommit from ring not consumed by C!"), std::string::npos) << out;
  EXPECT_EQ(out.find("ConsumerRelease"), std::string::npos) << "no wait passes, so no release runs:\n" << out;
}

namespace {
struct OneCopy {
  template <class S, class A, class B>
  void operator()(S& s, A& a, B& b) const {
    s.domain_loop(0, 1, 1, [&] { ts::work<&tst::Dst::put>(b, ts::work<&tst::Src::get>(a)); });
  }
};
}  // namespace

TEST(Printout, RegisterBudgetReportsDonationsAndBorrows) {
  auto src = ts::resource("src", tst::Src{});
  auto dst = ts::resource("dst", tst::Dst{});
  auto load = ts::Task("Load").warps(0, 4).reads(src).writes(dst).registers(40).schedule(OneCopy{}, src, dst);
  auto math = ts::Task("Math").warps(4, 8).reads(src).writes(dst).registers(232).schedule(OneCopy{}, src, dst);
  auto tm = ts::TaskManager(ts::tasks(load, math), ts::DependencyGraph{{dst, {src}}}, tst::quiet());
  std::ostringstream os;
  ts::print::register_budget(tm.model(), os);
  std::string out = os.str();
  EXPECT_NE(out.find("launch budget 168 registers/thread"), std::string::npos) << out;
  EXPECT_NE(out.find("Load[0:4) 40 regs/thread, donates 128 x 128 threads"), std::string::npos) << out;
  EXPECT_NE(out.find("Math[4:12) 232 regs/thread, borrows 64 x 256 threads"), std::string::npos) << out;
  EXPECT_NE(out.find("total 64512 of 65536 registers (fits)"), std::string::npos) << out;
}

namespace {
// Two phases of one alias group: the staging buffer reuses the ring's bytes.
struct Aliased : ts::MemoryResource {
  ts::SmemArray<float> ring, staging;
  void declare_allocations(ts::Allocations& a) {
    a.smem("ring", ring, 4096, 1024).alias("epilogue", 0);
    a.smem("staging", staging, 2048, 128).alias("epilogue", 1);
  }
  TS_HD int get(ts::ConsumerStage const&) const { return 0; }
};
struct ReadAliased {
  template <class S, class A, class B>
  void operator()(S& s, A& a, B& b) const {
    s.domain_loop(0, 1, 1, [&] { ts::work<&tst::Dst::put>(b, ts::work<&Aliased::get>(a)); });
  }
};
}  // namespace

TEST(Printout, MemoryReportShowsPlacementsAliasGroupsAndSavings) {
  auto a = ts::resource("buf", Aliased{});
  auto dst = ts::resource("dst", tst::Dst{});
  auto t = ts::Task("T").warps(0, 1).reads(a).writes(dst).schedule(ReadAliased{}, a, dst);
  auto tm = ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{dst, {a}}}, tst::quiet());
  std::ostringstream os;
  tm.print(os);
  std::string out = os.str();
  EXPECT_NE(out.find("Shared memory: 16384 of 232448 bytes"), std::string::npos) << out;
  EXPECT_NE(out.find("alias group 'epilogue': phase 0 {buf.ring} phase 1 {buf.staging}; region 16384 B, saves 8192 B"),
            std::string::npos)
      << out;
  // Printing lays nothing out: the handles are still unplaced, and the real layout works.
  EXPECT_FALSE(a->ring.placed());
  auto const& L = tm.layout();
  EXPECT_EQ(a->ring.offset, a->staging.offset);  // same region, different phases
  EXPECT_EQ(L.smem_bytes, 16384u);
}
