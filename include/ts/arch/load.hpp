// Read-only global loads for work bodies, on both backends. On the GPU this is the
// non-coherent path (ld.global.nc), which also tells the compiler the load cannot
// alias the kernel's stores, so an unrolled loop can issue several loads before its
// stores; on the CPU it is a plain load.
#pragma once
#include "ts/core/macros.hpp"

namespace ts {

template <class T>
TS_HD inline T load_readonly(T const* p) {
#if TS_DEVICE_PASS
  return __ldg(p);
#else
  return *p;
#endif
}

}  // namespace ts
