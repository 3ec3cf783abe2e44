// The TmaUmma pipeline protocol (SPEC S3.2): a TMA producer (bytes armed at acquire, one elected arrival at commit) and an MMA-engine consumer whose tcgen05.commit releases the stage once its MMAs have read it.
// Each op is one move along the ring (pipe.hpp) and the signal its engines give.
#pragma once
#include "ts/core/pipeline_config.hpp"
#include "ts/runtime/pipeline/pipe.hpp"

namespace ts::exec {

struct TmaUmma {
  static constexpr PipelineType type = PipelineType::TmaUmma;
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
  template <class P>
  TS_HD static void wait(P& p) { p.open_consumer(); }
  template <class P>
  TS_HD static void release(P& p, bool collapsed) {
    int s = p.close_consumer();
    if (p.signals_empty(collapsed)) p.umma_commit(p.empty(s));
  }
};

}  // namespace ts::exec
