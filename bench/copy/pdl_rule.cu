// bench/copy pdl_rule: the checker's PDL rule (SPEC S12: no path may launch dependents
// before a PDL wait) against what the H200 runs. A chain of three TS kernels:
//   Writer  (first of the chain) launches its dependents, then writes buf (n ints);
//   Middle  in three forms (below), with a PdlWait on the Writer and a PdlLaunch;
//   Reader  waits on the Middle (PdlWait), then copies buf to out, from the end first.
// Middle forms:
//   wait_then_launch   dep.wait(); launch.commit()   the checker says SAFE
//   launch_then_wait   launch.commit(); dep.wait()   the checker says UNSAFE (pdl)
//   launch_only        launch.commit(), no wait      the checker says UNSAFE (pdl)
// The UNSAFE forms cannot be launched as they are (ts::cuda::launch refuses a manager
// whose verdict is UNSAFE); the bench prints the checker's verdict, then builds the same
// manager with Options::assume_pdl_wait_completed (the documented escape for a wait
// done outside TS, which here is a lie) to run it. Every chain runs with PDL on the
// Middle and the Reader, buf and out poisoned first, and reports:
//   - overlap_us: the Reader's first warp start minus the Writer's last warp end
//     (%globaltimer; negative: the Reader ran while the Writer was still writing);
//   - wrong: elements of out that do not hold the Writer's value (the Reader read buf
//     before the Writer wrote it).
// Lines: `pdl_rule middle=<form> verdict=<...> runs=<r> wrong_runs=<k> wrong_max=<e>
// overlap_us_min=<..> overlap_us_median=<..>`.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "../cuda_check.cuh"
#include "copy_pdl.hpp"
#include "ts/runtime/cuda/launch.cuh"


namespace {

// Timestamps of one kernel: the earliest warp start or the latest warp end, in
// %globaltimer ns, kept by lane 0 of every warp with an atomic min / max.
struct Stamp : ts::MemoryResource {
  unsigned long long* t = nullptr;
  bool latest = false;  // max (an end) or min (a start)
  TS_HD void mark(ts::ProducerStage const& si) const {
#if TS_DEVICE_PASS
    if ((si.thread.thread_in_task & 31) == 0) {
      unsigned long long now;
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
      if (latest) atomicMax(t, now);
      else atomicMin(t, now);
    }
#else
    (void)si;
#endif
  }
};

// The Reader takes buf from its end: the Writer's grid-stride loop writes the end last, so a
// Reader that overtakes the Writer meets the elements still unwritten first.
struct TailFirstBuffer : examples::PdlBuffer {
  TS_HD int read_tail_first(ts::ConsumerStage const& si) const { return data[n - 1 - si.loop_offset]; }
};
struct TailFirstOut : examples::PdlOut {
  long long n = 0;
  TS_HD void put_tail_first(ts::ProducerStage const& si, int v) const { data[n - 1 - si.loop_offset] = v; }
};

struct Writer {
  template <class S, class L, class B, class T>
  TS_HD void operator()(S& s, L& launch, B& buf, T& end) const {
    launch.acquire();
    launch.commit();
    s.domain_loop(s.global_thread(), buf->n, s.grid_threads(), [&] { ts::work<&examples::PdlBuffer::write>(buf); });
    ts::work<&Stamp::mark>(end);
  }
};

enum class Middle { WaitThenLaunch, LaunchThenWait, LaunchOnly };
char const* name(Middle m) {
  return m == Middle::WaitThenLaunch ? "wait_then_launch" : m == Middle::LaunchThenWait ? "launch_then_wait" : "launch_only";
}

template <Middle kForm>
struct MiddleSchedule {
  template <class S, class W, class L>
  TS_HD void operator()(S&, W& dep, L& launch) const {
    if constexpr (kForm == Middle::WaitThenLaunch) dep.wait();
    launch.acquire();
    launch.commit();
    if constexpr (kForm == Middle::LaunchThenWait) dep.wait();
  }
};
template <Middle kForm>
struct MiddleNoWait {
  template <class S, class L>
  TS_HD void operator()(S&, L& launch) const {
    launch.acquire();
    launch.commit();
  }
};

struct Reader {
  template <class S, class T, class W, class B, class O>
  TS_HD void operator()(S& s, T& start, W& dep, B& buf, O& out) const {
    ts::work<&Stamp::mark>(start);
    dep.wait();
    s.domain_loop(s.global_thread(), buf->n, s.grid_threads(), [&] {
      ts::work<&TailFirstOut::put_tail_first>(out, ts::work<&TailFirstBuffer::read_tail_first>(buf));
    });
  }
};

ts::Options opts(bool assume_wait = false) {
  ts::Options o;
  o.verbose = false;
  o.assume_pdl_wait_completed = assume_wait;
  return o;
}

auto make_writer(int* buf, long long n, unsigned long long* end) {
  auto launch = ts::resource("launch", ts::PdlLaunch{});
  auto b = ts::resource("buf", examples::PdlBuffer{{}, buf, n});
  auto e = ts::resource("writer_end", Stamp{{}, end, true});
  auto t = ts::Task("Writer").warps(0, 8).writes(b, launch, e).schedule(Writer{}, launch, b, e);
  return ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{b, {}}, {e, {}}}, opts(true));
}

template <Middle kForm>
auto make_middle(bool assume_wait) {
  auto launch = ts::resource("launch", ts::PdlLaunch{});
  if constexpr (kForm == Middle::LaunchOnly) {
    auto t = ts::Task("Middle").warps(0, 1).writes(launch).schedule(MiddleNoWait<kForm>{}, launch);
    return ts::TaskManager(ts::tasks(t), ts::DependencyGraph{}, opts(assume_wait));
  } else {
    auto dep = ts::resource("dep", ts::PdlWait{});
    auto t = ts::Task("Middle").warps(0, 1).reads(dep).writes(launch).schedule(MiddleSchedule<kForm>{}, dep, launch);
    return ts::TaskManager(ts::tasks(t), ts::DependencyGraph{}, opts(assume_wait));
  }
}

auto make_reader(int* buf, int* out, long long n, unsigned long long* start) {
  auto dep = ts::resource("dep", ts::PdlWait{});
  auto s = ts::resource("reader_start", Stamp{{}, start, false});
  auto b = ts::resource("buf", TailFirstBuffer{{{}, buf, n}});
  auto o = ts::resource("out", TailFirstOut{{{}, out}, n});
  auto t = ts::Task("Reader").warps(0, 8).reads(dep, b).writes(o, s).schedule(Reader{}, s, dep, b, o);
  return ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{o, {b}}, {s, {}}}, opts());
}

// The checker's verdict on a manager, and its first failure line when UNSAFE.
template <class TM>
std::string verdict_of(TM& tm) {
  std::ostringstream sink;
  try {
    auto rep = tm.print_and_verify(sink);
    return ts::to_string(rep.verdict);
  } catch (ts::VerificationError const& e) {
    // Only the checker's UNSAFE counts here; a static error is a bug of this bench.
    if (!e.unsafe()) throw;
    std::string what = e.what();
    auto nl = what.find('\n');
    return "UNSAFE: " + what.substr(0, nl);
  }
}

__global__ void count_wrong(int const* out, long long n, unsigned long long* bad) {
  unsigned long long local = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    local += out[i] != int(i * 5 + 1);
  if (local) atomicAdd(bad, local);
}

template <Middle kForm>
bool run_form(int* buf, int* out, long long n, unsigned long long* stamps, unsigned long long* bad, int sms,
              cudaStream_t s) {
  auto checked = make_middle<kForm>(false);
  std::string verdict = verdict_of(checked);
  bool expect_safe = kForm == Middle::WaitThenLaunch;
  bool safe = verdict.rfind("UNSAFE", 0) != 0;
  // The UNSAFE forms run through the escape hatch: the same schedule, told that a wait was
  // done outside TS.
  auto middle = make_middle<kForm>(!expect_safe);
  std::string run_verdict = verdict_of(middle);
  auto writer = make_writer(buf, n, stamps + 0);
  auto reader = make_reader(buf, out, n, stamps + 1);
  writer.print_and_verify();
  reader.print_and_verify();
  // The Writer leaves room beside it on every SM (one 256-thread CTA per SM), so the
  // Middle's and the Reader's CTAs can be resident while it runs.
  int const runs = 50;
  int wrong_runs = 0;
  unsigned long long wrong_max = 0;
  std::vector<double> overlap;
  for (int r = 0; r < runs; ++r) {
    BENCH_CHECK(cudaMemsetAsync(buf, 0xff, size_t(n) * 4, s));
    BENCH_CHECK(cudaMemsetAsync(out, 0xff, size_t(n) * 4, s));
    unsigned long long init[2] = {0ull, ~0ull};
    BENCH_CHECK(cudaMemcpyAsync(stamps, init, sizeof init, cudaMemcpyHostToDevice, s));
    BENCH_CHECK(cudaMemsetAsync(bad, 0, sizeof(*bad), s));
    BENCH_CHECK(cudaStreamSynchronize(s));
    ts::cuda::launch(writer, sms, s);
    ts::cuda::launch(middle, sms, s, {.pdl = true});
    ts::cuda::launch(reader, sms, s, {.pdl = true});
    count_wrong<<<sms * 8, 256, 0, s>>>(out, n, bad);
    unsigned long long h[3];
    BENCH_CHECK(cudaMemcpyAsync(h, stamps, 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost, s));
    BENCH_CHECK(cudaMemcpyAsync(h + 2, bad, sizeof(*bad), cudaMemcpyDeviceToHost, s));
    BENCH_CHECK(cudaStreamSynchronize(s));
    overlap.push_back((double(h[1]) - double(h[0])) * 1e-3);
    if (h[2]) ++wrong_runs;
    wrong_max = std::max(wrong_max, h[2]);
  }
  std::sort(overlap.begin(), overlap.end());
  std::printf("pdl_rule middle=%s verdict=\"%s\" ran_as=\"%s\" n=%lld runs=%d wrong_runs=%d wrong_max=%llu "
              "overlap_us_min=%.2f overlap_us_median=%.2f overlap_us_max=%.2f\n",
              name(kForm), verdict.c_str(), run_verdict.c_str(), n, runs, wrong_runs, wrong_max, overlap.front(),
              overlap[overlap.size() / 2], overlap.back());
  // What this bench asserts: the checker's verdict is the one expected, and a SAFE chain
  // never reads stale data nor starts the Reader before the Writer ended.
  if (safe != expect_safe) {
    std::printf("pdl_rule middle=%s FAIL: expected the checker to say %s\n", name(kForm), expect_safe ? "SAFE" : "UNSAFE");
    return false;
  }
  if (expect_safe && (wrong_runs || overlap.front() < 0)) {
    std::printf("pdl_rule middle=%s FAIL: a SAFE chain read stale data or overlapped the Writer\n", name(kForm));
    return false;
  }
  return true;
}

}  // namespace

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  int sms = ts::cuda::persistent_grid();
  long long const n = 32ll << 20;  // 128 MiB of ints: the Writer runs for tens of microseconds
  int *buf = nullptr, *out = nullptr;
  unsigned long long *stamps = nullptr, *bad = nullptr;
  BENCH_CHECK(cudaMalloc(&buf, size_t(n) * 4));
  BENCH_CHECK(cudaMalloc(&out, size_t(n) * 4));
  BENCH_CHECK(cudaMalloc(&stamps, 2 * sizeof(unsigned long long)));
  BENCH_CHECK(cudaMalloc(&bad, sizeof(unsigned long long)));
  cudaStream_t s;
  BENCH_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  bool ok = run_form<Middle::WaitThenLaunch>(buf, out, n, stamps, bad, sms, s);
  ok = run_form<Middle::LaunchThenWait>(buf, out, n, stamps, bad, sms, s) && ok;
  ok = run_form<Middle::LaunchOnly>(buf, out, n, stamps, bad, sms, s) && ok;
  BENCH_CHECK(cudaGetLastError());
  std::printf("pdl_rule %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

TS_WORK_SLOTS(&TailFirstBuffer::read_tail_first, ts::Slot<int>{"value", 0, "the Writer's value at n - 1 - loop_offset"});
