// Small resources shared by the capture and printout tests.
#pragma once
#include <cstdint>

#include "ts/ts.hpp"

namespace tst {

struct Src : ts::MemoryResource {
  long long n = 8;
  TS_HD int get(ts::ConsumerStage const&) const { return 1; }
  TS_HD bool flag(ts::AuxStage const&) const { return true; }
  TS_HD int count(ts::AuxStage const&) const { return 2; }
  TS_HD ts::Results<bool, int> two(ts::ConsumerStage const&) const { return {true, 3}; }
  template <int I>
  TS_HD int load(ts::ConsumerStage const&, ts::Ct<I>) const { return I; }
  TS_HD long long length(ts::WorkTile const& t) const { return t.tile_idx + 1; }
  TS_HD bool length_is_zero_tile(ts::WorkTile const& t) const { return t.tile_idx < 0; }
};

struct Dst : ts::MemoryResource {
  TS_HD void put(ts::ProducerStage const&, int) const {}
  template <int I>
  TS_HD void store(ts::ProducerStage const&, int, ts::Ct<I>) const {}
  TS_HD void reset(ts::AuxStage const&) {}
};

struct Ring : ts::MemoryResource {
  TS_HD void fill(ts::ProducerStage const&, int) const {}
  TS_HD int drain(ts::ConsumerStage const&) const { return 0; }
};

struct Queue : ts::WorkQueue {
  TS_HD bool skip_tile(ts::WorkTile const& t) const { return t.tile_idx % 2 == 1; }
};

inline bool skip_fn_queue_tile(Queue const&, ts::WorkTile const& t) { return t.tile_idx > 3; }
inline bool skip_fn_tile(ts::WorkTile const& t) { return t.tile_idx > 3; }

inline ts::PipelineConfig ring_config(int stages = 2) {
  return ts::PipelineConfig::async_async(
      {.num_stages = stages, .producer_group = {ts::Agent::Thread, 32}, .consumer_group = {ts::Agent::Thread, 32}});
}

inline ts::Options quiet() { return ts::Options{.verbose = false, .exhaustive_check = false}; }

// Records one schedule over (src, dst) in a one-task manager and returns the model.
template <class Sched>
ts::Model record_src_dst(Sched s) {
  auto src = ts::resource("src", Src{});
  auto dst = ts::resource("dst", Dst{});
  auto t = ts::Task("T").warps(0, 1).reads(src).writes(dst).schedule(s, src, dst);
  return ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{dst, {src}}}, quiet()).model();
}

}  // namespace tst

TS_WORK_SLOTS(&tst::Src::get, ts::Slot<int>{"value", 7, "the value read"});
