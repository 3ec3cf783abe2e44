// SMEM/TMEM allocation declarations (SPEC S2.6, S9).
//
// A resource owns device-visible handles (SmemArray<T>, TmemColumns) as ordinary
// fields and declares them once, on the host, through declare_allocations(). The
// allocator writes each handle's offset exactly once; work bodies then resolve the
// pointer from StageInfo.context, so the same resource struct works in both backends.
#pragma once
#include <cstdint>

#include "ts/core/macros.hpp"
#include "ts/core/stage_info.hpp"

namespace ts {

constexpr uint32_t kUnplaced = 0xffffffffu;

template <class T>
struct SmemArray {
  uint32_t offset = kUnplaced;  // bytes from the CTA's dynamic SMEM base
  uint32_t count = 0;           // elements
  TS_HD T* ptr(KernelContext const& c) const { return reinterpret_cast<T*>(c.smem_base + offset); }
  TS_HD bool placed() const { return offset != kUnplaced; }
};

struct TmemColumns {
  uint32_t column = kUnplaced;  // first column relative to the kernel's TMEM base
  uint32_t columns = 0;
  TS_HD uint32_t addr(KernelContext const& c) const { return c.tmem_base + column; }
  TS_HD bool placed() const { return column != kUnplaced; }
};

}  // namespace ts
