// A bounded wait's report (WaitSite): the blocked pipeline operation as the executing
// context names it to its Arch. The ops themselves (SyncOp, with their names) are the
// protocol vocabulary, core/protocol.hpp, which the IR side, the executing context and
// every Arch (arch/cuda_sm90.cuh, runtime/cpu/cpu_arch.hpp) share.
#pragma once
#include <cstdint>

#include "ts/core/protocol.hpp"

namespace ts {

struct WaitSite {
  int task = -1;
  int resource = -1;
  SyncOp op = SyncOp::Wait;
  int stage = 0;
  uint32_t phase = 0;
};

}  // namespace ts
