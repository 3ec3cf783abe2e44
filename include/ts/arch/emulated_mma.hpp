// Host emulation of the tensor-core MMAs the GEMM examples issue (DESIGN layer 8):
// Hopper's warpgroup wgmma with register accumulators (operands K-major or MN-major in
// SMEM) and Blackwell's UMMA (tcgen05.mma) into tensor memory (K-major operands). Host
// only: on the device the work bodies issue the real instructions (ts/arch/sm90_wgmma.cuh).
//
// Host SMEM holds operand tiles unswizzled (row r of a box at r * box_width elements):
// the 128-byte swizzle of the device tiles is a device-only layout detail of the TMA
// boxes and wgmma descriptors, invisible to the arithmetic.
#pragma once
#include <cstdint>

#include "ts/core/macros.hpp"
#include "ts/arch/portable.hpp"
#include "ts/core/stage_info.hpp"

namespace ts::arch {

// The wgmma m64nNk16 D fragment (PTX ISA "Matrix fragments for wgmma .m64nNk16", the
// layout CUTLASS's SM90 GMMA accumulators have): thread t of the warpgroup (warp
// w = t / 32, lane l) owns N / 2 floats; float i sits at
//   row = 16 w + l / 4 + 8 * ((i / 2) % 2),   col = 8 * (i / 4) + 2 * (l % 4) + i % 2.
TS_HD constexpr int wgmma_d_row(int t, int i) { return 16 * (t / 32) + (t % 32) / 4 + 8 * ((i / 2) % 2); }
TS_HD constexpr int wgmma_d_col(int t, int i) { return 8 * (i / 4) + 2 * (t % 4) + i % 2; }

}  // namespace ts::arch

#if !defined(__CUDA_ARCH__)
namespace ts::arch::emu {

// Stops the emulated run with an EmulationError naming the calling thread and step.
[[noreturn]] void fail(char const* what);

// One wgmma operand in host SMEM: element (row, k) of an A (row = M) or B (row = N) slice.
//   K-major:  row r at r * ld elements, its K elements contiguous;
//   MN-major: blocks of kMnBlockRows rows `block` elements apart; inside a block, K row k
//             at k * kMnBlockRows elements holds the block's rows contiguously (the
//             unswizzled 64 x K TMA box).
struct Operand {
  static constexpr int kMnBlockRows = 64;  // one 128-byte swizzle row of bf16
  uint16_t const* base;
  int stride;  // K-major: the row stride; MN-major: the distance between row blocks (elements)
  bool is_mn_major;

  static Operand k_major(uint16_t const* base, int row_stride) { return {base, row_stride, false}; }
  static Operand mn_major(uint16_t const* base, int block_stride) { return {base, block_stride, true}; }
  // Element (row, 0), and the distance from element (row, k) to (row, k + 1).
  uint16_t const* row(int r) const {
    return is_mn_major ? base + size_t(r / kMnBlockRows) * stride + r % kMnBlockRows : base + size_t(r) * stride;
  }
  int k_step() const { return is_mn_major ? kMnBlockRows : 1; }
  uint16_t const* at(int r, int k) const { return row(r) + size_t(k) * k_step(); }
};

// wgmma.mma_async m64n256k16 (bf16 x bf16 -> f32) for thread `thread_in_wg` of its
// warpgroup: its 128 accumulators `acc` (fragment layout above) become
// (accumulate ? acc : 0) + A * B^T over a 64 x 16 slice of A and a 256 x 16 slice of B.
// Like the hardware, the MMA is asynchronous: it joins the thread's open group and reads
// SMEM only when a wgmma_wait retires the group, so a stage released before its MMAs
// retired is read after the producer overwrote it and the result is wrong (a schedule
// bug shows).
void wgmma_m64n256k16_bf16(float* acc, Operand a, Operand b, int thread_in_wg, bool accumulate);
// wgmma.mma_async m64n128k16 for one thread: its 64 accumulators `d` (the same fragment
// layout, columns 0..127) become (accumulate ? d : 0) + A * B^T over a 64 x 16 slice of A
// and a 128 x 16 slice of B. `group_acc` is the thread's accumulator array (d lies in it):
// the MMA joins that array's open group, so two m64n128 halves of one 128 x 128 warpgroup
// tile commit and retire together (wgmma_commit / wgmma_wait on group_acc).
void wgmma_m64n128k16_bf16(float* group_acc, float* d, Operand a, Operand b, int thread_in_wg, bool accumulate);
// wgmma.commit_group: closes the open group of the thread owning `acc`.
void wgmma_commit(float* acc);
// wgmma.wait_group N: runs the oldest committed groups of `acc`'s thread until at most
// `pending` remain in flight.
void wgmma_wait(float* acc, int pending);

// UMMA (tcgen05.mma.kind::f16, bf16 inputs, f32 accumulate, one CTA): D at TMEM column
// `tmem_col` (lane = row, s.m <= 128 lanes, s.n columns) becomes (accumulate ? D : 0) +
// A * B^T, A s.m x s.k (row stride lda), B s.n x s.k (K-major, row stride ldb), read
// from SMEM when the CTA's in-order MMA engine runs it (after the issuing thread moved
// on); completion is observed through ts::arch::umma_commit.
void umma_bf16(uint32_t tmem_col, uint16_t const* a, int lda, uint16_t const* b, int ldb, MmaShape s,
               bool accumulate);
// tcgen05.ld for one thread: `cols` floats of TMEM lane `lane` from column `col`.
// Like the hardware, warp w of the CTA may only touch lanes 32 * (w % 4) .. + 31.
void tmem_load_row(float* dst, uint32_t col, int lane, int cols, ThreadCoord const& thread);

}  // namespace ts::arch::emu
#endif
