// ts_pictures <out-dir>: writes the dependency graph (DOT, Mermaid) and the schedule
// picture (self-contained HTML) of every example into out-dir.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "copy/copy_examples.hpp"
#include "gemm/blackwell_gemm.hpp"
#include "gemm/gemm_manager.hpp"
#include "ts/print/pictures.hpp"
#include "ts/runtime/cpu/run.hpp"

namespace {
template <class TM>
void write_all(std::filesystem::path const& dir, std::string const& name, TM const& tm) {
  std::ofstream(dir / (name + ".dot")) << ts::print::dependency_dot(tm.model(), name);
  std::ofstream(dir / (name + ".mmd")) << ts::print::dependency_mermaid(tm.model());
  std::ofstream(dir / (name + ".html")) << ts::print::schedule_html(tm.model(), "TS schedule: " + name);
  std::cout << "wrote " << (dir / name).string() << ".{dot,mmd,html}\n";
}
// A buggy consumer for the counterexample picture: it releases only every other stage,
// so the producer runs out of free stages and the kernel would hang.
struct ForgetfulConsumer {
  template <class S, class Ring, class Out>
  TS_HD void operator()(S& s, Ring& ring, Out& out) const {
    // The same bound as RingProducer's (in->chunks()), so the checker can prove the two
    // loops equally long and the picture shows the forgotten release, not a length mismatch.
    s.domain_loop(s.block_idx(), (out->n + examples::kChunk - 1) / examples::kChunk, s.grid_blocks(), [&] {
      ring.wait();
      auto v = ts::work<&examples::SmemRing::take>(ring);
      ts::work<&examples::ChunkOutput::store>(out, v);
      s.every(2, [&] { ring.release(); });
    });
  }
};

auto make_forgetful_copy(examples::CopyBuffers& b, ts::Options o) {
  long long n = static_cast<long long>(b.src.size());
  auto in = ts::resource("in", examples::ChunkInput{{}, b.src.data(), n});
  auto out = ts::resource("out", examples::ChunkOutput{{}, b.dst.data(), n});
  auto ring = ts::resource("ring", examples::SmemRing{},
                           ts::PipelineConfig::async_async({.num_stages = 2,
                                                            .producer_group = {ts::Agent::Thread, 32},
                                                            .consumer_group = {ts::Agent::Thread, 32}}));
  auto producer =
      ts::Task("Producer").warps(0, 1).reads(in).writes(ring).schedule(examples::RingProducer{}, in, ring);
  auto consumer = ts::Task("Consumer").warps(1, 1).reads(ring).writes(out).schedule(ForgetfulConsumer{}, ring, out);
  return ts::TaskManager(ts::tasks(producer, consumer), ts::DependencyGraph{{ring, {in}}, {out, {ring}}}, o);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: ts_pictures <out-dir>\n";
    return 2;
  }
  std::filesystem::path dir(argv[1]);
  std::filesystem::create_directories(dir);
  ts::Options quiet{.verbose = false, .exhaustive_check = false};
  examples::CopyBuffers b(1000);
  write_all(dir, "01_grid_stride_copy", examples::make_grid_stride_copy(b, quiet));
  write_all(dir, "02_pipelined_copy", examples::make_pipelined_copy(b, quiet));
  write_all(dir, "gemm", gemm::make_gemm(gemm::Problem{4096, 4096, 4096}, quiet));
  write_all(dir, "gemm_dynamic", gemm::make_gemm(gemm::Problem{4096, 4096, 4096}, ts::GlobalCounterScheduler{}, quiet));
  // Four tasks (load, MMA, scheduler, epilogue): arrows cross lanes.
  write_all(dir, "blackwell_gemm_clc", gemm::bw::make_gemm(gemm::Problem{4096, 4096, 4096}, ts::ClcScheduler{}, quiet));
  // A traced emulator run of the pipelined copy: Chrome trace JSON and the HTML timeline.
  {
    examples::CopyBuffers tb(32 * 24);
    auto tm = examples::make_pipelined_copy(tb, ts::Options{.verbose = false});
    tm.print_and_verify();
    ts::cpu::RunOptions o;
    o.grid_blocks = 2;
    o.seed = 5;
    o.trace = true;
    auto st = ts::cpu::run(tm, o);
    std::ofstream(dir / "trace_pipelined_copy.json") << ts::print::trace_chrome_json(tm.model(), st.steps);
    std::ofstream(dir / "trace_pipelined_copy.html")
        << ts::print::trace_html(tm.model(), st.steps, "Emulator trace: pipelined copy, 2 CTAs, seed 5");
    std::cout << "wrote " << (dir / "trace_pipelined_copy").string() << ".{json,html}\n";
  }
  // The checker's counterexample of a buggy variant, as a picture.
  ts::Options checked{.verbose = false, .throw_on_unsafe = false};  // the verdict, not an exception
  auto buggy = make_forgetful_copy(b, checked);
  std::ostringstream sink;
  auto rep = buggy.print_and_verify(sink);
  if (rep.verdict != ts::Verdict::Unsafe || !buggy.last_counterexample()) {
    std::cerr << "ts_pictures: the buggy copy was expected to be UNSAFE\n";
    return 1;
  }
  std::ofstream(dir / "counterexample_forgetful_copy.html")
      << ts::print::counterexample_html(buggy.model(), *buggy.last_counterexample(),
                                        "Checker counterexample: a consumer that releases every other stage");
  std::cout << "wrote " << (dir / "counterexample_forgetful_copy.html").string() << "\n";
  return 0;
}
