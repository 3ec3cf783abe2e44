// The protocol vocabulary: one enum per concept, each with its one name table, shared by
// the host (config, IR, verifier, checker, printouts), the CPU emulator and the device
// (executing context, kernel parameters, traces). Host and device code, so each name table
// (protocol_name) is TS_HD constexpr; to_string wraps the same table for host code.
//
// The underlying values are part of the device interface (PipelineRuntime, traces,
// WaitSite) and must not change meaning.
#pragma once
#include <cstdint>
#include <string>

#include "ts/core/macros.hpp"

namespace ts {

// What one schedule step does: the pipeline operations the executing context names to
// its Arch (step hooks, a bounded wait's report, traces) and the IR's step kinds. The
// values 0..7 are the sync ops passed to the Arch; Work is the step code of a work call in
// the emulator's step hooks and the device trace.
enum class SyncOp : uint8_t {
  TryAcquire = 0, Acquire = 1, Commit = 2,  // producer side of a pipelined resource
  TryWait = 3, Wait = 4, Release = 5,       // consumer side
  Fetch = 6,                                // WorkQueue::fetch_work_tile (scheduler task)
  Advance = 7,                              // WorkQueue::get_and_advance_work_tile (queue epilogue)
  BreakLoop = 8,                            // domain-loop handle break_loop()
  Skip = 9,                                 // consumer side: pass over n stages without waiting
                                            // (turn-taking consumers, docs/turns.md)
  Work = 100,                               // a producer/consumer/auxiliary work method
};
TS_HD constexpr char const* protocol_name(SyncOp op) {
  switch (op) {
    case SyncOp::TryAcquire: return "try_acquire";
    case SyncOp::Acquire: return "acquire";
    case SyncOp::Commit: return "commit";
    case SyncOp::TryWait: return "try_wait";
    case SyncOp::Wait: return "wait";
    case SyncOp::Release: return "release";
    case SyncOp::Fetch: return "fetch_work_tile";
    case SyncOp::Advance: return "get_and_advance_work_tile";
    case SyncOp::BreakLoop: return "break_loop";
    case SyncOp::Skip: return "skip";
    case SyncOp::Work: return "work";
  }
  return "?";
}

// The engine on one side of a pipeline (S3.2), derived from the config's type name.
// None: no pipeline (kernel parameters of a resource without one).
enum class Engine : uint8_t { None = 0, Async = 1, Tma = 2, Umma = 3, ClcFetch = 4 };
TS_HD constexpr char const* protocol_name(Engine e) {
  switch (e) {
    case Engine::None: return "none";
    case Engine::Async: return "async";
    case Engine::Tma: return "tma";
    case Engine::Umma: return "umma";
    case Engine::ClcFetch: return "clc";
  }
  return "?";
}

// Which threads of a task signal a barrier (S3.3). Bit flags so the combined mode
// `CtaLeader | TaskWarpLeader` is representable.
enum class Signal : uint8_t { All = 0, CtaLeader = 1, TaskWarpLeader = 2, CtaLeaderTaskWarpLeader = 3 };
TS_HD constexpr Signal operator|(Signal a, Signal b) { return Signal(unsigned(a) | unsigned(b)); }
TS_HD constexpr char const* protocol_name(Signal s) {
  switch (s) {
    case Signal::All: return "All";
    case Signal::CtaLeader: return "CtaLeader";
    case Signal::TaskWarpLeader: return "TaskWarpLeader";
    case Signal::CtaLeaderTaskWarpLeader: return "CtaLeader|TaskWarpLeader";
  }
  return "?";
}

// What a resource is to the runtime (SPEC S1): memory (pipelined or not), a work queue,
// or a PDL edge.
enum class ResourceKind : uint8_t { Memory, WorkQueue, PdlWait, PdlLaunch };
TS_HD constexpr char const* protocol_name(ResourceKind k) {
  switch (k) {
    case ResourceKind::Memory: return "memory";
    case ResourceKind::WorkQueue: return "work_queue";
    case ResourceKind::PdlWait: return "pdl_wait";
    case ResourceKind::PdlLaunch: return "pdl_launch";
  }
  return "?";
}

inline std::string to_string(SyncOp op) { return protocol_name(op); }
inline std::string to_string(Engine e) { return protocol_name(e); }
inline std::string to_string(Signal s) { return protocol_name(s); }
inline std::string to_string(ResourceKind k) { return protocol_name(k); }

}  // namespace ts
