// The copy examples on the CUDA backend: the same resources and schedules the host
// records and the CPU backend runs, bound to device buffers and launched through
// ts::cuda::launch.
#include "copy_cuda.cuh"

#include <cstring>
#include <memory>
#include <ostream>
#include <random>
#include <sstream>

#include "copy_builders.hpp"
#include "tma_copy.hpp"
#include "ts/runtime/cuda/launch.cuh"
#include "ts/ts.hpp"

namespace examples {

namespace {

std::string verify(ts::TaskManagerBase& tm, std::ostream* os) {
  std::ostringstream sink;
  auto rep = tm.print_and_verify(os ? *os : sink);
  return ts::to_string(rep.verdict);
}

ts::Options quiet(std::ostream* os) {
  ts::Options o;
  o.verbose = os != nullptr;
  return o;
}

template <class Plan = ts::cuda::NoRegisterPlan, class TM>
CudaCopyInfo finish(std::string name, TM tm, std::ostream* os, int grid) {
  auto m = std::make_shared<TM>(std::move(tm));
  CudaCopyInfo info;
  info.name = std::move(name);
  info.verdict = verify(*m, os);
  m->layout();
  info.launch = [m, grid](cudaStream_t s) { ts::cuda::launch<Plan>(*m, grid, s); };
  return info;
}

}  // namespace

CudaCopyInfo make_grid_stride_copy_cuda(void const* src, void* dst, long long bytes, std::ostream* os) {
  return finish("01_grid_stride_copy",
                make_grid_stride_copy(static_cast<int16_t const*>(src), static_cast<int16_t*>(dst), bytes / 2, quiet(os)),
                os, ts::cuda::persistent_grid() * 8);
}

CudaCopyInfo make_pipelined_copy_cuda(void const* src, void* dst, long long bytes, std::ostream* os) {
  return finish("02_pipelined_copy",
                make_pipelined_copy(static_cast<int16_t const*>(src), static_cast<int16_t*>(dst), bytes / 2, quiet(os)),
                os, ts::cuda::persistent_grid() * 16);
}

namespace {
template <class Plan>
CudaCopyInfo make_tma(std::string name, void const* src, void* dst, long long bytes, std::ostream* os, int warps,
                      int prod_regs, int cons_regs, int grid) {
  auto in = ts::resource("in", BulkInput{{}, static_cast<char const*>(src), bytes});
  auto out = ts::resource("out", BulkOutput{{}, static_cast<char*>(dst), bytes});
  TmaRing r;
  r.bytes = bytes;
  auto ring = ts::resource("ring", r);  // TmaRing::pipeline
  auto pt = ts::Task("TmaProducer").warps(0, warps).reads(in).writes(ring);
  auto ct = ts::Task("BulkStorer").warps(warps, warps).reads(ring).writes(out);
  if (prod_regs) pt.registers(prod_regs);
  if (cons_regs) ct.registers(cons_regs);
  auto producer = pt.schedule(TmaProducer{}, in, ring);
  auto consumer = ct.schedule(TmaConsumer{}, ring, out);
  return finish<Plan>(std::move(name),
                      ts::TaskManager(ts::tasks(producer, consumer), ts::DependencyGraph{{ring, {in}}, {out, {ring}}},
                                      quiet(os)),
                      os, grid);
}
}  // namespace

CudaCopyInfo make_tma_copy_cuda(void const* src, void* dst, long long bytes, std::ostream* os) {
  return make_tma<ts::cuda::NoRegisterPlan>("03_tma_copy", src, dst, bytes, os, 1, 0, 0,
                                            ts::cuda::persistent_grid() * 2);
}

CudaCopyInfo make_tma_copy_regplan_cuda(void const* src, void* dst, long long bytes, std::ostream* os) {
  return make_tma<ts::cuda::RegisterPlan<256, 40, 232>>("03b_tma_copy_register_plan", src, dst, bytes, os, 4, 40,
                                                        232, ts::cuda::persistent_grid() * 2);
}

CudaCopyInfo make_dynamic_tile_copy_cuda(void const* src, void* dst, long long bytes, unsigned* counter,
                                         std::ostream* os) {
  int tiles = static_cast<int>(bytes / (4 * kTileElems));
  // Fewer CTAs than tiles, so most tiles are claimed dynamically.
  int grid = std::max(1, std::min(tiles / 4, ts::cuda::persistent_grid() * 4));
  TileQueue q;
  q.num_tiles = tiles;
  q.counter = counter;
  // Per-CTA response slots, owned by the launcher for the manager's lifetime.
  ts::QueueResponse* scratch = nullptr;
  ts::cuda::check(cudaMalloc(&scratch, sizeof(ts::QueueResponse) * ts::kQueueMaxStages * grid), "cudaMalloc(scratch)");
  std::shared_ptr<void> scratch_owner(scratch, [](void* p) { cudaFree(p); });
  q.scratch = scratch;
  auto wq = ts::resource("tiles", q);  // TileQueue::pipeline (tma_copy.hpp)
  auto in = ts::resource("in", TileInput{{}, static_cast<int4 const*>(src)});
  auto out = ts::resource("out", TileOutput{{}, static_cast<int4*>(dst)});
  auto sched = ts::Task("Scheduler").warps(0, 1).reads(wq).writes(wq).schedule(TileScheduler{}, wq);
  auto worker = ts::Task("TileCopy").warps(1, kTileWorkerWarps).reads(wq, in).writes(out).schedule(TileWorker{}, wq, in, out);
  auto tm = ts::TaskManager(ts::tasks(sched, worker), ts::DependencyGraph{{out, {in, wq}}}, quiet(os));
  auto m = std::make_shared<decltype(tm)>(std::move(tm));
  CudaCopyInfo info;
  info.name = "04_dynamic_tile_copy";
  info.verdict = verify(*m, os);
  m->layout();
  info.launch = [m, grid, counter, scratch_owner](cudaStream_t s) {
    ts::cuda::reset_queue(counter, s);
    ts::cuda::launch(*m, grid, s);
  };
  return info;
}

std::vector<CudaExampleResult> run_copy_examples_cuda(long long bytes, std::ostream& log) {
  std::vector<CudaExampleResult> out;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    out.push_back({"all", "-", "SKIP", "no CUDA device"});
    return out;
  }
  std::vector<unsigned char> host(bytes), back(bytes);
  std::mt19937_64 rng(42);
  for (long long i = 0; i < bytes; i += 8) {
    uint64_t v = rng();
    std::memcpy(&host[i], &v, std::min<long long>(8, bytes - i));
  }
  void *src = nullptr, *dst = nullptr;
  unsigned* counter = nullptr;
  ts::cuda::check(cudaMalloc(&src, bytes), "cudaMalloc");
  ts::cuda::check(cudaMalloc(&dst, bytes), "cudaMalloc");
  ts::cuda::check(cudaMalloc(&counter, sizeof(unsigned)), "cudaMalloc");
  ts::cuda::check(cudaMemcpy(src, host.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  std::vector<std::function<CudaCopyInfo()>> makers = {
      [&] { return make_grid_stride_copy_cuda(src, dst, bytes, &log); },
      [&] { return make_pipelined_copy_cuda(src, dst, bytes, &log); },
      [&] { return make_tma_copy_cuda(src, dst, bytes, &log); },
      [&] { return make_tma_copy_regplan_cuda(src, dst, bytes, &log); },
      [&] { return make_dynamic_tile_copy_cuda(src, dst, bytes, counter, &log); },
  };
  for (auto& make : makers) {
    CudaExampleResult r;
    try {
      CudaCopyInfo c = make();
      r.name = c.name;
      r.verdict = c.verdict;
      ts::cuda::check(cudaMemset(dst, 0, bytes), "cudaMemset");
      c.launch(nullptr);
      ts::cuda::check(cudaDeviceSynchronize(), "kernel execution");
      ts::cuda::check(cudaMemcpy(back.data(), dst, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
      long long checked = bytes;
      if (c.name == "04_dynamic_tile_copy") checked = bytes / (4 * kTileElems) * (4 * kTileElems);
      long long bad = 0;
      for (long long i = 0; i < checked; ++i) bad += host[i] != back[i];
      r.result = bad == 0 ? "PASS" : "FAIL";
      r.detail = std::to_string(bad) + " of " + std::to_string(checked) + " bytes differ";
    } catch (std::exception const& e) {
      if (r.name.empty()) r.name = "?";
      r.result = "FAIL";
      r.detail = e.what();
    }
    out.push_back(r);
  }
  cudaFree(src);
  cudaFree(dst);
  cudaFree(counter);
  return out;
}

}  // namespace examples
