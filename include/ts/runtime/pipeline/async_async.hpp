// The AsyncAsync pipeline protocol (SPEC S3.2): plain threads on both sides: the producers arrive on the full barrier after writing (or their cp.async copies do, AsyncLoad), the consumers on the empty barrier after reading.
// Each op is one move along the ring (pipe.hpp) and the signal its engines give.
#pragma once
#include "ts/core/pipeline_config.hpp"
#include "ts/runtime/pipeline/pipe.hpp"

namespace ts::exec {

struct AsyncAsync {
  static constexpr PipelineType type = PipelineType::AsyncAsync;
  template <class P>
  TS_HD static void acquire(P& p, bool) { p.open_producer(); }
  template <class P>
  TS_HD static void commit(P& p, bool collapsed) {
    int s = p.close_producer();
    if (p.signals_full(collapsed)) p.arrive_threads(p.full(s), p.prm.producer_signal());
  }
  template <class P>
  TS_HD static void wait(P& p) { p.open_consumer(); }
  template <class P>
  TS_HD static void release(P& p, bool collapsed) {
    int s = p.close_consumer();
    if (p.signals_empty(collapsed)) p.release_threads(p.empty(s));
  }
};

}  // namespace ts::exec
