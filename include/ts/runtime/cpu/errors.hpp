// Errors the CPU emulator raises. Every one stops the run: the emulator never hangs
// and never continues past a broken protocol.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace ts::cpu {

// Bad input or a broken protocol seen while emulating: an out-of-range SMEM access,
// an over-arrival, a transaction-byte overflow, a wait on an uninitialised barrier,
// a CLC misuse, a failing work body ... The message names the task, the resource and
// the schedule step the emulated thread was at.
class EmulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Every unfinished emulated thread is blocked and no asynchronous operation is in
// flight: the kernel would hang on the GPU. One entry per blocked warp.
struct BlockedWarp {
  int kernel = 0, cta = 0, warp = 0, threads = 0;
  std::string task, resource, op;  // op: "acquire", "wait", "cta_sync", "pdl_wait", "replay" ...
  int stage = -1;
  unsigned phase = 0;
  int step = -1;                   // schedule step id, -1 when unknown
  std::string text;                // the formatted line
};

class DeadlockError : public EmulationError {
 public:
  DeadlockError(std::string what, std::vector<BlockedWarp> warps)
      : EmulationError(std::move(what)), warps_(std::move(warps)) {}
  std::vector<BlockedWarp> const& blocked() const { return warps_; }

 private:
  std::vector<BlockedWarp> warps_;
};

// Two emulated threads touched the same SMEM byte, at least one writing, with no
// barrier ordering them (RunOptions::detect_races).
class RaceError : public EmulationError {
 public:
  using EmulationError::EmulationError;
};

// A CTA of a kernel that has a predecessor triggered its dependents (PdlLaunch commit)
// before any of its threads waited on the predecessor (PdlWait wait), SPEC S12: the
// dependent grid could then run ahead of data this kernel has not seen complete.
class PdlOrderError : public EmulationError {
 public:
  using EmulationError::EmulationError;
};

}  // namespace ts::cpu
