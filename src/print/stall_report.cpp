// Stall attribution: where each task's time goes (blocked in wait/acquire/queue steps,
// working, signalling), per task and resource, and the verdict paragraph.
#include "ts/print/stall_report.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

#include "ts/print/json_reader.hpp"
#include "svg_style.hpp"

namespace ts::print {

char const* to_string(StallOp op) {
  switch (op) {
    case StallOp::Work: return "work";
    case StallOp::Wait: return "wait";
    case StallOp::Acquire: return "acquire";
    case StallOp::Queue: return "queue";
    case StallOp::Sync: return "sync";
  }
  return "?";
}

namespace {

StallOp stall_op(SyncOp k) {
  using K = SyncOp;
  switch (k) {
    case K::Work: return StallOp::Work;
    case K::TryWait:
    case K::Wait: return StallOp::Wait;
    case K::TryAcquire:
    case K::Acquire: return StallOp::Acquire;
    case K::Fetch:
    case K::Advance: return StallOp::Queue;
    case K::Commit:
    case K::Release:
    case K::BreakLoop:
    case K::Skip: return StallOp::Sync;
  }
  return StallOp::Sync;
}

// The op of a picture kind ("acquire", "producer-work", ...; svg::kind_of) or of a
// StallOp name ("wait", "work", ...).
StallOp stall_op(std::string const& kind) {
  if (kind == "wait") return StallOp::Wait;
  if (kind == "acquire") return StallOp::Acquire;
  if (kind == "queue") return StallOp::Queue;
  if (kind == "work" || (kind.size() > 5 && kind.compare(kind.size() - 5, 5, "-work") == 0)) return StallOp::Work;
  return StallOp::Sync;
}

std::string pct(double p) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f %%", p);
  return b;
}
std::string num(double p) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", p);
  return b;
}

std::string join(std::vector<std::string> const& v, char const* sep = ", ") {
  std::string o;
  for (auto const& s : v) o += (o.empty() ? "" : sep) + s;
  return o;
}

std::string op_suffix(StallOp op) {
  return op == StallOp::Wait ? ".wait" : op == StallOp::Acquire ? ".acquire" : op == StallOp::Queue ? " (queue)" : "";
}

long long& slot(StallTimes& t, StallOp op) {
  switch (op) {
    case StallOp::Work: return t.work;
    case StallOp::Wait: return t.wait;
    case StallOp::Acquire: return t.acquire;
    case StallOp::Queue: return t.queue;
    case StallOp::Sync: return t.sync;
  }
  return t.sync;
}
long long get(StallTimes const& t, StallOp op) { return slot(const_cast<StallTimes&>(t), op); }

std::string step_where(size_t i, StallStep const& s) {
  return "step " + std::to_string(i) + " (task '" + s.task + "', CTA " + std::to_string(s.cta) + ")";
}

}  // namespace

StallTrace stall_trace(Model const& m, Trace const& t) {
  StallTrace out;
  out.clock = t.clock;
  for (auto const& task : m.tasks) out.tasks.push_back(task.name);
  for (size_t r = 0; r < m.resources.size(); ++r) out.resources.push_back(m.resource(int(r)).name);
  for (size_t i = 0; i < t.events.size(); ++i) {
    auto const& e = t.events[i];
    if (e.task < 0 || e.task >= int(m.tasks.size()))
      throw StallError("stall attribution: trace event " + std::to_string(i) + " names task " + std::to_string(e.task) +
                       "; the model has " + std::to_string(m.tasks.size()) + " tasks (a trace of another manager?)");
    auto const& steps = m.tasks[e.task].schedule.steps;
    if (e.step < 0 || e.step >= int(steps.size()))
      throw StallError("stall attribution: trace event " + std::to_string(i) + " names step " + std::to_string(e.step) +
                       " of task '" + m.tasks[e.task].name + "', which has " + std::to_string(steps.size()) +
                       " steps (a trace of another manager?)");
    auto const& st = steps[e.step];
    if (st.resource >= int(m.resources.size()))
      throw StallError("stall attribution: trace event " + std::to_string(i) + " (task '" + m.tasks[e.task].name +
                       "') names resource id " + std::to_string(st.resource) + "; the model has " +
                       std::to_string(m.resources.size()) + " resources");
    out.steps.push_back(StallStep{e.cta, m.tasks[e.task].name, st.resource >= 0 ? m.resource(st.resource).name : "",
                                  stall_op(st.kind), e.begin, e.end});
  }
  return out;
}

StallTrace stall_trace_from_chrome_json(std::string const& json) {
  JsonValue doc;
  try {
    doc = JsonReader::parse(json);
  } catch (JsonParseError const& e) {
    throw StallError(std::string("stall attribution: not a trace-event JSON file: ") + e.what());
  }
  JsonValue const* events = doc.is_array() ? &doc : doc.get("traceEvents");
  if (!events || !events->is_array())
    throw StallError("stall attribution: the JSON has no \"traceEvents\" array (expected trace_chrome_json's export)");
  StallTrace out;
  JsonValue const* other = doc.get("otherData");
  out.clock = other ? other->string_or("clock", "") : "";
  if (out.clock.empty()) out.clock = doc.string_or("displayTimeUnit", "") == "ns" ? "ns" : "us";
  bool raw = false;  // args.begin/end carry the trace's own clock
  std::map<long long, std::string> thread_names;
  if (other)
    for (char const* list : {"tasks", "resources"})
      if (auto const* v = other->get(list); v && v->is_array())
        for (auto const& s : v->items)
          if (s.is_string()) (std::string(list) == "tasks" ? out.tasks : out.resources).push_back(s.str);
  for (auto const& e : events->items)
    if (e.string_or("ph", "") == "M" && e.string_or("name", "") == "thread_name")
      if (auto const* a = e.get("args")) thread_names[(long long)e.number_or("tid", -1)] = a->string_or("name", "");
  for (size_t i = 0; i < events->items.size(); ++i) {
    auto const& e = events->items[i];
    if (!e.is_object()) throw StallError("stall attribution: traceEvents[" + std::to_string(i) + "] is not an object");
    if (e.string_or("ph", "") != "X" || e.string_or("cat", "") == "tile") continue;
    std::string name = e.string_or("name", "");
    auto where = [&] { return "traceEvents[" + std::to_string(i) + "] (\"" + name + "\")"; };
    long long tid = (long long)e.number_or("tid", -1);
    StallStep s;
    s.cta = int(e.number_or("pid", 0));
    if (tid >= 0 && tid < (long long)out.tasks.size()) s.task = out.tasks[size_t(tid)];
    else if (thread_names.count(tid)) s.task = thread_names[tid];
    else throw StallError("stall attribution: " + where() + " is on tid " + std::to_string(tid) +
                          ", which no thread_name metadata (nor otherData.tasks) names");
    JsonValue const* args = e.get("args");
    std::string kind = args ? args->string_or("stall", "") : "";
    s.op = stall_op(kind.empty() ? svg::kind_of(e.string_or("cat", "")) : kind);
    if (args && args->get("resource")) s.resource = args->string_or("resource", "");
    else if (s.op != StallOp::Work && name.find('.') != std::string::npos) s.resource = name.substr(0, name.find('.'));
    if (args && args->has_number("begin") && args->has_number("end")) {
      s.begin = (long long)args->number_or("begin", 0);
      s.end = (long long)args->number_or("end", 0);
      raw = true;
    } else {
      if (!e.has_number("ts")) throw StallError("stall attribution: " + where() + " has no \"ts\"");
      // Microseconds as written; keep nanosecond resolution.
      double ts = e.number_or("ts", 0), dur = e.number_or("dur", 0);
      s.begin = (long long)(ts * 1000.0 + 0.5);
      s.end = (long long)((ts + dur) * 1000.0 + 0.5);
    }
    out.steps.push_back(std::move(s));
  }
  if (!raw && !out.steps.empty()) out.clock = "ns";  // from ts/dur: microseconds read as nanoseconds
  return out;
}

StallReport stall_report(StallTrace const& t, StallThresholds th) {
  if (t.steps.empty())
    throw StallError("stall attribution: the trace has no steps (was the run traced? ts::cpu::RunOptions::trace = "
                     "true, or ts::cuda::LaunchOptions::trace with decode_trace)");
  if (!(th.stall_pct >= 0 && th.stall_pct <= 100) || !(th.dominance >= 1))
    throw StallError("stall attribution: thresholds out of range: stall_pct " + num(th.stall_pct) +
                     " (expected 0..100), dominance " + num(th.dominance) + " (expected >= 1)");
  std::set<std::string> declared_tasks(t.tasks.begin(), t.tasks.end());
  std::set<std::string> declared_res(t.resources.begin(), t.resources.end());
  StallReport r;
  r.clock = t.clock;
  r.thresholds = th;
  std::vector<std::string> task_order;
  std::map<std::string, StallTimes> per_task;
  std::map<std::string, std::set<int>> ctas;
  std::map<std::pair<std::string, std::string>, StallTimes> per_pair;
  std::vector<std::string> res_order;
  std::map<std::string, std::set<std::string>> producers, consumers;
  for (auto const& n : t.tasks) task_order.push_back(n);
  for (size_t i = 0; i < t.steps.size(); ++i) {
    auto const& s = t.steps[i];
    if (s.task.empty()) throw StallError("stall attribution: " + step_where(i, s) + " has no task name");
    if (!declared_tasks.empty() && !declared_tasks.count(s.task))
      throw StallError("stall attribution: " + step_where(i, s) + " names a task the trace does not declare (declared: " +
                       join(t.tasks) + ")");
    if (s.end < s.begin)
      throw StallError("stall attribution: " + step_where(i, s) + " ends (" + std::to_string(s.end) +
                       ") before it begins (" + std::to_string(s.begin) + ")" +
                       (s.end < 0 ? ": a step still open (end -1); take the trace after the run" : ""));
    if ((s.op == StallOp::Wait || s.op == StallOp::Acquire || s.op == StallOp::Queue) && s.resource.empty())
      throw StallError("stall attribution: " + step_where(i, s) + " is a " + to_string(s.op) +
                       " on no resource: a blocked step must name what it waits for");
    if (!s.resource.empty() && !declared_res.empty() && !declared_res.count(s.resource))
      throw StallError("stall attribution: " + step_where(i, s) + " names resource '" + s.resource +
                       "', which the trace does not declare (declared: " + join(t.resources) + ")");
    if (!per_task.count(s.task) && std::find(task_order.begin(), task_order.end(), s.task) == task_order.end())
      task_order.push_back(s.task);
    long long d = s.end - s.begin;
    auto& tt = per_task[s.task];
    tt.total += d;
    slot(tt, s.op) += d;
    ctas[s.task].insert(s.cta);
    if (!s.resource.empty()) {
      slot(per_pair[{s.task, s.resource}], s.op) += d;
      if (std::find(res_order.begin(), res_order.end(), s.resource) == res_order.end()) res_order.push_back(s.resource);
      if (s.op == StallOp::Acquire) producers[s.resource].insert(s.task);
      if (s.op == StallOp::Wait) consumers[s.resource].insert(s.task);
    }
  }
  for (auto const& n : task_order)
    if (per_task.count(n)) r.tasks.push_back(TaskStalls{n, int(ctas[n].size()), per_task[n]});
  // Resources in declaration order where declared, else first appearance.
  std::vector<std::string> res_sorted;
  for (auto const& n : t.resources)
    if (std::find(res_order.begin(), res_order.end(), n) != res_order.end()) res_sorted.push_back(n);
  for (auto const& n : res_order)
    if (std::find(res_sorted.begin(), res_sorted.end(), n) == res_sorted.end()) res_sorted.push_back(n);
  for (auto const& task : r.tasks)
    for (auto const& res : res_sorted)
      if (auto it = per_pair.find({task.task, res}); it != per_pair.end()) {
        TaskResourceStalls p{task.task, res, it->second};
        p.t.total = task.t.total;
        r.task_resources.push_back(p);
      }
  auto pair_pct = [&](std::string const& task, std::string const& res, StallOp op) {
    auto it = per_pair.find({task, res});
    if (it == per_pair.end()) return 0.0;
    StallTimes t2 = it->second;
    t2.total = per_task[task].total;
    return t2.pct(slot(t2, op));
  };
  for (auto const& res : res_sorted) {
    if (!producers.count(res) && !consumers.count(res)) continue;
    ResourceStalls rs;
    rs.resource = res;
    for (auto const& n : task_order) {
      if (producers[res].count(n)) rs.producers.push_back(n);
      if (consumers[res].count(n)) rs.consumers.push_back(n);
      if (auto it = per_pair.find({n, res}); it != per_pair.end()) {
        rs.wait += it->second.wait;
        rs.acquire += it->second.acquire;
        rs.work += it->second.work;
      }
    }
    for (auto const& c : rs.consumers)
      if (double p = pair_pct(c, res, StallOp::Wait); rs.wait_task.empty() || p > rs.wait_pct) rs.wait_pct = p, rs.wait_task = c;
    for (auto const& p0 : rs.producers)
      if (double p = pair_pct(p0, res, StallOp::Acquire); rs.acquire_task.empty() || p > rs.acquire_pct)
        rs.acquire_pct = p, rs.acquire_task = p0;
    double w = rs.wait_pct, a = rs.acquire_pct;
    bool wb = w >= th.stall_pct, ab = a >= th.stall_pct;
    if (!wb && !ab) rs.bound = "balanced";
    else if (wb && (!ab || w >= th.dominance * a)) rs.bound = "producer-bound";
    else if (ab && (!wb || a >= th.dominance * w)) rs.bound = "consumer-bound";
    else rs.bound = "both-blocked";
    r.resources.push_back(rs);
  }

  // The dominant stall: the largest blocked share of one task on one resource.
  struct Stall {
    std::string task, resource;
    StallOp op;
    double pct;
  };
  std::vector<Stall> stalls;
  for (auto const& p : r.task_resources)
    for (StallOp op : {StallOp::Wait, StallOp::Acquire, StallOp::Queue})
      if (long long v = get(p.t, op); v > 0) stalls.push_back({p.task, p.resource, op, p.t.pct(v)});
  std::stable_sort(stalls.begin(), stalls.end(), [](Stall const& a, Stall const& b) { return a.pct > b.pct; });
  auto task_of = [&](std::string const& n) -> TaskStalls const& {
    for (auto const& x : r.tasks)
      if (x.task == n) return x;
    return r.tasks.front();
  };
  auto res_of = [&](std::string const& n) -> ResourceStalls const* {
    for (auto const& x : r.resources)
      if (x.resource == n) return &x;
    return nullptr;
  };
  auto works = [&](std::vector<std::string> const& names) {
    std::vector<std::string> v;
    for (auto const& n : names) v.push_back(n + " works " + pct(task_of(n).t.pct(task_of(n).t.work)) + " of its time");
    return join(v, ", ");
  };
  // A task's own largest stall other than on `res` (an upstream cause), if it is blocked.
  auto upstream = [&](std::vector<std::string> const& names, std::string const& res) {
    std::string o;
    for (auto const& n : names)
      for (auto const& s : stalls)
        if (s.task == n && s.resource != res && s.pct >= th.stall_pct) {
          o += " " + n + " itself waits " + pct(s.pct) + " on " + s.resource + op_suffix(s.op) +
               ": the stall starts further upstream, look there first.";
          break;
        }
    return o;
  };
  std::ostringstream v;
  if (stalls.empty() || stalls.front().pct < th.stall_pct) {
    r.bound = "balanced";
    v << "Balanced: no task is blocked " << pct(th.stall_pct) << " of its time or more";
    if (!stalls.empty())
      v << " (the most: " << stalls.front().task << " " << pct(stalls.front().pct) << " on " << stalls.front().resource
        << op_suffix(stalls.front().op) << ")";
    std::vector<std::string> all;
    for (auto const& x : r.tasks) all.push_back(x.task);
    v << ". The pipeline keeps every task fed; the kernel is bound by its work bodies (" << works(all)
      << "): speed up the work itself (memory access, math), not the handoffs.";
  } else {
    Stall const& d = stalls.front();
    ResourceStalls const* rs = res_of(d.resource);
    if (d.op == StallOp::Queue) {
      r.bound = "queue-bound";
      v << d.task << " waited " << pct(d.pct) << " of its time on " << d.resource
        << " (the work queue): queue-bound. Tiles reach " << d.task
        << " late: the scheduler task or the tile fetch latency limits the kernel; fetch the next tile earlier "
           "(prefetch, more queue stages) or make the scheduler's work cheaper.";
    } else if (rs && rs->bound == "both-blocked") {
      r.bound = rs->bound;
      v << rs->wait_task << " waited " << pct(rs->wait_pct) << " of its time on " << d.resource << ".wait and "
        << rs->acquire_task << " " << pct(rs->acquire_pct) << " on " << d.resource << ".acquire: both sides of "
        << d.resource << " block (latency-bound). Neither side is simply slower: the handoff latency or too few stages "
        << "limit the pipeline; add stages to " << d.resource << " or issue the producer's copies earlier.";
    } else if (d.op == StallOp::Wait) {
      r.bound = "producer-bound";
      std::vector<std::string> prods = rs ? rs->producers : std::vector<std::string>{};
      v << d.task << " waited " << pct(d.pct) << " of its time on " << d.resource << ".wait: producer-bound. ";
      if (prods.empty()) {
        v << "No task acquires " << d.resource << " in this trace (its stages are filled by copies or by another "
          << "kernel): the fill of " << d.resource << " is the bottleneck.";
      } else {
        v << join(prods) << " cannot keep " << d.resource << " full (" << works(prods);
        if (rs) v << "; " << rs->acquire_task << " waited " << pct(rs->acquire_pct) << " on " << d.resource << ".acquire";
        v << "): make the producer faster (wider or asynchronous loads, more producer warps, an earlier start); more "
             "stages do not help a producer that is slower on average.";
        v << upstream(prods, d.resource);
      }
    } else {
      r.bound = "consumer-bound";
      std::vector<std::string> cons = rs ? rs->consumers : std::vector<std::string>{};
      v << d.task << " waited " << pct(d.pct) << " of its time on " << d.resource << ".acquire: consumer-bound. ";
      if (cons.empty()) {
        v << "No task waits on " << d.resource << " in this trace: its stages are freed elsewhere, and slowly.";
      } else {
        v << join(cons) << " hold" << (cons.size() == 1 ? "s" : "") << " the stages of " << d.resource << " too long ("
          << works(cons);
        if (rs) v << "; " << rs->wait_task << " waited " << pct(rs->wait_pct) << " on " << d.resource << ".wait";
        v << "): speed up the consumer's work or release each stage as soon as it is read; more stages only absorb "
             "bursts. Where the consumer is the math (MMA), this is the intended state: the loads keep up.";
        v << upstream(cons, d.resource);
      }
    }
    std::vector<std::string> others;
    for (size_t i = 1; i < stalls.size() && others.size() < 4; ++i)
      if (stalls[i].pct >= 0.05 && (d.op == StallOp::Queue || stalls[i].resource != d.resource ||
                                    (stalls[i].op != StallOp::Wait && stalls[i].op != StallOp::Acquire)))
        others.push_back(stalls[i].task + " waited " + pct(stalls[i].pct) + " on " + stalls[i].resource +
                         op_suffix(stalls[i].op));
    if (!others.empty()) v << " Other stalls: " << join(others, "; ") << ".";
  }
  // Tasks that never block.
  std::vector<std::string> never;
  for (auto const& x : r.tasks)
    if (x.t.wait + x.t.acquire + x.t.queue == 0) never.push_back(x.task);
  if (!never.empty() && r.tasks.size() > 1) v << " Never blocked: " << join(never) << ".";
  if (r.resources.size() > 1) {
    std::vector<std::string> per;
    for (auto const& x : r.resources) per.push_back(x.resource + " " + x.bound);
    v << " Per resource: " << join(per, "; ") << ".";
  }
  if (t.clock == "logical")
    v << " (Emulator trace: times are scheduler decisions, so the shares show the emulated interleaving and the "
         "relative cost of work bodies, not GPU time.)";
  r.verdict = v.str();
  return r;
}

StallReport stall_report(Model const& m, Trace const& t, StallThresholds th) { return stall_report(stall_trace(m, t), th); }

std::string stall_table(StallReport const& r) {
  std::ostringstream os;
  std::string unit = r.clock == "logical" ? "decisions" : r.clock;
  os << "Stall attribution (clock: " << r.clock << ", times in " << unit
     << "; a step lasts until its leader's next step starts)\n\n";
  size_t w = 8;
  for (auto const& t : r.tasks) w = std::max(w, t.task.size() + 2);
  os << std::left << std::setw(int(w)) << "task" << std::right << std::setw(6) << "CTAs" << std::setw(14)
     << "total" << std::setw(9) << "wait %" << std::setw(11) << "acquire %" << std::setw(9)
     << "queue %" << std::setw(8) << "sync %" << std::setw(8) << "work %" << "\n";
  for (auto const& t : r.tasks)
    os << std::left << std::setw(int(w)) << t.task << std::right << std::setw(6) << t.ctas << std::setw(14) << t.t.total
       << std::setw(9) << num(t.t.pct(t.t.wait)) << std::setw(11) << num(t.t.pct(t.t.acquire)) << std::setw(9)
       << num(t.t.pct(t.t.queue)) << std::setw(8) << num(t.t.pct(t.t.sync)) << std::setw(8) << num(t.t.pct(t.t.work))
       << "\n";
  size_t w2 = 16;
  for (auto const& p : r.task_resources) w2 = std::max(w2, p.task.size() + p.resource.size() + 5);
  os << "\n" << std::left << std::setw(int(w2)) << "task / resource" << std::right << std::setw(9) << "wait %"
     << std::setw(11) << "acquire %" << std::setw(9) << "queue %" << std::setw(8) << "sync %" << std::setw(8) << "work %"
     << "\n";
  for (auto const& p : r.task_resources)
    os << std::left << std::setw(int(w2)) << (p.task + " / " + p.resource) << std::right << std::setw(9)
       << num(p.t.pct(p.t.wait)) << std::setw(11) << num(p.t.pct(p.t.acquire)) << std::setw(9) << num(p.t.pct(p.t.queue))
       << std::setw(8) << num(p.t.pct(p.t.sync)) << std::setw(8) << num(p.t.pct(p.t.work)) << "\n";
  if (!r.resources.empty()) {
    os << "\nresource: producers -> consumers: most-blocked consumer wait, producer acquire: verdict\n";
    for (auto const& x : r.resources)
      os << "  " << x.resource << ": " << (x.producers.empty() ? "-" : join(x.producers)) << " -> "
         << (x.consumers.empty() ? "-" : join(x.consumers)) << ": wait " << pct(x.wait_pct)
         << (x.wait_task.empty() ? "" : " (" + x.wait_task + ")") << ", acquire " << pct(x.acquire_pct)
         << (x.acquire_task.empty() ? "" : " (" + x.acquire_task + ")") << ": " << x.bound << "\n";
  }
  os << "\nVerdict (" << r.bound << "; blocked >= " << num(r.thresholds.stall_pct) << " %, dominant >= "
     << num(r.thresholds.dominance) << "x the other side): " << r.verdict << "\n";
  return os.str();
}

std::string stall_html(StallReport const& r) {
  using svg::xml;
  std::ostringstream os;
  auto bar = [&](StallTimes const& t) {
    // A stacked bar of the shares: wait, acquire, queue, sync, work.
    std::ostringstream b;
    b << "<svg class=\"stall-bar\" width=\"200\" height=\"12\">";
    double x = 0;
    struct Part {
      long long v;
      char const* cls;
      char const* color;
    };
    for (Part p : {Part{t.wait, "wait", "#ef4444"}, Part{t.acquire, "acquire", "#f97316"}, Part{t.queue, "queue", "#a855f7"},
                   Part{t.sync, "sync", "#94a3b8"}, Part{t.work, "work", "#22c55e"}}) {
      double w = 2.0 * t.pct(p.v);
      if (w <= 0) continue;
      b << "<rect class=\"stall-" << p.cls << "\" x=\"" << x << "\" y=\"0\" width=\"" << w << "\" height=\"12\" fill=\""
        << p.color << "\"><title>" << p.cls << " " << pct(t.pct(p.v)) << "</title></rect>";
      x += w;
    }
    b << "</svg>";
    return b.str();
  };
  os << "<section class=\"ts-stalls\">\n<h2>Stall attribution</h2>\n";
  os << "<p class=\"stall-verdict\" data-bound=\"" << xml(r.bound) << "\"><b>" << xml(r.bound) << ".</b> "
     << xml(r.verdict) << "</p>\n";
  os << "<table class=\"stall-table\"><tr><th>task</th><th>CTAs</th><th>total (" << xml(r.clock)
     << ")</th><th>wait</th><th>acquire</th><th>queue</th><th>sync</th><th>work</th><th>share</th></tr>\n";
  for (auto const& t : r.tasks)
    os << "<tr class=\"stall-task\" data-task=\"" << xml(t.task) << "\"><td>" << xml(t.task) << "</td><td>" << t.ctas
       << "</td><td>" << t.t.total << "</td><td>" << pct(t.t.pct(t.t.wait)) << "</td><td>" << pct(t.t.pct(t.t.acquire))
       << "</td><td>" << pct(t.t.pct(t.t.queue)) << "</td><td>" << pct(t.t.pct(t.t.sync)) << "</td><td>"
       << pct(t.t.pct(t.t.work)) << "</td><td>" << bar(t.t) << "</td></tr>\n";
  os << "</table>\n<table class=\"stall-table\"><tr><th>task / resource</th><th>wait</th><th>acquire</th><th>queue</th>"
        "<th>work</th></tr>\n";
  for (auto const& p : r.task_resources)
    os << "<tr><td>" << xml(p.task + " / " + p.resource) << "</td><td>" << pct(p.t.pct(p.t.wait)) << "</td><td>"
       << pct(p.t.pct(p.t.acquire)) << "</td><td>" << pct(p.t.pct(p.t.queue)) << "</td><td>" << pct(p.t.pct(p.t.work))
       << "</td></tr>\n";
  os << "</table>\n";
  if (!r.resources.empty()) {
    os << "<table class=\"stall-table\"><tr><th>resource</th><th>producers</th><th>consumers</th><th>wait (most "
          "blocked)</th><th>acquire (most blocked)</th><th>verdict</th></tr>\n";
    for (auto const& x : r.resources)
      os << "<tr class=\"stall-resource\" data-resource=\"" << xml(x.resource) << "\"><td>" << xml(x.resource)
         << "</td><td>" << xml(join(x.producers)) << "</td><td>" << xml(join(x.consumers)) << "</td><td>"
         << pct(x.wait_pct) << (x.wait_task.empty() ? "" : " " + xml(x.wait_task)) << "</td><td>" << pct(x.acquire_pct)
         << (x.acquire_task.empty() ? "" : " " + xml(x.acquire_task)) << "</td><td>" << xml(x.bound) << "</td></tr>\n";
    os << "</table>\n";
  }
  os << "<p class=\"stall-note\">Share: ";
  for (auto const& [name, color] : std::vector<std::pair<char const*, char const*>>{
           {"wait", "#ef4444"}, {"acquire", "#f97316"}, {"queue", "#a855f7"}, {"sync", "#94a3b8"}, {"work", "#22c55e"}})
    os << "<span class=\"stall-key\"><svg width=\"12\" height=\"10\"><rect width=\"12\" height=\"10\" fill=\"" << color
       << "\"/></svg> " << name << "</span> ";
  os << "(sync: commit, release, break). Blocked: at least " << num(r.thresholds.stall_pct)
     << " % of a task's time in wait (consumer) or acquire (producer) on a resource; one side dominates at "
     << num(r.thresholds.dominance) << "x the other's share.</p>\n</section>\n";
  return os.str();
}

}  // namespace ts::print
