// EXPECT: M is a method of another resource type than the handle's resource
#include "common.hpp"
struct S {
  template <class C, class A, class B>
  void operator()(C& s, A& a, B&) const {
    s.domain_loop(0, 4, 1, [&] { ts::work<&Out::put>(a, ts::work<&In::get>(a)); });
  }
};
int main() { record(S{}); }
