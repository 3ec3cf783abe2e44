// The fixed resource types an interpreted schedule works on. Their work bodies touch
// SMEM through the checked accessors, so the emulator's race detector sees every access.
#pragma once
#include <cstdint>

#include "ts/arch/portable.hpp"
#include "ts/ts.hpp"
#include "runtime_choices.hpp"

namespace prop {

constexpr int kMaxStages = 3;
constexpr int kLanes = 32;
constexpr int kStageBytes = kLanes * 4;  // a TMA copy: a word per lane (its transaction bytes)
// A stage holds one word per lane per warp of a task (tasks have at most 2 warps): the
// warps of a 2-warp task write their own words (no race between the task's warps on a
// stage they share), and a reader reads every warp's words.
constexpr int kWarpSlots = 2;

// What a TMA copy reads: any global words (the emulator copies them into the stage).
inline int32_t const* tma_source() {
  alignas(128) static int32_t const words[kLanes] = {};
  return words;
}

// A ring (when given a pipeline config) or a scratch buffer (when not). The alias group
// is data, so one type covers aliased and unaliased resources.
struct Mem : ts::MemoryResource {
  ts::SmemArray<int32_t> buf;
  int alias_group = -1;
  int alias_phase = 0;
  void declare_allocations(ts::Allocations& a) {
    auto& d = a.smem("buf", buf, kMaxStages * kWarpSlots * kLanes);
    if (alias_group >= 0) d.alias(alias_name(alias_group), alias_phase);
  }
  static char const* alias_name(int g) {
    static char const* names[] = {"g0", "g1", "g2", "g3"};
    return names[g & 3];
  }
  int32_t* word(ts::StageInfo const& si, int slot) const {
    return stage_base(si) + slot * kLanes + si.thread.lane();
  }
  void put(ts::ProducerStage const& si) const {
    ts::arch::smem_store(word(si, si.thread.warp_in_task() % kWarpSlots), int32_t(si.loop_offset));
  }
  void take(ts::ConsumerStage const& si) const {
    for (int w = 0; w < kWarpSlots; ++w) (void)ts::arch::smem_load(word(si, w));
  }
  int32_t* stage_base(ts::StageInfo const& si) const {
    return buf.ptr(si.context) + (si.stage_idx == ts::kNoStage ? 0 : si.stage_idx) * kWarpSlots * kLanes;
  }
  // TMA producer work: the elected thread issues one bulk copy of the stage; it completes
  // kStageBytes transaction bytes on the stage's full barrier (and writes the stage) later.
  void tma_copy(ts::ProducerStage const& si) const {
    if (si.thread.thread_in_task == 0) ts::arch::bulk_copy_g2s(stage_base(si), tma_source(), kStageBytes, si.barrier);
  }
  // UMMA consumer work: the elected thread issues a 4x4x4 MMA reading the whole stage
  // (A = its first 16 words, B = the next 16, as floats) into tensor memory.
  void mma(ts::ConsumerStage const& si) const {
    if (si.thread.thread_in_task == 0) {
      auto const* a = reinterpret_cast<float const*>(stage_base(si));
      ts::arch::umma_issue(0, a, a + 16, {4, 4, 4}, false);
    }
  }
  // A scratch buffer is one unstaged region: the lane's word in every stage slot, so it
  // overlaps whatever stage of an aliased ring is in flight (the checker's alias model is
  // per allocation, not per stage).
  void scribble(ts::ProducerStage const& si) const {
    for (int s = 0; s < kMaxStages * kWarpSlots; ++s)
      ts::arch::smem_store(buf.ptr(si.context) + s * kLanes + si.thread.lane(), int32_t(-1));
  }
  void tick(ts::AuxStage const&) const {}
  // One method per condition key, so the outcome can depend on the key (tasks sharing a
  // key must see the same outcome, which the checker assumes). Distinct names, not a
  // template: the emulator matches an executed work call to its IR step by resource and
  // method name (ts::match_next_step), and more<0> / more<1> print as one name "more",
  // so a skipped site of one key would be taken for the next site of another.
  bool more0(ts::ConsumerStage const& si) const { return condition_outcome(0, si.loop_offset, si.work_tile.tile_idx); }
  bool more1(ts::ConsumerStage const& si) const { return condition_outcome(1, si.loop_offset, si.work_tile.tile_idx); }
  bool more2(ts::ConsumerStage const& si) const { return condition_outcome(2, si.loop_offset, si.work_tile.tile_idx); }
  bool more3(ts::ConsumerStage const& si) const { return condition_outcome(3, si.loop_offset, si.work_tile.tile_idx); }
  // The same keys asked in a tile's second domain loop (LoopKind::TilesOfTwoDomains): a
  // work body cannot tell the loops apart (loop_offset restarts), so they call these.
  bool more0_loop2(ts::ConsumerStage const& si) const { return condition_outcome(0, si.loop_offset, si.work_tile.tile_idx, 2); }
  bool more1_loop2(ts::ConsumerStage const& si) const { return condition_outcome(1, si.loop_offset, si.work_tile.tile_idx, 2); }
  bool more2_loop2(ts::ConsumerStage const& si) const { return condition_outcome(2, si.loop_offset, si.work_tile.tile_idx, 2); }
  bool more3_loop2(ts::ConsumerStage const& si) const { return condition_outcome(3, si.loop_offset, si.work_tile.tile_idx, 2); }
};

struct Queue : ts::WorkQueue {
  int const* uniform_length = nullptr;  // Program::length, read when the loop starts
  bool empty_tile(ts::WorkTile const& t) const { return tile_skipped(t.tile_idx); }
  // The per-tile bound of Program::per_tile_bound.
  long long length(ts::WorkTile const& t) const { return tile_length(t.tile_idx, *uniform_length); }
};
struct PdlIn : ts::PdlWait {};
struct PdlOut : ts::PdlLaunch {};

}  // namespace prop
