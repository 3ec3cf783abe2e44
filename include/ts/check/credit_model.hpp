// The checker's credit model (SPEC S7.2), stepped one op at a time by a caller that runs
// one interleaving of its own instead of exploring them all: the schedule table's sample
// run (print/simulation.cpp). Whether an op passes, what it changes and what a finished
// run still owes are check::Semantics' own rules (src/check/semantics.cpp,
// turn_credits.cpp): stage counts, split and domain-lane consumers, turn-taking rings,
// warp-lane weights, TMA stages left without a copy. A second model beside the checker's
// had drifted from it once (commit 319e8d4); this keeps one.
#pragma once
#include <memory>
#include <vector>

#include "ts/schedule/model.hpp"

namespace ts::check {

// What a run left owed on one pipelined resource.
struct CreditDebt {
  enum Kind { Unconsumed, Unreleased };
  Kind kind = Unconsumed;
  int resource = -1;
  int task = -1;        // Unconsumed: the consumer task that did not wait them; -1: any turn-taker
  long long count = 0;  // Unconsumed: commits; Unreleased: acquired stages never given back
};

class CreditModel {
 public:
  // runtime_length: the length a runtime-length domain loop (and a skip by it) runs.
  CreditModel(Model const& m, long long runtime_length);
  ~CreditModel();
  CreditModel(CreditModel const&) = delete;
  CreditModel& operator=(CreditModel const&) = delete;

  // Step `step` (an id in task's ScheduleIR::steps); steps that are no pipeline op always pass.
  bool enabled(int task, int step) const;
  void apply(int task, int step);
  // In resource order; per resource the consumers' unwaited commits, then unreleased stages.
  std::vector<CreditDebt> debts() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ts::check
