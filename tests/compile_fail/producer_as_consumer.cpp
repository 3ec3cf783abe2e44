// EXPECT: ts::consume<M>: M is not consumer work
#include "common.hpp"
struct S {
  template <class C, class A, class B>
  void operator()(C& s, A& a, B& b) const {
    s.domain_loop(0, 4, 1, [&] { ts::consume<&Out::put>(b, ts::work<&In::get>(a)); });
  }
};
int main() { record(S{}); }
