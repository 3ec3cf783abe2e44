// Host inputs, the tile plan and the double-precision reference for forward attention on
// the CPU emulator (and the plan the device path will share): random bf16 Q, K, V in the
// packed [tokens][heads][D] layout, cu_seqlens, the TMA-like maps, O prefilled with NaN
// and LSE with NaN, and the check.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "attention_manager.hpp"
#include "ts/arch/bf16.hpp"
#include "ts/arch/portable.hpp"

namespace attn {

struct Shape {
  std::vector<int> cu_seqlens;  // num_seqs + 1 offsets, starting at 0, non-decreasing
  int hq = 1, hkv = 1, head_dim = 64;
  bool causal = false;
};

// Validates a shape; the message names what is wrong and what was expected.
inline void validate(Shape const& s) {
  auto bad = [](std::string const& what) { throw std::invalid_argument("attention: " + what); };
  if (s.head_dim != 64 && s.head_dim != 128 && s.head_dim != 256)
    bad("head_dim must be 64, 128 or 256, got " + std::to_string(s.head_dim));
  if (s.hq < 1 || s.hkv < 1) bad("head counts must be >= 1, got hq=" + std::to_string(s.hq) + " hkv=" + std::to_string(s.hkv));
  if (s.hq % s.hkv != 0)
    bad("K/V heads must divide Q heads (GQA), got hq=" + std::to_string(s.hq) + " hkv=" + std::to_string(s.hkv));
  if (s.cu_seqlens.size() < 2) bad("cu_seqlens needs at least 2 entries (one sequence), got " + std::to_string(s.cu_seqlens.size()));
  if (s.cu_seqlens[0] != 0) bad("cu_seqlens[0] must be 0, got " + std::to_string(s.cu_seqlens[0]));
  for (size_t b = 1; b < s.cu_seqlens.size(); ++b)
    if (s.cu_seqlens[b] < s.cu_seqlens[b - 1])
      bad("cu_seqlens must be non-decreasing, got cu_seqlens[" + std::to_string(b) + "]=" +
          std::to_string(s.cu_seqlens[b]) + " < cu_seqlens[" + std::to_string(b - 1) + "]=" +
          std::to_string(s.cu_seqlens[b - 1]));
  if (s.cu_seqlens.back() < 1) bad("no tokens: cu_seqlens.back() must be >= 1");
}

// The Q blocks of every sequence (empty sequences have none), longest K/V loop first when
// causal (the static scheduler then hands the expensive pairs out first).
// block_m: 64 for the pair shape, 128 for the shared-K/V shape (attention_shared.hpp).
template <int D>
std::vector<QBlock> plan_blocks(Shape const& s, int block_m = Dims<D>::kBlockM) {
  using Dm = Dims<D>;
  std::vector<QBlock> blocks;
  for (size_t b = 0; b + 1 < s.cu_seqlens.size(); ++b) {
    int const len = s.cu_seqlens[b + 1] - s.cu_seqlens[b];
    for (int q0 = 0; q0 < len; q0 += block_m)
      blocks.push_back(QBlock{s.cu_seqlens[b], len, q0, kv_blocks_of(len, q0, block_m, Dm::kBlockN, s.causal)});
  }
  if (s.causal)
    std::stable_sort(blocks.begin(), blocks.end(), [](QBlock const& a, QBlock const& b) { return a.kv_blocks > b.kv_blocks; });
  return blocks;
}

// The queue order of a causal plan (Plan::tile_order): entry t = block * units + unit, units
// the plan's queue units (hq for the shared-K/V shape, head pairs for the pair shape).
//  * L2 sections: the (sequence, unit) pairs, sequence by sequence, are cut into sections
//    whose K/V (each distinct K/V head of a sequence counted once) fits `section_bytes`;
//    a section's tiles go longest first, then the next section's. In plain longest-first
//    order (blocks[] order, section_bytes <= 0: one section) the tiles in flight at
//    16x16x1024x128 are 132 different (sequence, head) pairs at one K/V length and the same
//    pair comes back only after all 256 others, with 128 MB of K/V in between: every K/V
//    block came from DRAM (FlashAttention-3 orders its causal tiles by such sections too).
//  * Balance, for the static scheduler's round-robin (CTA b takes tiles b, b + grid, ...):
//    round i is tiles i grid .. i grid + grid - 1 of that order, and within a round the
//    longest tile goes to the CTA with the least work so far (cost: K/V blocks + 1/2 per
//    tile); the last, partial round goes to CTAs 0 .. r - 1 first. grid <= 1: no balancing.
template <int D>
std::vector<int> plan_tile_order(Shape const& s, std::vector<QBlock> const& blocks, bool pairs, long long section_bytes,
                                 int grid) {
  int const units = pairs ? (s.hq + 1) / 2 : s.hq;
  int const group = s.hq / s.hkv;
  // blocks of each sequence (by first token), in blocks[] order
  std::vector<std::pair<int, std::vector<int>>> seqs;  // token0, block indices
  for (size_t b = 0; b + 1 < s.cu_seqlens.size(); ++b)
    if (s.cu_seqlens[b + 1] > s.cu_seqlens[b]) seqs.push_back({s.cu_seqlens[b], {}});
  for (int i = 0; i < int(blocks.size()); ++i)
    for (auto& q : seqs)
      if (q.first == blocks[size_t(i)].token0) q.second.push_back(i);
  std::vector<int> order;
  order.reserve(blocks.size() * size_t(units));
  std::vector<std::pair<int, int>> members;  // the section's (sequence index, unit)
  auto flush = [&] {
    std::vector<int> sec;
    for (size_t i = 0; i < members.size();) {  // the section's units of one sequence
      size_t j = i;
      while (j < members.size() && members[j].first == members[i].first) ++j;
      for (int bi : seqs[size_t(members[i].first)].second)
        for (size_t m = i; m < j; ++m) sec.push_back(bi * units + members[m].second);
      i = j;
    }
    std::stable_sort(sec.begin(), sec.end(),
                     [&](int a, int b) { return blocks[size_t(a / units)].kv_blocks > blocks[size_t(b / units)].kv_blocks; });
    order.insert(order.end(), sec.begin(), sec.end());
    members.clear();
  };
  long long bytes = 0;
  for (int q = 0; q < int(seqs.size()); ++q) {
    long long const head_bytes = 4LL * D * blocks[size_t(seqs[size_t(q)].second.front())].seqlen;  // K and V, bf16
    int last_kv = -1;  // K/V heads only grow with the unit
    for (int u = 0; u < units; ++u) {
      long long add = 0;  // the unit's K/V heads not counted yet (a pair's two heads, GQA: shared)
      for (int h = pairs ? 2 * u : u; h <= (pairs ? std::min(2 * u + 1, s.hq - 1) : u); ++h)
        if (h / group != last_kv) {
          add += head_bytes;
          last_kv = h / group;
        }
      if (section_bytes > 0 && add > 0 && !members.empty() && bytes + add > section_bytes) {
        flush();
        bytes = 0;
      }
      bytes += add;
      members.push_back({q, u});
    }
  }
  if (section_bytes <= 0) {  // one section: exactly blocks[] order, head fastest
    order.clear();
    for (int t = 0; t < int(blocks.size()) * units; ++t) order.push_back(t);
  } else {
    flush();
  }
  int const n = int(order.size());
  if (grid <= 1 || n <= grid) return order;
  auto cost = [&](int v) { return 2 * blocks[size_t(v / units)].kv_blocks + 1; };  // in half blocks
  std::vector<int> out(size_t(n), 0);
  std::vector<long long> load(size_t(grid), 0);
  int const rounds = n / grid, rest = n % grid;
  for (int b = 0; b < rest; ++b) {
    out[size_t(rounds * grid + b)] = order[size_t(rounds * grid + b)];
    load[size_t(b)] += cost(order[size_t(rounds * grid + b)]);
  }
  std::vector<int> ctas(static_cast<size_t>(grid)), in_round(static_cast<size_t>(grid));
  for (int i = 0; i < rounds; ++i) {
    for (int b = 0; b < grid; ++b) {
      ctas[size_t(b)] = b;
      in_round[size_t(b)] = order[size_t(i * grid + b)];
    }
    std::stable_sort(in_round.begin(), in_round.end(), [&](int a, int b) { return cost(a) > cost(b); });
    std::stable_sort(ctas.begin(), ctas.end(), [&](int a, int b) { return load[size_t(a)] < load[size_t(b)]; });
    for (int b = 0; b < grid; ++b) {
      out[size_t(i * grid + ctas[size_t(b)])] = in_round[size_t(b)];
      load[size_t(ctas[size_t(b)])] += cost(in_round[size_t(b)]);
    }
  }
  return out;
}

template <int D>
struct HostAttention {
  using Dm = Dims<D>;
  Shape shape;
  int tokens;
  std::vector<uint16_t> q, k, v, o;
  std::vector<float> lse;
  std::vector<QBlock> blocks;
  ts::arch::TensorMap2D map_q, map_k, map_v;

  bool shared;  // the shared-K/V shape's plan: 128-row Q blocks, one head per tile

  HostAttention(Shape s, uint64_t seed, bool shared_kv = false) : shape(std::move(s)), shared(shared_kv) {
    validate(shape);
    if (shape.head_dim != D) throw std::invalid_argument("attention: HostAttention<D> built for another head_dim");
    tokens = shape.cu_seqlens.back();
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 7;
    auto next = [&x](float amp) {  // splitmix64 -> uniform in [-amp, amp), rounded to bf16
      uint64_t z = (x += 0x9E3779B97F4A7C15ull);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      z ^= z >> 31;
      return ts::arch::float_to_bf16(amp * float(double(z >> 11) / double(1ull << 52) - 1.0));
    };
    q.resize(size_t(tokens) * shape.hq * D);
    k.resize(size_t(tokens) * shape.hkv * D);
    v.resize(k.size());
    // Q scaled up so the softmax is peaked (scaled scores of a few units): a wrong mask
    // or a lost block moves O far past the tolerance.
    for (auto& e : q) e = next(4.0f);
    for (auto& e : k) e = next(1.0f);
    for (auto& e : v) e = next(1.0f);
    int const block_m = shared ? 128 : Dm::kBlockM;
    map_q = {q.data(), 2, (long long)shape.hq * D, tokens, 2LL * shape.hq * D, D, block_m};
    map_k = {k.data(), 2, (long long)shape.hkv * D, tokens, 2LL * shape.hkv * D, D, Dm::kBlockN};
    map_v = {v.data(), 2, (long long)shape.hkv * D, tokens, 2LL * shape.hkv * D, D, Dm::kBlockN};
    blocks = plan_blocks<D>(shape, block_m);
    clear();
  }
  HostAttention(HostAttention const&) = delete;  // the maps point into the buffers
  HostAttention& operator=(HostAttention const&) = delete;

  void clear() {
    o.assign(size_t(tokens) * shape.hq * D, uint16_t(0x7fc0));  // bf16 NaN: unwritten fails
    lse.assign(size_t(shape.hq) * tokens, NAN);
  }

  Problem problem() {
    Problem p;
    p.plan.blocks = blocks.data();
    p.plan.num_blocks = int(blocks.size());
    p.plan.hq = shape.hq;
    p.plan.hkv = shape.hkv;
    p.plan.head_pairs = (shape.hq + 1) / 2;
    p.plan.total_tokens = tokens;
    p.plan.causal = shape.causal;
    p.plan.scale_log2 = float(1.4426950408889634 / std::sqrt(double(D)));
    p.plan.shared = shared;
    p.map_q = &map_q;
    p.map_k = &map_k;
    p.map_v = &map_v;
    p.o = o.data();
    p.lse = lse.data();
    return p;
  }

  // "" when every O element is within tolerance of the double-precision attention of the
  // same bf16 inputs and every LSE within 1e-3; else the first mismatches. The O bound per
  // element: one bf16 rounding of O plus one of each P (the kernel rounds P to bf16 for
  // the P V MMA): 2^-8 (|o| + sum_j p_j |v_j| / l), doubled for fp32 accumulation order.
  // `causal_ref` lets a test compare against the other masking (a check that must fail).
  std::string check(bool causal_ref) const {
    std::ostringstream err;
    int bad = 0;
    double const scale = 1.0 / std::sqrt(double(D));
    int const group = shape.hq / shape.hkv;
    std::vector<double> sc, ov(D), av(D);
    for (size_t b = 0; b + 1 < shape.cu_seqlens.size(); ++b) {
      int const t0 = shape.cu_seqlens[b], len = shape.cu_seqlens[b + 1] - t0;
      for (int h = 0; h < shape.hq; ++h) {
        int const hk = h / group;
        for (int i = 0; i < len; ++i) {
          int const keys = causal_ref ? i + 1 : len;
          sc.assign(keys, 0);
          double mx = -INFINITY;
          for (int j = 0; j < keys; ++j) {
            double acc = 0;
            for (int d = 0; d < D; ++d)
              acc += double(ts::arch::bf16_to_float(q[(size_t(t0 + i) * shape.hq + h) * D + d])) *
                     ts::arch::bf16_to_float(k[(size_t(t0 + j) * shape.hkv + hk) * D + d]);
            sc[j] = acc * scale;
            mx = std::max(mx, sc[j]);
          }
          double l = 0;
          std::fill(ov.begin(), ov.end(), 0.0);
          std::fill(av.begin(), av.end(), 0.0);
          for (int j = 0; j < keys; ++j) {
            double const pj = std::exp(sc[j] - mx);
            l += pj;
            for (int d = 0; d < D; ++d) {
              double const vv = ts::arch::bf16_to_float(v[(size_t(t0 + j) * shape.hkv + hk) * D + d]);
              ov[d] += pj * vv;
              av[d] += pj * std::fabs(vv);
            }
          }
          double const lse_ref = mx + std::log(l);
          float const got_lse = lse[size_t(h) * tokens + t0 + i];
          if (!(std::fabs(got_lse - lse_ref) <= 1e-3 * (1 + std::fabs(lse_ref))) && bad++ < 5)
            err << "lse seq " << b << " head " << h << " row " << i << ": got " << got_lse << ", expected " << lse_ref << "\n";
          for (int d = 0; d < D; ++d) {
            double const ref = ov[d] / l;
            double const tol = 2.0 * ts::arch::kBf16Epsilon * (std::fabs(ref) + av[d] / l) + 1e-6;
            float const got = ts::arch::bf16_to_float(o[(size_t(t0 + i) * shape.hq + h) * D + d]);
            if (!(std::fabs(got - ref) <= tol) && bad++ < 5)
              err << "o seq " << b << " head " << h << " row " << i << " col " << d << ": got " << got << ", expected "
                  << ref << " (tolerance " << tol << ")\n";
          }
        }
      }
    }
    if (bad) err << bad << " mismatches\n";
    return err.str();
  }
  std::string check() const { return check(shape.causal); }
};

}  // namespace attn
