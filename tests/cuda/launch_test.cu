// ts::cuda::launch: the host-side refusals run everywhere (they fail before any CUDA
// call); the GPU runs of the copy examples skip with a message where no GPU exists.
#include <gtest/gtest.h>

#include <sstream>

#include "copy/copy_cuda.cuh"
#include "copy/copy_resources.hpp"
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
