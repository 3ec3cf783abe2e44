// Example 08: a split consumer through a proxy resource (SPEC S11, S6.20). The Waiter
// waits on the ring and uses the stage; a different task, the Releaser, gives the stage
// back to the Producer. The Releaser cannot know when the Waiter is done with a stage by
// itself, so the Waiter hands that news over a proxy resource `done`: a data-less
// pipeline downstream of the ring (Waiter commits a stage of `done` once it finished
// with a ring stage; the Releaser waits on `done` and then releases the ring stage).
// The ring's wait_signal_override records how the waiting task signals (all 32 threads
// of the Waiter's warp wait), distinct from the releasing task's consumer_signal.
#pragma once
#include "pattern_resources.hpp"
#include "ts/ts.hpp"

namespace examples::patterns {

constexpr int kSplitStages = 4;

TS_HD inline int32_t split_op(int32_t x) { return x ^ 0x5a5a; }

struct SplitRing : ts::MemoryResource {
  ts::SmemArray<int32_t> ring;
  void declare_allocations(ts::Allocations& a) { a.smem("ring", ring, kSplitStages * kChunk, 128); }
  TS_HD void put(ts::ProducerStage const& si, int32_t v) const {
    ts::arch::smem_store(ring.ptr(si.context) + si.stage_idx * kChunk + si.thread.lane(), v);
  }
  // The Waiter's use of the stage: read this lane's element and transform it.
  TS_HD int32_t take(ts::ConsumerStage const& si) const {
    return split_op(ts::arch::smem_load(ring.ptr(si.context) + si.stage_idx * kChunk + si.thread.lane()));
  }
};

// The proxy carries no data: its stages only order "Waiter finished with ring stage k"
// before "Releaser releases ring stage k".
struct DoneProxy : ts::MemoryResource {
  long long chunks = 0;  // the domain length, for the Releaser's loop
};

struct SplitProducer {
  template <class S, class In, class Ring>
  TS_HD void operator()(S& s, In& in, Ring& ring) const {
    s.domain_loop(s.block_idx(), in->chunks(), s.grid_blocks(), [&] {
      ring.acquire();
      ts::work<&SplitRing::put>(ring, ts::work<&ChunkSource::load>(in));
      ring.commit();
    });
  }
};

struct SplitWaiter {
  template <class S, class Ring, class Done, class Out>
  TS_HD void operator()(S& s, Ring& ring, Done& done, Out& out) const {
    s.domain_loop(s.block_idx(), (out->n + kChunk - 1) / kChunk, s.grid_blocks(), [&] {
      ring.wait();
      auto v = ts::work<&SplitRing::take>(ring);
      ts::work<&ChunkSink::store>(out, v);
      done.acquire();  // tell the Releaser this ring stage is no longer read
      done.commit();
    });
  }
};

struct SplitReleaser {
  template <class S, class Done, class Ring>
  TS_HD void operator()(S& s, Done& done, Ring& ring) const {
    s.domain_loop(s.block_idx(), done->chunks, s.grid_blocks(), [&] {
      done.wait();
      ring.release();  // the ring's close counter advances here, in this task
      done.release();
    });
  }
};

inline auto make_split_consumer(PatternBuffers& b, ts::Options o = {}) {
  for (long long i = 0; i < b.n(); ++i) b.expected[i] = split_op(b.src[i]);
  auto in = ts::resource("in", ChunkSource{{}, b.src.data(), b.n(), 0});
  auto out = ts::resource("out", ChunkSink{{}, b.dst.data(), b.n(), 0});
  auto ring = ts::resource("ring", SplitRing{},
                           ts::PipelineConfig::async_async({.num_stages = kSplitStages,
                                                            .producer_group = {ts::Agent::Thread, 32},
                                                            .consumer_group = {ts::Agent::Thread, 32},
                                                            .wait_signal_override = ts::Signal::All}));
  long long chunks = (b.n() + kChunk - 1) / kChunk;
  auto done = ts::resource("done", DoneProxy{{}, chunks},
                           ts::PipelineConfig::async_async({.num_stages = kSplitStages,
                                                            .producer_group = {ts::Agent::Thread, 32},
                                                            .consumer_group = {ts::Agent::Thread, 32}}));
  auto producer = ts::Task("Producer").warps(0, 1).reads(in).writes(ring).schedule(SplitProducer{}, in, ring);
  auto waiter =
      ts::Task("Waiter").warps(1, 1).reads(ring).writes(out, done).schedule(SplitWaiter{}, ring, done, out);
  auto releaser =
      ts::Task("Releaser").warps(2, 1).reads(done, ring).schedule(SplitReleaser{}, done, ring);
  return ts::TaskManager(ts::tasks(producer, waiter, releaser),
                         ts::DependencyGraph{{ring, {in}}, {out, {ring}}, {done, {ring}}}, o);
}

}  // namespace examples::patterns

TS_WORK_SLOTS(&examples::patterns::SplitRing::take,
              ts::Slot<int32_t>{"value", 0, "This lane's element of the stage, transformed."});
