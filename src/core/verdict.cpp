#include "ts/core/verdict.hpp"

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

}  // namespace ts
