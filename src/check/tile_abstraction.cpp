// The every-tile-count abstraction (Config::every_tile_count): one proof for every number
// of work tiles and every pattern of skipped tiles, the tile-loop sibling of the
// parametric domain length in periodicity.cpp.
//
// Why it is exact: nothing a task does depends on a tile's absolute number (conditions
// and loop lengths are per tile, never "tile 5"), so tiles are kept relative to the
// slowest task still in the tile loop. The tile count T enters only through "tiles left
// after the origin", which starts unknown (at least 0) and is revealed lazily, like a
// domain length (Semantics::reveal_exit): a task at the tile head past the floor forks into "the
// loop ends here" and "there is a tile here". A tile's skip outcome is revealed the first
// time a task asks and is then shared by every task. Two concrete runs whose states
// agree on this abstraction have the same futures, so the finite abstract state space
// covers every T >= 0 and every skip pattern at once, as long as no task gets
// tile_window() tiles ahead of the slowest one (nothing then bounds their distance): that
// raises kTileOverflow, the search stops, and the checker falls back to a fixed number
// of tiles, saying so.
//
// When a skipped tile runs only local steps in every task (ProgramSet::
// skipped_tiles_silent), a run with skipped tiles equals (up to local steps, which only
// close access windows: later in the shortened run, so it can only show more races) a
// run with fewer tiles; skips are then left out and T covers them.
#include <climits>

#include "semantics.hpp"

namespace ts::check {

bool Semantics::tile_exit(std::vector<uint16_t>& b, int t, Instr const& in, std::vector<uint16_t>& out) const {
  int to = Layout::task_off(t);
  // The tile loop ends here (T = origin + d), or there is a tile d.
  bool exit = reveal_exit(b, t, lay_.glob + kGlobTilesLeft, to + 1, in.target, out);
  if (!exit && b[to + 1] >= tile_window_) b[lay_.glob] |= kTileOverflow;
  return exit;
}

bool Semantics::tile_skipped(std::vector<uint16_t>& b, int t, Instr const& in, std::vector<uint16_t>& out) const {
  if (ps_.skipped_tiles_silent) return false;  // a skipped tile is a tile fewer: T covers it
  int to = Layout::task_off(t);
  uint32_t bit = 1u << b[to + 1];
  int known = lay_.glob + kGlobSkipKnown, mask = lay_.glob + kGlobSkipMask;
  if (!(get_mask(b.data(), known) & bit)) {
    // First task to ask: this tile is skipped in one branch, run in the other.
    std::vector<uint16_t> f = b;
    put_mask(f.data(), known, get_mask(f.data(), known) | bit);
    put_mask(f.data(), mask, get_mask(f.data(), mask) | bit);
    f[to] = static_cast<uint16_t>(in.target);
    advance(f, t, out);
    put_mask(b.data(), known, get_mask(b.data(), known) | bit);
  }
  return get_mask(b.data(), mask) & bit;
}

// Moves the tile origin to the slowest task in the tile loop: relative tiles, loop slots,
// skip masks, tiles left and shared-condition entries shift down together.
void Semantics::shift_tiles(uint16_t* b) const {
  int low = INT_MAX;
  for (int t = 0; t < lay_.tasks; ++t) {
    int to = Layout::task_off(t);
    auto const& in = code(t)[b[to]];
    if (in.op == Op::End) continue;
    if (!ps_.tasks[t].has_tile_loop) {
      // A task without a tile loop runs its domain loop in loop slot 0 and orders its
      // shared conditions as tile 0: it keeps the origin while either can still matter.
      if (pins_tiles_[t] || (param_task(t) && ps_.tasks[t].has_loop && in.loop_region != kAfter)) return;
      continue;
    }
    if (in.tile_region == kBefore) return;  // not in the loop yet: the origin stays
    if (in.tile_region == kInside) low = std::min<int>(low, b[to + 1]);
  }
  if (low == INT_MAX || low == 0) return;
  int delta = low;
  for (int t = 0; t < lay_.tasks; ++t) {
    int to = Layout::task_off(t);
    if (ps_.tasks[t].has_tile_loop && code(t)[b[to]].tile_region == kInside && code(t)[b[to]].op != Op::End)
      b[to + 1] = static_cast<uint16_t>(b[to + 1] - delta);
  }
  for (int i = 0; i < lay_.nslots; ++i) {
    int so = lay_.slots_off + 2 * i, from = lay_.slots_off + 2 * (i + delta);
    if (i + delta < lay_.nslots) {
      b[so] = b[from];
      b[so + 1] = b[from + 1];
    } else {
      b[so] = 0;
      b[so + 1] = slot_rem_init_;
    }
  }
  for (int m : {lay_.glob + kGlobSkipMask, lay_.glob + kGlobSkipKnown}) put_mask(b, m, get_mask(b, m) >> delta);
  uint16_t& left = b[lay_.glob + kGlobTilesLeft];
  if (left & kUnknown) left = static_cast<uint16_t>(kUnknown | std::max((left & ~kUnknown) - delta, 0));
  else left = static_cast<uint16_t>(left - delta);  // the slowest task is in tile `delta` < left
  // Entries record (tile + 1) in bits 8..14 of their second word (position()).
  for (int e = 0; e < lay_.ndec; ++e) {
    uint16_t* en = &b[lay_.dec_off + 3 * e];
    if (en[0] == 0) continue;
    int tp = (en[1] >> 8) & 0x7f;
    if (tp < 1 || tp > lay_.nslots) continue;  // before or after the tile loop
    if (tp - 1 < delta) {
      en[0] = en[1] = en[2] = 0;  // every user is past that tile
    } else {
      en[1] = static_cast<uint16_t>((en[1] & ~(0x7f << 8)) | ((tp - delta) << 8));
    }
  }
  b[lay_.glob + kGlobTileShift] = static_cast<uint16_t>(b[lay_.glob + kGlobTileShift] + delta);
}

}  // namespace ts::check
