// Typed errors. Every error names what it can: the check or capture rule that fired,
// the task, the resource, the schedule step (section and index) and, for counts,
// bytes and strides, the expected and the actual value.
#pragma once
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ts {

namespace check {
struct Counterexample;  // ts/check/explore.hpp
}

enum class Severity { Error, Warning };

struct Diagnostic {
  std::string check;      // identifier, e.g. "S6.6.work-bracketing" or "capture.second-domain-loop"
  Severity severity = Severity::Error;
  std::string task;       // empty when not task-specific
  std::string resource;   // empty when not resource-specific
  int step = -1;          // step id in the task's schedule, -1 when none
  std::string section;    // "head", "loop", "tail" or ""
  std::string step_text;  // the step as printed, e.g. "smem.acquire()"
  std::string message;    // what is wrong, one sentence
  std::string expected;   // for counts/bytes/strides
  std::string actual;
  std::string hint;       // how to fix, when obvious

  // One clear paragraph for the user.
  std::string format() const;
};

// The diagnostic of a rejected value at a site with no task or step (launch layout,
// emulator options): the check, the resource ("" when none), what is wrong, the expected
// and the actual value, and how to fix it when obvious.
Diagnostic value_diagnostic(std::string check, std::string resource, std::string message, std::string expected,
                            std::string actual, std::string hint = {});

class Error : public std::runtime_error {
 public:
  explicit Error(Diagnostic d);
  Diagnostic const& diagnostic() const { return diag_; }

 private:
  Diagnostic diag_;
};

// A schedule body used a construct in a way the recorder can already see is wrong.
class CaptureError : public Error {
 public:
  using Error::Error;
};

// A pipeline factory was given values its type can never accept.
class ConfigError : public Error {
 public:
  using Error::Error;
};

// Declarations of tasks/resources/graph that cannot be built (duplicate names ...).
class ModelError : public Error {
 public:
  using Error::Error;
};

// ts::Options (or the emulator's ts::cpu::RunOptions) holds a value outside its
// documented range; raised before anything runs (src/core/options_validation.cpp).
class OptionsError : public Error {
 public:
  using Error::Error;
};

// print_and_verify() found one or more problems; all of them are kept. When the
// exhaustive checker answered UNSAFE (Options::throw_on_unsafe), the error also carries
// the shortest failing run and its JSON export, ready for ts::cpu replay.
class VerificationError : public std::runtime_error {
 public:
  explicit VerificationError(std::vector<Diagnostic> diags);
  VerificationError(std::vector<Diagnostic> diags, std::shared_ptr<check::Counterexample const> counterexample,
                    std::string counterexample_json, std::string checker_report);
  std::vector<Diagnostic> const& diagnostics() const { return diags_; }
  // True when the exhaustive checker found the schedule UNSAFE (not a static error).
  bool unsafe() const { return counterexample_ != nullptr; }
  // The failing run (null for static errors) and its export (docs/checker.md).
  check::Counterexample const* counterexample() const { return counterexample_.get(); }
  std::string const& counterexample_json() const { return counterexample_json_; }
  std::string const& checker_report() const { return checker_report_; }

 private:
  std::vector<Diagnostic> diags_;
  std::shared_ptr<check::Counterexample const> counterexample_;
  std::string counterexample_json_;
  std::string checker_report_;
};

}  // namespace ts
