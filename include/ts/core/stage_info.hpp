// StageInfo: what a work method learns about the step it runs in (SPEC S2.4).
//
// The work method's *role* is carried by the type of its first parameter:
// ProducerStage (writes data into its resource), ConsumerStage (reads data out of it)
// or AuxStage (descriptors, offsets, resets; ignored by ordering checks). Making the
// role part of the signature lets the compiler reject a non-work method at the call
// site and lets the recorder learn the role without a separate registry.
#pragma once
#include <cstdint>

#include "ts/core/macros.hpp"

namespace ts {

// The persistent tile a CTA currently works on. `valid` turns false when the work
// queue is exhausted (static queue past its tile count, or a failed CLC-style fetch).
struct WorkTile {
  int tile_idx = 0;
  int coord[3] = {0, 0, 0};
  bool valid = true;
};

// Resolved allocator pointers for this CTA (SPEC S2.4 `context`).
struct KernelContext {
  unsigned char* smem_base = nullptr;  // dynamic shared memory of this CTA
  uint32_t tmem_base = 0;              // first TMEM column owned by the kernel
};

// Where the executing thread sits; filled by the backend (CUDA built-ins or emulator).
struct ThreadCoord {
  int thread_in_task = 0;  // 0 .. task_threads-1
  int task_threads = 0;    // warps of the task x 32
  int thread_in_block = 0; // threadIdx.x
  int block_threads = 0;   // blockDim.x
  int block_idx = 0;       // linear CTA index in the grid
  int grid_blocks = 0;     // CTAs in the grid
  TS_HD int lane() const { return thread_in_block & 31; }
  TS_HD int warp_in_task() const { return thread_in_task >> 5; }
};

constexpr int kNoStage = -1;

struct StageInfo {
  long long loop_offset = 0;     // current domain_loop index (never passed as data)
  int stage_idx = kNoStage;      // active pipeline stage, kNoStage when unpipelined
  uint64_t* barrier = nullptr;   // active mbarrier (full on the consumer side, the one the producer signals)
  WorkTile work_tile{};          // current persistent tile
  KernelContext context{};       // SMEM/TMEM bases
  ThreadCoord thread{};          // executing thread
};

struct ProducerStage : StageInfo {};
struct ConsumerStage : StageInfo {};
struct AuxStage : StageInfo {};

}  // namespace ts
