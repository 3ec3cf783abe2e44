#pragma once
#include "ts/ts.hpp"

struct In : ts::MemoryResource {
  int get(ts::ConsumerStage const&) const { return 1; }
  int helper(int x) const { return x; }  // not a work method
};
struct Out : ts::MemoryResource {
  void put(ts::ProducerStage const&, int) const {}
  void put_short(ts::ProducerStage const&, short) const {}
};
template <class Sched>
void record(Sched s) {
  auto in = ts::resource("in", In{});
  auto out = ts::resource("out", Out{});
  auto t = ts::Task("T").warps(0, 1).reads(in).writes(out).schedule(s, in, out);
  ts::TaskManager tm(ts::tasks(t), ts::DependencyGraph{{out, {in}}});
}
