// What the emulator answers for the schedule's runtime choices (condition outcomes and
// skipped tiles). By default a seeded pseudo-random function of (key, loop, iteration,
// tile), where `loop` tells a tile's second domain loop (2) from its first (1: also the
// only loop, and outside the loops), as the checker keys them (src/check/program.cpp,
// "(domain loop n)");
// a replay pins the answers the checker's counterexample took, so the emulator follows
// the same branches.
#pragma once
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

namespace prop {

struct RuntimeChoices {
  uint64_t salt = 0;
  bool tiles = false;   // tile loop: conditions keyed by tile, else by domain iteration
  bool nested = false;  // domain loop(s) inside the tile loop: keyed by both
  std::map<std::tuple<int, int, long long, int>, bool> pinned_conditions;  // (key, loop, iteration, tile)
  std::map<int, bool> pinned_skips;                                   // tile -> skipped
  // A per-tile bound's length in tile i: tile_lengths[i % size]; empty: the program's length.
  std::vector<int> tile_lengths;
};

// The choices the next emulator run uses (the emulator runs one fiber at a time).
RuntimeChoices& runtime_choices();

// `loop`: 2 in a tile's second domain loop, else 1.
bool condition_outcome(int key, long long iteration, int tile, int loop = 1);
bool tile_skipped(int tile);
// The domain length of tile `tile` under a per-tile bound; `uniform` when no table is set.
long long tile_length(int tile, int uniform);

}  // namespace prop
