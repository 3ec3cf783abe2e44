// Example 07: a ping-pong resource (SPEC S11, S6.19). One SMEM buffer is handed back and
// forth between two tasks: the Loader fills a stage with a chunk, the Transformer
// rewrites that same stage in place (x -> 3x + 1) and stores the rewritten values to
// global memory, then hands the stage back for the Loader's next fill. The graph edge
// {pp, {pp}} says what the schedule does: pp's next contents depend on pp itself.
// The consumer side is Async (threads release after their in-place writes), as S6.19
// requires: the Loader may only overwrite a stage once the in-place writes are done.
#pragma once
#include "pattern_resources.hpp"
#include "ts/ts.hpp"

namespace examples::patterns {

constexpr int kPingPongStages = 2;

TS_HD inline int32_t transform(int32_t x) { return 3 * x + 1; }

struct PingPongBuffer : ts::MemoryResource {
  ts::SmemArray<int32_t> buf;
  void declare_allocations(ts::Allocations& a) { a.smem("buf", buf, kPingPongStages * kChunk, 128); }
  TS_HD int32_t* slot(ts::StageInfo const& si) const {
    return buf.ptr(si.context) + si.stage_idx * kChunk + si.thread.lane();
  }
  // Loader's turn: the raw chunk goes into the stage.
  TS_HD void fill(ts::ProducerStage const& si, int32_t v) const { ts::arch::smem_store(slot(si), v); }
  // Transformer's turn: rewrite the stage in place, then read the rewritten value back:
  // what reaches global memory is what the buffer holds after the transform.
  TS_HD int32_t transform_in_place(ts::ConsumerStage const& si) const {
    int32_t* p = slot(si);
    ts::arch::smem_store(p, transform(ts::arch::smem_load(p)));
    return ts::arch::smem_load(p);
  }
};

struct PingPongLoader {
  template <class S, class In, class PP>
  TS_HD void operator()(S& s, In& in, PP& pp) const {
    s.domain_loop(s.block_idx(), in->chunks(), s.grid_blocks(), [&] {
      pp.acquire();
      ts::work<&PingPongBuffer::fill>(pp, ts::work<&ChunkSource::load>(in));
      pp.commit();
    });
  }
};

struct PingPongTransformer {
  template <class S, class PP, class Out>
  TS_HD void operator()(S& s, PP& pp, Out& out) const {
    s.domain_loop(s.block_idx(), (out->n + kChunk - 1) / kChunk, s.grid_blocks(), [&] {
      pp.wait();
      auto v = ts::work<&PingPongBuffer::transform_in_place>(pp);
      ts::work<&ChunkSink::store>(out, v);
      pp.release();
    });
  }
};

// The Transformer's schedule is a parameter so tests can hand over a broken one.
template <class Transformer = PingPongTransformer>
inline auto make_pingpong_transform_with(PatternBuffers& b, ts::Options o = {}) {
  for (long long i = 0; i < b.n(); ++i) b.expected[i] = transform(b.src[i]);
  auto in = ts::resource("in", ChunkSource{{}, b.src.data(), b.n(), 0});
  auto out = ts::resource("out", ChunkSink{{}, b.dst.data(), b.n(), 0});
  auto pp = ts::resource("pp", PingPongBuffer{},
                         ts::PipelineConfig::async_async({.num_stages = kPingPongStages,
                                                          .producer_group = {ts::Agent::Thread, 32},
                                                          .consumer_group = {ts::Agent::Thread, 32}}));
  auto loader = ts::Task("Loader").warps(0, 1).reads(in).writes(pp).schedule(PingPongLoader{}, in, pp);
  auto xform = ts::Task("Transformer").warps(1, 1).reads(pp).writes(out).schedule(Transformer{}, pp, out);
  // The self-edge {pp, {pp, in}}: pp is produced from in and from its own previous contents.
  return ts::TaskManager(ts::tasks(loader, xform), ts::DependencyGraph{{pp, {pp, in}}, {out, {pp}}}, o);
}

inline auto make_pingpong_transform(PatternBuffers& b, ts::Options o = {}) {
  return make_pingpong_transform_with<PingPongTransformer>(b, o);
}

}  // namespace examples::patterns

TS_WORK_SLOTS(&examples::patterns::PingPongBuffer::transform_in_place,
              ts::Slot<int32_t>{"value", 0, "This lane's element after the in-place transform."});
