// Turn-taking consumers (docs/turns.md): the rule that ties a skip's stage count to the
// loop lengths of the ring's other consumers, shared by the static check (S6.26) and
// the checker (check/program.cpp), so both read one count the same way.
#pragma once
#include <string>

#include "ts/schedule/model.hpp"

namespace ts::ir {

// Does the task's domain loop provably run `count` iterations? True when `count` and the
// loop's `(end - start) / step` are equal affine forms (a positive constant step dividing
// exactly), or both are static and equal.
bool loop_runs(ScheduleIR const& ir, Bound const& count);

// The trip count of `ir`'s domain loop as an affine form's text ("k_iters", "4"), or ""
// when it has no comparable form.
std::string trip_text(ScheduleIR const& ir);

}  // namespace ts::ir

namespace ts {

// The task whose domain loop provably runs `count` iterations: another task that waits on
// `resource` first (the turn-taker whose stages a skip passes over), else `self`; -1 when
// none does.
int turn_count_task(Model const& m, int resource, ir::Bound const& count, int self);

}  // namespace ts
