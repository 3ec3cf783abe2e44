// Named schedules that model real kernels, for the checker benchmark and for the
// test that POR and plain BFS agree. The work bodies are empty: the checker reads only
// the recorded schedule, which is exactly what a real kernel with these bodies runs.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "copy/copy_examples.hpp"
#include "ts/ts.hpp"

namespace bench {

// A stage of data: producer work writes it, consumer work reads it.
struct Stage : ts::MemoryResource {
  TS_HD void put(ts::ProducerStage const&) const {}
  TS_HD void put2(ts::ProducerStage const&) const {}
  TS_HD void take(ts::ConsumerStage const&) const {}
  TS_HD void take2(ts::ConsumerStage const&) const {}
};
struct Tiles : ts::WorkQueue {};

inline ts::Options quiet() {
  ts::Options o;
  o.verbose = false;
  return o;
}
inline auto K() { return ts::runtime(8, "k_blocks").at_least(1); }

// ---- 2-task pipelined copy: the copy example itself ----
inline ts::Model copy2() {
  static examples::CopyBuffers b(4096);
  return examples::make_pipelined_copy(b, quiet()).model();
}

// ---- Blackwell-style GEMM: TMA load A/B -> UMMA -> epilogue over a TMEM accumulator ----
struct GemmLoad {
  template <class S, class Q, class AB>
  TS_HD void operator()(S& s, Q& tiles, AB& ab) const {
    s.work_tile_loop(tiles, [&](auto&) {
      s.domain_loop(0, K(), 1, [&](auto&) {
        ab.acquire();
        ts::work<&Stage::put>(ab);   // TMA A
        ts::work<&Stage::put2>(ab);  // TMA B
        ab.commit();
      });
      tiles.get_and_advance_work_tile();
    });
  }
};
struct GemmMma {
  template <class S, class Q, class AB, class Acc>
  TS_HD void operator()(S& s, Q& tiles, AB& ab, Acc& acc) const {
    s.work_tile_loop(tiles, [&](auto&) {
      acc.acquire();
      s.domain_loop(0, K(), 1, [&](auto&) {
        ab.wait();
        ts::work<&Stage::take>(ab);
        ts::work<&Stage::put>(acc);
        ab.release();
      });
      acc.commit();
      tiles.get_and_advance_work_tile();
    });
  }
};
struct GemmEpilogue {
  template <class S, class Q, class Acc, class Out>
  TS_HD void operator()(S& s, Q& tiles, Acc& acc, Out& out) const {
    s.work_tile_loop(tiles, [&](auto&) {
      acc.wait();
      ts::work<&Stage::take>(acc);
      acc.release();
      ts::work<&Stage::put>(out);
      tiles.get_and_advance_work_tile();
    });
  }
};
inline ts::Model gemm_blackwell() {
  auto tiles = ts::resource("tiles", Tiles{{2, 0}});
  auto ab = ts::resource("smem_ab", Stage{}, ts::PipelineConfig::tma_umma({.num_stages = 4, .num_bytes = 32768}));
  auto acc = ts::resource("tmem_acc", Stage{}, ts::PipelineConfig::umma_async({.num_stages = 1}));
  auto out = ts::resource("out", Stage{});
  auto load = ts::Task("Load").warps(0, 1).reads(tiles).writes(ab).schedule(GemmLoad{}, tiles, ab);
  auto mma = ts::Task("Mma").warps(1, 1).reads(tiles, ab).writes(acc).schedule(GemmMma{}, tiles, ab, acc);
  auto epi = ts::Task("Epilogue").warps(2, 4).reads(tiles, acc).writes(out).schedule(GemmEpilogue{}, tiles, acc, out);
  return ts::TaskManager(ts::tasks(load, mma, epi), ts::DependencyGraph{{ab, {tiles}}, {acc, {ab}}, {out, {acc}}}, quiet())
      .model();
}

// ---- Hopper ping-pong GEMM: one producer, two math warp groups taking turns on the
// tensor cores per k-block (turn01: WG0 -> WG1, turn10: WG1 -> WG0) ----
struct PpProducer {
  template <class S, class Q, class R0, class R1>
  TS_HD void operator()(S& s, Q& tiles, R0& r0, R1& r1) const {
    s.work_tile_loop(tiles, [&](auto&) {
      s.domain_loop(0, K(), 1, [&](auto&) {
        r0.acquire();
        ts::work<&Stage::put>(r0);
        r0.commit();
        r1.acquire();
        ts::work<&Stage::put>(r1);
        r1.commit();
      });
      tiles.get_and_advance_work_tile();
    });
  }
};
struct PpMath0 {
  template <class S, class Q, class R, class T01, class T10, class Out>
  TS_HD void operator()(S& s, Q& tiles, R& r, T01& t01, T10& t10, Out& out) const {
    s.work_tile_loop(tiles, [&](auto&) {
      s.domain_loop(0, K(), 1, [&](auto& d) {
        r.wait();
        d.every(1, 1, [&] {  // every iteration but the first: WG1 must have had its turn
          t10.wait();
          t10.release();
        });
        ts::work<&Stage::take>(r);
        t01.acquire();
        t01.commit();
        r.release();
      });
      t10.wait();
      t10.release();
      ts::work<&Stage::put>(out);
      tiles.get_and_advance_work_tile();
    });
  }
};
struct PpMath1 {
  template <class S, class Q, class R, class T01, class T10, class Out>
  TS_HD void operator()(S& s, Q& tiles, R& r, T01& t01, T10& t10, Out& out) const {
    s.work_tile_loop(tiles, [&](auto&) {
      s.domain_loop(0, K(), 1, [&](auto&) {
        r.wait();
        t01.wait();
        t01.release();
        ts::work<&Stage::take>(r);
        t10.acquire();
        t10.commit();
        r.release();
      });
      ts::work<&Stage::put2>(out);
      tiles.get_and_advance_work_tile();
    });
  }
};
inline ts::Model gemm_pingpong() {
  auto tiles = ts::resource("tiles", Tiles{{2, 0}});
  auto r0 = ts::resource("smem_wg0", Stage{}, ts::PipelineConfig::tma_async({.num_stages = 2, .num_bytes = 16384}));
  auto r1 = ts::resource("smem_wg1", Stage{}, ts::PipelineConfig::tma_async({.num_stages = 2, .num_bytes = 16384}));
  auto t01 = ts::resource("turn01", Stage{}, ts::PipelineConfig::async_async({.num_stages = 1}));
  auto t10 = ts::resource("turn10", Stage{}, ts::PipelineConfig::async_async({.num_stages = 1}));
  auto out = ts::resource("out", Stage{});
  auto p = ts::Task("Producer").warps(0, 1).reads(tiles).writes(r0, r1).schedule(PpProducer{}, tiles, r0, r1);
  auto m0 = ts::Task("Math0").warps(4, 4).reads(tiles, r0, t10).writes(t01, out).schedule(PpMath0{}, tiles, r0, t01, t10, out);
  auto m1 = ts::Task("Math1").warps(8, 4).reads(tiles, r1, t01).writes(t10, out).schedule(PpMath1{}, tiles, r1, t01, t10, out);
  return ts::TaskManager(ts::tasks(p, m0, m1),
                         ts::DependencyGraph{{r0, {tiles}}, {r1, {tiles}}, {t01, {r0}}, {t10, {r1}}, {out, {t01, t10}}},
                         quiet())
      .model();
}

// ---- Attention-like, 7 tasks: load Q/K/V; MMA S=QK^T for two softmax lanes; two
// softmax lanes writing P and row statistics; MMA O+=PV; correction; epilogue ----
struct AttLoad {
  template <class S, class Q, class QR, class KR, class VR>
  TS_HD void operator()(S& s, Q& tiles, QR& q, KR& k, VR& v) const {
    s.work_tile_loop(tiles, [&](auto&) {
      q.acquire();
      ts::work<&Stage::put>(q);
      q.commit();
      s.domain_loop(0, K(), 1, [&](auto&) {
        k.acquire();
        ts::work<&Stage::put>(k);
        k.commit();
        v.acquire();
        ts::work<&Stage::put>(v);
        v.commit();
      });
      tiles.get_and_advance_work_tile();
    });
  }
};
struct AttMmaS {
  template <class S, class Q, class QR, class KR, class S0, class S1>
  TS_HD void operator()(S& s, Q& tiles, QR& q, KR& k, S0& s0, S1& s1) const {
    s.work_tile_loop(tiles, [&](auto&) {
      q.wait();
      s.domain_loop(0, K(), 1, [&](auto&) {
        k.wait();
        s0.acquire();
        ts::work<&Stage::take>(k);
        ts::work<&Stage::put>(s0);
        s0.commit();
        s1.acquire();
        ts::work<&Stage::put>(s1);
        s1.commit();
        k.release();
      });
      q.release();
      tiles.get_and_advance_work_tile();
    });
  }
};
struct AttSoftmax {
  template <class S, class Q, class SR, class PR, class CR>
  TS_HD void operator()(S& s, Q& tiles, SR& sr, PR& p, CR& c) const {
    s.work_tile_loop(tiles, [&](auto&) {
      s.domain_loop(0, K(), 1, [&](auto&) {
        sr.wait();
        ts::work<&Stage::take>(sr);
        sr.release();
        p.acquire();
        ts::work<&Stage::put>(p);
        p.commit();
        c.acquire();
        ts::work<&Stage::put>(c);
        c.commit();
      });
      tiles.get_and_advance_work_tile();
    });
  }
};
struct AttMmaO {
  template <class S, class Q, class VR, class P0, class P1, class O>
  TS_HD void operator()(S& s, Q& tiles, VR& v, P0& p0, P1& p1, O& o) const {
    s.work_tile_loop(tiles, [&](auto&) {
      o.acquire();
      s.domain_loop(0, K(), 1, [&](auto&) {
        v.wait();
        p0.wait();
        ts::work<&Stage::take>(v);
        ts::work<&Stage::take>(p0);
        ts::work<&Stage::put>(o);
        p0.release();
        p1.wait();
        ts::work<&Stage::take>(p1);
        ts::work<&Stage::put2>(o);
        p1.release();
        v.release();
      });
      o.commit();
      tiles.get_and_advance_work_tile();
    });
  }
};
struct AttCorrection {
  template <class S, class Q, class C0, class C1, class O, class E>
  TS_HD void operator()(S& s, Q& tiles, C0& c0, C1& c1, O& o, E& e) const {
    s.work_tile_loop(tiles, [&](auto&) {
      s.domain_loop(0, K(), 1, [&](auto&) {
        c0.wait();
        ts::work<&Stage::take>(c0);
        c0.release();
        c1.wait();
        ts::work<&Stage::take>(c1);
        c1.release();
      });
      o.wait();
      ts::work<&Stage::take>(o);
      o.release();
      e.acquire();
      ts::work<&Stage::put>(e);
      e.commit();
      tiles.get_and_advance_work_tile();
    });
  }
};
struct AttEpilogue {
  template <class S, class Q, class E, class Out>
  TS_HD void operator()(S& s, Q& tiles, E& e, Out& out) const {
    s.work_tile_loop(tiles, [&](auto&) {
      e.wait();
      ts::work<&Stage::take>(e);
      e.release();
      ts::work<&Stage::put>(out);
      tiles.get_and_advance_work_tile();
    });
  }
};
inline ts::Model attention7() {
  using PC = ts::PipelineConfig;
  auto tiles = ts::resource("tiles", Tiles{{2, 0}});
  auto q = ts::resource("smem_q", Stage{}, PC::tma_umma({.num_stages = 1, .num_bytes = 16384}));
  auto k = ts::resource("smem_k", Stage{}, PC::tma_umma({.num_stages = 2, .num_bytes = 16384}));
  auto v = ts::resource("smem_v", Stage{}, PC::tma_umma({.num_stages = 2, .num_bytes = 16384}));
  auto s0 = ts::resource("tmem_s0", Stage{}, PC::umma_async({.num_stages = 1}));
  auto s1 = ts::resource("tmem_s1", Stage{}, PC::umma_async({.num_stages = 1}));
  auto p0 = ts::resource("tmem_p0", Stage{}, PC::async_umma({.num_stages = 1}));
  auto p1 = ts::resource("tmem_p1", Stage{}, PC::async_umma({.num_stages = 1}));
  auto c0 = ts::resource("stats0", Stage{}, PC::async_async({.num_stages = 2}));
  auto c1 = ts::resource("stats1", Stage{}, PC::async_async({.num_stages = 2}));
  auto o = ts::resource("tmem_o", Stage{}, PC::umma_async({.num_stages = 1}));
  auto e = ts::resource("smem_epi", Stage{}, PC::async_async({.num_stages = 1}));
  auto out = ts::resource("out", Stage{});
  auto load = ts::Task("Load").warps(0, 1).reads(tiles).writes(q, k, v).schedule(AttLoad{}, tiles, q, k, v);
  auto mmas = ts::Task("MmaS").warps(1, 1).reads(tiles, q, k).writes(s0, s1).schedule(AttMmaS{}, tiles, q, k, s0, s1);
  auto sm0 = ts::Task("Softmax0").warps(4, 4).reads(tiles, s0).writes(p0, c0).schedule(AttSoftmax{}, tiles, s0, p0, c0);
  auto sm1 = ts::Task("Softmax1").warps(8, 4).reads(tiles, s1).writes(p1, c1).schedule(AttSoftmax{}, tiles, s1, p1, c1);
  auto mmao = ts::Task("MmaO").warps(2, 1).reads(tiles, v, p0, p1).writes(o).schedule(AttMmaO{}, tiles, v, p0, p1, o);
  auto corr = ts::Task("Correction").warps(12, 4).reads(tiles, c0, c1, o).writes(e).schedule(AttCorrection{}, tiles, c0, c1, o, e);
  auto epi = ts::Task("Epilogue").warps(16, 4).reads(tiles, e).writes(out).schedule(AttEpilogue{}, tiles, e, out);
  return ts::TaskManager(ts::tasks(load, mmas, sm0, sm1, mmao, corr, epi),
                         ts::DependencyGraph{{q, {tiles}}, {k, {tiles}}, {v, {tiles}}, {s0, {q, k}}, {s1, {q, k}},
                                             {p0, {s0}}, {p1, {s1}}, {c0, {s0}}, {c1, {s1}}, {o, {v, p0, p1}},
                                             {e, {o, c0, c1}}, {out, {e}}},
                         quiet())
      .model();
}

struct NamedSchedule {
  std::string name;
  std::function<ts::Model()> make;
};
inline std::vector<NamedSchedule> all_schedules() {
  return {{"copy2", copy2}, {"gemm_blackwell", gemm_blackwell}, {"gemm_pingpong", gemm_pingpong},
          {"attention7", attention7}};
}

}  // namespace bench
