#include "ts/verify/report.hpp"

namespace ts {

std::string to_string(Verdict v) {
  switch (v) {
    case Verdict::Safe: return "SAFE";
    case Verdict::SafeAllK: return "SAFE_ALL_K";
    case Verdict::Unsafe: return "UNSAFE";
    case Verdict::Incomplete: return "INCOMPLETE";
    case Verdict::Unchecked: return "UNCHECKED";
  }
  return "?";
}

bool VerifyReport::ok() const {
  if (verdict == Verdict::Unsafe) return false;
  for (auto const& d : diagnostics)
    if (d.severity == Severity::Error) return false;
  return true;
}

}  // namespace ts
