// ts::cuda::launch: the host-side refusals run everywhere (they fail before any CUDA
// call); the GPU runs of the copy examples skip with a message where no GPU exists.
#include <gtest/gtest.h>

#include <sstream>

#include "copy/copy_cuda.cuh"
#include "copy/copy_resources.hpp"
#include "groups/group_examples.hpp"
#include "ts/runtime/cuda/launch.cuh"
#include "ts/ts.hpp"

namespace {

auto make_copy(int registers) {
  auto in = ts::resource("in", examples::InputGmem{{}, nullptr, 1024});
  auto out = ts::resource("out", examples::OutputGmem{{}, nullptr, 1024});
  auto t = ts::Task("CopyTask").warps(0, 4).reads(in).writes(out);
  if (registers) t.registers(registers);
  ts::Options o;
  o.verbose = false;
  return ts::TaskManager(ts::tasks(t.schedule(examples::GridStrideCopy{}, in, out)),
                         ts::DependencyGraph{{out, {in}}}, o);
}

std::string launch_error(auto&& f) {
  try {
    f();
  } catch (ts::cuda::LaunchError const& e) {
    return e.what();
  }
  return "";
}

TEST(CudaLaunch, RefusesUnverifiedManager) {
  auto tm = make_copy(0);
  std::string msg = launch_error([&] { ts::cuda::launch(tm, 1); });
  EXPECT_NE(msg.find("not verified"), std::string::npos) << msg;
  EXPECT_NE(msg.find("print_and_verify"), std::string::npos) << msg;
}

TEST(CudaLaunch, RegistersNeedAPlanAndNameIt) {
  auto tm = make_copy(200);
  std::ostringstream sink;
  tm.print_and_verify(sink);
  std::string msg = launch_error([&] { ts::cuda::launch(tm, 1); });
  EXPECT_NE(msg.find("ts::cuda::RegisterPlan<128, 200>"), std::string::npos) << msg;
}

TEST(CudaLaunch, PlanMustMatchTheTasks) {
  auto tm = make_copy(200);
  std::ostringstream sink;
  tm.print_and_verify(sink);
  std::string msg = launch_error([&] { ts::cuda::launch<ts::cuda::RegisterPlan<128, 168>>(tm, 1); });
  EXPECT_NE(msg.find("task 'CopyTask' asks for 200"), std::string::npos) << msg;
  EXPECT_NE(msg.find("gives its warp group 0 168"), std::string::npos) << msg;
}

// Example 13 with its bulk-copy rings configured at run time instead of in their type.
auto fused_merge_sum_runtime_config() {
  using namespace examples;
  auto ring_x = ts::resource("ring_x", BulkChunkRing{{}, nullptr, 4096, {}}, bulk_ring_config());
  auto ring_y = ts::resource("ring_y", BulkChunkRing{{}, nullptr, 4096, {}}, bulk_ring_config());
  ts::pipeline_group("xy", ts::GroupMode::FusedMerge, ring_x, ring_y);
  auto out = ts::resource("out", SumOutput{{}, nullptr, 4096});
  auto px = ts::Task("LoadX").warps(0, 1).writes(ring_x).schedule(BulkProducer{}, ring_x);
  auto py = ts::Task("LoadY").warps(1, 1).writes(ring_y).schedule(BulkProducer{}, ring_y);
  auto c = ts::Task("Sum").warps(2, 1).reads(ring_x, ring_y).writes(out).schedule(FusedSumConsumer{}, ring_x, ring_y,
                                                                                 out);
  ts::Options o;
  o.verbose = false;
  return ts::TaskManager(ts::tasks(px, py, c), ts::DependencyGraph{{out, {ring_x, ring_y}}}, o);
}

// A pipeline with an engine (TMA here) runs on the GPU only when its type declares it:
// the kernel converges a task before engine work only where it knows at compile time.
TEST(CudaLaunch, RefusesAnEnginePipelineGivenAtRunTime) {
  auto tm = fused_merge_sum_runtime_config();
  std::ostringstream sink;
  tm.print_and_verify(sink);  // the emulator and the checker take either form
  std::string msg = launch_error([&] { ts::cuda::launch(tm, 1); });
  EXPECT_NE(msg.find("resource 'ring_x' (task 'LoadX') has a pipeline with a TMA producer given at run time"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("static constexpr auto pipeline"), std::string::npos) << msg;
}

TEST(CudaLaunch, AcceptsTheEnginePipelineDeclaredInTheType) {
  auto tm = examples::make_fused_merge_sum(nullptr, nullptr, nullptr, 4096, [] {
    ts::Options o;
    o.verbose = false;
    return o;
  }());
  std::ostringstream sink;
  tm.print_and_verify(sink);
  // The launcher's check alone: a launch would run the kernel on null buffers on a GPU.
  std::string msg = launch_error([&] { ts::cuda::detail::check_engine_pipelines_are_static(tm, tm.layout()); });
  EXPECT_EQ(msg, "");
}

TEST(CudaLaunch, CopyExamplesOnTheGpu) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    cudaGetLastError();
    GTEST_SKIP() << "no CUDA device here: the copy examples run only on a GPU (scripts/main_job.sh or scripts/gpu_bench.sh on a GPU machine)";
  }
  std::ostringstream log;
  for (auto const& r : examples::run_copy_examples_cuda((1 << 20) + 4096, log))
    EXPECT_EQ(r.result, "PASS") << r.name << ": " << r.detail;
}

}  // namespace
