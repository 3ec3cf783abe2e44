// Up-front validation of what the user hands the TaskManager: the Options and the
// tasks' warp layout. Both run before anything is recorded, printed or explored, so a
// value outside its documented range is named as such instead of surfacing later as a
// crash, an empty table or a verdict that means nothing (docs/user-guide.md, "Options").
#pragma once
#include "ts/schedule/model.hpp"

namespace ts {

// Options bounds (docs/user-guide.md, "Options").
// The checker numbers its states with 32-bit indices (0xffffffff = "no parent") and may
// add 65,536 states past the cap while it finishes a block; it also reserves cap x state
// bytes of address space. 2e9 keeps both well inside their types.
constexpr long long kMaxStateCap = 2'000'000'000;
// A task's iteration counter is one 16-bit word of a checker state.
constexpr long long kMaxCheckLength = 65'535;
// A persistent schedule's skipped-tile mask is one 16-bit word of a checker state, and
// every subset of skipped tiles is an initial state.
constexpr int kMaxCheckTiles = 16;
// The printout lists every step of every sampled iteration; past this the table is
// no longer something to read (and 5e6 iterations is 79 MB of text).
constexpr int kMaxSampleIterations = 256;

// The CUDA limit on threads per CTA (every H100/H200/B200 part).
constexpr int kMaxBlockThreads = 1024;

// Throws ts::OptionsError naming the option, its value and the valid range.
void validate_options(Options const& o);

// Throws ts::ModelError for an empty task list, a task with a negative start or no
// warps, two tasks sharing a warp, or more than kMaxBlockThreads threads in the CTA.
void validate_task_layout(Model const& m);

}  // namespace ts
