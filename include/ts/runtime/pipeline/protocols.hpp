// The seven pipeline protocols and how a handle picks one: at compile time from a
// resource's constexpr config (ProtocolOf<PipelineType>), or, for a config built at run
// time, by one switch over the layout's engines (with_protocol) that lands in the same
// classes.
#pragma once
#include "ts/runtime/pipeline/async_async.hpp"
#include "ts/runtime/pipeline/async_umma.hpp"
#include "ts/runtime/pipeline/clc_fetch_async.hpp"
#include "ts/runtime/pipeline/tma_async.hpp"
#include "ts/runtime/pipeline/tma_umma.hpp"
#include "ts/runtime/pipeline/umma_async.hpp"
#include "ts/runtime/pipeline/umma_umma.hpp"

namespace ts::exec {

template <PipelineType>
struct ProtocolOf;
template <> struct ProtocolOf<PipelineType::AsyncAsync> { using type = AsyncAsync; };
template <> struct ProtocolOf<PipelineType::TmaAsync> { using type = TmaAsync; };
template <> struct ProtocolOf<PipelineType::TmaUmma> { using type = TmaUmma; };
template <> struct ProtocolOf<PipelineType::UmmaAsync> { using type = UmmaAsync; };
template <> struct ProtocolOf<PipelineType::AsyncUmma> { using type = AsyncUmma; };
template <> struct ProtocolOf<PipelineType::UmmaUmma> { using type = UmmaUmma; };
template <> struct ProtocolOf<PipelineType::ClcFetchAsync> { using type = ClcFetchAsync; };
template <PipelineType P>
using protocol_t = typename ProtocolOf<P>::type;

// A runtime config: the type follows from its engines (PipelineConfig::producer_engine /
// consumer_engine), so the switch reads them.
template <class F>
TS_HD void with_protocol(Engine producer, Engine consumer, F&& f) {
  bool umma_consumer = consumer == Engine::Umma;
  switch (producer) {
    case Engine::Tma:
      if (umma_consumer) f(TmaUmma{});
      else f(TmaAsync{});
      return;
    case Engine::Umma:
      if (umma_consumer) f(UmmaUmma{});
      else f(UmmaAsync{});
      return;
    case Engine::ClcFetch: f(ClcFetchAsync{}); return;
    default:
      if (umma_consumer) f(AsyncUmma{});
      else f(AsyncAsync{});
      return;
  }
}

}  // namespace ts::exec
