// EXPECT: get_and_advance_work_tile
#include "common.hpp"
struct S {
  template <class C, class A, class B>
  void operator()(C& s, A& a, B&) const {
    s.domain_loop(0, 4, 1, [&] { a.get_and_advance_work_tile(); });
  }
};
int main() { record(S{}); }
