// Host implementation of the portable primitive layer: every call forwards to the
// emulator that runs the calling emulated thread.
#include "ts/arch/portable.hpp"

#include <cstring>
#include <vector>

#include "ts/runtime/cpu/emulator.hpp"

namespace ts::arch {

using ts::cpu::Emulator;

void mbar_arrive(uint64_t* bar) { Emulator::current().mbar_arrive(bar); }
void mbar_arrive_expect_tx(uint64_t* bar, uint32_t bytes) { Emulator::current().mbar_arrive_expect_tx(bar, bytes); }
void mbar_expect_tx(uint64_t* bar, uint32_t bytes) { Emulator::current().mbar_expect_tx(bar, bytes); }
bool mbar_try_wait(uint64_t* bar, uint32_t parity) { return Emulator::current().mbar_try_wait(bar, parity); }
void mbar_wait(uint64_t* bar, uint32_t parity) { Emulator::current().mbar_wait(bar, parity, WaitSite{}); }
void cta_sync() { Emulator::current().cta_sync(); }
void named_barrier_sync(int id, int threads) { Emulator::current().named_barrier(id, threads); }
void bulk_copy_g2s(void* dst, void const* src, uint32_t bytes, uint64_t* bar) {
  Emulator::current().bulk_copy_g2s(dst, src, bytes, bar);
}
void bulk_copy_s2g(void* dst, void const* src, uint32_t bytes) { Emulator::current().bulk_copy_s2g(dst, src, bytes); }
void tensor_copy_2d_g2s(void* dst, TensorMap2D const& m, long long x, long long y, uint64_t* bar) {
  Emulator::current().tensor_copy_2d_g2s(dst, m, x, y, bar);
}
void smem_check(void const* p, std::size_t bytes, bool write) { Emulator::current().smem_access(p, bytes, write); }

void mma_sync(float* d, float const* a, float const* b, float const* c, MmaShape s) {
  mma_reference(d, a, b, c, s);
}

void umma_issue(uint32_t tmem_col, float const* a, float const* b, MmaShape s, bool accumulate) {
  Emulator& e = Emulator::current();
  if (s.m > 128) e.fail("umma_issue: M larger than the 128 TMEM lanes");
  // Resolve the TMEM cells now (range check with the issuing thread known); the
  // arithmetic runs later, in order, on the CTA's MMA engine.
  std::vector<float*> rows(s.m);
  for (int i = 0; i < s.m; ++i) rows[i] = e.tmem(tmem_col, i), e.tmem(tmem_col + s.n - 1, i);
  e.umma_issue([rows, a, b, s, accumulate] {
    std::vector<float> tile(size_t(s.m) * s.n, 0.0f), c(size_t(s.m) * s.n, 0.0f);
    for (int i = 0; i < s.m; ++i)
      for (int j = 0; j < s.n; ++j) c[size_t(i) * s.n + j] = accumulate ? rows[i][j] : 0.0f;
    mma_reference(tile.data(), a, b, c.data(), s);
    for (int i = 0; i < s.m; ++i) std::memcpy(rows[i], &tile[size_t(i) * s.n], sizeof(float) * s.n);
  }, {{a, sizeof(float) * s.m * s.k}, {b, sizeof(float) * s.k * s.n}});
}

void umma_commit(uint64_t* bar) { Emulator::current().umma_commit(bar); }

void tmem_load(float* dst, uint32_t col, int rows, int cols) {
  Emulator& e = Emulator::current();
  for (int i = 0; i < rows; ++i) {
    e.tmem(col + cols - 1, i);  // range check of the row's last column
    std::memcpy(dst + size_t(i) * cols, e.tmem(col, i), sizeof(float) * cols);
  }
}

}  // namespace ts::arch
