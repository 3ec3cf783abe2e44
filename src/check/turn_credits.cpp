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
// * empty TMA stages poison the ring as on count pipes (empty_stages.cpp, fill_off): the
//   poisoned commit's stage stays in that phase for good, so the turn-taker whose wait it
//   is blocks there (a deadlock, or at the end the stage is never given back); the wait
//   of a later phase of that stage is >= 2 phases ahead of the barrier (turn_poison).
#include "semantics.hpp"

namespace ts::check {

// Where slot c's next wait stands to the poisoned commit of pipe (Layout::fill_off): 1 it
// is that commit (its phase never completes: the wait blocks for good); 2 it is a later
// commit of the same stage, whose barrier is still in the poisoned phase, so the wait is
// >= 2 phases ahead and try_wait.parity passes at once on an old phase (flagged like any
// wait >= S ahead, whatever the parity: conservative); 0 otherwise. The poisoned commit is
// poison commits back from the producer's; the wait is a(c) back, or ahead(c) ahead.
int Semantics::turn_poison(uint16_t const* s, int pipe, int c) const {
  int fo = lay_.fill_off[pipe];
  if (fo < 0 || !s[fo]) return 0;
  int o = lay_.pipe_off[pipe], S = ps_.pipes[pipe].stages;
  int a = s[o + 2 + 2 * c], ahead = s[lay_.turn_off[pipe] + 1 + S + c];
  int d = a > 0 ? s[fo] - a : s[fo] + ahead;  // the wait's commit minus the poisoned one
  if (d == 0) return 1;
  return d > 0 && d % S == 0 ? 2 : 0;
}

bool Semantics::turn_enabled(uint16_t const* s, StepInfo const& si) const {
  int o = lay_.pipe_off[si.pipe], to = lay_.turn_off[si.pipe], S = ps_.pipes[si.pipe].stages;
  if (si.effect == Effect::Acquire) return s[to + 1 + (s[to] + s[o]) % S] > 0;
  if (si.effect != Effect::Wait) return true;
  int c = si.consumer_slot;
  if (int z = turn_poison(s, si.pipe, c)) return z == 2;
  // A wait passes when its commit is there, and also (a failure, flagged by the step)
  // where try_wait.parity passes on a wrong phase: >= S ahead of the producer.
  return s[o + 2 + 2 * c] > 0 || s[to + 1 + S + c] >= S;
}

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
      if (p.tma_fill_check) fill_on_acquire(b.data(), si.pipe);  // before ++U: it reads U
      ++U;
      break;
    }
    case Effect::Commit:
      if (p.tma_fill_check) fill_on_commit(b.data(), si.pipe);  // before --U: it reads U
      if (U > 0) --U;
      else b[lay_.glob] |= kCommitNoAcquire;
      head = static_cast<uint16_t>((head + 1) % S);
      for (int k = 0; k < slots; ++k) {
        if (ahead(k) > 0) --ahead(k);
        else ++a(k);
      }
      if (U == 0) flags &= ~kAsyncHold;  // another held stage may still be written (semantics.cpp)
      break;
    case Effect::Wait:
      if (ahead(c) >= S || a(c) > S || turn_poison(b.data(), si.pipe, c) == 2) {  // a wrong phase; counters kept
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
