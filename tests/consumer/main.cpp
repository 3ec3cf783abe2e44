// A project using TS through its CMake package (tests/consumer/run.sh): one task copies
// a buffer, the schedule is recorded and verified, then run on the CPU emulator.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "ts/runtime/cpu/run.hpp"
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

int main() {
  long long const n = 1000;
  std::vector<int16_t> src(n), dst(n, -1);
  for (long long i = 0; i < n; ++i) src[i] = int16_t(i * 7 - 300);
  auto in = ts::resource("in", Input{{}, src.data(), n});
  auto out = ts::resource("out", Output{{}, dst.data(), n});
  auto copy = ts::Task("CopyTask").warps(0, 2).reads(in).writes(out).schedule(Copy{}, in, out);
  ts::Options o;
  o.verbose = false;
  ts::TaskManager tm(ts::tasks(copy), ts::DependencyGraph{{out, {in}}}, o);
  tm.print_and_verify();
  ts::cpu::run(tm, {.grid_blocks = 3, .resident_blocks = 2, .seed = 5});
  bool ok = src == dst;
  std::printf("consumer: copy of %lld elements on the CPU emulator %s\n", n, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
