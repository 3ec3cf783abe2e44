// The UmmaUmma pipeline protocol (SPEC S3.2): the MMA engine on both sides: each side's tcgen05.commit signals its barrier.
// Each op is one move along the ring (pipe.hpp) and the signal its engines give.
#pragma once
#include "ts/core/pipeline_config.hpp"
#include "ts/runtime/pipeline/pipe.hpp"

namespace ts::exec {

struct UmmaUmma {
  static constexpr PipelineType type = PipelineType::UmmaUmma;
  template <class P>
  TS_HD static void acquire(P& p, bool) { p.open_producer(); }
  template <class P>
  TS_HD static void commit(P& p, bool collapsed) {
    int s = p.close_producer();
    if (p.signals_full(collapsed)) p.umma_commit(p.full(s));
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
