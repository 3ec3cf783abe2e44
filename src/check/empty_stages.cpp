// Empty TMA stages (docs/checker.md, "Empty TMA stages"): the fill bookkeeping of a TMA
// pipe checked for empty commits (Pipe::tma_fill_check), one code for count pipes
// (apply_credit) and turn pipes (turn_step), so both poison the ring the same way.
// Words: uncommitted U = b[po], flags = b[po + 1] (kFilled: the newest acquired stage has
// had a copy), and where the pipe has the poison model (Layout::fill_off: every TMA pipe
// but domain lanes) [poison, doomed] at fo.
#include "semantics.hpp"

namespace ts::check {

// A TMA copy lands on the stage of the task's newest acquire (the runtime's prod_stage):
// a stage left without one when the next is acquired never gets its bytes. Its commit, U
// commits from now, will be an empty one (the first such stage counts: it is committed
// first). Without the poison model (domain lanes) it is reported at once.
void Semantics::fill_on_acquire(uint16_t* b, int pipe) const {
  int po = lay_.pipe_off[pipe];
  if (b[po] >= 1 && !(b[po + 1] & kFilled)) {
    int fo = lay_.fill_off[pipe];
    if (fo < 0) b[lay_.glob] |= kEmptyTmaCommit;
    else if (b[fo + 1] == 0) b[fo + 1] = b[po];
  }
  b[po + 1] &= ~kFilled;
}

// Before the commit's U - 1. It closes the oldest outstanding stage. With one outstanding
// that is the newest, whose fill kFilled records; with more, it is an older one, empty
// only if an acquire doomed it (the `doomed` countdown), while kFilled speaks of the newest.
void Semantics::fill_on_commit(uint16_t* b, int pipe) const {
  int po = lay_.pipe_off[pipe];
  bool empty = b[po] == 1 && !(b[po + 1] & kFilled);
  if (b[po] == 1) b[po + 1] &= ~kFilled;
  int fo = lay_.fill_off[pipe];
  if (fo < 0) {
    if (empty) b[lay_.glob] |= kEmptyTmaCommit;  // domain lanes: reported at once
    return;
  }
  if (b[fo + 1] > 0 && --b[fo + 1] == 0) empty = true;
  // An empty stage's full barrier expects bytes no copy delivers: nothing fails yet, but a
  // wait that reaches it never passes (a deadlock), and if none does, its stage is never
  // given back (unbalanced). Later commits queue behind it.
  if (b[fo]) ++b[fo];
  else if (empty) b[fo] = 1;
}

}  // namespace ts::check
