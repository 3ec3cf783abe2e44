// ---- 04: variable-length copy with a dynamic domain from an offsets array ----
// Tile t is segment t of the data, [offsets[t], offsets[t+1]); its domain length (in
// 32-element chunks) is computed per tile by Segments::domain_size. A producer warp
// moves each chunk into a pipelined SMEM ring, a consumer warp writes it out; both
// walk the same static persistent tile queue and the same per-tile domain.
#pragma once
#include "copy_tiles.hpp"
#include "ts/arch/portable.hpp"

namespace examples {

constexpr int kVarRingStages = 2;

struct Segments : ts::MemoryResource {
  int const* offsets = nullptr;  // num_segments + 1 entries
  int16_t const* src = nullptr;
  TS_HD long long domain_size(ts::WorkTile const& t) const {
    long long len = offsets[t.tile_idx + 1] - offsets[t.tile_idx];
    return (len + 31) / 32;
  }
  TS_HD int16_t load(ts::ConsumerStage const& si) const {
    long long i = offsets[si.work_tile.tile_idx] + si.loop_offset * 32 + si.thread.lane();
    return i < offsets[si.work_tile.tile_idx + 1] ? src[i] : int16_t(0);
  }
};

struct SegmentOutput : ts::MemoryResource {
  int const* offsets = nullptr;
  int16_t* dst = nullptr;
  TS_HD void store(ts::ProducerStage const& si, int16_t v) const {
    long long i = offsets[si.work_tile.tile_idx] + si.loop_offset * 32 + si.thread.lane();
    if (i < offsets[si.work_tile.tile_idx + 1]) dst[i] = v;
  }
};

struct ChunkRing : ts::MemoryResource {
  ts::SmemArray<int16_t> ring;
  void declare_allocations(ts::Allocations& a) { a.smem("ring", ring, kVarRingStages * 32, 128); }
  TS_HD void put(ts::ProducerStage const& si, int16_t v) const {
    ts::arch::smem_store(ring.ptr(si.context) + si.stage_idx * 32 + si.thread.lane(), v);
  }
  TS_HD int16_t take(ts::ConsumerStage const& si) const {
    return ts::arch::smem_load(ring.ptr(si.context) + si.stage_idx * 32 + si.thread.lane());
  }
};

struct VarlenProducer {
  template <class S, class Q, class Seg, class Ring>
  TS_HD void operator()(S& s, Q& wq, Seg& seg, Ring& ring) const {
    s.work_tile_loop(wq, [&](auto&) {
      s.domain_loop(0, ts::per_tile<&Segments::domain_size>(seg), 1, [&](auto&) {
        ring.acquire();
        auto v = ts::work<&Segments::load>(seg);
        ts::work<&ChunkRing::put>(ring, v);
        ring.commit();
      });
      queue_epilogue(wq);
    });
  }
};

struct VarlenConsumer {
  template <class S, class Q, class Seg, class Ring, class Out>
  TS_HD void operator()(S& s, Q& wq, Seg& seg, Ring& ring, Out& out) const {
    s.work_tile_loop(wq, [&](auto&) {
      s.domain_loop(0, ts::per_tile<&Segments::domain_size>(seg), 1, [&](auto&) {
        ring.wait();
        auto v = ts::work<&ChunkRing::take>(ring);
        ts::work<&SegmentOutput::store>(out, v);
        ring.release();
      });
      queue_epilogue(wq);
    });
  }
};

}  // namespace examples

TS_WORK_SLOTS(&examples::Segments::load, ts::Slot<int16_t>{"value", 0, "This lane's element of the segment chunk."});
TS_WORK_SLOTS(&examples::ChunkRing::take, ts::Slot<int16_t>{"value", 0, "This lane's element read from the ring stage."});
