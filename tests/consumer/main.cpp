// A project using TS through its CMake package (tests/consumer/run.sh): one task copies
// a buffer, the schedule is recorded and verified, then run on the CPU emulator.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "copy.hpp"
#include "ts/runtime/cpu/run.hpp"
#include "ts/ts.hpp"

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
