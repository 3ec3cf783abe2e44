// The executing side against the contract of the two schedule contexts
// (schedule/contract.hpp); src/schedule/contract_check.cpp checks the recording side.
// The context is checked over an Arch with only the interface's declarations (what every
// backend has): a construct that needs more of the Arch than that is caught here too.
#include <cstdint>

#include "ts/runtime/exec_context.hpp"
#include "ts/schedule/contract.hpp"

namespace ts::exec {
namespace {

struct InterfaceArch {
  ThreadCoord const& thread() const;
  KernelContext const& kernel() const;
  void mbar_arrive(uint64_t*);
  void mbar_expect_tx(uint64_t*, uint32_t);
  bool mbar_try_wait(uint64_t*, uint32_t);
  void mbar_wait(uint64_t*, uint32_t, WaitSite const&);
  void umma_commit(uint64_t*);
  void pdl_wait();
  void pdl_launch();
  [[noreturn]] void fail(char const*, WaitSite const&);
};
using Ctx = Context<InterfaceArch>;
using QueueH = Handle<Ctx, contract::ProbeQueue>;
using MemoryH = Handle<Ctx, contract::ProbeMemory>;

TS_ASSERT_SCHEDULE_CONTRACT(Ctx, QueueH, bool, MemoryH, DomainLoop<Ctx>, WorkTileLoop<Ctx>);

}  // namespace
}  // namespace ts::exec
