// What the emulator answers for the schedule's runtime choices (condition outcomes and
// skipped tiles). By default a seeded pseudo-random function of (key, iteration, tile);
// a replay pins the answers the checker's counterexample took, so the emulator follows
// the same branches.
#pragma once
#include <cstdint>
#include <map>
#include <tuple>

namespace prop {

struct RuntimeChoices {
  uint64_t salt = 0;
  bool tiles = false;   // tile loop: conditions keyed by tile, else by domain iteration
  bool nested = false;  // a domain loop inside the tile loop: keyed by both
  std::map<std::tuple<int, long long, int>, bool> pinned_conditions;  // (key, iteration, tile)
  std::map<int, bool> pinned_skips;                                   // tile -> skipped
};

// The choices the next emulator run uses (the emulator runs one fiber at a time).
RuntimeChoices& runtime_choices();

bool condition_outcome(int key, long long iteration, int tile);
bool tile_skipped(int tile);

}  // namespace prop
