// Stall attribution of a step trace (emulator or GPU, ts::Trace): per task and per
// (task, resource), the time spent blocked in wait and acquire versus working, and a
// verdict paragraph naming the dominant stall and what it suggests (docs/pictures.md,
// "Stall attribution").
//
// A traced step lasts from its start to the start of the same leader's next step (both
// backends record step starts only), so a wait or acquire step's interval is the time
// the leader spent blocked in it (plus the hand-back to the next step).
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "ts/core/trace.hpp"
#include "ts/schedule/model.hpp"

namespace ts::print {

// What a traced step spent its time on.
enum class StallOp {
  Work,     // a work body (producer, consumer or auxiliary)
  Wait,     // consumer wait / try_wait: blocked until a stage is full
  Acquire,  // producer acquire / try_acquire: blocked until a stage is free
  Queue,    // work-queue fetch / advance: blocked until a tile is handed out
  Sync,     // commit, release, break: signals that do not block
};
char const* to_string(StallOp op);

// One step interval, named (not numbered): what the attribution reads. Built from a
// Model + Trace, from trace-event JSON, or by hand (tests).
struct StallStep {
  int cta = 0;
  std::string task;
  std::string resource;  // "" for a step on no resource
  StallOp op = StallOp::Work;
  long long begin = 0, end = 0;
};

struct StallTrace {
  std::string clock;                   // "logical" (emulator decisions), "ns" (GPU), "us"
  std::vector<std::string> tasks;      // declared tasks in order; empty: any name is accepted
  std::vector<std::string> resources;  // declared resources; empty: any name is accepted
  std::vector<StallStep> steps;
};

// Malformed input (an empty trace, an unknown task or resource, an open step, a wait
// with no resource, JSON that is no trace): the message says which step and why.
struct StallError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Names from the model: the event's task, its step's kind and resource.
StallTrace stall_trace(Model const& m, Trace const& t);
// Trace-event JSON as trace_chrome_json writes it (args.kind/resource/begin/end; older
// exports without them: kind from "cat", resource from the step name, times from ts/dur).
StallTrace stall_trace_from_chrome_json(std::string const& json);

// Times on the trace's clock.
struct StallTimes {
  long long total = 0, wait = 0, acquire = 0, queue = 0, sync = 0, work = 0;
  double pct(long long x) const { return total > 0 ? 100.0 * double(x) / double(total) : 0.0; }
};

struct TaskStalls {
  std::string task;
  int ctas = 0;  // CTAs whose trace has this task's steps
  StallTimes t;
};

// One task's time on one resource; t.total is the task's total (percentages of it).
struct TaskResourceStalls {
  std::string task, resource;
  StallTimes t;
};

// The two sides of a pipelined resource and who waits on whom.
struct ResourceStalls {
  std::string resource;
  std::vector<std::string> producers, consumers;  // tasks that acquire / wait on it
  long long wait = 0, acquire = 0, work = 0;      // summed over its tasks
  double wait_pct = 0;     // the most-blocked consumer: its wait time on this resource / its total
  double acquire_pct = 0;  // the most-blocked producer: its acquire time / its total
  std::string wait_task, acquire_task;  // who those are ("" when none)
  std::string bound;       // "producer-bound", "consumer-bound", "balanced", "both-blocked", or "" (no sync)
};

// Verdict thresholds (documented in docs/pictures.md):
//  * a side is blocked when it spends at least `stall_pct` % of its time in wait (consumer)
//    or acquire (producer) on the resource;
//  * one side dominates when its blocked share is at least `dominance` times the other's.
// Per resource: neither side blocked -> balanced; only consumers blocked, or both and
// consumers dominating -> producer-bound (the producer cannot keep the stages full); only
// producers blocked, or both and producers dominating -> consumer-bound (consumers hold
// the stages too long); both blocked and neither dominating -> both-blocked (latency-bound:
// too few stages, or an upstream stall).
struct StallThresholds {
  double stall_pct = 10.0;
  double dominance = 2.0;
};

struct StallReport {
  std::string clock;
  StallThresholds thresholds;
  std::vector<TaskStalls> tasks;                   // declaration order, then first appearance
  std::vector<TaskResourceStalls> task_resources;  // pairs with any time, task order then resource
  std::vector<ResourceStalls> resources;           // resources with a wait or acquire step
  std::string bound;    // the overall verdict: the dominant stall's resource verdict, or "balanced"
  std::string verdict;  // one paragraph for a kernel engineer
};

StallReport stall_report(StallTrace const& t, StallThresholds th = {});
StallReport stall_report(Model const& m, Trace const& t, StallThresholds th = {});

// Plain-text tables (per task, per task and resource, per resource) and the verdict.
std::string stall_table(StallReport const& r);
// The same as an HTML <section class="ts-stalls"> (tables and a <p class="stall-verdict">).
std::string stall_html(StallReport const& r);

}  // namespace ts::print
