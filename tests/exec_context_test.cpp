// The executing context on a single host thread with a trace-only Arch: the same
// schedules the recorder captured run as real loops and branches, and the trace must
// follow the documented semantics of every block construct (SPEC S4).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_resources.hpp"
#include "ts/runtime/exec_context.hpp"

namespace {

struct TraceArch {
  ts::ThreadCoord coord{0, 32, 0, 32, 0, 1};
  ts::KernelContext kctx{};
  std::vector<std::string>* log;
  ts::ThreadCoord const& thread() const { return coord; }
  ts::KernelContext const& kernel() const { return kctx; }
  void mbar_arrive(uint64_t*) { log->push_back("arrive"); }
  void mbar_expect_tx(uint64_t*, uint32_t) { log->push_back("expect_tx"); }
  bool mbar_try_wait(uint64_t*, uint32_t) { return true; }
  void mbar_wait(uint64_t*, uint32_t, ts::WaitSite const&) { log->push_back("wait"); }
  void umma_commit(uint64_t*) {}
  void pdl_wait() {}
  void pdl_launch() {}
  [[noreturn]] void fail(char const* what, ts::WaitSite const&) { throw std::runtime_error(what); }
};

// Resources that log every work call with loop offset, tile and compile-time argument.
struct LogSrc : ts::MemoryResource {
  std::vector<std::string>* log;
  int flag_every = 2;
  int get(ts::ConsumerStage const& si) const {
    log->push_back("get@" + std::to_string(si.loop_offset));
    return int(si.loop_offset) * 10;
  }
  bool flag(ts::AuxStage const& si) const { return si.loop_offset % flag_every == 0; }
  bool is_four(ts::AuxStage const& si) const { return si.loop_offset == 4; }
  template <int I>
  int load(ts::ConsumerStage const&, ts::Ct<I>) const {
    log->push_back("load<" + std::to_string(I) + ">");
    return I;
  }
  long long length(ts::WorkTile const& t) const { return t.tile_idx + 1; }
};
struct LogDst : ts::MemoryResource {
  std::vector<std::string>* log;
  int resets = 0;
  void put(ts::ProducerStage const& si, int v) const {
    log->push_back("put@" + std::to_string(si.loop_offset) + "=" + std::to_string(v) + " tile " +
                   std::to_string(si.work_tile.tile_idx));
  }
  void reset(ts::AuxStage const&) {
    ++resets;
    log->push_back("reset");
  }
  template <int I>
  void mark(ts::AuxStage const&, ts::Ct<I>) const {
    log->push_back(I == 0 ? "first" : I == 1 ? "last" : "every3");
  }
};
struct LogQueue : ts::WorkQueue {
  std::vector<std::string>* log = nullptr;
  bool skip_odd(ts::WorkTile const& t) const { return t.tile_idx % 2 == 1; }
};

template <class Sched, class... R>
std::vector<std::string> run(Sched sched, int grid_blocks, int block, R... res) {
  std::vector<std::string> log;
  TraceArch arch;
  arch.log = &log;
  arch.coord.grid_blocks = grid_blocks;
  arch.coord.block_idx = block;
  ts::PipelineRuntime pipes[8]{};
  ts::exec::Context<TraceArch> ctx(arch, pipes, 0);
  ts::exec::ResourceState st[sizeof...(R)];
  ((res.log = &log), ...);
  auto call = [&](auto&... h) { sched(ctx, h...); };
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    std::tuple<R...> values(res...);
    auto handles = std::make_tuple(
        ts::exec::Handle<ts::exec::Context<TraceArch>, R>(&ctx, &std::get<I>(values), int(I), &st[I])...);
    std::apply(call, handles);
  }(std::index_sequence_for<R...>{});
  return log;
}

struct GuardsAndBreak {
  template <class S, class A, class B>
  void operator()(S& s, A& a, B& b) const {
    s.domain_loop(0, 10, 1, [&] {
      s.first_iter([&] { ts::work<&LogDst::mark<0>>(b); });
      s.every(3, 1, [&] { ts::work<&LogDst::mark<2>>(b); });
      auto v = ts::work<&LogSrc::get>(a);
      auto stop = ts::work<&LogSrc::flag>(a);
      s.when_false(stop, [&] { ts::work<&LogDst::put>(b, v); });
      s.last_iter([&] { ts::work<&LogDst::mark<1>>(b); });
    });
  }
};

}  // namespace

TEST(ExecContext, GuardsConditionsAndCompileTimeArgs) {
  auto log = run(GuardsAndBreak{}, 1, 0, LogSrc{}, LogDst{});
  std::vector<std::string> expect;
  for (int i = 0; i < 10; ++i) {
    if (i == 0) expect.push_back("first");
    if (i >= 1 && (i - 1) % 3 == 0) expect.push_back("every3");
    expect.push_back("get@" + std::to_string(i));
    if (i % 2 != 0) expect.push_back("put@" + std::to_string(i) + "=" + std::to_string(i * 10) + " tile 0");
    if (i == 9) expect.push_back("last");
  }
  EXPECT_EQ(log, expect);
}

namespace {
struct BreakAtFour {
  template <class S, class A, class B>
  void operator()(S& s, A& a, B& b) const {
    s.domain_loop(0, 100, 1, [&](auto& d) {
      auto v = ts::work<&LogSrc::get>(a);
      auto stop = ts::work<&LogSrc::is_four>(a);
      s.when_true(stop, [&] { d.break_loop(); });
      ts::work<&LogDst::put>(b, v);  // skipped in the iteration that breaks
    });
    ts::work<&LogDst::mark<1>>(b);  // runs after the loop
  }
};
}  // namespace

TEST(ExecContext, BreakLoopSkipsRestOfIterationAndResumesAfterLoop) {
  auto log = run(BreakAtFour{}, 1, 0, LogSrc{}, LogDst{});
  std::vector<std::string> expect;
  for (int i = 0; i < 4; ++i) {
    expect.push_back("get@" + std::to_string(i));
    expect.push_back("put@" + std::to_string(i) + "=" + std::to_string(i * 10) + " tile 0");
  }
  expect.push_back("get@4");
  expect.push_back("last");
  EXPECT_EQ(log, expect);
}

namespace {
struct PersistentSkip {
  template <class S, class A, class B, class Q>
  void operator()(S& s, A& a, B& b, Q& q) const {
    s.work_tile_loop(q, ts::skip_if<&LogQueue::skip_odd>, [&] {
      ts::work<&LogDst::reset>(b);
      s.skippable([&] {
        s.domain_loop(0, ts::per_tile<&LogSrc::length>(a), 1,
                      [&] { ts::work<&LogDst::put>(b, ts::work<&LogSrc::load<7>>(a)); });
      });
      q.try_wait();
      q.wait();
      q.get_and_advance_work_tile();
      q.release();
    });
  }
};
}  // namespace

TEST(ExecContext, StaticPersistentTilesSkipAndPerTileDomain) {
  // Grid of 2 CTAs over 5 tiles: CTA 0 takes tiles 0, 2, 4; odd tiles are skipped.
  LogQueue q;
  q.num_tiles = 5;
  auto log = run(PersistentSkip{}, 2, 0, LogSrc{}, LogDst{}, q);
  std::vector<std::string> expect;
  for (int t : {0, 2, 4}) {
    expect.push_back("reset");
    for (int i = 0; i < t + 1; ++i) {
      expect.push_back("load<7>");
      expect.push_back("put@" + std::to_string(i) + "=7 tile " + std::to_string(t));
    }
  }
  EXPECT_EQ(log, expect);
  // CTA 1 takes tiles 1 and 3: both skipped, bookkeeping still runs (two resets).
  auto log1 = run(PersistentSkip{}, 2, 1, LogSrc{}, LogDst{}, q);
  EXPECT_EQ(log1, (std::vector<std::string>{"reset", "reset"}));
}

namespace {
struct ForgetsToAdvance {
  template <class S, class A, class Q>
  void operator()(S& s, A& a, Q& q) const {
    s.work_tile_loop(q, [&](auto&) { ts::work<&LogSrc::get>(a); });
  }
};
}  // namespace

TEST(ExecContext, TileLoopWithoutAdvanceFailsInsteadOfHanging) {
  LogQueue q;
  q.num_tiles = 3;
  EXPECT_THROW(run(ForgetsToAdvance{}, 1, 0, LogSrc{}, q), std::runtime_error);
}
