// Host (CPU emulator) arithmetic of the attention work bodies. The device runs wgmma on
// fragments spread over a warp group; the emulator gives each thread exactly the values
// its device fragment holds, computed from SMEM by that thread alone:
//   * a thread owns two query rows of its group's 64-row block, r0 = 16 w + l / 4 and
//     r0 + 8 (the wgmma D-fragment rows, ts::arch::wgmma_d_row), and keeps their full
//     score rows (the device spreads a row over the 4 threads of a quad and reduces the
//     row max and sum with shuffles; here the 4 threads compute the same row alike);
//   * its O elements are the D/2 floats of the m64nD fragment (wgmma_d_row / wgmma_d_col).
// As on the device the MMAs read SMEM only when they retire (the aux retire_* steps), so a
// schedule that released a stage before its MMAs retired reads a refilled stage here too.
// SMEM reads go through ts::arch::smem_check (range and, with detect_races, races). Every
// thread of a group reads the whole K (V) tile; only lane 0 of each warp reports that read
// (the race detector keeps a list of readers per byte, and 128 readers of 32 KiB made a run
// minutes long): lanes of a warp reconverge at every synchronisation step, so lane 0's
// read is ordered exactly as its lanes' are, and a race with the TMA refill still shows.
#pragma once
#if !defined(__CUDA_ARCH__)
#include <cmath>
#include <cstdint>

#include "ts/arch/bf16.hpp"
#include "ts/arch/emulated_mma.hpp"
#include "ts/arch/portable.hpp"

namespace attn::emu {

inline uint16_t const* as_tile(uint64_t address) { return reinterpret_cast<uint16_t const*>(uintptr_t(address)); }

// Thread t's two rows of the 64-row block.
inline int row_of(int t, int r) { return ts::arch::wgmma_d_row(t, 2 * r); }

// s[r][c] = Q[row r] . K[c] over D, for the thread's two rows and kBlockN keys.
template <int D, int BN>
void scores(float (&s)[2][BN], uint64_t q_stage, uint64_t k_stage, int t) {
  uint16_t const* q = as_tile(q_stage);
  uint16_t const* k = as_tile(k_stage);
  if (t % 32 == 0) ts::arch::smem_check(k, size_t(BN) * D * 2, false);
  for (int r = 0; r < 2; ++r) {
    uint16_t const* qr = q + size_t(row_of(t, r)) * D;
    ts::arch::smem_check(qr, size_t(D) * 2, false);
    float qf[D];
    for (int d = 0; d < D; ++d) qf[d] = ts::arch::bf16_to_float(qr[d]);
    for (int c = 0; c < BN; ++c) {
      uint16_t const* kc = k + size_t(c) * D;
      float acc = 0;
      for (int d = 0; d < D; ++d) acc += qf[d] * ts::arch::bf16_to_float(kc[d]);
      s[r][c] = acc;
    }
  }
}

// o[i] += sum_c p[row(i)][c] * V[c][col(i)] over the thread's m64nD fragment.
template <int D, int BN>
void pv(float* o, float const (&p)[2][BN], uint64_t v_stage, int t) {
  uint16_t const* v = as_tile(v_stage);
  if (t % 32 == 0) ts::arch::smem_check(v, size_t(BN) * D * 2, false);
  for (int i = 0; i < D / 2; ++i) {
    int const r = (i / 2) % 2;  // fragment row half: row_of(t, r)
    int const col = ts::arch::wgmma_d_col(t, i);
    float acc = 0;
    for (int c = 0; c < BN; ++c) acc += p[r][c] * ts::arch::bf16_to_float(v[size_t(c) * D + col]);
    o[i] += acc;
  }
}

}  // namespace attn::emu
#endif
