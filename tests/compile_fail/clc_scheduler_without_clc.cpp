// EXPECT: does not meet ts::TileScheduler on this Arch
// A queue scheduled by Cluster Launch Control, executed over an Arch that has no CLC (the
// shape of sm_90a's): refused where the tile loop is instantiated, not trapped at run time.
#include <cstdint>

#include "ts/runtime/exec_context.hpp"
#include "ts/runtime/scheduler/queue.hpp"

struct NoClcArch {
  ts::ThreadCoord coord{};
  ts::KernelContext kctx{};
  ts::ThreadCoord const& thread() const { return coord; }
  ts::KernelContext const& kernel() const { return kctx; }
  void mbar_arrive(uint64_t*) {}
  void mbar_expect_tx(uint64_t*, uint32_t) {}
  bool mbar_try_wait(uint64_t*, uint32_t) { return true; }
  void mbar_wait(uint64_t*, uint32_t, ts::WaitSite const&) {}
  void umma_commit(uint64_t*) {}
  void pdl_wait() {}
  void pdl_launch() {}
  [[noreturn]] void fail(char const*, ts::WaitSite const&) { throw 0; }
};
struct Tiles : ts::WorkQueueOf<ts::ClcScheduler> {};

int main() {
  NoClcArch arch;
  ts::PipelineRuntime rt[1]{};
  ts::exec::Context<NoClcArch> ctx(arch, rt, 0);
  Tiles q;
  ts::exec::ResourceState st{};
  ts::exec::Handle<ts::exec::Context<NoClcArch>, Tiles> h(&ctx, &q, 0, &st);
  ctx.work_tile_loop(h, [&] { h.get_and_advance_work_tile(); });
}
