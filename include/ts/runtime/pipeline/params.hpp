// Where a pipeline protocol reads its parameters from (stage count, signalling, strides,
// multicast fan-in, transaction bytes), in one of two forms with one interface:
//   StaticParams<T>  the resource type declares its config as a compile-time value
//                    (`static constexpr auto pipeline = ts::tma_async({...})`): every
//                    protocol field is a constant and the branches on it fold away;
//   RuntimeParams    the config was built at run time (ts::resource(name, v, cfg)): the
//                    fields come from the layout's PipelineRuntime, in registers.
// Barrier placement, group membership and domain lanes are decided by the layout, so
// both forms read them from the PipelineRuntime.
#pragma once
#include <cstdint>

#include "ts/core/macros.hpp"
#include "ts/core/pipeline_config.hpp"
#include "ts/runtime/pipeline_runtime.hpp"

namespace ts::exec {

template <class T>
concept HasStaticPipeline = requires { T::pipeline; };

struct RuntimeParams {
  PipelineRuntime const& rt;
  TS_HD int num_stages() const { return rt.num_stages; }
  TS_HD Signal producer_signal() const { return rt.producer_signal; }
  TS_HD Signal consumer_signal() const { return rt.consumer_signal; }
  TS_HD uint32_t stage_bytes() const { return rt.stage_bytes; }
  TS_HD int multicast_ctas() const { return rt.multicast_ctas; }
  TS_HD bool async_load() const { return rt.async_load; }
  TS_HD int stride_acquire() const { return rt.stride_acquire; }
  TS_HD int stride_commit() const { return rt.stride_commit; }
  TS_HD int stride_wait() const { return rt.stride_wait; }
  TS_HD int stride_release() const { return rt.stride_release; }
  TS_HD bool producer_warp_lanes() const { return rt.producer_warp_lanes; }
  TS_HD bool consumer_warp_lanes() const { return rt.consumer_warp_lanes; }
};

// Lane modes (domain or warp lanes, S3.3) need an interleave stride above 1 on their side
// (schedule/lane_mode.cpp). A config declared in the resource type says at compile time
// whether it has one, so a stride-1 ring never advances its counters by a lane: the lane
// is a per-thread value (thread_in_task / 32, the loop start) to the compiler, and
// counters that may depend on it cannot live in uniform registers, nor can the stage
// addresses and wgmma descriptors built from them (each MMA then pays register-to-uniform
// moves). A resource without a static config may be configured at run time: its lanes
// come from the layout.
template <class T>
constexpr bool may_have_lanes(bool producer_side) {
  if constexpr (requires { T::pipeline; }) {
    constexpr InterleaveStride s = T::pipeline.interleave_stride;
    return producer_side ? (s.acquire > 1 || s.commit > 1) : (s.wait > 1 || s.release > 1);
  } else {
    return true;
  }
}

// may_have_lanes of resources R..., two bits each (producer side 2i, consumer side 2i + 1);
// resources past the 32nd are assumed to have lanes.
template <class... R>
constexpr uint64_t lane_sides_mask() {
  uint64_t m = 0;
  int i = 0;
  ((m |= i < 32 ? (uint64_t(may_have_lanes<R>(true)) << (2 * i)) | (uint64_t(may_have_lanes<R>(false)) << (2 * i + 1))
                : 0,
    ++i),
   ...);
  return m;
}

// Field by field, as scalar constants: naming the config object itself in device code
// would odr-use a host variable.
template <class T>
struct StaticParams {
  static constexpr int kStages = T::pipeline.num_stages;
  static constexpr Engine kProducer = T::pipeline.producer_engine(), kConsumer = T::pipeline.consumer_engine();
  static constexpr Signal kProducerSignal = T::pipeline.producer_signal;
  static constexpr Signal kConsumerSignal = T::pipeline.consumer_signal;
  static constexpr uint32_t kBytes = static_cast<uint32_t>(T::pipeline.num_bytes);  // 0: derived by the layout
  static constexpr int kMulticast = T::pipeline.multicast_fan_in();
  static constexpr bool kAsyncLoad = T::pipeline.async_flavor == AsyncFlavor::AsyncLoad;
  static constexpr InterleaveStride kStride = T::pipeline.interleave_stride;
  static constexpr int kStrideAcquire = kStride.acquire, kStrideCommit = kStride.commit;
  static constexpr int kStrideWait = kStride.wait, kStrideRelease = kStride.release;

  PipelineRuntime const& rt;
  TS_HD static constexpr int num_stages() { return kStages; }
  TS_HD static constexpr Signal producer_signal() { return kProducerSignal; }
  TS_HD static constexpr Signal consumer_signal() { return kConsumerSignal; }
  // Bytes the config leaves to the layout (derived from the declared allocation) are
  // launch constants, not compile-time ones.
  TS_HD uint32_t stage_bytes() const {
    if constexpr (kBytes > 0) return kBytes;
    else return rt.stage_bytes;
  }
  TS_HD static constexpr int multicast_ctas() { return kMulticast; }
  TS_HD static constexpr bool async_load() { return kAsyncLoad; }
  TS_HD static constexpr int stride_acquire() { return kStrideAcquire; }
  TS_HD static constexpr int stride_commit() { return kStrideCommit; }
  TS_HD static constexpr int stride_wait() { return kStrideWait; }
  TS_HD static constexpr int stride_release() { return kStrideRelease; }
  TS_HD bool producer_warp_lanes() const {
    if constexpr (may_have_lanes<T>(true)) return rt.producer_warp_lanes;
    else return false;
  }
  TS_HD bool consumer_warp_lanes() const {
    if constexpr (may_have_lanes<T>(false)) return rt.consumer_warp_lanes;
    else return false;
  }
};

}  // namespace ts::exec
