// The side-by-side sample run behind the schedule table and the schedule picture:
// every task's expanded Head + Loop + Tail, executed row by row; whether a step passes is
// the checker's credit model (check::CreditModel, see docs/printout.md). One run, not a
// proof: the checker explores all.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ts/schedule/model.hpp"

namespace ts::print {

struct SimCell {
  int task = 0;
  int step = 0;                 // schedule step id
  std::string text;             // `<resource> <op>[stage] <tag> <call-idx>`
  std::string op;               // op name, e.g. ProducerAcquire, ConsumerWork:take
  ir::Section section = ir::Section::Head;
  bool blocked = false;
  bool handoff = false;         // took a credit another task handed over
  int from_row = -1, from_task = -1;  // where that credit came from
};

struct Simulation {
  std::vector<std::string> headers;                        // name[warp_start:warp_end)
  std::vector<std::vector<std::optional<SimCell>>> rows;   // rows x tasks
  bool deadlock = false;
  std::vector<std::string> unbalanced;                     // "1x ProducerCommit from ring not consumed by C!"
  long long sample_iterations = 0;
};

Simulation simulate(Model const& m);
std::string op_name(ir::Step const& s);

}  // namespace ts::print
