// The work-queue sequences every persistent schedule repeats (SPEC S4.6):
//   ts::queue_epilogue(wq)   try_wait, wait, get_and_advance_work_tile, release: once per
//                            tile, in the tile tail, in every task;
//   ts::SchedulerSchedule    the dynamic queue's scheduler task: acquire a response slot,
//                            fetch the next tile, commit, then the same epilogue. It
//                            requests the next tile before the data tasks work on the
//                            current one (SPEC S13.4).
#pragma once
#include "ts/core/macros.hpp"

namespace ts {

template <class Q>
TS_HD void queue_epilogue(Q& wq) {
  wq.try_wait();
  wq.wait();
  wq.get_and_advance_work_tile();
  wq.release();
}

struct SchedulerSchedule {
  template <class S, class Q>
  TS_HD void operator()(S& s, Q& wq) const {
    s.work_tile_loop(wq, [&] {
      wq.try_acquire();
      wq.acquire();
      wq.fetch_work_tile();
      wq.commit();
      queue_epilogue(wq);
    });
  }
};

}  // namespace ts
