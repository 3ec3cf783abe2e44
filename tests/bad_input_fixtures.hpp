// The one-task copy the bad-input tests build their managers from: a source, a sink and
// a loop of `kLength` iterations (a ts::runtime value when kRuntime, else static).
#pragma once
#include "ts/ts.hpp"

namespace bad_input {

struct Src : ts::MemoryResource {
  TS_HD int load(ts::ConsumerStage const&) const { return 0; }
};
struct Dst : ts::MemoryResource {
  TS_HD void store(ts::ProducerStage const&, int) const {}
};
template <long long kLength, bool kRuntime = false>
struct Copy {
  template <class S, class In, class Out>
  void operator()(S& s, In& in, Out& out) const {
    auto body = [&](auto&) { ts::work<&Dst::store>(out, ts::work<&Src::load>(in)); };
    if constexpr (kRuntime) s.domain_loop(0, ts::runtime(kLength, "n"), 1, body);
    else s.domain_loop(0, kLength, 1, body);
  }
};

}  // namespace bad_input
