// Hand-written warp-specialized persistent BF16 GEMM for sm_90a: the "twin" the TS GEMM
// is measured against, written the way a kernel engineer writes one by hand (explicit
// mbarrier phases, arrival counts and warp-role branches).
//
// D[M][N] (bf16, row-major) = A[M][K] (bf16, row-major) * B[N][K]^T (bf16, K-major).
// CTA tile 128 x 256 x 64, one producer warpgroup (TMA, setmaxnreg.dec 40) and two math
// warpgroups (each 64 x 256 with wgmma m64n256k16, setmaxnreg.inc 232), kStages-deep
// SMEM ring, persistent grid over tiles in a grouped (L2-friendly) order.
#pragma once
#include <cuda_bf16.h>

#include "ts/arch/cuda_sm90.cuh"
#include "gemm/gemm_epilogue.hpp"
#include "ts/core/named_barriers.hpp"
#include "ts/arch/cuda_copy.cuh"
#include "ts/arch/cuda_registers.cuh"
#include "ts/arch/sm90_wgmma.cuh"

namespace bench {

constexpr int kTileM = 128, kTileN = 256, kTileK = 64;
constexpr int kStageBytesA = kTileM * kTileK * 2, kStageBytesB = kTileN * kTileK * 2;
constexpr int kGroupM = 8;  // tiles along M visited together (L2 reuse of B)

// Tile t of a grouped raster: groups of kGroupM tile rows, column-major inside a group.
__host__ __device__ inline void tile_coord(int t, int tiles_m, int tiles_n, int& tm, int& tn) {
  int per_group = kGroupM * tiles_n;
  int group = t / per_group;
  int first_m = group * kGroupM;
  int rows = tiles_m - first_m < kGroupM ? tiles_m - first_m : kGroupM;
  int in_group = t % per_group;
  tm = first_m + in_group % rows;
  tn = in_group / rows;
}

template <int kStages>
constexpr int handwritten_smem_bytes() {
  return 1024 + kStages * (kStageBytesA + kStageBytesB) + 32768 + 2 * kStages * 8;
}

template <int kStages>
__global__ void __launch_bounds__(384, 1)
    handwritten_gemm(__grid_constant__ const CUtensorMap tm_a, __grid_constant__ const CUtensorMap tm_b,
                     __nv_bfloat16* __restrict__ d, int M, int N, int K, CUtensorMap const* map_d) {
  extern __shared__ unsigned char smem_raw[];
  unsigned char* smem = reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));
  unsigned char* sa = smem;
  unsigned char* sb = smem + kStages * kStageBytesA;
  unsigned char* staging = sb + kStages * kStageBytesB;  // 2 warp groups x 2 x 8 KiB (TMA-store epilogue)
  uint64_t* full = reinterpret_cast<uint64_t*>(staging + 32768);
  uint64_t* empty = full + kStages;

  int const tiles_m = (M + kTileM - 1) / kTileM, tiles_n = (N + kTileN - 1) / kTileN;
  int const num_tiles = tiles_m * tiles_n, k_iters = (K + kTileK - 1) / kTileK;
  int const wg = threadIdx.x / 128;

  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      ts::cuda::mbar_init(&full[s], 1);
      ts::cuda::mbar_init(&empty[s], 2);  // one elected thread per math warpgroup
    }
    ts::cuda::fence_barrier_init();
  }
  __syncthreads();
  ts::cuda::Sm90Arch arch;

  if (wg == 0) {
    ts::cuda::setmaxnreg_dec<40>();
    if (threadIdx.x == 0) {
      ts::cuda::prefetch_tensor_map(&tm_a);
      ts::cuda::prefetch_tensor_map(&tm_b);
      int stage = 0;
      uint32_t phase = 0;
      for (int t = blockIdx.x; t < num_tiles; t += gridDim.x) {
        int tm, tn;
        tile_coord(t, tiles_m, tiles_n, tm, tn);
        for (int k = 0; k < k_iters; ++k) {
          arch.mbar_wait(&empty[stage], phase ^ 1u, ts::WaitSite{});
          arch.mbar_arrive_expect_tx(&full[stage], kStageBytesA + kStageBytesB);
          ts::cuda::tensor_load_2d(sa + stage * kStageBytesA, &tm_a, k * kTileK, tm * kTileM, &full[stage]);
          ts::cuda::tensor_load_2d(sb + stage * kStageBytesB, &tm_b, k * kTileK, tn * kTileN, &full[stage]);
          if (++stage == kStages) {
            stage = 0;
            phase ^= 1u;
          }
        }
      }
    }
  } else {
    ts::cuda::setmaxnreg_inc<232>();
    int const mwg = wg - 1;  // which 64-row half of the tile
    int const t128 = threadIdx.x % 128, warp = t128 / 32, lane = t128 % 32;
    int stage = 0;
    uint32_t phase = 0;
    float acc[128];
    for (int t = blockIdx.x; t < num_tiles; t += gridDim.x) {
      int tm, tn;
      tile_coord(t, tiles_m, tiles_n, tm, tn);
      int prev_stage = -1;
      for (int k = 0; k < k_iters; ++k) {
        arch.mbar_wait(&full[stage], phase, ts::WaitSite{});
        ts::sm90::fence_accumulators(acc);
        ts::sm90::wgmma_fence();
        uint64_t da = ts::sm90::desc_k_major_sw128(sa + stage * kStageBytesA + mwg * 64 * 128);
        uint64_t db = ts::sm90::desc_k_major_sw128(sb + stage * kStageBytesB);
#pragma unroll
        for (int kk = 0; kk < kTileK / 16; ++kk)
          ts::sm90::wgmma_m64n256k16_bf16(acc, da + 2 * kk, db + 2 * kk, (k > 0 || kk > 0) ? 1 : 0);
        ts::sm90::wgmma_commit();
        ts::sm90::wgmma_wait<1>();  // the previous stage's MMAs are done reading SMEM
        ts::sm90::fence_accumulators(acc);
        if (prev_stage >= 0 && t128 == 0) arch.mbar_arrive(&empty[prev_stage]);
        prev_stage = stage;
        if (++stage == kStages) {
          stage = 0;
          phase ^= 1u;
        }
      }
      ts::sm90::wgmma_wait<0>();
      ts::sm90::fence_accumulators(acc);
      if (prev_stage >= 0 && t128 == 0) arch.mbar_arrive(&empty[prev_stage]);
      if (map_d) {  // asynchronous TMA-store epilogue through swizzled SMEM boxes
        gemm::store_fragment_tma(acc, staging + mwg * 16384, map_d, tm * kTileM + mwg * 64, tn * kTileN, t128,
                                 ts::kFirstBodyBarrier + mwg);
        continue;
      }
      // Epilogue: the m64n256 fragment straight to global memory as bf16 pairs.
      int row0 = tm * kTileM + mwg * 64 + warp * 16 + lane / 4;
#pragma unroll
      for (int j = 0; j < 32; ++j) {
        int col = tn * kTileN + j * 8 + (lane % 4) * 2;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          int row = row0 + h * 8;
          if (row < M && col < N) {
            __nv_bfloat162 v = __floats2bfloat162_rn(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]);
            if (col + 1 < N && (N & 1) == 0) *reinterpret_cast<__nv_bfloat162*>(d + size_t(row) * N + col) = v;
            else {
              d[size_t(row) * N + col] = v.x;
              if (col + 1 < N) d[size_t(row) * N + col + 1] = v.y;
            }
          }
        }
      }
    }
    if (map_d) gemm::drain_fragment_stores(t128);
  }
}

}  // namespace bench
