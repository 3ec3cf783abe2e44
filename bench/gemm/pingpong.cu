// bench/gemm ping-pong: the TS GEMM shapes (cooperative 128 x 256 tiles; ping-pong
// 128 x 128 tiles per math warp group on one shared 6-stage ring, and 64 x 256 tiles on a
// 5-stage ring, each also on clusters of two CTAs with B multicast) against cuBLAS, side by side in one
// process on fresh random inputs per shape (events, warm-up, medians), the ping-pong one also
// under the dynamic scheduler (`bench gemm_pingpong_dynamic`, ratio against static); every
// result is checked against cuBLAS. Prints which shape is faster per problem and which
// gemm::choose_shape picks: the data behind docs/gemm.md, "Choosing the shape".
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "gemm_common.cuh"
#include "ts_gemm.cuh"
#include "ts_gemm_pingpong.cuh"
#include "gemm/gemm_shape_choice.hpp"

int main(int argc, char** argv) {
  auto shapes = bench::gemm_shapes(argc, argv);
  cudaDeviceProp prop;
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  cublasHandle_t h;
  BENCH_CUBLAS(cublasCreate(&h));
  uint64_t seed = 0x5678;
  bool first = true;
  for (auto s : shapes) {
    if (s.n % 8) continue;  // both shapes' epilogues store D through TMA here
    bench::GemmOperands ops(s, seed);
    __nv_bfloat16 *a = ops.a, *b = ops.b, *d = ops.d, *ref = ops.ref;
    size_t nd = ops.nd;
    CUtensorMap host_maps[6] = {bench::tensor_map_bf16(a, s.m, s.k, gemm::kTileM, gemm::kTileK, true),
                                bench::tensor_map_bf16(b, s.n, s.k, gemm::kTileN, gemm::kTileK, true),
                                bench::tensor_map_bf16(d, s.m, s.n, 64, 64, true),
                                bench::tensor_map_bf16(b, s.n, s.k, gemm::pingpong::kTileN, gemm::kTileK, true),
                                bench::tensor_map_bf16(a, s.m, s.k, 64, gemm::kTileK, true),
                                bench::tensor_map_bf16(b, s.n, s.k, 64, gemm::kTileK, true)};
    CUtensorMap* maps;
    BENCH_CHECK(cudaMalloc(&maps, sizeof host_maps));
    BENCH_CHECK(cudaMemcpy(maps, host_maps, sizeof host_maps, cudaMemcpyHostToDevice));
    gemm::Problem prob{s.m, s.n, s.k, maps, maps + 1, reinterpret_cast<uint16_t*>(d), maps + 2};
    auto coop = bench::prepare_ts_gemm(prob, prop.multiProcessorCount, false);
    auto pp = bench::prepare_ts_gemm_pingpong(prob, maps + 3, prop.multiProcessorCount, first);
    auto pp_dyn = bench::prepare_ts_gemm_pingpong_dynamic(prob, maps + 3, prop.multiProcessorCount, first);
    auto pp64 = bench::prepare_ts_gemm_pingpong_64x256(prob, maps + 4, prop.multiProcessorCount, first);
    // Clusters of two with B multicast: 128 x 128 (B halves of 64 rows) and 64 x 256 (128 rows).
    auto ppmc = bench::prepare_ts_gemm_pingpong_multicast<gemm::pingpong::Tile128x128>(prob, {maps, maps + 3, maps + 5},
                                                                                       first);
    auto pp64mc = bench::prepare_ts_gemm_pingpong_multicast<gemm::pingpong::Tile64x256>(
        prob, {maps + 4, maps + 1, maps + 3}, first);
    first = false;
    bench::cublas_gemm(h, a, b, ref, s.m, s.n, s.k);
    // One launch over a poisoned D, its error against cuBLAS.
    auto checked = [&](auto&& launch) {
      bench::poison_bf16<<<1024, 256>>>(d, nd);
      launch();
      BENCH_CHECK(cudaGetLastError());
      BENCH_CHECK(cudaDeviceSynchronize());
      return bench::relative_error(d, ref, nd);
    };
    double const err_pp = checked([&] { pp.launch(); });
    double const err_coop = checked([&] { coop.launch(); });
    double const err_dyn = checked([&] { pp_dyn->launch(); });
    double const err_64 = checked([&] { pp64.launch(); });
    double const err_mc = checked([&] { ppmc.launch(); });
    double const err_64mc = checked([&] { pp64mc.launch(); });
    auto [ms_ref, ms_coop, ms_pp, ms_dyn, ms_64, ms_mc, ms_64mc] = bench::interleaved_median_ms(
        5, 20, [&] { bench::cublas_gemm(h, a, b, ref, s.m, s.n, s.k); }, [&] { coop.launch(); }, [&] { pp.launch(); },
        [&] { pp_dyn->launch(); }, [&] { pp64.launch(); }, [&] { ppmc.launch(); }, [&] { pp64mc.launch(); });
    BENCH_CHECK(cudaGetLastError());
    double flop = 2.0 * s.m * s.n * s.k;
    double tf_ref = flop / ms_ref / 1e9, tf_coop = flop / ms_coop / 1e9, tf_pp = flop / ms_pp / 1e9;
    double tf_dyn = flop / ms_dyn / 1e9, tf_64 = flop / ms_64 / 1e9, tf_mc = flop / ms_mc / 1e9,
           tf_64mc = flop / ms_64mc / 1e9;
    std::printf("bench gemm_pingpong size=%dx%dx%d ts=%.1f ref=%.1f ref_name=cublas unit=TFLOP/s ratio=%.3f\n", s.m,
                s.n, s.k, tf_pp, tf_ref, tf_pp / tf_ref);
    std::printf("bench gemm_cooperative size=%dx%dx%d ts=%.1f ref=%.1f ref_name=cublas unit=TFLOP/s ratio=%.3f\n",
                s.m, s.n, s.k, tf_coop, tf_ref, tf_coop / tf_ref);
    std::printf("bench gemm_pingpong_dynamic size=%dx%dx%d ts=%.1f ref=%.1f ref_name=static unit=TFLOP/s ratio=%.3f\n",
                s.m, s.n, s.k, tf_dyn, tf_pp, tf_dyn / tf_pp);
    std::printf("bench gemm_pingpong_64x256 size=%dx%dx%d ts=%.1f ref=%.1f ref_name=cublas unit=TFLOP/s ratio=%.3f\n",
                s.m, s.n, s.k, tf_64, tf_ref, tf_64 / tf_ref);
    std::printf("bench gemm_pingpong_multicast size=%dx%dx%d ts=%.1f ref=%.1f ref_name=cublas unit=TFLOP/s ratio=%.3f "
                "grid=%d\n",
                s.m, s.n, s.k, tf_mc, tf_ref, tf_mc / tf_ref, ppmc.grid);
    std::printf("bench gemm_pingpong_64x256_multicast size=%dx%dx%d ts=%.1f ref=%.1f ref_name=cublas unit=TFLOP/s "
                "ratio=%.3f grid=%d\n",
                s.m, s.n, s.k, tf_64mc, tf_ref, tf_64mc / tf_ref, pp64mc.grid);
    struct Candidate {
      char const* name;
      double tflops;
    } const shapes[] = {{"cooperative", tf_coop}, {"pingpong", tf_pp},          {"pingpong_64x256", tf_64},
                        {"pingpong_multicast", tf_mc}, {"pingpong_64x256_multicast", tf_64mc}};
    Candidate const* faster = &shapes[0];
    for (auto const& c : shapes)
      if (c.tflops > faster->tflops) faster = &c;
    std::printf("shape gemm size=%dx%dx%d faster=%s pingpong_over_cooperative=%.3f pingpong_64x256_over_cooperative=%.3f "
                "pingpong_multicast_over_cooperative=%.3f pingpong_64x256_multicast_over_cooperative=%.3f heuristic=%s\n",
                s.m, s.n, s.k, faster->name, tf_pp / tf_coop, tf_64 / tf_coop, tf_mc / tf_coop, tf_64mc / tf_coop,
                gemm::to_string(gemm::choose_shape(prob, prop.multiProcessorCount)));
    bool const ok =
        err_pp < 1e-2 && err_dyn < 1e-2 && err_coop < 1e-2 && err_64 < 1e-2 && err_mc < 1e-2 && err_64mc < 1e-2;
    std::printf("check gemm_pingpong size=%dx%dx%d err_vs_cublas=%.2e err_dynamic_vs_cublas=%.2e "
                "err_cooperative_vs_cublas=%.2e err_64x256_vs_cublas=%.2e err_multicast_vs_cublas=%.2e "
                "err_64x256_multicast_vs_cublas=%.2e %s\n",
                s.m, s.n, s.k, err_pp, err_dyn, err_coop, err_64, err_mc, err_64mc, ok ? "OK" : "MISMATCH");
    BENCH_CHECK(cudaFree(maps));
  }
  BENCH_CUBLAS(cublasDestroy(h));
  return 0;
}
