// ts::Key: a schedule's explicit correlation key for when_true / when_false (SPEC S4.4),
// accepted by the recording and the executing context alike.
#pragma once

namespace ts {

// Explicit correlation key for when_true / when_false (SPEC S4.4).
struct Key {
  const char* name;
};

}  // namespace ts
