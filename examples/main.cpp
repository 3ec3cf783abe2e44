// The main job: every example is declared, captured, printed and verified, then run
// on the CPU emulator under 8 interleaving seeds and checked against a host reference.
// One summary line per example, in the fixed form scripts read:
//   example <name> backend=<cpu|cuda|none> verdict=<...> result=<PASS|FAIL|NOT_RUN>
#include <iostream>
#include <string>
#include <vector>

#include "attention/attention_host.hpp"
#include "attention/attention_shared.hpp"
#include "copy/copy_examples.hpp"
#include "copy/copy_pdl.hpp"
#include "gemm/blackwell_gemm.hpp"
#include "gemm/gemm_host.hpp"
#include "gemm/gemm_manager.hpp"
#include "groups/group_examples.hpp"
#include "patterns/patterns.hpp"
#include "ts/runtime/cpu/run.hpp"

namespace {

constexpr int kSeeds = 8;
constexpr long long kElems = 4096 + 17;

struct Summary {
  std::string name, backend = "cpu", verdict = "UNCHECKED", result = "NOT_RUN";
};

// run_one(seed, verdict, first) builds, verifies and runs the example once; true = matches.
template <class RunOne>
Summary run_example(std::string const& name, RunOne run_one) {
  Summary s;
  s.name = name;
  std::cout << "==== example " << name << " ====\n";
  bool pass = true;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    try {
      bool ok = run_one(uint64_t(seed), s.verdict, seed == 1);
      if (!ok) std::cout << "  seed " << seed << ": result differs from the host reference\n";
      pass &= ok;
    } catch (ts::VerificationError const& e) {
      std::cout << e.what() << "\n";
      s.verdict = "UNSAFE";
      pass = false;
      break;
    } catch (std::exception const& e) {
      std::cout << "  seed " << seed << ": " << e.what() << "\n";
      pass = false;
    }
  }
  std::cout << "  ran on the CPU emulator under seeds 1.." << kSeeds << "\n";
  s.result = pass ? "PASS" : "FAIL";
  return s;
}

ts::Options printing(bool first) {
  ts::Options o;
  o.verbose = first;  // print the schedule tables once per example
  return o;
}

template <class TM>
void verify(TM& tm, std::string& verdict) {
  auto rep = tm.print_and_verify(std::cout);
  verdict = ts::to_string(rep.verdict);
}

// The GEMM examples (14, 15): one shape per seed, partial tiles on odd seeds, whole
// tiles on even ones; the static and the CLC-scheduled variant each run once.
gemm::HostGemm gemm_inputs(uint64_t seed) {
  return seed % 2 ? gemm::HostGemm(200, 300, 136, seed) : gemm::HostGemm(256, 512, 128, seed);
}
gemm::Problem gemm_problem(gemm::HostGemm& h) { return {h.M, h.N, h.K, &h.map_a, &h.map_b, h.d.data(), nullptr}; }

// Runs make_static and make_clc on fresh D; true when both match the reference and
// the CLC run covered every tile exactly once.
template <class MakeStatic, class MakeClc>
bool run_gemm_pair(uint64_t seed, std::string& verdict, bool first, MakeStatic make_static, MakeClc make_clc) {
  auto h = gemm_inputs(seed);
  auto st = make_static(gemm_problem(h), printing(first));
  std::string v1, v2;
  verify(st, v1);
  int grid = 1 + int(seed % 3);
  ts::cpu::run(st, {.grid_blocks = grid, .resident_blocks = grid, .seed = seed, .detect_races = seed <= 2});
  std::string err = h.check();
  h.clear_d();
  auto dyn = make_clc(gemm_problem(h), printing(first));
  verify(dyn, v2);
  auto stats = ts::cpu::run(dyn, {.grid_blocks = h.tiles(), .resident_blocks = grid, .seed = seed});
  err += h.check();
  verdict = v1 == v2 ? v1 : v1 + "+" + v2;
  if (!err.empty()) std::cout << err;
  return err.empty() && stats.ctas_started + stats.ctas_canceled == h.tiles();
}

// The attention example (17): odd seeds the pair schedule on a causal varlen batch with
// GQA at head dim 64, even seeds the shared-K/V schedule on two non-causal sequences at
// head dim 128 (docs/attention.md).
template <int D, bool kShared>
bool run_attention(attn::Shape shape, uint64_t seed, std::string& verdict, bool first) {
  attn::HostAttention<D> h(std::move(shape), seed, kShared);
  auto make = [&] {
    if constexpr (kShared)
      return attn::shared::make_attention_shared<D>(h.problem(), printing(first));
    else
      return attn::make_attention<D>(h.problem(), printing(first));
  };
  auto tm = make();
  verify(tm, verdict);
  int grid = 1 + int(seed % 3);
  ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = grid, .seed = seed, .detect_races = seed <= 2});
  std::string err = h.check();
  if (!err.empty()) std::cout << err;
  return err.empty();
}

}  // namespace

int main() {
  Summary all[] = {
      run_example("01_grid_stride_copy",
                  [](uint64_t seed, std::string& verdict, bool first) {
                    examples::CopyBuffers b(kElems);
                    auto tm = examples::make_grid_stride_copy(b, printing(first));
                    verify(tm, verdict);
                    ts::cpu::run(tm, {.grid_blocks = 4, .resident_blocks = 2, .seed = seed});
                    return b.matches();
                  }),
      run_example("02_pipelined_copy",
                  [](uint64_t seed, std::string& verdict, bool first) {
                    examples::CopyBuffers b(kElems);
                    auto tm = examples::make_pipelined_copy(b, printing(first));
                    verify(tm, verdict);
                    ts::cpu::run(tm, {.grid_blocks = 4, .resident_blocks = 2, .seed = seed, .detect_races = true});
                    return b.matches();
                  }),
      run_example("03_static_persistent_copy",
                  [](uint64_t seed, std::string& verdict, bool first) {
                    examples::TiledBuffers b(kElems);
                    int grid = 4;  // 33 tiles padded to 36: the last 3 are over-launch, skipped
                    auto tm = examples::make_static_persistent_copy(b, grid, printing(first));
                    verify(tm, verdict);
                    ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = grid, .seed = seed});
                    return b.matches() && b.exactly_once();
                  }),
      run_example("04_varlen_copy",
                  [](uint64_t seed, std::string& verdict, bool first) {
                    examples::VarlenBuffers b(kElems);
                    auto tm = examples::make_varlen_copy(b, printing(first));
                    verify(tm, verdict);
                    ts::cpu::run(tm, {.grid_blocks = 3, .resident_blocks = 3, .seed = seed, .detect_races = true});
                    return b.matches();
                  }),
      run_example("05_dynamic_persistent_copy",
                  [](uint64_t seed, std::string& verdict, bool first) {
                    examples::TiledBuffers b(kElems);
                    auto tm = examples::make_dynamic_copy(b, printing(first));
                    verify(tm, verdict);
                    auto st = ts::cpu::run(tm, {.grid_blocks = b.real_tiles, .resident_blocks = 3, .seed = seed});
                    if (first)
                      std::cout << "  CLC: " << st.ctas_started << " CTAs started, " << st.ctas_canceled
                                << " tiles stolen from pending CTAs\n";
                    return b.matches() && b.exactly_once() && st.ctas_started + st.ctas_canceled == b.real_tiles;
                  }),
      run_example("06_pdl_chain",
                  [](uint64_t seed, std::string& verdict, bool first) {
                    examples::PdlBuffers b(kElems);
                    auto primary = examples::make_pdl_primary(b, printing(first));
                    auto secondary = examples::make_pdl_secondary(b, printing(first));
                    std::string v1, v2;
                    verify(primary, v1);
                    verify(secondary, v2);
                    verdict = v1 == v2 ? v1 : v1 + "+" + v2;
                    ts::cpu::run_chain(primary, secondary, {.grid_blocks = 3, .resident_blocks = 4, .seed = seed});
                    return b.matches();
                  }),
      run_example("07_pingpong_transform",
                  [](uint64_t seed, std::string& verdict, bool first) {
                    examples::patterns::PatternBuffers b(kElems);
                    auto tm = examples::patterns::make_pingpong_transform(b, printing(first));
                    verify(tm, verdict);
                    ts::cpu::run(tm, {.grid_blocks = 3, .resident_blocks = 2, .seed = seed, .detect_races = true});
                    return b.matches();
                  }),
      run_example("08_split_consumer",
                  [](uint64_t seed, std::string& verdict, bool first) {
                    examples::patterns::PatternBuffers b(kElems);
                    auto tm = examples::patterns::make_split_consumer(b, printing(first));
                    verify(tm, verdict);
                    ts::cpu::run(tm, {.grid_blocks = 3, .resident_blocks = 2, .seed = seed, .detect_races = true});
                    return b.matches();
                  }),
      run_example("09_aliased_staging",
                  [](uint64_t seed, std::string& verdict, bool first) {
                    namespace p = examples::patterns;
                    p::PatternBuffers b(kElems, p::staging_out_elems(kElems));
                    auto tm = p::make_aliased_staging(b, printing(first));
                    verify(tm, verdict);
                    ts::cpu::run(tm, {.grid_blocks = p::staging_tiles(kElems), .resident_blocks = 3, .seed = seed,
                                      .detect_races = true});
                    return b.matches();
                  }),
      run_example("10_domain_lane_consumer",
                  [](uint64_t seed, std::string& verdict, bool first) {
                    namespace p = examples::patterns;
                    p::PatternBuffers b(kElems);
                    auto tm = p::make_domain_lane_consumer(b, printing(first));
                    verify(tm, verdict);
                    ts::cpu::run(tm, {.grid_blocks = p::lane_tiles(kElems), .resident_blocks = 3, .seed = seed,
                                      .detect_races = true});
                    return b.matches();
                  }),
      // Pipeline groups (SPEC S10): shared barriers, collapsed ops through ts::group.
      run_example("11_merge_sum",
                  [](uint64_t seed, std::string& verdict, bool first) {
                    examples::GroupBuffers b(kElems);
                    auto tm = examples::make_merge_sum(b, printing(first));
                    verify(tm, verdict);
                    ts::cpu::run(tm, {.grid_blocks = 3, .resident_blocks = 2, .seed = seed, .detect_races = true});
                    return b.sum_matches();
                  }),
      run_example("12_fork_copy",
                  [](uint64_t seed, std::string& verdict, bool first) {
                    examples::GroupBuffers b(kElems);
                    auto tm = examples::make_fork_copy(b, printing(first));
                    verify(tm, verdict);
                    ts::cpu::run(tm, {.grid_blocks = 3, .resident_blocks = 2, .seed = seed, .detect_races = true});
                    return b.fork_matches();
                  }),
      run_example("13_fused_merge_sum",
                  [](uint64_t seed, std::string& verdict, bool first) {
                    examples::GroupBuffers b(kElems);
                    auto tm = examples::make_fused_merge_sum(b, printing(first));
                    verify(tm, verdict);
                    ts::cpu::run(tm, {.grid_blocks = 3, .resident_blocks = 2, .seed = seed, .detect_races = true});
                    return b.sum_matches();
                  }),
      run_example("14_hopper_gemm_emulated",
                  [](uint64_t seed, std::string& verdict, bool first) {
                    // The sm_90a dynamic scheduler, run by the emulator as on the GPU: a
                    // counter (zero at launch) and grid x kQueueMaxStages staged responses;
                    // the dynamic run's grid is one CTA per tile.
                    unsigned counter = 0;
                    std::vector<ts::QueueResponse> scratch;
                    return run_gemm_pair(
                        seed, verdict, first, [](gemm::Problem const& p, ts::Options o) { return gemm::make_gemm(p, o); },
                        [&](gemm::Problem const& p, ts::Options o) {
                          scratch.assign(size_t(p.tiles_m() * p.tiles_n()) * ts::kQueueMaxStages, ts::QueueResponse{});
                          return gemm::make_gemm(p, ts::GlobalCounterScheduler{&counter, scratch.data()}, o);
                        });
                  }),
      run_example("15_blackwell_gemm",
                  [](uint64_t seed, std::string& verdict, bool first) {
                    return run_gemm_pair(
                        seed, verdict, first,
                        [](gemm::Problem const& p, ts::Options o) { return gemm::bw::make_gemm(p, o); },
                        [](gemm::Problem const& p, ts::Options o) { return gemm::bw::make_gemm(p, ts::ClcScheduler{}, o); });
                  }),
      run_example("16_warp_lane_consumer",
                  [](uint64_t seed, std::string& verdict, bool first) {
                    namespace p = examples::patterns;
                    p::PatternBuffers b(kElems);
                    int pairs = 1 + int(seed % 4);  // the tile length is a runtime value: vary it
                    auto tm = p::make_warp_lane_consumer(b, printing(first), pairs);
                    verify(tm, verdict);
                    ts::cpu::run(tm, {.grid_blocks = p::warp_lane_tiles(kElems, pairs), .resident_blocks = 3,
                                      .seed = seed, .detect_races = true});
                    return b.matches();
                  }),
      run_example("17_attention_emulated",
                  [](uint64_t seed, std::string& verdict, bool first) {
                    if (seed % 2)
                      return run_attention<64, false>({{0, 150, 200, 328}, 4, 2, 64, true}, seed, verdict, first);
                    return run_attention<128, true>({{0, 128, 256}, 2, 2, 128, false}, seed, verdict, first || seed == 2);
                  }),
  };
  bool failed = false;
  for (auto const& s : all) {
    std::cout << "example " << s.name << " backend=" << s.backend << " verdict=" << s.verdict
              << " result=" << s.result << "\n";
    failed |= s.result == "FAIL";
  }
  return failed ? 1 : 0;
}
