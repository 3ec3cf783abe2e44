// The pipeline operations as the executing context names them to its Arch: the step
// hooks (on_sync), a bounded wait's report (WaitSite) and step matching against the IR
// (schedule/step_matching.hpp). Core vocabulary, so that the IR side, the executing
// context and every Arch (arch/cuda_sm90.cuh, runtime/cpu/cpu_arch.hpp) share it.
#pragma once
#include <cstdint>

#include "ts/core/macros.hpp"

namespace ts {

// Names the blocked operation in a bounded wait's report.
enum class SyncOp : uint8_t { TryAcquire, Acquire, Commit, TryWait, Wait, Release, Fetch, Advance };
TS_HD inline char const* sync_op_name(SyncOp op) {
  switch (op) {
    case SyncOp::TryAcquire: return "try_acquire";
    case SyncOp::Acquire: return "acquire";
    case SyncOp::Commit: return "commit";
    case SyncOp::TryWait: return "try_wait";
    case SyncOp::Wait: return "wait";
    case SyncOp::Release: return "release";
    case SyncOp::Fetch: return "fetch_work_tile";
    case SyncOp::Advance: return "get_and_advance_work_tile";
  }
  return "?";
}

struct WaitSite {
  int task = -1;
  int resource = -1;
  SyncOp op = SyncOp::Wait;
  int stage = 0;
  uint32_t phase = 0;
};

}  // namespace ts
