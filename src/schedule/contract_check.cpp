// The recording side against the contract of the two schedule contexts
// (schedule/contract.hpp); src/runtime/contract_check.cpp checks the executing side. A
// compiled library file, so every build of TS checks both sides, whatever schedules it
// happens to instantiate.
#include "ts/schedule/contract.hpp"
#include "ts/schedule/recorder.hpp"

namespace ts::rec {

TS_ASSERT_SCHEDULE_CONTRACT(Context, Handle<contract::ProbeQueue>, Token<bool>, Handle<contract::ProbeMemory>,
                            DomainLoopHandle, WorkTileLoopHandle);

}  // namespace ts::rec
