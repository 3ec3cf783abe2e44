// Compact state storage for the explorer: every state is a fixed number of bytes
// (its 16-bit words, narrowed to one byte each when they fit: see StateCodec) kept
// back to back in one arena (which is also the BFS queue: states are
// expanded in discovery order), indexed by an open-addressing hash table of 32-bit
// arena indices tagged with 32 bits of the hash (so a probe compares states only when
// the tags agree: one memcmp per duplicate, almost none per miss). No per-state
// allocation; the arena reserves address space up front so it never moves.
#pragma once
#include <cstdint>
#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ts::check {

// Anonymous memory asked to be backed by huge pages: the hash table is probed at random,
// and with 4 KiB pages nearly every probe of a large table is also a TLB miss.
class HugeBuffer {
 public:
  HugeBuffer() = default;
  explicit HugeBuffer(size_t bytes) : size_(std::max<size_t>(bytes, 1)) {
    void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, size_, MADV_HUGEPAGE);
    ptr_ = static_cast<uint8_t*>(p);
  }
  HugeBuffer(HugeBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), size_(o.size_) {}
  HugeBuffer& operator=(HugeBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(size_, o.size_);
    return *this;
  }
  ~HugeBuffer() {
    if (ptr_) munmap(ptr_, size_);
  }
  uint8_t* data() const { return ptr_; }
  size_t size() const { return size_; }

 private:
  uint8_t* ptr_ = nullptr;
  size_t size_ = 0;
};

class StateStore {
 public:
  // `expect` bounds the number of states (the state cap): the arena reserves that much
  // address space once (untouched pages cost nothing), so states never move.
  StateStore(int bytes, long long expect)
      : w_(bytes), arena_(size_t(std::max<long long>(expect, 1)) * size_t(bytes)), cap_(size_t(std::max<long long>(expect, 1))) {
    alloc_table(1u << 16);
  }
  int bytes() const { return w_; }
  size_t size() const { return count_; }
  uint8_t const* at(size_t i) const { return arena_.data() + i * w_; }

  static uint64_t hash(uint8_t const* s, int n) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ uint64_t(n);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t x;
      std::memcpy(&x, s + i, 8);
      h = (h ^ x) * 0xff51afd7ed558ccdull;
      h ^= h >> 32;
    }
    for (; i < n; ++i) h = (h ^ s[i]) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 29;
    return h;
  }

  // Start loading the table slot of a state about to be inserted (BFS inserts a batch
  // of successors at once; the table probe is the one cache miss per state).
  void prefetch(uint64_t h) const { __builtin_prefetch(&table_[h >> shift_]); }
  // Returns (index, true) when the state is new. The caller stops before `expect`.
  std::pair<uint32_t, bool> insert(uint8_t const* s) { return insert(s, hash(s, w_)); }
  std::pair<uint32_t, bool> insert(uint8_t const* s, uint64_t h) {
    if ((count_ + 1) * 2 > mask_ + 1) grow();
    uint64_t tag = h & 0xffffffff00000000ull;
    size_t pos = h >> shift_;
    while (true) {
      uint64_t e = table_[pos];
      if (e == kEmpty) break;
      if ((e & 0xffffffff00000000ull) == tag && std::memcmp(at(uint32_t(e)), s, size_t(w_)) == 0)
        return {uint32_t(e), false};
      pos = (pos + 1) & mask_;
    }
    if (count_ >= cap_) throw std::length_error("StateStore: more states than reserved");
    uint32_t idx = static_cast<uint32_t>(count_++);
    std::memcpy(arena_.data() + size_t(idx) * w_, s, size_t(w_));
    table_[pos] = tag | idx;
    return {idx, true};
  }

 private:
  static constexpr uint64_t kEmpty = ~0ull;
  // The slot is the top bits of the hash, which the entry's tag keeps: growing the
  // table needs neither the states nor their hashes, and an in-order scan of the old
  // table writes the new one almost in order.
  void alloc_table(size_t n) {
    table_mem_ = HugeBuffer(n * sizeof(uint64_t));
    table_ = reinterpret_cast<uint64_t*>(table_mem_.data());
    std::fill(table_, table_ + n, kEmpty);
    mask_ = n - 1;
    shift_ = 64 - __builtin_ctzll(n);
  }
  void grow() {
    size_t n = (mask_ + 1) * 2;
    HugeBuffer old = std::move(table_mem_);
    uint64_t const* ot = reinterpret_cast<uint64_t const*>(old.data());
    size_t on = mask_ + 1;
    alloc_table(n);
    for (size_t i = 0; i < on; ++i) {
      uint64_t e = ot[i];
      if (e == kEmpty) continue;
      size_t pos = e >> shift_;
      while (table_[pos] != kEmpty) pos = (pos + 1) & mask_;
      table_[pos] = e;
    }
  }
  int w_;
  HugeBuffer arena_;
  size_t cap_;
  HugeBuffer table_mem_;
  uint64_t* table_ = nullptr;
  size_t mask_ = 0;
  int shift_ = 64;
  size_t count_ = 0;
};

// How states are stored: one byte per word when every word fits (values below 128,
// the parametric "unknown length" flag folded into the top bit), else two. The
// explorer starts narrow and reruns wide if a state does not fit, so the choice never
// changes a result, only the memory traffic.
struct StateCodec {
  bool narrow = true;
  int words = 0;
  int bytes() const { return narrow ? words : 2 * words; }
  // Returns false when a word does not fit the narrow form.
  bool encode(uint16_t const* __restrict w, uint8_t* __restrict out) const {
    if (!narrow) {
      std::memcpy(out, w, size_t(words) * 2);
      return true;
    }
    unsigned bad = 0;
    int n = words;
    for (int i = 0; i < n; ++i) {
      unsigned v = w[i];
      bad |= v & 0x7f80u;
      out[i] = static_cast<uint8_t>((v & 0x7fu) | ((v >> 8) & 0x80u));
    }
    return bad == 0;
  }
  void decode(uint8_t const* __restrict in, uint16_t* __restrict w) const {
    if (!narrow) {
      std::memcpy(w, in, size_t(words) * 2);
      return;
    }
    int n = words;
    for (int i = 0; i < n; ++i) w[i] = static_cast<uint16_t>((in[i] & 0x7fu) | ((in[i] & 0x80u) << 8));
  }
};

}  // namespace ts::check
