// The two sides of a pipeline protocol, one per engine. A protocol (protocols.hpp) is a
// producer side and a consumer side: each op is one move along the ring (pipe.hpp) and the
// signal its side's engine gives, so the seven protocols share these five pieces.
#pragma once
#include "ts/core/pipeline_config.hpp"
#include "ts/runtime/pipeline/pipe.hpp"

namespace ts::exec {

// Producer sides: how acquire and commit signal the stage's full barrier.
// Threads (Async): the committing threads arrive.
struct ThreadsFill {
  template <class P>
  TS_HD static void acquire(P& p, bool) { p.open_producer(); }
  template <class P>
  TS_HD static void commit(P& p, bool collapsed) {
    int s = p.close_producer();
    if (p.signals_full(collapsed)) p.arrive_threads(p.full(s), p.prm.producer_signal());
  }
};
// Bytes (Tma, ClcFetch): acquire arms the stage's bytes without arriving; commit is the
// one elected arrival, so a stage turns full at the commit and when its bytes have landed.
struct BytesFill {
  template <class P>
  TS_HD static void acquire(P& p, bool collapsed) {
    int s = p.open_producer();
    if (p.signals_full(collapsed)) p.expect_stage_bytes(p.full(s));
  }
  template <class P>
  TS_HD static void commit(P& p, bool collapsed) {
    int s = p.close_producer();
    if (p.signals_full(collapsed)) p.arrive_leader(p.full(s));
  }
};
// MMA engine (Umma): the commit is a tcgen05.commit, arriving once the MMAs ran.
struct MmaFill {
  template <class P>
  TS_HD static void acquire(P& p, bool) { p.open_producer(); }
  template <class P>
  TS_HD static void commit(P& p, bool collapsed) {
    int s = p.close_producer();
    if (p.signals_full(collapsed)) p.umma_commit(p.full(s));
  }
};

// Consumer sides: how release signals the stage's empty barrier (wait signals nothing).
// Threads (Async, and wgmma released by threads on Hopper).
struct ThreadsDrain {
  template <class P>
  TS_HD static void wait(P& p) { p.open_consumer(); }
  template <class P>
  TS_HD static void release(P& p, bool collapsed) {
    int s = p.close_consumer();
    if (p.signals_empty(collapsed)) p.release_threads(p.empty(s));
  }
};
// MMA engine (Umma): the release is a tcgen05.commit once the MMAs have read the stage.
struct MmaDrain {
  template <class P>
  TS_HD static void wait(P& p) { p.open_consumer(); }
  template <class P>
  TS_HD static void release(P& p, bool collapsed) {
    int s = p.close_consumer();
    if (p.signals_empty(collapsed)) p.umma_commit(p.empty(s));
  }
};

template <PipelineType T, class Fill, class Drain>
struct Protocol : Fill, Drain {
  static constexpr PipelineType type = T;
};

}  // namespace ts::exec
