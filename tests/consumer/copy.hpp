// The consumer's resources and schedule: a one-task copy (host recording, the CPU
// emulator and, in gpu.cu, the sm_90a kernel all use this one source).
#pragma once
#include <cstdint>

#include "ts/ts.hpp"

struct Input : ts::MemoryResource {
  int16_t const* src = nullptr;
  long long n = 0;
  TS_HD int16_t get(ts::ConsumerStage const& si) const { return si.loop_offset < n ? src[si.loop_offset] : int16_t(0); }
};
struct Output : ts::MemoryResource {
  int16_t* dst = nullptr;
  long long n = 0;
  TS_HD void set(ts::ProducerStage const& si, int16_t v) const {
    if (si.loop_offset < n) dst[si.loop_offset] = v;
  }
};
struct Copy {
  template <class S, class In, class Out>
  TS_HD void operator()(S& s, In& in, Out& out) const {
    s.domain_loop(s.global_thread(), in->n, s.grid_threads(), [&] {
      auto v = ts::work<&Input::get>(in);
      ts::work<&Output::set>(out, v);
    });
  }
};
