// Acquire-order inversion over two 1-stage rings of resource type R (with put / take):
// each task holds its own stage uncommitted while it waits for the other task's stage, a
// deadlock every static check accepts (only the interleaving checker sees it).
#pragma once
#include "ts/ts.hpp"

namespace inversion_fixture {

template <class R>
struct Ping {
  template <class S, class X, class Y>
  void operator()(S& s, X& x, Y& y) const {
    s.domain_loop(0, 4, 1, [&](auto&) {
      x.acquire(); ts::work<&R::put>(x);
      y.wait(); ts::work<&R::take>(y); y.release();
      x.commit();
    });
  }
};
template <class R>
struct Pong {
  template <class S, class X, class Y>
  void operator()(S& s, X& x, Y& y) const {
    s.domain_loop(0, 4, 1, [&](auto&) {
      y.acquire(); ts::work<&R::put>(y);
      x.wait(); ts::work<&R::take>(x); x.release();
      y.commit();
    });
  }
};

}  // namespace inversion_fixture
