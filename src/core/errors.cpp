#include "ts/core/errors.hpp"

#include <sstream>

namespace ts {

std::string Diagnostic::format() const {
  std::ostringstream os;
  os << (severity == Severity::Error ? "error" : "warning") << " [" << check << "]";
  if (!task.empty()) os << " task '" << task << "'";
  if (!resource.empty()) os << " resource '" << resource << "'";
  if (step >= 0) {
    os << " step " << step;
    if (!section.empty()) os << " (" << section << ")";
    if (!step_text.empty()) os << " `" << step_text << "`";
  }
  os << ": " << message;
  if (!expected.empty() || !actual.empty()) os << " Expected " << expected << ", got " << actual << ".";
  if (!hint.empty()) os << " Hint: " << hint;
  return os.str();
}

Diagnostic value_diagnostic(std::string check, std::string resource, std::string message, std::string expected,
                            std::string actual, std::string hint) {
  Diagnostic d;
  d.check = std::move(check);
  d.resource = std::move(resource);
  d.message = std::move(message);
  d.expected = std::move(expected);
  d.actual = std::move(actual);
  d.hint = std::move(hint);
  return d;
}

Error::Error(Diagnostic d) : std::runtime_error(d.format()), diag_(std::move(d)) {}

static std::string join_diags(std::vector<Diagnostic> const& ds) {
  std::ostringstream os;
  os << ds.size() << " problem(s) found by verification:";
  for (auto const& d : ds) os << "\n  " << d.format();
  return os.str();
}

VerificationError::VerificationError(std::vector<Diagnostic> diags)
    : std::runtime_error(join_diags(diags)), diags_(std::move(diags)) {}

VerificationError::VerificationError(std::vector<Diagnostic> diags,
                                     std::shared_ptr<check::Counterexample const> counterexample,
                                     std::string counterexample_json, std::string checker_report)
    : std::runtime_error(join_diags(diags)),
      diags_(std::move(diags)),
      counterexample_(std::move(counterexample)),
      counterexample_json_(std::move(counterexample_json)),
      checker_report_(std::move(checker_report)) {}

}  // namespace ts
