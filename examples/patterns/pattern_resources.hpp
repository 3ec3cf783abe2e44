// Resources shared by the pattern examples (07-10): global-memory chunks in and out,
// one 32-element chunk per warp per domain iteration (one element per lane), and the
// host buffers with the reference each example is checked against.
#pragma once
#include <cstdint>
#include <vector>

#include "ts/arch/load.hpp"
#include "ts/arch/portable.hpp"
#include "ts/schedule.hpp"

namespace examples::patterns {

constexpr int kChunk = 32;  // elements per chunk: one per lane of a warp

// Element index of this lane in the current chunk. `per_tile` = 0: the loop offset is
// the global chunk index (grid-stride loops); otherwise the CTA's tile holds per_tile
// chunks and the loop offset counts chunks inside it.
TS_HD inline long long element(ts::StageInfo const& si, long long per_tile) {
  long long chunk = per_tile ? si.work_tile.tile_idx * per_tile + si.loop_offset : si.loop_offset;
  return chunk * kChunk + si.thread.lane();
}

struct ChunkSource : ts::MemoryResource {
  int32_t const* src = nullptr;
  long long n = 0;
  long long per_tile = 0;
  TS_HD long long chunks() const { return (n + kChunk - 1) / kChunk; }
  TS_HD int32_t load(ts::ConsumerStage const& si) const {
    long long i = element(si, per_tile);
    return i < n ? ts::load_readonly(src + i) : 0;
  }
};

struct ChunkSink : ts::MemoryResource {
  int32_t* dst = nullptr;
  long long n = 0;
  long long per_tile = 0;
  TS_HD void store(ts::ProducerStage const& si, int32_t v) const {
    long long i = element(si, per_tile);
    if (i < n) dst[i] = v;
  }
};

// Host side: input, output, and the expected output computed on the host.
struct PatternBuffers {
  std::vector<int32_t> src, dst, expected;
  PatternBuffers(long long n, long long out_n) : src(n), dst(out_n, -1), expected(out_n, 0) {
    for (long long i = 0; i < n; ++i) src[i] = static_cast<int32_t>((i * 7919 + 13) % 100003) - 50000;
  }
  explicit PatternBuffers(long long n) : PatternBuffers(n, n) {}
  long long n() const { return static_cast<long long>(src.size()); }
  bool matches() const { return dst == expected; }
};

}  // namespace examples::patterns

TS_WORK_SLOTS(&examples::patterns::ChunkSource::load,
              ts::Slot<int32_t>{"value", 0, "This lane's element of the current chunk."});
