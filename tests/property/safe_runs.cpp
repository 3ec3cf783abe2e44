#include "safe_runs.hpp"

#include <rapidcheck.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "checker_runs.hpp"
#include "manager.hpp"
#include "replay.hpp"
#include "runtime_choices.hpp"
#include "ts/runtime/cpu/run.hpp"

namespace prop {

namespace {
// "refused by S6.12" for a static check's refusal; "UNSAFE (checker)" when every problem
// listed is the exhaustive checker's verdict.
std::string refusal_tag(std::string const& what) {
  if (only_checker_verdicts(what)) return "UNSAFE (checker)";
  auto at = what.find("[S");
  if (at == std::string::npos) return "refused by a static check";
  auto end = what.find_first_of(".]", what.find('.', at) + 1);
  return "refused by " + what.substr(at + 1, end - at - 1);
}
}  // namespace

void safe_schedule_runs_clean(Program p, std::string const& tag) {
  with_manager(p, quiet_options(), [&](auto& tm) {
    std::ostringstream out;
    ts::VerifyReport rep;
    try {
      rep = tm.print_and_verify(out);
    } catch (std::exception const& e) {  // a static check refuses the schedule: no claim to test
      if (std::getenv("PROP_PRINT_REFUSALS")) std::printf("%s\n", e.what());
      RC_TAG(refusal_tag(e.what()), tag);
      return;
    }
    bool safe = rep.verdict == ts::Verdict::Safe || rep.verdict == ts::Verdict::SafeAllK;
    RC_TAG(verdict_name(rep.verdict), tm.verified() ? "verified" : "static checks refuse", tag);
    if (!safe || !tm.verified()) return;
    bool all_k = rep.verdict == ts::Verdict::SafeAllK && runtime_length(p.loop);
    int const lengths[] = {p.length, 0, p.length + 2};
    // A tile loop: the checker proves every tile count, so the runs vary it too.
    int const tiles[] = {p.tiles, 1, 3};
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      if (all_k) p.length = lengths[seed - 1];  // the schedules read p.length and p.tiles when run
      if (nested_loops(p.loop)) p.tiles = tiles[seed - 1];
      runtime_choices() = RuntimeChoices{seed * 7919, has_tile_loop(p.loop), nested_loops(p.loop)};
      // A per-tile bound proved for every length: the tiles of a run differ in length
      // (long then short, a tile of none, short then long), which the proof covers.
      if (all_k && p.per_tile_bound) {
        int const L = p.length;
        std::vector<int> const per_seed[] = {{L + 2, L}, {0}, {L, L + 2, 0}};
        runtime_choices().tile_lengths = per_seed[seed - 1];
      }
      std::string said;
      auto got = emulator_failure([&] { ts::cpu::run(tm, {.seed = seed, .detect_races = true}); }, &said);
      std::string per_tile;
      for (int n : runtime_choices().tile_lengths) per_tile += (per_tile.empty() ? "" : ", ") + std::to_string(n);
      RC_LOG() << "length " << p.length << (per_tile.empty() ? "" : " per tile {" + per_tile + "}") << " tiles " << p.tiles << " seed " << seed << "\n" << said << "\nchecker:\n" << rep.checker_text << "\n";
      RC_ASSERT(got == "");
    }
  });
}

}  // namespace prop
