// Compact state storage for the explorer: every state is a fixed number of 16-bit
// words kept back to back in one arena (which is also the BFS queue: states are
// expanded in discovery order), indexed by an open-addressing hash table of 32-bit
// arena indices. No per-state allocation, so the hot loop is copy, mutate, hash, probe.
#pragma once
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace ts::check {

class StateStore {
 public:
  explicit StateStore(int words) : w_(words), table_(1u << 16, kEmpty), mask_((1u << 16) - 1) {}
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

  // Returns (index, true) when the state is new.
  std::pair<uint32_t, bool> insert(uint16_t const* s) {
    if ((count_ + 1) * 2 > table_.size()) grow();
    uint64_t h = hash(s, w_);
    size_t pos = h & mask_;
    while (true) {
      uint32_t idx = table_[pos];
      if (idx == kEmpty) break;
      if (std::memcmp(at(idx), s, size_t(w_) * 2) == 0) return {idx, false};
      pos = (pos + 1) & mask_;
    }
    uint32_t idx = static_cast<uint32_t>(count_++);
    data_.insert(data_.end(), s, s + w_);
    table_[pos] = idx;
    return {idx, true};
  }
  bool contains(uint16_t const* s) const {
    size_t pos = hash(s, w_) & mask_;
    while (true) {
      uint32_t idx = table_[pos];
      if (idx == kEmpty) return false;
      if (std::memcmp(at(idx), s, size_t(w_) * 2) == 0) return true;
      pos = (pos + 1) & mask_;
    }
  }

 private:
  static constexpr uint32_t kEmpty = 0xffffffffu;
  void grow() {
    std::vector<uint32_t> t(table_.size() * 2, kEmpty);
    size_t m = t.size() - 1;
    for (uint32_t i = 0; i < count_; ++i) {
      size_t pos = hash(at(i), w_) & m;
      while (t[pos] != kEmpty) pos = (pos + 1) & m;
      t[pos] = i;
    }
    table_.swap(t);
    mask_ = m;
  }
  int w_;
  std::vector<uint16_t> data_;
  std::vector<uint32_t> table_;
  size_t mask_;
  size_t count_ = 0;
};

}  // namespace ts::check
