// Programmatic Dependent Launch between two emulated kernels: the secondary's CTAs may
// start once every primary CTA triggered (or exited); its PdlWait blocks until the
// primary grid completed, so it sees even the writes made after the trigger.
#include "cpu_test_util.hpp"

using namespace cpu_test;

namespace {
struct Buffer : ts::MemoryResource {
  int* data = nullptr;
  long long n = 0;
  void write(ts::ProducerStage const& si) const { data[si.loop_offset] = int(si.loop_offset * 5 + 1); }
  int read(ts::ConsumerStage const& si) const { return data[si.loop_offset]; }
};
struct Out : ts::MemoryResource {
  int* data = nullptr;
  void put(ts::ProducerStage const& si, int v) const { data[si.loop_offset] = v; }
};
}  // namespace
TS_WORK_SLOTS(&Buffer::read, ts::Slot<int>{"v", 0, "value"});
namespace {

// Triggers the dependents first, then writes: only griddepcontrol.wait protects them.
struct Primary {
  template <class S, class L, class B>
  void operator()(S& s, L& launch, B& buf) const {
    launch.acquire();
    launch.commit();
    s.domain_loop(s.global_thread(), buf->n, s.grid_threads(), [&](auto&) { ts::work<&Buffer::write>(buf); });
  }
};
struct CopyOut {
  template <class S, class B, class O>
  void operator()(S& s, B& buf, O& out) const {
    s.domain_loop(s.global_thread(), buf->n, s.grid_threads(), [&](auto&) {
      auto v = ts::work<&Buffer::read>(buf);
      ts::work<&Out::put>(out, v);
    });
  }
};
// griddepcontrol.wait, then read what the primary wrote.
struct Secondary {
  template <class S, class W, class B, class O>
  void operator()(S& s, W& dep, B& buf, O& out) const {
    dep.wait();
    CopyOut{}(s, buf, out);
  }
};
// The bug: a secondary that never waits for the primary grid (no PdlWait at all).
struct SecondaryWithoutWait {
  template <class S, class B, class O>
  void operator()(S& s, B& buf, O& out) const {
    CopyOut{}(s, buf, out);
  }
};

template <bool kWait>
bool run_chain_once(uint64_t seed, ts::cpu::RunStats* stats = nullptr) {
  constexpr long long n = 300;
  std::vector<int> buf(n, 0), out(n, -1);
  auto launch = ts::resource("launch", ts::PdlLaunch{});
  auto b1 = ts::resource("buf", Buffer{{}, buf.data(), n});
  auto t1 = ts::Task("Writer").warps(0, 1).writes(b1, launch).schedule(Primary{}, launch, b1);
  // PDL resources need no graph entry (S6.4); 'buf' is only written in this kernel.
  // The primary has no predecessor grid: nothing to wait for before launching dependents.
  ts::Options o1 = quiet();
  o1.assume_pdl_wait_completed = true;
  auto tm1 = ts::TaskManager(ts::tasks(t1), ts::DependencyGraph{{b1, {}}}, o1);
  tm1.print_and_verify();
  auto b2 = ts::resource("buf", Buffer{{}, buf.data(), n});
  auto o2 = ts::resource("out", Out{{}, out.data()});
  // 'buf' is only read in the secondary kernel: it is the upstream of 'out'.
  auto chain = [&](auto const& t2) {
    auto tm2 = ts::TaskManager(ts::tasks(t2), ts::DependencyGraph{{o2, {b2}}}, quiet());
    tm2.print_and_verify();
    return ts::cpu::run_chain(tm1, tm2, {.grid_blocks = 2, .resident_blocks = 4, .seed = seed});
  };
  ts::cpu::RunStats st;
  if constexpr (kWait) {
    auto dep = ts::resource("dep", ts::PdlWait{});
    st = chain(ts::Task("Reader").warps(0, 1).reads(dep, b2).writes(o2).schedule(Secondary{}, dep, b2, o2));
  } else {
    st = chain(ts::Task("Reader").warps(0, 1).reads(b2).writes(o2).schedule(SecondaryWithoutWait{}, b2, o2));
  }
  if (stats) *stats = st;
  for (long long i = 0; i < n; ++i)
    if (out[i] != int(i * 5 + 1)) return false;
  return true;
}
}  // namespace

TEST(CpuPdl, WaitSeesTheWholePrimaryGrid) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    ts::cpu::RunStats st;
    EXPECT_TRUE(run_chain_once<true>(seed, &st)) << "seed " << seed;
    EXPECT_EQ(st.ctas_started, 4);
  }
}

TEST(CpuPdl, WithoutWaitTheSecondaryOverlapsThePrimary) {
  // The secondary starts as soon as the primary triggered, so without griddepcontrol.wait
  // some interleaving reads data the primary has not written yet.
  int stale = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) stale += !run_chain_once<false>(seed);
  EXPECT_GT(stale, 0);
}
