// Example 09: an epilogue staging buffer aliased with the input stages (SPEC S9.4).
// Each CTA reduces one tile of kTileChunks chunks: the Loader streams the tile through a
// 4-stage SMEM ring, the Reducer folds every chunk into per-lane statistics held in
// registers (sum, min, max, xor), and once the whole tile has gone through the ring it
// writes the four statistics rows into a staging buffer that the Epilogue task stores
// to global memory. The ring and the staging buffer are never live at the same time,
// so they are declared as two phases of one alias group and share one SMEM region; the
// exhaustive checker proves that no interleaving overlaps their access windows.
//
// make_aliased_staging_broken() is the classic mistake this proves against: the Reducer
// clears the staging buffer up front, in its head, while the Loader is already filling
// ring stages that occupy the same bytes.
#pragma once
#include <cstdint>

#include "pattern_resources.hpp"
#include "ts/ts.hpp"

namespace examples::patterns {

constexpr int kStagingRingStages = 4;
constexpr int kTileChunks = 8;   // chunks per CTA tile
constexpr int kStatRows = 4;     // sum, min, max, xor

// The input ring: phase 0 of alias group "epilogue".
struct StagedRing : ts::MemoryResource {
  ts::SmemArray<int32_t> data;
  void declare_allocations(ts::Allocations& a) {
    a.smem("data", data, kStagingRingStages * kChunk, 128).alias("epilogue", 0);
  }
  TS_HD void fill(ts::ProducerStage const& si, int32_t v) const {
    ts::arch::smem_store(data.ptr(si.context) + si.stage_idx * kChunk + si.thread.lane(), v);
  }
  TS_HD int32_t take(ts::ConsumerStage const& si) const {
    return ts::arch::smem_load(data.ptr(si.context) + si.stage_idx * kChunk + si.thread.lane());
  }
};

// Per-lane statistics in registers (each thread owns its copy of the resource).
struct TileStats : ts::MemoryResource {
  int32_t sum = 0, lo = INT32_MAX, hi = INT32_MIN, bits = 0;
  TS_HD void reset(ts::AuxStage const&) { *this = TileStats{}; }
  TS_HD void add(ts::ProducerStage const&, int32_t v) {
    sum += v;
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
    bits ^= v;
  }
  TS_HD ts::Results<int32_t, int32_t, int32_t, int32_t> rows(ts::ConsumerStage const&) const {
    return {sum, lo, hi, bits};
  }
};

// The epilogue staging buffer: phase 1 of alias group "epilogue", 4 rows x 32 lanes.
struct StagingBuffer : ts::MemoryResource {
  ts::SmemArray<int32_t> rows;
  void declare_allocations(ts::Allocations& a) { a.smem("rows", rows, kStatRows * kChunk, 128).alias("epilogue", 1); }
  TS_HD int32_t* at(ts::StageInfo const& si, int row) const {
    return rows.ptr(si.context) + row * kChunk + si.thread.lane();
  }
  TS_HD void write(ts::ProducerStage const& si, int32_t s, int32_t lo, int32_t hi, int32_t bits) const {
    ts::arch::smem_store(at(si, 0), s);
    ts::arch::smem_store(at(si, 1), lo);
    ts::arch::smem_store(at(si, 2), hi);
    ts::arch::smem_store(at(si, 3), bits);
  }
  // Only in the broken variant: zeroing the staging rows before the tile streams in.
  TS_HD void clear(ts::ProducerStage const& si) const {
    for (int r = 0; r < kStatRows; ++r) ts::arch::smem_store(at(si, r), 0);
  }
  TS_HD ts::Results<int32_t, int32_t, int32_t, int32_t> read(ts::ConsumerStage const& si) const {
    return {ts::arch::smem_load(at(si, 0)), ts::arch::smem_load(at(si, 1)), ts::arch::smem_load(at(si, 2)),
            ts::arch::smem_load(at(si, 3))};
  }
};

// out[tile][row][lane].
struct StatsSink : ts::MemoryResource {
  int32_t* dst = nullptr;
  TS_HD void store(ts::ProducerStage const& si, int32_t s, int32_t lo, int32_t hi, int32_t bits) const {
    int32_t* p = dst + static_cast<long long>(si.work_tile.tile_idx) * kStatRows * kChunk + si.thread.lane();
    p[0 * kChunk] = s;
    p[1 * kChunk] = lo;
    p[2 * kChunk] = hi;
    p[3 * kChunk] = bits;
  }
};

struct StagingLoader {
  template <class S, class In, class Ring>
  TS_HD void operator()(S& s, In& in, Ring& ring) const {
    s.domain_loop(0, kTileChunks, 1, [&] {
      ring.acquire();
      ts::work<&StagedRing::fill>(ring, ts::work<&ChunkSource::load>(in));
      ring.commit();
    });
  }
};

template <bool ClearStagingFirst>
struct StagingReducer {
  template <class S, class Ring, class Stats, class Staging>
  TS_HD void operator()(S& s, Ring& ring, Stats& stats, Staging& staging) const {
    ts::work<&TileStats::reset>(stats);
    if constexpr (ClearStagingFirst) {  // trace-time: the broken variant only
      staging.acquire();
      ts::work<&StagingBuffer::clear>(staging);  // BUG: the ring may be filling these bytes
    }
    s.domain_loop(0, kTileChunks, 1, [&] {
      ring.wait();
      ts::work<&TileStats::add>(stats, ts::work<&StagedRing::take>(ring));
      ring.release();
    });
    // Tail: every ring stage has been waited and released, so the ring's bytes are free.
    if constexpr (!ClearStagingFirst) staging.acquire();
    auto [sum, lo, hi, bits] = ts::work<&TileStats::rows>(stats);
    ts::work<&StagingBuffer::write>(staging, sum, lo, hi, bits);
    staging.commit();
  }
};

struct StagingEpilogue {
  template <class S, class Staging, class Out>
  TS_HD void operator()(S&, Staging& staging, Out& out) const {
    staging.wait();
    auto [sum, lo, hi, bits] = ts::work<&StagingBuffer::read>(staging);
    ts::work<&StatsSink::store>(out, sum, lo, hi, bits);
    staging.release();
  }
};

// One tile per CTA: launch with grid_blocks = staging_tiles(n).
inline int staging_tiles(long long n) { return static_cast<int>((n + kTileChunks * kChunk - 1) / (kTileChunks * kChunk)); }
inline long long staging_out_elems(long long n) { return static_cast<long long>(staging_tiles(n)) * kStatRows * kChunk; }

template <bool Broken = false>
inline auto make_aliased_staging_impl(PatternBuffers& b, ts::Options o) {
  long long n = b.n();
  for (int t = 0; t < staging_tiles(n); ++t)
    for (int lane = 0; lane < kChunk; ++lane) {
      TileStats st;
      for (int c = 0; c < kTileChunks; ++c) {
        long long i = (static_cast<long long>(t) * kTileChunks + c) * kChunk + lane;
        st.add({}, i < n ? b.src[i] : 0);  // past the end the Loader reads zeros
      }
      int32_t* e = b.expected.data() + static_cast<long long>(t) * kStatRows * kChunk + lane;
      e[0] = st.sum, e[kChunk] = st.lo, e[2 * kChunk] = st.hi, e[3 * kChunk] = st.bits;
    }
  auto in = ts::resource("in", ChunkSource{{}, b.src.data(), n, kTileChunks});
  auto ring = ts::resource("ring", StagedRing{},
                           ts::PipelineConfig::async_async({.num_stages = kStagingRingStages,
                                                            .producer_group = {ts::Agent::Thread, 32},
                                                            .consumer_group = {ts::Agent::Thread, 32}}));
  auto stats = ts::resource("stats", TileStats{});
  auto staging = ts::resource("staging", StagingBuffer{},
                              ts::PipelineConfig::async_async({.num_stages = 1,
                                                               .producer_group = {ts::Agent::Thread, 32},
                                                               .consumer_group = {ts::Agent::Thread, 32}}));
  auto out = ts::resource("out", StatsSink{{}, b.dst.data()});
  auto loader = ts::Task("Loader").warps(0, 1).reads(in).writes(ring).schedule(StagingLoader{}, in, ring);
  auto reducer = ts::Task("Reducer")
                     .warps(1, 1)
                     .reads(ring, stats)
                     .writes(stats, staging)
                     .schedule(StagingReducer<Broken>{}, ring, stats, staging);
  auto epilogue =
      ts::Task("Epilogue").warps(2, 1).reads(staging).writes(out).schedule(StagingEpilogue{}, staging, out);
  return ts::TaskManager(ts::tasks(loader, reducer, epilogue),
                         ts::DependencyGraph{{ring, {in}}, {stats, {ring}}, {staging, {stats}}, {out, {staging}}}, o);
}

// PatternBuffers sized for this example: PatternBuffers(n, staging_out_elems(n)).
inline auto make_aliased_staging(PatternBuffers& b, ts::Options o = {}) { return make_aliased_staging_impl<false>(b, o); }
inline auto make_aliased_staging_broken(PatternBuffers& b, ts::Options o = {}) {
  return make_aliased_staging_impl<true>(b, o);
}

}  // namespace examples::patterns

TS_WORK_SLOTS(&examples::patterns::TileStats::rows, ts::Slot<int32_t>{"sum", 0, "This lane's sum over the tile."},
              ts::Slot<int32_t>{"min", 0, "This lane's minimum over the tile."},
              ts::Slot<int32_t>{"max", 0, "This lane's maximum over the tile."},
              ts::Slot<int32_t>{"xor", 0, "This lane's xor over the tile."});
TS_WORK_SLOTS(&examples::patterns::StagingBuffer::read, ts::Slot<int32_t>{"sum", 0, "Staged sum row."},
              ts::Slot<int32_t>{"min", 0, "Staged min row."}, ts::Slot<int32_t>{"max", 0, "Staged max row."},
              ts::Slot<int32_t>{"xor", 0, "Staged xor row."});
