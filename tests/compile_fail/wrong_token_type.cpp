// EXPECT: a token's type differs from the method's parameter type
#include "common.hpp"
struct S {
  template <class C, class A, class B>
  void operator()(C& s, A& a, B& b) const {
    s.domain_loop(0, 4, 1, [&] { ts::work<&Out::put_short>(b, ts::work<&In::get>(a)); });
  }
};
int main() { record(S{}); }
