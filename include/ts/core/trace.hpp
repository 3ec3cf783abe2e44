// Step trace of a kernel run: one begin/end interval per executed schedule step of a
// task's leading thread (thread 0 of the task), on the backend's clock (the emulator's
// logical clock: scheduler decisions; on a GPU: nanoseconds of %globaltimer).
#pragma once
#include <string>
#include <vector>

namespace ts {

struct TraceEvent {
  int cta = 0;
  int task = 0;
  int step = 0;          // schedule step id (Model::step_text names it)
  long long begin = 0;
  long long end = -1;    // -1 while open
};

struct Trace {
  std::string clock;     // "logical" or "ns"
  std::vector<TraceEvent> events;
};

}  // namespace ts
