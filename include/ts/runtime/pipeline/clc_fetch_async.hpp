// The ClcFetchAsync pipeline protocol (SPEC S3.2): a work queue's response ring (SPEC S13.3). The scheduler's acquire arms the 16 response bytes without arriving, fetch_work_tile (the handle's) issues the request that lands them, commit is the one elected arrival; every task running the queue epilogue consumes.
// Each op is one move along the ring (pipe.hpp) and the signal its engines give.
#pragma once
#include "ts/core/pipeline_config.hpp"
#include "ts/runtime/pipeline/pipe.hpp"

namespace ts::exec {

struct ClcFetchAsync {
  static constexpr PipelineType type = PipelineType::ClcFetchAsync;
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
    if (p.signals_empty(collapsed)) p.release_threads(p.empty(s));
  }
};

}  // namespace ts::exec
