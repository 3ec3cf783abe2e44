// Each pipeline type's producer/consumer protocol on the emulator, with tiny tasks:
// AsyncAsync, TmaAsync, AsyncUmma, TmaUmma, UmmaAsync, UmmaUmma (ClcFetchAsync is in
// cpu_queue_test.cpp). UMMA sides are emulated (MMA engine + tensor memory).
#include "cpu_test_util.hpp"

using namespace cpu_test;

namespace {

constexpr int kIters = 6;
constexpr int kStages = 2;

// ---- plain-thread and TMA producers into a 32-word SMEM ring, thread consumers ----
struct Src : ts::MemoryResource {
  int32_t const* data = nullptr;  // kIters x 32
  int32_t value(ts::ConsumerStage const& si) const { return data[si.loop_offset * 32 + si.thread.lane()]; }
};
struct Dst : ts::MemoryResource {
  int32_t* data = nullptr;
  void put(ts::ProducerStage const& si, int32_t v) const { data[si.loop_offset * 32 + si.thread.lane()] = v; }
};
struct Ring : ts::MemoryResource {
  ts::SmemArray<int32_t> buf;
  int32_t const* gsrc = nullptr;  // for TMA fills
  void declare_allocations(ts::Allocations& a) { a.smem("buf", buf, kStages * 32, 128); }
  int32_t* stage(ts::StageInfo const& si) const { return buf.ptr(si.context) + si.stage_idx * 32; }
  void write(ts::ProducerStage const& si, int32_t v) const { ts::arch::smem_store(stage(si) + si.thread.lane(), v); }
  void tma_fill(ts::ProducerStage const& si) const {
    if (si.thread.thread_in_task == 0) ts::arch::bulk_copy_g2s(stage(si), gsrc + si.loop_offset * 32, 128, si.barrier);
  }
  int32_t read(ts::ConsumerStage const& si) const { return ts::arch::smem_load(stage(si) + si.thread.lane()); }
};
}  // namespace
TS_WORK_SLOTS(&Src::value, ts::Slot<int32_t>{"v", 0, "lane value"});
TS_WORK_SLOTS(&Ring::read, ts::Slot<int32_t>{"v", 0, "lane value"});
namespace {

struct ThreadFill {
  template <class S, class In, class R>
  void operator()(S& s, In& in, R& ring) const {
    s.domain_loop(0, kIters, 1, [&](auto&) {
      ring.acquire();
      auto v = ts::work<&Src::value>(in);
      ts::work<&Ring::write>(ring, v);
      ring.commit();
    });
  }
};
struct TmaFill {
  template <class S, class R>
  void operator()(S& s, R& ring) const {
    s.domain_loop(0, kIters, 1, [&](auto&) {
      ring.acquire();
      ts::work<&Ring::tma_fill>(ring);
      ring.commit();
    });
  }
};
struct Drain {
  template <class S, class R, class Out>
  void operator()(S& s, R& ring, Out& out) const {
    s.domain_loop(0, kIters, 1, [&](auto&) {
      ring.wait();
      auto v = ts::work<&Ring::read>(ring);
      ts::work<&Dst::put>(out, v);
      ring.release();
    });
  }
};

std::vector<int32_t> source() {
  std::vector<int32_t> v(kIters * 32);
  for (size_t i = 0; i < v.size(); ++i) v[i] = int32_t(i * 3 + 1);
  return v;
}

TEST(CpuPipelines, AsyncAsync) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    auto src = source();
    std::vector<int32_t> dst(src.size(), 0);
    auto in = ts::resource("in", Src{{}, src.data()});
    auto out = ts::resource("out", Dst{{}, dst.data()});
    auto ring = ts::resource("ring", Ring{}, ts::PipelineConfig::async_async({.num_stages = kStages,
                                                                              .producer_group = {ts::Agent::Thread, 32},
                                                                              .consumer_group = {ts::Agent::Thread, 32}}));
    auto p = ts::Task("P").warps(0, 1).reads(in).writes(ring).schedule(ThreadFill{}, in, ring);
    auto c = ts::Task("C").warps(1, 1).reads(ring).writes(out).schedule(Drain{}, ring, out);
    auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{ring, {in}}, {out, {ring}}}, quiet());
    tm.print_and_verify();
    ts::cpu::run(tm, {.seed = seed, .detect_races = true});
    EXPECT_EQ(dst, src) << "seed " << seed;
  }
}

TEST(CpuPipelines, TmaAsync) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    auto src = source();
    std::vector<int32_t> dst(src.size(), 0);
    auto out = ts::resource("out", Dst{{}, dst.data()});
    auto ring = ts::resource("ring", Ring{{}, {}, src.data()},
                             ts::PipelineConfig::tma_async({.num_stages = kStages,
                                                            .num_bytes = 128,
                                                            .producer_group = {ts::Agent::Thread, 1},
                                                            .consumer_group = {ts::Agent::Thread, 32}}));
    auto p = ts::Task("Tma").warps(0, 1).writes(ring).schedule(TmaFill{}, ring);
    auto c = ts::Task("C").warps(1, 1).reads(ring).writes(out).schedule(Drain{}, ring, out);
    auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{out, {ring}}}, quiet());
    tm.print_and_verify();
    ts::cpu::run(tm, {.seed = seed, .detect_races = true});
    EXPECT_EQ(dst, src) << "seed " << seed;
  }
}

// ---- UMMA consumers: stage = A (4x4) and B = identity (4x4) as 32 floats ----
struct MmaRing : ts::MemoryResource {
  ts::SmemArray<float> buf;
  float const* gsrc = nullptr;
  void declare_allocations(ts::Allocations& a) { a.smem("ab", buf, kStages * 32, 128); }
  float* stage(ts::StageInfo const& si) const { return buf.ptr(si.context) + si.stage_idx * 32; }
  void write(ts::ProducerStage const& si) const {
    int l = si.thread.lane();
    float v = l < 16 ? float(si.loop_offset * 16 + l) : ((l - 16) % 5 == 0 ? 1.0f : 0.0f);
    ts::arch::smem_store(stage(si) + l, v);
  }
  void tma_fill(ts::ProducerStage const& si) const {
    if (si.thread.thread_in_task == 0) ts::arch::bulk_copy_g2s(stage(si), gsrc + si.loop_offset * 32, 128, si.barrier);
  }
  void mma(ts::ConsumerStage const& si) const {
    if (si.thread.thread_in_task == 0)
      ts::arch::umma_issue(0, stage(si), stage(si) + 16, {4, 4, 4}, si.loop_offset > 0);
  }
};
struct Acc : ts::MemoryResource {
  float* out = nullptr;
  void load(ts::ConsumerStage const& si) const {
    if (si.thread.thread_in_task == 0) ts::arch::tmem_load(out, 0, 4, 4);
  }
};

template <bool kTma>
struct MmaProducer {
  template <class S, class R>
  void operator()(S& s, R& ring) const {
    s.domain_loop(0, kIters, 1, [&](auto&) {
      ring.acquire();
      if constexpr (kTma) ts::work<&MmaRing::tma_fill>(ring);
      else ts::work<&MmaRing::write>(ring);
      ring.commit();
    });
  }
};
struct MmaTask {
  template <class S, class R, class A>
  void operator()(S& s, R& ring, A& acc) const {
    s.domain_loop(0, kIters, 1, [&](auto&) {
      ring.wait();
      ts::work<&MmaRing::mma>(ring);
      ring.release();  // tcgen05.commit: frees the stage once the MMA has read it
    });
    acc.acquire();
    acc.commit();  // tcgen05.commit: the accumulator is full once every MMA ran
  }
};
struct Epilogue {
  template <class S, class A>
  void operator()(S&, A& acc) const {
    acc.wait();
    ts::work<&Acc::load>(acc);
    acc.release();
  }
};

template <bool kTma>
void run_umma_chain(uint64_t seed) {
  std::vector<float> g(kIters * 32), result(16, -1.0f);
  for (int it = 0; it < kIters; ++it)
    for (int l = 0; l < 32; ++l) g[it * 32 + l] = l < 16 ? float(it * 16 + l) : ((l - 16) % 5 == 0 ? 1.0f : 0.0f);
  auto ring = ts::resource("ab", MmaRing{{}, {}, g.data()},
                           kTma ? ts::PipelineConfig::tma_umma({.num_stages = kStages, .num_bytes = 128,
                                                                .producer_group = {ts::Agent::Thread, 1}})
                                : ts::PipelineConfig::async_umma({.num_stages = kStages,
                                                                  .producer_group = {ts::Agent::Thread, 32}}));
  auto acc = ts::resource("acc", Acc{{}, result.data()},
                          ts::PipelineConfig::umma_async({.num_stages = 1, .consumer_group = {ts::Agent::Thread, 32}}));
  auto p = ts::Task("Load").warps(0, 1).writes(ring).schedule(MmaProducer<kTma>{}, ring);
  auto m = ts::Task("Mma").warps(1, 1).reads(ring).writes(acc).schedule(MmaTask{}, ring, acc);
  auto e = ts::Task("Epilogue").warps(2, 1).reads(acc).schedule(Epilogue{}, acc);
  auto tm = ts::TaskManager(ts::tasks(p, m, e), ts::DependencyGraph{{acc, {ring}}}, quiet());
  tm.print_and_verify();
  ts::cpu::run(tm, {.seed = seed, .detect_races = true});
  for (int i = 0; i < 16; ++i) {
    float want = 0;
    for (int it = 0; it < kIters; ++it) want += float(it * 16 + i);
    EXPECT_FLOAT_EQ(result[i], want) << "seed " << seed << " element " << i;
  }
}

TEST(CpuPipelines, AsyncUmmaThenUmmaAsync) {
  for (uint64_t seed = 1; seed <= 5; ++seed) run_umma_chain<false>(seed);
}
TEST(CpuPipelines, TmaUmmaThenUmmaAsync) {
  for (uint64_t seed = 1; seed <= 5; ++seed) run_umma_chain<true>(seed);
}

// ---- UmmaUmma: one MMA stream hands tensor-memory stages to another ----
struct TmemStages : ts::MemoryResource {
  std::vector<int>* log = nullptr;
  void produce(ts::ProducerStage const& si) const {
    if (si.thread.thread_in_task != 0) return;
    float* cell = ts::cpu::Emulator::current().tmem(uint32_t(si.stage_idx), 0);
    float v = float(si.loop_offset);
    ts::cpu::Emulator::current().umma_issue([cell, v] { *cell = v; });
  }
  void consume(ts::ConsumerStage const& si) const {
    if (si.thread.thread_in_task != 0) return;
    float* cell = ts::cpu::Emulator::current().tmem(uint32_t(si.stage_idx), 0);
    auto* l = log;
    ts::cpu::Emulator::current().umma_issue([cell, l] { l->push_back(int(*cell)); });
  }
};
struct UmmaProduce {
  template <class S, class T>
  void operator()(S& s, T& t) const {
    s.domain_loop(0, kIters, 1, [&](auto&) {
      t.acquire();
      ts::work<&TmemStages::produce>(t);
      t.commit();
    });
  }
};
struct UmmaConsume {
  template <class S, class T>
  void operator()(S& s, T& t) const {
    s.domain_loop(0, kIters, 1, [&](auto&) {
      t.wait();
      ts::work<&TmemStages::consume>(t);
      t.release();
    });
  }
};

TEST(CpuPipelines, UmmaUmma) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    std::vector<int> log;
    auto t = ts::resource("tmem", TmemStages{{}, &log}, ts::PipelineConfig::umma_umma({.num_stages = kStages}));
    auto p = ts::Task("Mma1").warps(0, 1).writes(t).schedule(UmmaProduce{}, t);
    auto c = ts::Task("Mma2").warps(1, 1).reads(t).schedule(UmmaConsume{}, t);
    auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{t, {}}}, quiet());
    tm.print_and_verify();
    ts::cpu::run(tm, {.seed = seed});
    std::vector<int> want(kIters);
    for (int i = 0; i < kIters; ++i) want[i] = i;
    EXPECT_EQ(log, want) << "seed " << seed;
  }
}

}  // namespace
