// The AsyncUmma pipeline protocol (SPEC S3.2): plain threads produce (arrive after writing), the MMA engine consumes (tcgen05.commit on the empty barrier once its MMAs have read the stage).
// Each op is one move along the ring (pipe.hpp) and the signal its engines give.
#pragma once
#include "ts/core/pipeline_config.hpp"
#include "ts/runtime/pipeline/pipe.hpp"

namespace ts::exec {

struct AsyncUmma {
  static constexpr PipelineType type = PipelineType::AsyncUmma;
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
    if (p.signals_empty(collapsed)) p.umma_commit(p.empty(s));
  }
};

}  // namespace ts::exec
