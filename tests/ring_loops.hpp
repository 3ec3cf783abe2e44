// Domain loops over one ring that the pipeline and warp-lane tests share (vt's Src, Buf,
// Dst): a producer, a TMA filler, a consumer and a wait-only reader, each a loop from
// Start to End with step Step. One definition, so a test's ring shape is its parameters.
#pragma once
#include "verify_fixtures.hpp"

namespace vt {

// acquire, put(load), commit.
template <long long Start, long long End, long long Step = 1>
struct ProduceLoop {
  template <class S, class In, class B>
  void operator()(S& s, In& in, B& b) const {
    s.domain_loop(Start, End, Step, [&](auto&) {
      b.acquire();
      ts::work<&Buf::put>(b, ts::work<&Src::load>(in));
      b.commit();
    });
  }
};
// A TMA producer: touch the input, then acquire, fill (the copy), commit.
template <long long End>
struct TmaFillLoop {
  template <class S, class In, class B>
  void operator()(S& s, In& in, B& b) const {
    s.domain_loop(0LL, End, 1LL, [&](auto&) {
      ts::work<&Src::touch_in>(in);
      b.acquire();
      ts::work<&Buf::fill>(b);
      b.commit();
    });
  }
};
// wait, store(take), and release unless kWaitOnly (the waiting half of a split consumer).
template <long long Start, long long End, long long Step = 1, bool kWaitOnly = false>
struct ConsumeLoop {
  template <class S, class B, class Out>
  void operator()(S& s, B& b, Out& out) const {
    s.domain_loop(Start, End, Step, [&](auto&) {
      b.wait();
      ts::work<&Dst::store>(out, ts::work<&Buf::take>(b));
      if constexpr (!kWaitOnly) b.release();
    });
  }
};

}  // namespace vt
