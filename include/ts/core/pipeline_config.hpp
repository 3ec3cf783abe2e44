// PipelineConfig: the synchronization contract of a pipelined resource (SPEC S3).
//
// A config is only made through the factory of its pipeline type (S3.4). The factories
// are constexpr, so a resource declares its pipeline once, as a compile-time value of its
// type, and the executing context dispatches on it at compile time:
//   struct SmemAB : ts::MemoryResource {
//     static constexpr auto pipeline = ts::tma_async({.num_stages = 4, .consumer_signal = ts::Signal::TaskWarpLeader});
//     ...
//   };
//   auto smem = ts::resource("smem_ab", SmemAB{...});       // takes SmemAB::pipeline
// Each factory takes a parameter struct holding only the fields that type accepts, so
// asking a UMMA pipeline for an interleave stride it cannot have is a compile error, and
// a value a factory can check on its own (zero stages, a negative byte count) fails to
// compile in a constant expression: the compiler stops at the call of
// ts::detail::pipeline_config_rule_violated in ts::detail::require, whose line shows the
// rule (at run time the same call throws a ts::ConfigError naming it).
//
// Counts the verifier can compute are derived when left out (TaskManager construction,
// ts::derive_pipeline_fields): a group size of 0 (the default, ts::kDerived) becomes the
// warps of the tasks that issue the side's arriving op (commit / release), and a TMA
// producer's num_bytes of 0 becomes the resource's declared producer-side SMEM per stage.
//
// The runtime form, ts::resource(name, value, cfg) with a config built at run time, stays
// for configs whose values are not compile-time constants (the property tests generate
// them); its handle picks the protocol class by a switch at run time.
#pragma once
#include <array>
#include <concepts>
#include <optional>
#include <string>
#include <type_traits>

#include "ts/core/protocol.hpp"
#include "ts/core/queue_response.hpp"

namespace ts {

// `<Producer><Consumer>` pipeline types (S3.2).
enum class PipelineType { AsyncAsync, TmaAsync, TmaUmma, UmmaAsync, AsyncUmma, UmmaUmma, ClcFetchAsync };

// How plain-thread producers arrive: thread arrival after writing, or cp.async arrivals.
enum class AsyncFlavor { AsyncThread, AsyncLoad };

// Cooperative group taking part in one side of a pipeline, counted in threads
// (Agent::Thread) or warps (Agent::Warp), as CUTLASS's CooperativeGroup does.
enum class Agent { Thread, Warp };
// Size 0 (kDerived, the factories' default) leaves the group to the verifier's arrival
// model: the warps of the tasks that really signal that side (derive_pipeline_fields).
struct CooperativeGroup {
  Agent agent = Agent::Thread;
  int size = 1;
  constexpr int threads() const { return agent == Agent::Warp ? size * 32 : size; }
  constexpr bool derived() const { return size == 0; }
  friend constexpr bool operator==(CooperativeGroup const&, CooperativeGroup const&) = default;
};
inline constexpr CooperativeGroup kDerived{Agent::Warp, 0};

// Cluster shape (V, M, N, K) as in cute's cta_layout_vmnk.
using CtaLayoutVMNK = std::array<int, 4>;

// Interleave strides for acquire / commit / wait / release (S3.3). One int means all four.
struct InterleaveStride {
  int acquire = 1, commit = 1, wait = 1, release = 1;
  constexpr InterleaveStride() = default;
  constexpr InterleaveStride(int all) : acquire(all), commit(all), wait(all), release(all) {}  // NOLINT: one int is the common form
  constexpr InterleaveStride(int a, int c, int w, int r) : acquire(a), commit(c), wait(w), release(r) {}
  constexpr bool is_interleaved() const { return acquire != 1 || commit != 1 || wait != 1 || release != 1; }
  constexpr bool symmetric() const { return acquire == commit && commit == wait && wait == release; }
  friend constexpr bool operator==(InterleaveStride const&, InterleaveStride const&) = default;
};

struct PipelineConfig {
  PipelineType type = PipelineType::AsyncAsync;
  int num_stages = 1;
  int num_bytes = 0;                                  // per-stage transaction bytes (TMA/CLC producers); TMA 0: derived
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
    CooperativeGroup producer_group = kDerived;
    CooperativeGroup consumer_group = kDerived;
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
    CooperativeGroup producer_group = kDerived;
    CooperativeGroup consumer_group = kDerived;
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
    CooperativeGroup producer_group = kDerived;
    int num_bytes_per_warp_per_cta = 0;
    CtaLayoutVMNK cta_layout_vmnk{1, 1, 1, 1};
  };
  struct UmmaAsyncParams {
    int num_stages = 1;
    CooperativeGroup consumer_group = kDerived;
    Signal consumer_signal = Signal::All;
    std::optional<Signal> wait_signal_override{};
    InterleaveStride consumer_interleave_stride{};   // wait / release only (S6.12)
    bool advance_on_wait = false;
    CtaLayoutVMNK cta_layout_vmnk{1, 1, 1, 1};
  };
  struct AsyncUmmaParams {
    int num_stages = 1;
    CooperativeGroup producer_group = kDerived;
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
    CooperativeGroup consumer_group = kDerived;
    Signal consumer_signal = Signal::All;
    CtaLayoutVMNK cta_layout_vmnk{1, 1, 1, 1};
  };

  static constexpr PipelineConfig async_async(AsyncAsyncParams const& p);
  static constexpr PipelineConfig tma_async(TmaAsyncParams const& p);
  static constexpr PipelineConfig tma_umma(TmaUmmaParams const& p);
  static constexpr PipelineConfig umma_async(UmmaAsyncParams const& p);
  static constexpr PipelineConfig async_umma(AsyncUmmaParams const& p);
  static constexpr PipelineConfig umma_umma(UmmaUmmaParams const& p);
  static constexpr PipelineConfig clc_fetch_async(ClcFetchAsyncParams const& p);

  // Producer / consumer engines (core/protocol.hpp) derived from the type name; never None.
  constexpr Engine producer_engine() const {
    switch (type) {
      case PipelineType::AsyncAsync:
      case PipelineType::AsyncUmma: return Engine::Async;
      case PipelineType::TmaAsync:
      case PipelineType::TmaUmma: return Engine::Tma;
      case PipelineType::UmmaAsync:
      case PipelineType::UmmaUmma: return Engine::Umma;
      case PipelineType::ClcFetchAsync: return Engine::ClcFetch;
    }
    return Engine::Async;
  }
  constexpr Engine consumer_engine() const {
    switch (type) {
      case PipelineType::TmaUmma:
      case PipelineType::AsyncUmma:
      case PipelineType::UmmaUmma: return Engine::Umma;
      default: return Engine::Async;
    }
  }
  constexpr int cluster_ctas() const {
    if (!cta_layout_vmnk) return 1;
    auto const& l = *cta_layout_vmnk;
    return l[0] * l[1] * l[2] * l[3];
  }
  constexpr bool clustered() const { return cluster_ctas() > 1; }  // cluster shape larger than 1 CTA
  // Multicast TMA (docs/pipeline-arrivals.md): with a TMA producer in a cluster, Async
  // consumers and a consumer signal without CtaLeader, every CTA of the multicast row and
  // column (cta_layout_vmnk V x (M + N - 1)) writes each CTA's stage, so all their consumers
  // release it: the fan-in on each empty barrier. 1 otherwise (CTA-local).
  constexpr int multicast_fan_in() const {
    if (producer_engine() != Engine::Tma || !clustered() || consumer_engine() != Engine::Async ||
        (unsigned(consumer_signal) & unsigned(Signal::CtaLeader)) != 0)
      return 1;
    auto const& l = *cta_layout_vmnk;
    return l[0] * (l[1] + l[2] - 1);
  }
  // Arrival counts the runtime initialises a stage's full / empty mbarrier with, as
  // DECLARED by this config, per CTA (docs/pipeline-arrivals.md). Async side: All ->
  // group.threads(), TaskWarpLeader (with or without CtaLeader) -> ceil(threads/32),
  // CtaLeader -> 1; Tma / ClcFetch producer -> 1 (the commit's elected arrival);
  // Umma side -> 1. The verifier (S6.10) compares them with what the schedules do.
  constexpr int declared_full_arrivals() const {
    if (producer_engine() == Engine::Async) return declared_async_arrivals(producer_group, producer_signal);
    return 1;  // Tma / ClcFetch: one elected arrival at commit; Umma: one tcgen05.commit
  }
  constexpr int declared_empty_arrivals() const {
    if (consumer_engine() == Engine::Async) return declared_async_arrivals(consumer_group, consumer_signal);
    return 1;  // Umma consumer: one tcgen05.commit releases the stage
  }
  // A type's counterpart of an arrival count (producer or consumer side).
  static constexpr int declared_async_arrivals(CooperativeGroup g, Signal s) {
    switch (s) {
      case Signal::All: return g.threads();
      case Signal::TaskWarpLeader:
      case Signal::CtaLeaderTaskWarpLeader: return (g.threads() + 31) / 32;
      case Signal::CtaLeader: return 1;
    }
    return 1;
  }

 private:
  constexpr PipelineConfig() = default;
  template <class P>
  static constexpr PipelineConfig build(PipelineType type, P const& p);
  constexpr void check_common() const;
};

std::string to_string(PipelineType t);

namespace detail {
// Not constexpr: a config rule broken in a constant expression stops the compiler here,
// at the require() call below whose line names the rule. At run time it throws a
// ts::ConfigError with the rule, the expected and the actual value.
[[noreturn]] void pipeline_config_rule_violated(PipelineType t, char const* rule, char const* expected, long long actual);
constexpr void require(bool ok, PipelineType t, char const* rule, char const* expected, long long actual) {
  if (!ok) pipeline_config_rule_violated(t, rule, expected, actual);
}
}  // namespace detail

constexpr void PipelineConfig::check_common() const {
  detail::require(num_stages >= 1, type, "num_stages must be at least 1", ">= 1", num_stages);
  detail::require(producer_group.size >= 0, type, "producer_group size must not be negative (0: derived)", ">= 0",
                  producer_group.size);
  detail::require(consumer_group.size >= 0, type, "consumer_group size must not be negative (0: derived)", ">= 0",
                  consumer_group.size);
  detail::require(num_bytes >= 0, type, "num_bytes must not be negative (0 on a TMA producer: derived)", ">= 0",
                  num_bytes);
  if (cta_layout_vmnk) {
    for (int v : *cta_layout_vmnk)
      detail::require(v >= 1, type, "every cta_layout_vmnk extent must be at least 1", ">= 1", v);
  }
}

// The one building path of the seven factories. A parameter struct holds exactly the
// fields its type accepts (S3.4), so the fields are copied by name where the struct has
// them; the rest follows from the type: a producer or consumer engine other than Async
// signals through one elected thread (expect_tx and the commit's arrival, tcgen05.commit,
// try_cancel), and a CLC stage is one 16-byte response (SPEC S13.3). A TMA num_bytes of 0
// is derived later from the resource's declared producer-side SMEM per stage.
template <class P>
constexpr PipelineConfig PipelineConfig::build(PipelineType type, P const& p) {
  PipelineConfig c;
  c.type = type;
  c.num_stages = p.num_stages;
  c.cta_layout_vmnk = p.cta_layout_vmnk;
  if constexpr (requires { p.num_bytes; }) c.num_bytes = p.num_bytes;
  if constexpr (requires { p.producer_group; }) c.producer_group = p.producer_group;
  if constexpr (requires { p.consumer_group; }) c.consumer_group = p.consumer_group;
  if constexpr (requires { p.producer_signal; }) c.producer_signal = p.producer_signal;
  if constexpr (requires { p.consumer_signal; }) c.consumer_signal = p.consumer_signal;
  if constexpr (requires { p.wait_signal_override; }) c.wait_signal_override = p.wait_signal_override;
  if constexpr (requires { p.num_bytes_per_warp_per_cta; })
    c.num_bytes_per_warp_per_cta = p.num_bytes_per_warp_per_cta;
  if constexpr (requires { p.interleave_stride; }) c.interleave_stride = p.interleave_stride;
  // A UMMA side has no stride of its own: only the other side's two ops are interleaved (S6.12).
  if constexpr (requires { p.producer_interleave_stride; })
    c.interleave_stride =
        InterleaveStride(p.producer_interleave_stride.acquire, p.producer_interleave_stride.commit, 1, 1);
  if constexpr (requires { p.consumer_interleave_stride; })
    c.interleave_stride =
        InterleaveStride(1, 1, p.consumer_interleave_stride.wait, p.consumer_interleave_stride.release);
  if constexpr (requires { p.advance_on_wait; }) c.advance_on_wait = p.advance_on_wait;
  if constexpr (requires { p.advance_on_acquire; }) c.advance_on_acquire = p.advance_on_acquire;
  if constexpr (requires { p.async_flavor; }) c.async_flavor = p.async_flavor;
  if (c.producer_engine() != Engine::Async) c.producer_signal = Signal::CtaLeader;
  if (c.consumer_engine() != Engine::Async) c.consumer_signal = Signal::CtaLeader;
  if (type == PipelineType::ClcFetchAsync) c.num_bytes = kQueueResponseBytes;
  c.check_common();
  return c;
}

constexpr PipelineConfig PipelineConfig::async_async(AsyncAsyncParams const& p) {
  return build(PipelineType::AsyncAsync, p);
}
constexpr PipelineConfig PipelineConfig::tma_async(TmaAsyncParams const& p) { return build(PipelineType::TmaAsync, p); }
constexpr PipelineConfig PipelineConfig::tma_umma(TmaUmmaParams const& p) { return build(PipelineType::TmaUmma, p); }
constexpr PipelineConfig PipelineConfig::umma_async(UmmaAsyncParams const& p) {
  return build(PipelineType::UmmaAsync, p);
}
constexpr PipelineConfig PipelineConfig::async_umma(AsyncUmmaParams const& p) {
  return build(PipelineType::AsyncUmma, p);
}
constexpr PipelineConfig PipelineConfig::umma_umma(UmmaUmmaParams const& p) { return build(PipelineType::UmmaUmma, p); }
constexpr PipelineConfig PipelineConfig::clc_fetch_async(ClcFetchAsyncParams const& p) {
  return build(PipelineType::ClcFetchAsync, p);
}

// The factories as free functions: `static constexpr auto pipeline = ts::tma_async({...});`
constexpr PipelineConfig async_async(PipelineConfig::AsyncAsyncParams const& p) { return PipelineConfig::async_async(p); }
constexpr PipelineConfig tma_async(PipelineConfig::TmaAsyncParams const& p) { return PipelineConfig::tma_async(p); }
constexpr PipelineConfig tma_umma(PipelineConfig::TmaUmmaParams const& p) { return PipelineConfig::tma_umma(p); }
constexpr PipelineConfig umma_async(PipelineConfig::UmmaAsyncParams const& p) { return PipelineConfig::umma_async(p); }
constexpr PipelineConfig async_umma(PipelineConfig::AsyncUmmaParams const& p) { return PipelineConfig::async_umma(p); }
constexpr PipelineConfig umma_umma(PipelineConfig::UmmaUmmaParams const& p) { return PipelineConfig::umma_umma(p); }
constexpr PipelineConfig clc_fetch_async(PipelineConfig::ClcFetchAsyncParams const& p) {
  return PipelineConfig::clc_fetch_async(p);
}

// A resource type that declares its pipeline as a compile-time value.
template <class T>
concept DeclaresPipeline = requires {
  { T::pipeline } -> std::convertible_to<PipelineConfig const&>;
};


}  // namespace ts
