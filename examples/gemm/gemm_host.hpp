// Host buffers and a float reference for running the GEMMs on the CPU emulator:
// random bf16 A (M x K, row-major) and B (N x K, K-major), their TMA-like tensor maps
// (ts::arch::TensorMap2D, the boxes the TMA producer loads), D (M x N bf16) and the check.
#pragma once
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "gemm_resources.hpp"
#include "ts/arch/bf16.hpp"
#include "ts/arch/portable.hpp"

namespace gemm {

struct HostGemm {
  int M, N, K;
  std::vector<uint16_t> a, b, d;
  ts::arch::TensorMap2D map_a, map_b;
  ts::arch::TensorMap2D map_d;  // D in 64 x 64 boxes: the TMA-store epilogue's map

  HostGemm(int m, int n, int k, uint64_t seed) : M(m), N(n), K(k), a(size_t(m) * k), b(size_t(n) * k) {
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    auto next = [&x] {  // splitmix64 -> uniform in [-1, 1), rounded to bf16
      uint64_t z = (x += 0x9E3779B97F4A7C15ull);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      z ^= z >> 31;
      return ts::arch::float_to_bf16(float(double(z >> 11) / double(1ull << 52) - 1.0));
    };
    for (auto& v : a) v = next();
    for (auto& v : b) v = next();
    map_a = {a.data(), 2, K, M, 2LL * K, kTileK, kTileM};
    map_b = {b.data(), 2, K, N, 2LL * K, kTileK, kTileN};
    map_d = {nullptr, 2, N, M, 2LL * N, 64, 64};
    clear_d();
  }
  // The maps point into a and b: a copy would read the original's buffers.
  HostGemm(HostGemm const&) = delete;
  HostGemm& operator=(HostGemm const&) = delete;

  // D starts as bf16 NaN everywhere, so an element the kernel never wrote fails the check.
  void clear_d() {
    d.assign(size_t(M) * N, uint16_t(0x7fc0));
    map_d.base = d.data();
  }

  int tiles() const { return ((M + kTileM - 1) / kTileM) * ((N + kTileN - 1) / kTileN); }

  // "" when every D element is within bf16 tolerance of the double-precision product of
  // the same bf16 inputs; else a description of the first mismatches.
  std::string check() const {
    std::ostringstream err;
    int bad = 0;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double ref = 0, mag = 0;
        for (int k = 0; k < K; ++k) {
          double p = double(ts::arch::bf16_to_float(a[size_t(i) * K + k])) * ts::arch::bf16_to_float(b[size_t(j) * K + k]);
          ref += p;
          mag += std::fabs(p);
        }
        float got = ts::arch::bf16_to_float(d[size_t(i) * N + j]);
        // One bf16 rounding of the result plus fp32 accumulation-order differences.
        double tol = ts::arch::kBf16Epsilon * std::fabs(ref) + 1e-5 * mag + 1e-6;
        if (!(std::fabs(got - ref) <= tol)) {
          if (bad < 5) err << "D[" << i << "][" << j << "] = " << got << ", reference " << ref << " (tolerance " << tol << ")\n";
          ++bad;
        }
      }
    if (bad) err << bad << " of " << size_t(M) * N << " elements differ\n";
    return err.str();
  }
};

}  // namespace gemm
