#include "ts/core/pipeline_config.hpp"

#include "ts/core/errors.hpp"
#include "ts/core/queue_response.hpp"

namespace ts {

namespace {

void require(bool ok, PipelineType t, std::string const& what, std::string expected, std::string actual) {
  if (ok) return;
  Diagnostic d;
  d.check = "config." + to_string(t);
  d.message = "PipelineConfig::" + to_string(t) + ": " + what + ".";
  d.expected = std::move(expected);
  d.actual = std::move(actual);
  throw ConfigError(d);
}

void check_common(PipelineConfig const& c) {
  require(c.num_stages >= 1, c.type, "num_stages must be at least 1", ">= 1", std::to_string(c.num_stages));
  require(c.producer_group.size >= 1, c.type, "producer_group size must be at least 1", ">= 1",
          std::to_string(c.producer_group.size));
  require(c.consumer_group.size >= 1, c.type, "consumer_group size must be at least 1", ">= 1",
          std::to_string(c.consumer_group.size));
  if (c.cta_layout_vmnk) {
    for (int v : *c.cta_layout_vmnk)
      require(v >= 1, c.type, "every cta_layout_vmnk extent must be at least 1", ">= 1", std::to_string(v));
  }
}

}  // namespace

PipelineConfig PipelineConfig::async_async(AsyncAsyncParams const& p) {
  PipelineConfig c;
  c.type = PipelineType::AsyncAsync;
  c.num_stages = p.num_stages;
  c.producer_group = p.producer_group;
  c.consumer_group = p.consumer_group;
  c.producer_signal = p.producer_signal;
  c.consumer_signal = p.consumer_signal;
  c.wait_signal_override = p.wait_signal_override;
  c.interleave_stride = p.interleave_stride;
  c.advance_on_wait = p.advance_on_wait;
  c.advance_on_acquire = p.advance_on_acquire;
  c.async_flavor = p.async_flavor;
  c.cta_layout_vmnk = p.cta_layout_vmnk;
  check_common(c);
  return c;
}

PipelineConfig PipelineConfig::tma_async(TmaAsyncParams const& p) {
  PipelineConfig c;
  c.type = PipelineType::TmaAsync;
  c.num_stages = p.num_stages;
  c.num_bytes = p.num_bytes;
  c.producer_group = p.producer_group;
  c.consumer_group = p.consumer_group;
  c.producer_signal = Signal::CtaLeader;  // one elected thread arms expect_tx
  c.consumer_signal = p.consumer_signal;
  c.wait_signal_override = p.wait_signal_override;
  c.num_bytes_per_warp_per_cta = p.num_bytes_per_warp_per_cta;
  c.interleave_stride = p.interleave_stride;
  c.advance_on_wait = p.advance_on_wait;
  c.advance_on_acquire = p.advance_on_acquire;
  c.cta_layout_vmnk = p.cta_layout_vmnk;
  check_common(c);
  require(c.num_bytes > 0, c.type, "a TMA producer completes by transaction bytes, so num_bytes must be positive",
          "> 0", std::to_string(c.num_bytes));
  return c;
}

PipelineConfig PipelineConfig::tma_umma(TmaUmmaParams const& p) {
  PipelineConfig c;
  c.type = PipelineType::TmaUmma;
  c.num_stages = p.num_stages;
  c.num_bytes = p.num_bytes;
  c.producer_group = p.producer_group;
  c.producer_signal = Signal::CtaLeader;
  c.consumer_signal = Signal::CtaLeader;  // tcgen05.commit from one thread
  c.num_bytes_per_warp_per_cta = p.num_bytes_per_warp_per_cta;
  c.cta_layout_vmnk = p.cta_layout_vmnk;
  check_common(c);
  require(c.num_bytes > 0, c.type, "a TMA producer completes by transaction bytes, so num_bytes must be positive",
          "> 0", std::to_string(c.num_bytes));
  return c;
}

PipelineConfig PipelineConfig::umma_async(UmmaAsyncParams const& p) {
  PipelineConfig c;
  c.type = PipelineType::UmmaAsync;
  c.num_stages = p.num_stages;
  c.consumer_group = p.consumer_group;
  c.producer_signal = Signal::CtaLeader;
  c.consumer_signal = p.consumer_signal;
  c.wait_signal_override = p.wait_signal_override;
  c.interleave_stride = InterleaveStride(1, 1, p.consumer_interleave_stride.wait, p.consumer_interleave_stride.release);
  c.advance_on_wait = p.advance_on_wait;
  c.cta_layout_vmnk = p.cta_layout_vmnk;
  check_common(c);
  return c;
}

PipelineConfig PipelineConfig::async_umma(AsyncUmmaParams const& p) {
  PipelineConfig c;
  c.type = PipelineType::AsyncUmma;
  c.num_stages = p.num_stages;
  c.producer_group = p.producer_group;
  c.producer_signal = p.producer_signal;
  c.consumer_signal = Signal::CtaLeader;
  c.interleave_stride =
      InterleaveStride(p.producer_interleave_stride.acquire, p.producer_interleave_stride.commit, 1, 1);
  c.advance_on_acquire = p.advance_on_acquire;
  c.async_flavor = p.async_flavor;
  c.cta_layout_vmnk = p.cta_layout_vmnk;
  check_common(c);
  return c;
}

PipelineConfig PipelineConfig::umma_umma(UmmaUmmaParams const& p) {
  PipelineConfig c;
  c.type = PipelineType::UmmaUmma;
  c.num_stages = p.num_stages;
  c.producer_signal = Signal::CtaLeader;
  c.consumer_signal = Signal::CtaLeader;
  c.cta_layout_vmnk = p.cta_layout_vmnk;
  check_common(c);
  return c;
}

PipelineConfig PipelineConfig::clc_fetch_async(ClcFetchAsyncParams const& p) {
  PipelineConfig c;
  c.type = PipelineType::ClcFetchAsync;
  c.num_stages = p.num_stages;
  c.num_bytes = kQueueResponseBytes;  // CLC responses are 16 bytes per stage (SPEC S13.3)
  c.producer_signal = Signal::CtaLeader;  // one thread issues try_cancel
  c.consumer_group = p.consumer_group;
  c.consumer_signal = p.consumer_signal;
  c.cta_layout_vmnk = p.cta_layout_vmnk;
  check_common(c);
  return c;
}

Engine PipelineConfig::producer_engine() const {
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

Engine PipelineConfig::consumer_engine() const {
  switch (type) {
    case PipelineType::TmaUmma:
    case PipelineType::AsyncUmma:
    case PipelineType::UmmaUmma: return Engine::Umma;
    default: return Engine::Async;
  }
}

int PipelineConfig::cluster_ctas() const {
  if (!cta_layout_vmnk) return 1;
  auto const& l = *cta_layout_vmnk;
  return l[0] * l[1] * l[2] * l[3];
}

namespace {
int declared_async_arrivals(CooperativeGroup g, Signal s) {
  switch (s) {
    case Signal::All: return g.threads();
    case Signal::TaskWarpLeader:
    case Signal::CtaLeaderTaskWarpLeader: return (g.threads() + 31) / 32;
    case Signal::CtaLeader: return 1;
  }
  return 1;
}
}  // namespace

int PipelineConfig::declared_full_arrivals() const {
  if (producer_engine() == Engine::Async) return declared_async_arrivals(producer_group, producer_signal);
  return 1;  // Tma / ClcFetch: the elected commit arrival; Umma: one tcgen05.commit
}

int PipelineConfig::declared_empty_arrivals() const {
  if (consumer_engine() == Engine::Async) return declared_async_arrivals(consumer_group, consumer_signal);
  return 1;  // Umma consumer: one tcgen05.commit releases the stage
}

bool PipelineConfig::clustered() const { return cluster_ctas() > 1; }

int PipelineConfig::multicast_fan_in() const {
  if (producer_engine() != Engine::Tma || !clustered() || consumer_engine() != Engine::Async ||
      (unsigned(consumer_signal) & unsigned(Signal::CtaLeader)) != 0)
    return 1;
  auto const& l = *cta_layout_vmnk;
  return l[0] * (l[1] + l[2] - 1);
}

std::string to_string(PipelineType t) {
  switch (t) {
    case PipelineType::AsyncAsync: return "AsyncAsync";
    case PipelineType::TmaAsync: return "TmaAsync";
    case PipelineType::TmaUmma: return "TmaUmma";
    case PipelineType::UmmaAsync: return "UmmaAsync";
    case PipelineType::AsyncUmma: return "AsyncUmma";
    case PipelineType::UmmaUmma: return "UmmaUmma";
    case PipelineType::ClcFetchAsync: return "ClcFetchAsync";
  }
  return "?";
}

}  // namespace ts
