#include "ts/verify/report.hpp"

namespace ts {

bool VerifyReport::ok() const {
  if (verdict == Verdict::Unsafe) return false;
  for (auto const& d : diagnostics)
    if (d.severity == Severity::Error) return false;
  return true;
}

}  // namespace ts
