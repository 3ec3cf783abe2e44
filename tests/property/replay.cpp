#include "replay.hpp"

#include <sstream>

#include "checker_runs.hpp"
#include "counterexample_choices.hpp"
#include "manager.hpp"
#include "runtime_choices.hpp"
#include "ts/runtime/cpu/counterexample_replay.hpp"
#include "ts/runtime/cpu/run.hpp"

namespace prop {

std::string emulator_failure(std::function<void()> const& run, std::string* message) {
  auto said = [&](std::exception const& e, char const* kind) {
    if (message) *message = e.what();
    return std::string(kind);
  };
  try {
    run();
    return "";
  } catch (ts::cpu::DeadlockError const& e) {
    return said(e, "deadlock");
  } catch (ts::cpu::RaceError const& e) {
    return said(e, "race");
  } catch (ts::cpu::PdlOrderError const& e) {
    return said(e, "pdl");
  } catch (std::exception const& e) {
    return said(e, "error: ") + e.what();
  }
}

std::string emulated_kind(Program const& p, std::vector<int> const& tile_lengths) {
  ts::Options o = quiet_options();
  o.warning_mode = true;  // the emulator runs what the checker may call UNSAFE
  return with_manager(p, o, [&](auto& tm) -> std::string {
    std::ostringstream out;
    tm.print_and_verify(out);
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      runtime_choices() = RuntimeChoices{seed * 7919, has_tile_loop(p.loop), nested_loops(p.loop)};
      runtime_choices().tile_lengths = tile_lengths;
      auto got = emulator_failure([&] { ts::cpu::run(tm, {.seed = seed, .detect_races = true}); });
      if (!got.empty()) return got;
    }
    return "";
  });
}

std::string replayed_kind(Program p, std::string* checker_kind) {
  auto first = check(model_of(p), true);
  if (checker_kind) *checker_kind = first.kind;
  if (!first.unsafe()) return "not unsafe";
  if (runtime_length(p.loop) && first.length >= 0) p.length = int(first.length);
  if (has_tile_loop(p.loop) && first.tiles >= 0) p.tiles = first.tiles;
  ts::Options o = quiet_options();
  o.warning_mode = true;
  return with_manager(p, o, [&](auto& tm) -> std::string {
    std::ostringstream out;
    tm.print_and_verify(out);
    runtime_choices() = choices_of(p, *tm.last_counterexample());
    return emulator_failure([&] { ts::cpu::replay_counterexample(tm, {.seed = 1, .detect_races = true}); });
  });
}

}  // namespace prop
