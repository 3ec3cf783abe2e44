// Printouts (SPEC S8.1, S8.2) and the machine-readable export of the model.
#pragma once
#include <ostream>
#include <string>

#include "ts/core/memory_layout.hpp"
#include "ts/schedule/model.hpp"

namespace ts::print {

// Side-by-side schedule table: one column per task `name[warp_start:warp_end)`, the
// combined Head + Loop + Tail of every task simulated step by step with producer and
// consumer credits reconciled. Cells read `<resource> <op>[stage] <phase-tag> <call-idx>`;
// `=> ` marks a step that took a credit handed over by another task; a step that cannot
// proceed prints `is blocked!`; unbalanced pipelines end with lines such as
// `1x ProducerCommit from smem not consumed!`. See docs/printout.md.
void schedule_table(Model const& m, std::ostream& os);

// The warp-lane block (printed after the schedule table when a side runs in warp-lane
// mode, docs/warp-lanes.md): `ring wait/release in Lanes[1:3) stride 2: warp 1 -> stages
// 0, 2; warp 2 -> stages 1, 3`.
void warp_lanes(Model const& m, std::ostream& os);

// Register budget block: each task's request against the launch budget (setmaxnreg).
void register_budget(Model const& m, std::ostream& os);

// SMEM/TMEM usage against capacity (data + 16 B per barrier stage) and the allocator
// report: every placement (size, alignment, offset, end), alias groups by phase and the
// bytes they save (SPEC S8.3, S8.4).
void memory_report(Model const& m, MemoryLayout const& layout, std::ostream& os);

// JSON export of the model and its captured IR (docs/ir-json.md, schema "ts.model/1").
std::string model_json(Model const& m);

}  // namespace ts::print
