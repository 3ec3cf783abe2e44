#include "runtime_choices.hpp"

#include <cstddef>

namespace prop {

RuntimeChoices& runtime_choices() {
  static RuntimeChoices c;
  return c;
}

namespace {
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
}  // namespace

bool condition_outcome(int key, long long iteration, int tile, int loop) {
  auto const& c = runtime_choices();
  auto it = c.pinned_conditions.find({key, loop, c.tiles && !c.nested ? -1 : iteration, c.tiles ? tile : -1});
  if (it != c.pinned_conditions.end()) return it->second;
  // The second loop's answers are independent of the first's (the first loop's, and every
  // other shape's, stay what they were).
  uint64_t second = loop == 2 ? 0x2545f4914f6cdd1dull : 0;
  return mix(c.salt ^ mix(uint64_t(key) * 1000003u + uint64_t(iteration) * 131u + uint64_t(tile) + second)) & 1;
}

long long tile_length(int tile, int uniform) {
  auto const& v = runtime_choices().tile_lengths;
  return v.empty() ? uniform : v[static_cast<std::size_t>(tile) % v.size()];
}

bool tile_skipped(int tile) {
  auto const& c = runtime_choices();
  auto it = c.pinned_skips.find(tile);
  if (it != c.pinned_skips.end()) return it->second;
  return mix(c.salt ^ (0x51u + uint64_t(tile))) & 1;
}

}  // namespace prop
