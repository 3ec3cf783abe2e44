// The seven pipeline protocols and how a handle picks one: at compile time from a
// resource's constexpr config (ProtocolOf<PipelineType>), or, for a config built at run
// time, by one switch over the layout's engines (with_protocol) that lands in the same
// classes.
#pragma once
#include "ts/runtime/pipeline/sides.hpp"

namespace ts::exec {

// SPEC S3.2's seven types: a producer side and a consumer side each (sides.hpp).
using AsyncAsync = Protocol<PipelineType::AsyncAsync, ThreadsFill, ThreadsDrain>;
using TmaAsync = Protocol<PipelineType::TmaAsync, BytesFill, ThreadsDrain>;
using TmaUmma = Protocol<PipelineType::TmaUmma, BytesFill, MmaDrain>;
using UmmaAsync = Protocol<PipelineType::UmmaAsync, MmaFill, ThreadsDrain>;
using AsyncUmma = Protocol<PipelineType::AsyncUmma, ThreadsFill, MmaDrain>;
using UmmaUmma = Protocol<PipelineType::UmmaUmma, MmaFill, MmaDrain>;
// A work queue's response ring (SPEC S13.3): the scheduler's acquire arms the 16 response
// bytes, fetch_work_tile (the handle's) issues the request that lands them.
using ClcFetchAsync = Protocol<PipelineType::ClcFetchAsync, BytesFill, ThreadsDrain>;

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

// A runtime config. Each op of a protocol class depends only on the engine of its own
// side (acquire / commit on the producer's, release on the consumer's, wait on neither),
// so the switch picks a class with that engine: at most four copies of an op, not seven,
// in code that a runtime config's handle carries for every op site.
template <class F>
TS_HD void with_producer_protocol(Engine producer, F&& f) {
  switch (producer) {
    case Engine::Tma: f(TmaAsync{}); return;
    case Engine::ClcFetch: f(ClcFetchAsync{}); return;
    case Engine::Umma: f(UmmaAsync{}); return;
    default: f(AsyncAsync{}); return;
  }
}
template <class F>
TS_HD void with_consumer_protocol(Engine consumer, F&& f) {
  if (consumer == Engine::Umma) f(TmaUmma{});
  else f(AsyncAsync{});
}

}  // namespace ts::exec
