// bench/peers: one CUTLASS 3.x/4.x sm90 bf16 GEMM configuration, built with the
// CollectiveBuilder (the way CUTLASS's own examples 48/49 build them), behind
// peers::Runner. Included only by the cutlass_<config>.cu translation units.
#pragma once
#include <cute/tensor.hpp>
#include <cutlass/cutlass.h>
#include <cutlass/epilogue/collective/collective_builder.hpp>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/gemm/device/gemm_universal_adapter.h>
#include <cutlass/gemm/kernel/gemm_universal.hpp>
#include <cutlass/kernel_hardware_info.h>
#include <cutlass/util/packed_stride.hpp>
#include <cutlass/version.h>

#include <type_traits>

#include "cutlass_peer.hpp"

#if defined(__CUDA_ARCH__) && !defined(CUTLASS_ARCH_MMA_SM90A_ENABLED)
#error "bench/peers needs sm_90a (-gencode=arch=compute_90a,code=sm_90a)"
#endif

namespace peers {

// Tile TM x TN x TK, cluster CM x CN x 1, cooperative (two math warp groups on one tile)
// or ping-pong (two math warp groups on alternate tiles). Persistent tile scheduler (the
// default for these kernel schedules); the raster swizzle is a run-time argument.
template <int TM, int TN, int TK, int CM, int CN, bool Pingpong>
struct CutlassGemm {
  using ElementA = cutlass::bfloat16_t;
  using ElementB = cutlass::bfloat16_t;
  using ElementD = cutlass::bfloat16_t;
  using ElementAcc = float;
  using LayoutA = cutlass::layout::RowMajor;     // M x K, K contiguous
  using LayoutB = cutlass::layout::ColumnMajor;  // K x N column-major = N x K row-major
  using LayoutD = cutlass::layout::RowMajor;     // M x N, N contiguous
  static constexpr int kAlign = 8;               // 16 bytes of bf16
  using TileShape = cute::Shape<cute::Int<TM>, cute::Int<TN>, cute::Int<TK>>;
  using ClusterShape = cute::Shape<cute::Int<CM>, cute::Int<CN>, cute::_1>;
  using KernelSchedule = std::conditional_t<Pingpong, cutlass::gemm::KernelTmaWarpSpecializedPingpong,
                                            cutlass::gemm::KernelTmaWarpSpecializedCooperative>;
  using EpilogueSchedule = std::conditional_t<Pingpong, cutlass::epilogue::TmaWarpSpecialized,
                                              cutlass::epilogue::TmaWarpSpecializedCooperative>;
  // C is void: D = alpha * acc, no source operand read (as cuBLAS with beta 0).
  using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
      cutlass::epilogue::collective::EpilogueTileAuto, ElementAcc, ElementAcc, void, LayoutD, kAlign, ElementD,
      LayoutD, kAlign, EpilogueSchedule>::CollectiveOp;
  using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, ElementA, LayoutA, kAlign, ElementB, LayoutB, kAlign,
      ElementAcc, TileShape, ClusterShape,
      cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(
          sizeof(typename CollectiveEpilogue::SharedStorage))>,
      KernelSchedule>::CollectiveOp;
  using GemmKernel =
      cutlass::gemm::kernel::GemmUniversal<cute::Shape<int, int, int, int>, CollectiveMainloop, CollectiveEpilogue>;
  using Gemm = cutlass::gemm::device::GemmUniversalAdapter<GemmKernel>;
};

template <class G>
class CutlassRunner final : public Runner {
  using Gemm = typename G::Gemm;
  Gemm gemm_;
  void* workspace_ = nullptr;
  bool ok_ = false;
  std::string why_;

 public:
  CutlassRunner(GemmArgs const& a, int swizzle) {
    using StrideA = typename Gemm::GemmKernel::StrideA;
    using StrideB = typename Gemm::GemmKernel::StrideB;
    using StrideC = typename Gemm::GemmKernel::StrideC;
    using StrideD = typename Gemm::GemmKernel::StrideD;
    auto sa = cutlass::make_cute_packed_stride(StrideA{}, cute::make_shape(a.m, a.k, 1));
    auto sb = cutlass::make_cute_packed_stride(StrideB{}, cute::make_shape(a.n, a.k, 1));
    auto sc = cutlass::make_cute_packed_stride(StrideC{}, cute::make_shape(a.m, a.n, 1));
    auto sd = cutlass::make_cute_packed_stride(StrideD{}, cute::make_shape(a.m, a.n, 1));
    cutlass::KernelHardwareInfo hw;
    hw.device_id = 0;
    hw.sm_count = a.sms;
    typename Gemm::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm,
                                  {a.m, a.n, a.k, 1},
                                  {static_cast<typename G::ElementA const*>(a.a), sa,
                                   static_cast<typename G::ElementB const*>(a.b), sb},
                                  {{1.f, 0.f}, nullptr, sc, static_cast<typename G::ElementD*>(a.d), sd},
                                  hw};
    args.scheduler.max_swizzle_size = swizzle;
    cutlass::Status st = gemm_.can_implement(args);
    if (st != cutlass::Status::kSuccess) {
      why_ = std::string("can_implement: ") + cutlass::cutlassGetStatusString(st);
      return;
    }
    size_t ws = Gemm::get_workspace_size(args);
    if (ws > 0 && cudaMalloc(&workspace_, ws) != cudaSuccess) {
      why_ = "workspace allocation failed";
      workspace_ = nullptr;
      return;
    }
    st = gemm_.initialize(args, workspace_);
    if (st != cutlass::Status::kSuccess) {
      why_ = std::string("initialize: ") + cutlass::cutlassGetStatusString(st);
      return;
    }
    ok_ = true;
  }
  ~CutlassRunner() override {
    if (workspace_) cudaFree(workspace_);
  }
  bool ok() const override { return ok_; }
  std::string const& why() const override { return why_; }
  void run(cudaStream_t stream) override { gemm_.run(stream); }
};

template <class G>
std::unique_ptr<Runner> make_runner(GemmArgs const& a, int swizzle) {
  return std::make_unique<CutlassRunner<G>>(a, swizzle);
}

}  // namespace peers
