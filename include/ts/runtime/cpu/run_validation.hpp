// What the emulator refuses before it starts: RunOptions outside their documented
// ranges (docs/emulator.md, "Options"), grids too large to emulate, and replay events
// that name no task, step or CTA of the kernel being replayed.
#pragma once
#include <cstddef>
#include <vector>

#include "ts/runtime/cpu/options.hpp"

namespace ts {
struct Model;
}

namespace ts::cpu {

// Each emulated thread is a fiber on its own stack; below this even the emulator's own
// frames (the context switch, the schedule interpreter, a small work body) overflow it
// (stack_bytes = 64 segfaulted). Work bodies with large locals need more than this.
constexpr std::size_t kMinStackBytes = 16 * 1024;
// Every CTA of the grid is emulated thread by thread on one host thread; 2e6 CTAs ran
// for minutes with nothing to show. Beyond this, emulate a smaller grid: a grid-stride
// or persistent schedule covers the same work with fewer CTAs.
constexpr int kMaxEmulatedGridBlocks = 65'536;

// Throws EmulationError naming the option, its value and the valid range.
void validate_run_options(RunOptions const& o);
// Throws EmulationError when a kernel's grid is outside 1..kMaxEmulatedGridBlocks.
void validate_grid_blocks(int grid_blocks);
// Throws EmulationError for an event whose task, step, CTA or iteration does not exist
// in `m` run over `grid_blocks` CTAs.
void validate_replay_events(Model const& m, std::vector<ReplayEvent> const& events, int grid_blocks);

}  // namespace ts::cpu
