// Compact state storage for the explorer: every state is a fixed number of 16-bit
// words kept back to back in one arena (which is also the BFS queue: states are
// expanded in discovery order), indexed by an open-addressing hash table of 32-bit
// arena indices tagged with 32 bits of the hash (so a probe compares states only when
// the tags agree: one memcmp per duplicate, almost none per miss). No per-state
// allocation; the arena reserves address space up front so it never moves.
#pragma once
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

namespace ts::check {

class StateStore {
 public:
  StateStore(int words, long long expect) : w_(words), table_(1u << 16, kEmpty), mask_((1u << 16) - 1) {
    data_.reserve(size_t(std::min<long long>(expect, 1ll << 26)) * size_t(words));
  }
  int words() const { return w_; }
  size_t size() const { return count_; }
  uint16_t const* at(size_t i) const { return data_.data() + i * w_; }

  static uint64_t hash(uint16_t const* s, int w) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ uint64_t(w);
    int i = 0;
    for (; i + 4 <= w; i += 4) {
      uint64_t x;
      std::memcpy(&x, s + i, 8);
      h = (h ^ x) * 0xff51afd7ed558ccdull;
      h ^= h >> 32;
    }
    for (; i < w; ++i) h = (h ^ s[i]) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 29;
    return h;
  }

  // Start loading the table slot of a state about to be inserted (BFS inserts a batch
  // of successors at once; the table probe is the one cache miss per state).
  void prefetch(uint64_t h) const { __builtin_prefetch(&table_[h & mask_]); }
  // Returns (index, true) when the state is new.
  std::pair<uint32_t, bool> insert(uint16_t const* s) { return insert(s, hash(s, w_)); }
  std::pair<uint32_t, bool> insert(uint16_t const* s, uint64_t h) {
    if ((count_ + 1) * 2 > table_.size()) grow();
    uint64_t tag = h & 0xffffffff00000000ull;
    size_t pos = h & mask_;
    while (true) {
      uint64_t e = table_[pos];
      if (e == kEmpty) break;
      if ((e & 0xffffffff00000000ull) == tag && std::memcmp(at(uint32_t(e)), s, size_t(w_) * 2) == 0)
        return {uint32_t(e), false};
      pos = (pos + 1) & mask_;
    }
    uint32_t idx = static_cast<uint32_t>(count_++);
    data_.insert(data_.end(), s, s + w_);
    table_[pos] = tag | idx;
    return {idx, true};
  }

 private:
  static constexpr uint64_t kEmpty = ~0ull;
  void grow() {
    std::vector<uint64_t> t(table_.size() * 2, kEmpty);
    size_t m = t.size() - 1;
    for (uint32_t i = 0; i < count_; ++i) {
      uint64_t h = hash(at(i), w_);
      size_t pos = h & m;
      while (t[pos] != kEmpty) pos = (pos + 1) & m;
      t[pos] = (h & 0xffffffff00000000ull) | i;
    }
    table_.swap(t);
    mask_ = m;
  }
  int w_;
  std::vector<uint16_t> data_;
  std::vector<uint64_t> table_;
  size_t mask_;
  size_t count_ = 0;
};

}  // namespace ts::check
