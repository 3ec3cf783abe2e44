// The TS attention kernel (examples/attention) on the GPU: device tensor maps and plan,
// the verified manager, the launch. Shared by the check runner (attention_check.cu) and
// the library the Python bench loads (attention_lib.cu).
#pragma once
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "attention/attention_host.hpp"
#include "attention/attention_shared.hpp"
#include "schedule_choice.hpp"
#include "ts/runtime/cuda/global_counter_queue.cuh"
#include "ts/runtime/cuda/launch.cuh"
#include "ts/runtime/cuda/tensor_map.hpp"

namespace bench_attn {

inline void cuda_check(cudaError_t e, char const* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

struct Runner {
  virtual ~Runner() = default;
  virtual void launch(cudaStream_t st) = 0;
  int grid = 0, pairs = 0;
  int mode = 0;  // the schedule it runs (never kAuto: prepare resolves that)
};

// The schedule of mode & 7: 0 the pair schedule; 1 the shared-K/V schedule; 2 the
// shared-K/V schedule with intra-warpgroup overlap (attention_shared.hpp, OverlapSchedule).
// Mode + 8 (kDynamic): the same schedule under the dynamic global-counter scheduler (tiles
// claimed in plan order, so a causal plan goes longest first), else the static one.
// Mode -1 (kAuto): chosen per shape (schedule_choice.hpp).

template <int D, int Mode>
struct Make {
  using Scheduler = std::conditional_t<(Mode & kDynamic) != 0, ts::GlobalCounterScheduler, ts::StaticScheduler>;
  static auto make(attn::Problem const& p, Scheduler const& sched, ts::Options o) {
    if constexpr ((Mode & 7) == 2)
      return attn::shared::make_attention_shared<D, attn::shared::Variant::kCorrect, true>(p, sched, o);
    else if constexpr ((Mode & 7) == 1)
      return attn::shared::make_attention_shared<D>(p, sched, o);
    else
      return attn::make_attention<D>(p, sched, o);
  }
};

template <int D, int Mode>
struct RunnerD : Runner {
  static constexpr bool kDyn = (Mode & kDynamic) != 0;
  using Manager = decltype(Make<D, Mode>::make(std::declval<attn::Problem const&>(), {}, ts::Options{}));
  std::unique_ptr<Manager> tm;
  attn::QBlock* blocks = nullptr;
  int* tile_order = nullptr;  // causal: attn::plan_tile_order (Plan::tile_order)
  CUtensorMap* maps = nullptr;
  std::unique_ptr<ts::cuda::GlobalCounterQueue> queue;  // dynamic: the tile counter and staged responses
  void launch(cudaStream_t st) override {
    // Zeroed on the launch's own stream, so back-to-back launches (and launches on several
    // streams of one plan, one after the other) each start from tile 0.
    if constexpr (kDyn) queue->reset(st);
    ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>>(*tm, grid, st);
  }
  ~RunnerD() override {
    cudaFree(blocks);
    cudaFree(tile_order);
    cudaFree(maps);
  }
};

// The queue order of a causal plan: K/V sections of kSectionBytes, balanced for the static
// round-robin (attn::plan_tile_order). TS_ATTN_ORDER in the environment overrides it for
// measurements: "blocks" the plain blocks[] order with no table (longest first, the order
// before the table), "lpt" that order balanced, "sec<MB>" sections of MB MiB, balanced.
// 16 MiB: on the H100 (bench/RESULTS.md, stop 28 helper) 8, 16, 24 and 32 MiB gave 0.180,
// 0.181, 0.191, 0.201 ms at 16x16x1024x128 causal (blocks order 0.287) and 16 MiB was the
// fastest or tied at 4x16x4096, 2x16x8192 and 1x16x16384 causal.
constexpr long long kSectionBytes = 16LL << 20;
inline long long order_section_bytes(bool& table) {
  table = true;
  char const* e = std::getenv("TS_ATTN_ORDER");
  if (!e || !*e) return kSectionBytes;
  std::string const v = e;
  if (v == "blocks") table = false;
  if (v == "lpt" || v == "blocks") return 0;
  if (v.rfind("sec", 0) == 0) return std::stoll(v.substr(3)) << 20;
  throw std::invalid_argument("TS_ATTN_ORDER must be blocks, lpt or sec<MB>, got " + v);
}

// How O leaves every kernel: through the Q stage and TMA stores (the default), or, with
// TS_ATTN_STORE=regs in the environment, straight from the registers (the path before
// stop 30, kept to measure the two side by side; attention_device.cuh, attn::step::store).
inline bool o_through_tma() {
  char const* e = std::getenv("TS_ATTN_STORE");
  if (!e || !*e) return true;
  std::string const v = e;
  if (v == "tma") return true;
  if (v == "regs") return false;
  throw std::invalid_argument("TS_ATTN_STORE must be tma or regs, got " + v);
}

// q, k, v, o: device bf16, packed [tokens][heads][D]; lse: device fp32 [hq][tokens].
// Mode: see Make.
template <int D, int Mode>
std::unique_ptr<Runner> prepare_d(attn::Shape const& s, void const* q, void const* k, void const* v, void* o, float* lse,
                                  int sms, bool verbose) {
  using Dm = attn::Dims<D>;
  constexpr bool Shared = (Mode & 7) != 0;
  int const block_m = Shared ? attn::shared::kRows : Dm::kBlockM;
  auto r = std::make_unique<RunnerD<D, Mode>>();
  auto host_blocks = attn::plan_blocks<D>(s, block_m);
  int const tokens = s.cu_seqlens.back();
  cuda_check(cudaMalloc(&r->blocks, sizeof(attn::QBlock) * (host_blocks.size() + 1)), "cudaMalloc blocks");
  cuda_check(cudaMemcpy(r->blocks, host_blocks.data(), sizeof(attn::QBlock) * host_blocks.size(), cudaMemcpyHostToDevice),
             "copy blocks");
  CUtensorMap h_maps[4] = {
      ts::cuda::make_tensor_map_2d(q, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, tokens, uint64_t(s.hq) * D, block_m, 64,
                                   CU_TENSOR_MAP_SWIZZLE_128B),
      ts::cuda::make_tensor_map_2d(k, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, tokens, uint64_t(s.hkv) * D, Dm::kBlockN, 64,
                                   CU_TENSOR_MAP_SWIZZLE_128B),
      ts::cuda::make_tensor_map_2d(v, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, tokens, uint64_t(s.hkv) * D, Dm::kBlockN, 64,
                                   CU_TENSOR_MAP_SWIZZLE_128B),
      // O in one warp group's 64-row boxes (GmemO::map_o: staged in the Q stage, stored by TMA).
      ts::cuda::make_tensor_map_2d(o, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, tokens, uint64_t(s.hq) * D, 64, 64,
                                   CU_TENSOR_MAP_SWIZZLE_128B)};
  cuda_check(cudaMalloc(&r->maps, sizeof h_maps), "cudaMalloc maps");
  cuda_check(cudaMemcpy(r->maps, h_maps, sizeof h_maps, cudaMemcpyHostToDevice), "copy maps");
  attn::Problem p;
  p.plan.blocks = r->blocks;
  p.plan.num_blocks = int(host_blocks.size());
  p.plan.hq = s.hq;
  p.plan.hkv = s.hkv;
  p.plan.head_pairs = (s.hq + 1) / 2;
  p.plan.total_tokens = tokens;
  p.plan.causal = s.causal;
  p.plan.scale_log2 = float(1.4426950408889634 / std::sqrt(double(D)));
  p.plan.shared = Shared;
  p.map_q = r->maps;
  p.map_k = r->maps + 1;
  p.map_v = r->maps + 2;
  // Every schedule stages O in its Q stage and stores it by TMA unless TS_ATTN_STORE=regs.
  p.map_o = o_through_tma() ? r->maps + 3 : nullptr;
  p.o = static_cast<uint16_t*>(o);
  p.lse = lse;
  r->pairs = Shared ? p.plan.num_blocks * s.hq : p.pairs();  // work tiles
  r->grid = r->pairs < sms ? r->pairs : sms;
  bool table = false;
  long long const section = s.causal ? order_section_bytes(table) : 0;
  if (s.causal && table) {
    // The dynamic scheduler hands tiles out in index order to whichever CTA asks first, so
    // the sections' longest-first order is already its balance; dealing rounds for the
    // static round-robin would only scramble that order (grid 1: no dealing).
    int const deal = RunnerD<D, Mode>::kDyn ? 1 : r->grid;
    auto order = attn::plan_tile_order<D>(s, host_blocks, !Shared, section, deal);
    cuda_check(cudaMalloc(&r->tile_order, sizeof(int) * (order.size() + 1)), "cudaMalloc tile order");
    cuda_check(cudaMemcpy(r->tile_order, order.data(), sizeof(int) * order.size(), cudaMemcpyHostToDevice),
               "copy tile order");
    p.plan.tile_order = r->tile_order;
  }
  typename Make<D, Mode>::Scheduler sched{};
  if constexpr (RunnerD<D, Mode>::kDyn) {
    r->queue = std::make_unique<ts::cuda::GlobalCounterQueue>(r->grid);
    sched = r->queue->scheduler();
  }
  r->tm = std::make_unique<typename RunnerD<D, Mode>::Manager>(
      Make<D, Mode>::make(p, sched, ts::Options{.verbose = verbose, .exhaustive_check = true}));
  auto rep = r->tm->print_and_verify();
  if (rep.verdict != ts::Verdict::SafeAllK) throw std::runtime_error("attention schedule not proved: " + ts::to_string(rep.verdict));
  return r;
}

// One concrete mode (valid, not kAuto).
inline std::unique_ptr<Runner> prepare_mode(attn::Shape const& s, void const* q, void const* k, void const* v, void* o,
                                            float* lse, int sms, bool verbose, int mode) {
  bool const dyn = (mode & kDynamic) != 0;
  switch (s.head_dim * 4 + (mode & 7)) {
    case 256: return dyn ? prepare_d<64, 8>(s, q, k, v, o, lse, sms, verbose) : prepare_d<64, 0>(s, q, k, v, o, lse, sms, verbose);
    case 257: return dyn ? prepare_d<64, 9>(s, q, k, v, o, lse, sms, verbose) : prepare_d<64, 1>(s, q, k, v, o, lse, sms, verbose);
    case 258: return dyn ? prepare_d<64, 10>(s, q, k, v, o, lse, sms, verbose) : prepare_d<64, 2>(s, q, k, v, o, lse, sms, verbose);
    case 512: return dyn ? prepare_d<128, 8>(s, q, k, v, o, lse, sms, verbose) : prepare_d<128, 0>(s, q, k, v, o, lse, sms, verbose);
    case 513: return dyn ? prepare_d<128, 9>(s, q, k, v, o, lse, sms, verbose) : prepare_d<128, 1>(s, q, k, v, o, lse, sms, verbose);
    case 514: return dyn ? prepare_d<128, 10>(s, q, k, v, o, lse, sms, verbose) : prepare_d<128, 2>(s, q, k, v, o, lse, sms, verbose);
    case 1024: return dyn ? prepare_d<256, 8>(s, q, k, v, o, lse, sms, verbose) : prepare_d<256, 0>(s, q, k, v, o, lse, sms, verbose);
    case 1025: return dyn ? prepare_d<256, 9>(s, q, k, v, o, lse, sms, verbose) : prepare_d<256, 1>(s, q, k, v, o, lse, sms, verbose);
    default: return dyn ? prepare_d<256, 10>(s, q, k, v, o, lse, sms, verbose) : prepare_d<256, 2>(s, q, k, v, o, lse, sms, verbose);
  }
}

inline std::unique_ptr<Runner> prepare(attn::Shape const& s, void const* q, void const* k, void const* v, void* o,
                                       float* lse, int sms, bool verbose = false, int mode = 0) {
  attn::validate(s);
  if (!valid_mode(mode))
    throw std::invalid_argument("attention: mode must be 0 (pair), 1 (shared) or 2 (overlap), + 8 for the dynamic "
                                "scheduler (8, 9, 10), or -1 (chosen per shape); got " + std::to_string(mode));
  mode = resolve_mode(mode, s.head_dim, s.causal);
  auto r = prepare_mode(s, q, k, v, o, lse, sms, verbose, mode);
  r->mode = mode;
  return r;
}

inline int sm_count() {
  int dev = 0, sms = 0;
  cuda_check(cudaGetDevice(&dev), "cudaGetDevice");
  cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "SM count");
  return sms;
}

}  // namespace bench_attn
