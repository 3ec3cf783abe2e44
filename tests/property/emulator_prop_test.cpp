// Properties (b) and (c): the checker's verdicts hold on the CPU emulator.
// (c) A schedule the whole verification passes (static checks and the checker SAFE) runs
//     under several seeds with race detection, without a deadlock or a race.
// (b) An UNSAFE counterexample replays to the same failure kind (deadlock ->
//     DeadlockError, race -> RaceError, pdl -> PdlOrderError): replay_property.cpp, which
//     WarpLanes.CounterexamplesReplayToTheSameFailure shares.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "checker_runs.hpp"
#include "generators.hpp"
#include "known_bugs.hpp"
#include "manager.hpp"
#include "replay.hpp"
#include "runtime_choices.hpp"
#include "ts/runtime/cpu/run.hpp"

namespace {
using namespace prop;

RC_GTEST_PROP(Emulator, SafeSchedulesRunCleanUnderSeeds, (Recipe const& recipe)) {
  auto p = build_program(recipe, kAvoidKnownBugs);
  with_manager(p, quiet_options(), [&](auto& tm) {
    std::ostringstream out;
    ts::VerifyReport rep;
    try {
      rep = tm.print_and_verify(out);
    } catch (std::exception const& e) {  // a static check refuses the schedule: no claim to test
      if (std::getenv("PROP_PRINT_REFUSALS")) std::printf("%s\n", e.what());
      RC_TAG(only_checker_verdicts(e.what()) ? "UNSAFE (checker)" : "static checks refuse");
      return;
    }
    bool safe = rep.verdict == ts::Verdict::Safe || rep.verdict == ts::Verdict::SafeAllK;
    RC_TAG(verdict_name(rep.verdict), tm.verified() ? "verified" : "static checks refuse", flavors(p));
    if (!safe || !tm.verified()) return;
    // SAFE for every domain length: the seeds also run other lengths, 0 included (the
    // generated runtime loops declare no minimum). The schedules read p.length when run.
    bool all_k = rep.verdict == ts::Verdict::SafeAllK && p.loop == LoopKind::RuntimeDomain;
    int const lengths[] = {p.length, 0, p.length + 2};
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      if (all_k) p.length = lengths[seed - 1];
      runtime_choices() = RuntimeChoices{seed * 7919, p.loop == LoopKind::Tiles};
      RC_LOG() << "length " << p.length << "\n";
      std::string said;
      auto got = emulator_failure([&] { ts::cpu::run(tm, {.seed = seed, .detect_races = true}); }, &said);
      RC_LOG() << said << "\n";
      RC_LOG() << "checker:\n" << rep.checker_text << "\nseed " << seed << "\n";
      RC_ASSERT(got == "");
    }
  });
}

RC_GTEST_PROP(Emulator, CounterexamplesReplayToTheSameFailure, (Recipe const& recipe)) {
  counterexample_replays_to_the_same_failure(build_program(recipe, kAvoidKnownBugs));
}

}  // namespace
