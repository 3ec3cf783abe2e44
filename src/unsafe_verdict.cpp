// An UNSAFE verdict as an exception. The user guide promises that print_and_verify()
// throws on every problem it finds; a race or deadlock the checker proves is the most
// serious of them, so it must not come back as a return value one can forget to read.
#include "unsafe_verdict.hpp"

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "ts/check/explore.hpp"

namespace ts {

namespace {

struct Where {
  int task = -1;
  int step = -1;
  std::string section;
};

// The checker's blocked lines read "A at y.wait() (step 2, loop, iteration 0) is blocked ...".
std::optional<Where> blocked_at(Model const& m, std::string const& line) {
  auto at = line.find(" at ");
  auto st = line.find("(step ");
  if (at == std::string::npos || st == std::string::npos) return std::nullopt;
  Where w;
  for (size_t t = 0; t < m.tasks.size(); ++t)
    if (m.tasks[t].name == line.substr(0, at)) w.task = static_cast<int>(t);
  w.step = std::atoi(line.c_str() + st + 6);
  auto comma = line.find(", ", st);
  if (comma != std::string::npos) w.section = line.substr(comma + 2, line.find_first_of(",)", comma + 2) - comma - 2);
  if (w.task < 0) return std::nullopt;
  return w;
}

void name_step(Model const& m, Where const& w, Diagnostic& d) {
  if (w.task < 0 || w.task >= static_cast<int>(m.tasks.size())) return;
  d.task = m.tasks[w.task].name;
  auto const& steps = m.tasks[w.task].schedule.steps;
  if (w.step < 0 || w.step >= static_cast<int>(steps.size())) return;
  d.step = w.step;
  d.section = w.section;
  d.step_text = m.step_text(w.task, w.step);
  if (steps[w.step].resource >= 0) d.resource = m.resource(steps[w.step].resource).name;
}

}  // namespace

VerificationError unsafe_verdict_error(Model const& m, check::CheckerResult const& r) {
  Diagnostic d;
  std::shared_ptr<check::Counterexample const> run;
  if (r.failure) {
    run = std::make_shared<check::Counterexample const>(*r.failure);
    auto const& c = *r.failure;
    d.check = "S6.9." + c.kind;
    // A deadlock is where a task is blocked (its first blocked entry); any other failure
    // is the step the failing run ends with.
    auto blocked = c.kind == "deadlock" && !c.blocked.empty() ? blocked_at(m, c.blocked.front())
                                                              : std::optional<Where>{};
    if (!blocked && !c.events.empty())
      blocked = Where{c.events.back().task, c.events.back().step, ir::to_string(c.events.back().section)};
    if (blocked) name_step(m, *blocked, d);
    d.message = "the exhaustive checker found a " + c.kind + " in a run of " + std::to_string(c.events.size()) +
                " step(s)" + (c.length > 0 ? " (domain length " + std::to_string(c.length) + ")" : "") + ": " +
                c.detail;
    for (auto const& b : c.blocked) d.message += "; " + b;
  } else {
    d.check = "S6.9.unsafe";
    d.message = "the exhaustive checker answered UNSAFE";
  }
  d.expected = "SAFE";
  d.actual = "UNSAFE";
  d.hint =
      "the failing run is in VerificationError::counterexample() / counterexample_json() (also "
      "tm.last_counterexample()); set Options::throw_on_unsafe = false (or warning_mode) to get the verdict back "
      "and replay it with ts::cpu::replay_counterexample";
  return VerificationError({d}, std::move(run), r.failure_json, r.report);
}

}  // namespace ts
