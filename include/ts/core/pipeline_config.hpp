// PipelineConfig: the synchronization contract of a pipelined resource (SPEC S3).
//
// A config is only made through the factory of its pipeline type (S3.4), e.g.
//   auto cfg = ts::PipelineConfig::tma_async({.num_stages = 4, .num_bytes = 8192});
// Each factory takes a parameter struct holding only the fields that type accepts, so
// asking a UMMA pipeline for an interleave stride it cannot have is a compile error,
// and the values a factory can check on its own (zero stages, TMA without bytes) are
// rejected there with a ts::ConfigError. Cross-task checks (arrival counts against the
// warps that really arrive) belong to the verifier.
#pragma once
#include <array>
#include <optional>
#include <string>

#include "ts/core/protocol.hpp"

namespace ts {

// `<Producer><Consumer>` pipeline types (S3.2).
enum class PipelineType { AsyncAsync, TmaAsync, TmaUmma, UmmaAsync, AsyncUmma, UmmaUmma, ClcFetchAsync };

// How plain-thread producers arrive: thread arrival after writing, or cp.async arrivals.
enum class AsyncFlavor { AsyncThread, AsyncLoad };

// Cooperative group taking part in one side of a pipeline, counted in threads
// (Agent::Thread) or warps (Agent::Warp), as CUTLASS's CooperativeGroup does.
enum class Agent { Thread, Warp };
struct CooperativeGroup {
  Agent agent = Agent::Thread;
  int size = 1;
  int threads() const { return agent == Agent::Warp ? size * 32 : size; }
  friend bool operator==(CooperativeGroup const&, CooperativeGroup const&) = default;
};

// Cluster shape (V, M, N, K) as in cute's cta_layout_vmnk.
using CtaLayoutVMNK = std::array<int, 4>;

// Interleave strides for acquire / commit / wait / release (S3.3). One int means all four.
struct InterleaveStride {
  int acquire = 1, commit = 1, wait = 1, release = 1;
  InterleaveStride() = default;
  InterleaveStride(int all) : acquire(all), commit(all), wait(all), release(all) {}  // NOLINT: one int is the common form
  InterleaveStride(int a, int c, int w, int r) : acquire(a), commit(c), wait(w), release(r) {}
  bool is_interleaved() const { return acquire != 1 || commit != 1 || wait != 1 || release != 1; }
  bool symmetric() const { return acquire == commit && commit == wait && wait == release; }
  friend bool operator==(InterleaveStride const&, InterleaveStride const&) = default;
};

struct PipelineConfig {
  PipelineType type = PipelineType::AsyncAsync;
  int num_stages = 1;
  int num_bytes = 0;                                  // per-stage transaction bytes (TMA/CLC producers)
  CooperativeGroup producer_group{};
  CooperativeGroup consumer_group{};
  std::optional<CtaLayoutVMNK> cta_layout_vmnk;       // required for UMMA, CLC and clustered pipelines
  int num_bytes_per_warp_per_cta = 0;                 // leader-routed TMA completions (S6.11); 0 = off
  Signal producer_signal = Signal::All;
  Signal consumer_signal = Signal::All;
  std::optional<Signal> wait_signal_override;         // split consumers (S6.20)
  InterleaveStride interleave_stride{};
  bool advance_on_wait = false;
  bool advance_on_acquire = false;
  AsyncFlavor async_flavor = AsyncFlavor::AsyncThread;  // for Async producers

  // --- one factory per type (S3.4); fields not listed are fixed by the type ---
  struct AsyncAsyncParams {
    int num_stages = 2;
    CooperativeGroup producer_group{};
    CooperativeGroup consumer_group{};
    Signal producer_signal = Signal::All;
    Signal consumer_signal = Signal::All;
    std::optional<Signal> wait_signal_override{};
    InterleaveStride interleave_stride{};
    bool advance_on_wait = false;
    bool advance_on_acquire = false;
    AsyncFlavor async_flavor = AsyncFlavor::AsyncThread;
    std::optional<CtaLayoutVMNK> cta_layout_vmnk{};
  };
  struct TmaAsyncParams {
    int num_stages = 2;
    int num_bytes = 0;
    CooperativeGroup producer_group{};
    CooperativeGroup consumer_group{};
    Signal consumer_signal = Signal::All;
    std::optional<Signal> wait_signal_override{};
    int num_bytes_per_warp_per_cta = 0;
    InterleaveStride interleave_stride{};
    bool advance_on_wait = false;
    bool advance_on_acquire = false;
    std::optional<CtaLayoutVMNK> cta_layout_vmnk{};
  };
  struct TmaUmmaParams {
    int num_stages = 2;
    int num_bytes = 0;
    CooperativeGroup producer_group{};
    int num_bytes_per_warp_per_cta = 0;
    CtaLayoutVMNK cta_layout_vmnk{1, 1, 1, 1};
  };
  struct UmmaAsyncParams {
    int num_stages = 1;
    CooperativeGroup consumer_group{};
    Signal consumer_signal = Signal::All;
    std::optional<Signal> wait_signal_override{};
    InterleaveStride consumer_interleave_stride{};   // wait / release only (S6.12)
    bool advance_on_wait = false;
    CtaLayoutVMNK cta_layout_vmnk{1, 1, 1, 1};
  };
  struct AsyncUmmaParams {
    int num_stages = 1;
    CooperativeGroup producer_group{};
    Signal producer_signal = Signal::All;
    InterleaveStride producer_interleave_stride{};   // acquire / commit only (S6.12)
    bool advance_on_acquire = false;
    AsyncFlavor async_flavor = AsyncFlavor::AsyncThread;
    CtaLayoutVMNK cta_layout_vmnk{1, 1, 1, 1};
  };
  struct UmmaUmmaParams {
    int num_stages = 1;
    CtaLayoutVMNK cta_layout_vmnk{1, 1, 1, 1};
  };
  struct ClcFetchAsyncParams {
    int num_stages = 1;
    CooperativeGroup consumer_group{};
    Signal consumer_signal = Signal::All;
    CtaLayoutVMNK cta_layout_vmnk{1, 1, 1, 1};
  };

  static PipelineConfig async_async(AsyncAsyncParams const& p);
  static PipelineConfig tma_async(TmaAsyncParams const& p);
  static PipelineConfig tma_umma(TmaUmmaParams const& p);
  static PipelineConfig umma_async(UmmaAsyncParams const& p);
  static PipelineConfig async_umma(AsyncUmmaParams const& p);
  static PipelineConfig umma_umma(UmmaUmmaParams const& p);
  static PipelineConfig clc_fetch_async(ClcFetchAsyncParams const& p);

  // Producer / consumer engines (core/protocol.hpp) derived from the type name; never None.
  Engine producer_engine() const;
  Engine consumer_engine() const;
  bool clustered() const;  // cluster shape present and larger than 1 CTA
  int cluster_ctas() const;
  // Multicast TMA (docs/pipeline-arrivals.md): with a TMA producer in a cluster, Async
  // consumers and a consumer signal without CtaLeader, every CTA of the multicast row and
  // column (cta_layout_vmnk V x (M + N - 1)) writes each CTA's stage, so all their consumers
  // release it: the fan-in on each empty barrier. 1 otherwise (CTA-local).
  int multicast_fan_in() const;
  // Arrival counts the runtime initialises a stage's full / empty mbarrier with, as
  // DECLARED by this config, per CTA (docs/pipeline-arrivals.md). Async side: All ->
  // group.threads(), TaskWarpLeader (with or without CtaLeader) -> ceil(threads/32),
  // CtaLeader -> 1; Tma / ClcFetch producer -> 1 (the elected commit arrival);
  // Umma side -> 1. The verifier (S6.10) compares them with what the schedules do.
  int declared_full_arrivals() const;
  int declared_empty_arrivals() const;

 private:
  PipelineConfig() = default;
};

std::string to_string(PipelineType t);

}  // namespace ts
