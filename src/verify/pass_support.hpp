// Shared helpers of the static validation passes: building diagnostics that point at a
// step, and small queries over the Model that several passes need.
#pragma once
#include <string>
#include <vector>

#include "ts/core/errors.hpp"
#include "ts/schedule/model.hpp"

namespace ts::verify {

using Diagnostics = std::vector<Diagnostic>;

// A diagnostic naming the task, the step's resource, the step id, section and text.
Diagnostic at_step(Model const& m, int task, int step, std::string check, std::string message);
// A diagnostic naming a task (and optionally a resource) but no step.
Diagnostic at_task(Model const& m, int task, std::string check, std::string message, int resource = -1);
// A diagnostic naming a resource only.
Diagnostic at_resource(Model const& m, int resource, std::string check, std::string message);

// Producer side of a resource: try_acquire / acquire / commit / producer work / fetch.
bool is_producer_op(ir::Step const& s);
// Consumer side: try_wait / wait / release / consumer work / get_and_advance_work_tile.
bool is_consumer_op(ir::Step const& s);

// True when `outer` is `inner` or one of its ancestors.
bool block_encloses(ir::ScheduleIR const& ir, int outer, int inner);

// Does the task's schedule touch the resource (a step on it, its tile loop, a bound provider)?
bool schedule_uses(TaskModel const& t, int resource);
bool contains(std::vector<int> const& v, int x);

// Every task issuing a step of `kind` on `resource`.
std::vector<int> tasks_issuing(Model const& m, int resource, SyncOp kind);
// First step of `kind` on `resource` in the task, -1 when none.
int first_step(TaskModel const& t, int resource, SyncOp kind);

std::string join_task_names(Model const& m, std::vector<int> const& tasks);

}  // namespace ts::verify
