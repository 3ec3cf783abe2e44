// EXPECT: not a work method: its first parameter must be ts::ProducerStage
#include "common.hpp"
struct S {
  template <class C, class A, class B>
  void operator()(C& s, A& a, B&) const {
    s.domain_loop(0, 4, 1, [&] { ts::work<&In::helper>(a); });
  }
};
int main() { record(S{}); }
