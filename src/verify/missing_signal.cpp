// S6.10 blame for a forgotten commit/release (missing_signal.hpp). Found by a tester:
// with two consumer tasks declared in the empty count and one of them missing its
// release(), the count-mismatch diagnostic blamed the task that does release and hinted
// to lower the count to its share, which turns the bug into a race.
#include "missing_signal.hpp"

#include "ts/verify/arrival_model.hpp"

namespace ts::verify {

namespace {

SideParticipants side(Model const& m, std::vector<int> const& tasks) {
  SideParticipants p;
  for (int t : tasks) {
    p.tasks += 1;
    p.warps += m.tasks[t].num_warps;
  }
  return p;
}

}  // namespace

std::optional<Diagnostic> missing_signal(Model const& m, int r, bool full_barrier, std::vector<int> const& producers,
                                         std::vector<int> const& consumers) {
  auto const& cfg = *m.resource(r).pipeline;
  // A split consumer waits in one task and releases in another on purpose (S6.20).
  if (!full_barrier && cfg.wait_signal_override) return std::nullopt;
  SyncOp open = full_barrier ? SyncOp::Acquire : SyncOp::Wait;
  SyncOp close = full_barrier ? SyncOp::Commit : SyncOp::Release;
  auto const& closers = full_barrier ? producers : consumers;
  std::vector<int> forgetful;
  for (int t : tasks_issuing(m, r, open))
    if (!contains(closers, t)) forgetful.push_back(t);
  if (forgetful.empty()) return std::nullopt;
  auto with = closers;
  with.insert(with.end(), forgetful.begin(), forgetful.end());
  auto x = full_barrier ? expected_arrivals(cfg, side(m, with), side(m, consumers))
                        : expected_arrivals(cfg, side(m, producers), side(m, with));
  int declared = full_barrier ? cfg.declared_full_arrivals() : cfg.declared_empty_arrivals();
  int delivered_with = full_barrier ? x.full_arrivals : x.empty_arrivals;
  if (delivered_with != declared) return std::nullopt;

  int t = forgetful.front();
  auto const& name = m.resource(r).name;
  std::string barrier = full_barrier ? "full" : "empty";
  std::string op = ir::to_string(open), cl = ir::to_string(close);
  auto d = at_step(m, t, first_step(m.tasks[t], r, open), full_barrier ? "S6.10.full-arrivals" : "S6.10.empty-arrivals",
                   "task '" + m.tasks[t].name + "' calls " + name + "." + op + "() but never " + name + "." + cl +
                       "(): the " + barrier + " barrier of '" + name + "' is declared with " +
                       std::to_string(declared) + " arrival(s) per stage, which task(s) " + join_task_names(m, with) +
                       " deliver together, but " +
                       (closers.empty() ? std::string("no task calls ") : "only task(s) " + join_task_names(m, closers) + " call ") +
                       cl + "(), so the stage never completes");
  d.expected = name + "." + cl + "() in '" + m.tasks[t].name + "'";
  d.actual = "no " + cl + "()";
  d.hint = "add " + name + "." + cl + "() to '" + m.tasks[t].name + "' after its last use of the stage; keep the " +
           "declared count (lowering it would " +
           (full_barrier ? std::string("let consumers read a stage still being written")
                         : std::string("let the producer overwrite a stage '" + m.tasks[t].name + "' still reads")) +
           ")";
  return d;
}

}  // namespace ts::verify
