// The one schedule functor every generated task runs: it walks its Program's ops and
// makes the matching schedule-API call, so the same data records the IR on the host
// and executes on the CPU emulator.
#pragma once
#include <tuple>

#include "resources.hpp"
#include "schedule_program.hpp"

namespace prop {

inline char const* key_name(int k) {
  static char const* names[] = {"k0", "k1", "k2", "k3"};
  return names[k & 3];
}

// Replays a node list against one schedule context `s` and the task's resource handles.
template <class S, class Res>
struct Replayer {
  S& s;
  Res& res;  // std::tuple of handle references, in the order of the kFlags.. constants
  int loop = 1;  // 2: replaying a tile's second domain loop (its conditions are asked apart)

  template <class F>
  void with_mem(int i, F&& f) const {
    switch (i) {
      case 0: f(std::get<0>(res)); break;
      case 1: f(std::get<1>(res)); break;
      case 2: f(std::get<2>(res)); break;
      default: f(std::get<3>(res)); break;
    }
  }

  // `loop` is the enclosing loop's handle (domain or tile), nullptr outside the loop.
  template <class Loop>
  void run(std::vector<Node> const& nodes, Loop* loop) const {
    for (auto const& n : nodes) step(n, loop);
  }

  template <class Loop>
  void step(Node const& n, Loop* loop) const {
    auto body = [&] { run(n.body, loop); };
    switch (n.op) {
      case Op::Acquire: with_mem(n.res, [](auto& h) { h.acquire(); }); break;
      case Op::Commit: with_mem(n.res, [](auto& h) { h.commit(); }); break;
      case Op::Wait: with_mem(n.res, [](auto& h) { h.wait(); }); break;
      case Op::Release: with_mem(n.res, [](auto& h) { h.release(); }); break;
      case Op::Skip: with_mem(n.res, [&](auto& h) { h.skip(n.period); }); break;
      case Op::Put: with_mem(n.res, [](auto& h) { ts::work<&Mem::put>(h); }); break;
      case Op::Take: with_mem(n.res, [](auto& h) { ts::work<&Mem::take>(h); }); break;
      case Op::Scribble: with_mem(n.res, [](auto& h) { ts::work<&Mem::scribble>(h); }); break;
      case Op::TmaCopy: with_mem(n.res, [](auto& h) { ts::work<&Mem::tma_copy>(h); }); break;
      case Op::Mma: with_mem(n.res, [](auto& h) { ts::work<&Mem::mma>(h); }); break;
      case Op::PdlWait: std::get<kPdlIn>(res).wait(); break;
      case Op::PdlLaunch: std::get<kPdlOut>(res).commit(); break;
      case Op::Advance: std::get<kQueue>(res).get_and_advance_work_tile(); break;
      case Op::Tick: ts::work<&Mem::tick>(std::get<kFlags>(res)); break;
      case Op::WhenTrue: case Op::WhenFalse: condition(n, body); break;
      case Op::FirstIter: case Op::LastIter: case Op::Every: case Op::Skippable: guard(n, loop, body); break;
    }
  }

  template <class F>
  void condition(Node const& n, F& body) const {
    auto& flags = std::get<kFlags>(res);
    auto branch = [&](auto c) {
      if (n.op == Op::WhenTrue) s.when_true(c, ts::Key{key_name(n.key)}, body);
      else s.when_false(c, ts::Key{key_name(n.key)}, body);
    };
    if (loop == 2) {
      switch (n.key & 3) {
        case 0: branch(ts::work<&Mem::more0_loop2>(flags)); break;
        case 1: branch(ts::work<&Mem::more1_loop2>(flags)); break;
        case 2: branch(ts::work<&Mem::more2_loop2>(flags)); break;
        default: branch(ts::work<&Mem::more3_loop2>(flags)); break;
      }
      return;
    }
    switch (n.key & 3) {
      case 0: branch(ts::work<&Mem::more0>(flags)); break;
      case 1: branch(ts::work<&Mem::more1>(flags)); break;
      case 2: branch(ts::work<&Mem::more2>(flags)); break;
      default: branch(ts::work<&Mem::more3>(flags)); break;
    }
  }

  template <class Loop, class F>
  void guard(Node const& n, Loop* loop, F& body) const {
    if constexpr (requires { loop->first_iter(body); }) {
      if (n.op == Op::FirstIter) loop->first_iter(body);
      else if (n.op == Op::LastIter) loop->last_iter(body);
      else if (n.op == Op::Every) loop->every(n.period, n.start, body);
    }
    if constexpr (requires { loop->skippable(body); }) {
      if (n.op == Op::Skippable) loop->skippable(body);
    }
    // A guard of the other loop kind (or outside a loop) is not generated.
  }
};

struct Interpreter {
  Program const* program = nullptr;
  int task = 0;

  template <class S, class... R>
  void operator()(S& s, R&... r) const {
    auto res = std::tie(r...);
    Replayer<S, decltype(res)> x{s, res};
    Replayer<S, decltype(res)> x2{s, res, 2};
    auto const& tp = program->tasks[task];
    std::nullptr_t* outside = nullptr;
    x.run(tp.head, outside);
    auto loop_body = [&](auto& handle) { x.run(tp.body, &handle); };
    long long start = task == program->late_start_task ? 1 : 0;
    switch (program->loop) {
      case LoopKind::StaticDomain: s.domain_loop(start, (long long)program->length, 1, loop_body); break;
      case LoopKind::RuntimeDomain: s.domain_loop(start, ts::runtime(program->length, "n"), 1, loop_body); break;
      case LoopKind::Tiles:
        if (program->skip_tiles) s.work_tile_loop(std::get<kQueue>(res), ts::skip_if<&Queue::empty_tile>, loop_body);
        else s.work_tile_loop(std::get<kQueue>(res), loop_body);
        break;
      case LoopKind::TilesOfDomain:
      case LoopKind::TilesOfTwoDomains:  // two loops of the one bound (and start) per tile
        s.work_tile_loop(std::get<kQueue>(res), [&](auto& tile) {
          // The tile's loop(s) over bound `n` (a ts::runtime value or a per-tile provider).
          auto tile_loops = [&](auto n) {
            x.run(tp.tile_pre, &tile);
            s.domain_loop(start, n, 1, loop_body);
            if (program->loop == LoopKind::TilesOfTwoDomains) {
              x.run(tp.tile_mid, &tile);
              s.domain_loop(start, n, 1, [&](auto& handle) { x2.run(tp.body2, &handle); });
            }
            x.run(tp.tile_post, &tile);
          };
          if (program->per_tile_bound) tile_loops(ts::per_tile<&Queue::length>(std::get<kQueue>(res)));
          else tile_loops(ts::runtime(program->length, "n"));
        });
        break;
    }
    x.run(tp.tail, outside);
  }
};

}  // namespace prop
