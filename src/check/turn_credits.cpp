// Credit ops on a turn pipe (a ring whose consumers take turns by skipping each other's
// stages; docs/turns.md), modelled as the barriers behave:
// * words: uncommitted U; per slot c: a (commits its wait counter is behind) or ahead
//   (stages it skipped past the producer's commits), b (waited, not released); per pipe
//   head = the stage of the next commit; per stage the empty barrier's free credits.
// * acquire takes the stage (head + U) mod S when its credit is 1; a consumer that still
//   holds an older occupant of that stage there is a stage reuse race.
// * commit completes the full barrier's phase of the stage: every slot's wait counter is
//   one commit closer (ahead - 1, else a + 1).
// * wait passes when its commit is there (a > 0). With ahead >= S the counter points at
//   a phase >= 2 ahead of its stage's full barrier, where try_wait.parity passes at once
//   on an old phase; with a > S the stage was refilled past it: both pass on the
//   hardware with the wrong data and are flagged (kTurnPhase).
// * release arrives on the stage of its oldest held position (head - a - b): a credit
//   going to 2 is a stage freed twice (two consumers took it, or a release no wait
//   matches: kTurnRelease); skip moves the counter n stages on without a barrier, and
//   over held stages it would desynchronise wait and release counters (kTurnRelease).
#include "semantics.hpp"

namespace ts::check {

long long Semantics::skip_count(StepInfo const& si) const {
  if (si.skip_static >= 0) return si.skip_static;
  return std::max<long long>(trip(si.skip_task), 0);
}

void Semantics::turn_step(std::vector<uint16_t>& b, int t, StepInfo const& si) const {
  (void)t;
  auto const& p = ps_.pipes[si.pipe];
  int S = p.stages, o = lay_.pipe_off[si.pipe], to = lay_.turn_off[si.pipe], slots = lay_.pipe_slots[si.pipe];
  uint16_t& U = b[o];
  uint16_t& flags = b[o + 1];
  uint16_t& head = b[to];
  auto credit = [&](int stage) -> uint16_t& { return b[to + 1 + stage]; };
  auto a = [&](int c) -> uint16_t& { return b[o + 2 + 2 * c]; };
  auto held = [&](int c) -> uint16_t& { return b[o + 3 + 2 * c]; };
  auto ahead = [&](int c) -> uint16_t& { return b[to + 1 + S + c]; };
  int c = si.consumer_slot;
  switch (si.effect) {
    case Effect::Acquire: {
      int stage = (head + U) % S;
      // A held position j of slot k is reused when i - j is a positive multiple of S,
      // i = P + U the new position, j in [P - a - b, P - a).
      for (int k = 0; k < slots; ++k) {
        int lo = U + a(k) + 1, hi = U + a(k) + held(k);
        if (held(k) > 0 && hi / S * S >= lo) {
          b[lay_.glob] |= kRace;
          flags |= kReuseRace;
        }
      }
      if (credit(stage) > 0) --credit(stage);
      ++U;
      break;
    }
    case Effect::Commit:
      if (p.tma_fill_check) {
        if (U == 1 && !(flags & kFilled)) b[lay_.glob] |= kEmptyTmaCommit;
        flags &= ~kFilled;
      }
      if (U > 0) --U;
      else b[lay_.glob] |= kCommitNoAcquire;
      head = static_cast<uint16_t>((head + 1) % S);
      for (int k = 0; k < slots; ++k) {
        if (ahead(k) > 0) --ahead(k);
        else ++a(k);
      }
      flags &= ~kAsyncHold;
      break;
    case Effect::Wait:
      if (ahead(c) >= S || a(c) > S) {  // passes on a wrong phase; counters left as they were
        b[lay_.glob] |= kRace;
        flags |= kTurnPhase;
        break;
      }
      --a(c);
      ++held(c);
      break;
    case Effect::Release: {
      if (held(c) == 0) {
        b[lay_.glob] |= kEarlyRelease;
        break;
      }
      int stage = ((head - a(c) - held(c)) % S + S) % S;
      --held(c);
      if (++credit(stage) > 1) {
        b[lay_.glob] |= kEarlyRelease;
        flags |= kTurnRelease;
      }
      break;
    }
    case Effect::StageSkip: {
      if (held(c) > 0) {
        b[lay_.glob] |= kEarlyRelease;
        flags |= kTurnRelease;
        break;
      }
      long long n = skip_count(si);
      long long behind = a(c);
      if (behind >= n) {
        a(c) = static_cast<uint16_t>(behind - n);
      } else {
        a(c) = 0;
        long long up = ahead(c) + (n - behind);
        ahead(c) = static_cast<uint16_t>(std::min<long long>(up, 0x7fff));
      }
      break;
    }
    default: break;
  }
}

}  // namespace ts::check
