// Sym: a runtime integer as seen by the recorder (a thread or block index, a launch
// value). It keeps a printable expression and, when the host knows it, the value, so
// a loop bound like `block_idx*256 + thread` is recorded as Runtime with its text.
// In the executing contexts the same expressions are plain ints.
#pragma once
#include <string>

namespace ts {

struct Sym {
  std::string expr;
  bool known = false;
  long long value = 0;
};

namespace detail {
inline Sym sym_binary(Sym const& a, char op, Sym const& b) {
  Sym r;
  r.expr = "(" + a.expr + op + b.expr + ")";
  r.known = a.known && b.known;
  if (r.known) {
    switch (op) {
      case '+': r.value = a.value + b.value; break;
      case '-': r.value = a.value - b.value; break;
      case '*': r.value = a.value * b.value; break;
      case '/': r.value = b.value ? a.value / b.value : 0; break;
    }
  }
  return r;
}
inline Sym sym_const(long long v) { return Sym{std::to_string(v), true, v}; }
}  // namespace detail

#define TS_SYM_OP(OP, CH)                                                                       \
  inline Sym operator OP(Sym const& a, Sym const& b) { return detail::sym_binary(a, CH, b); }     \
  inline Sym operator OP(Sym const& a, long long b) { return detail::sym_binary(a, CH, detail::sym_const(b)); } \
  inline Sym operator OP(long long a, Sym const& b) { return detail::sym_binary(detail::sym_const(a), CH, b); }
TS_SYM_OP(+, '+')
TS_SYM_OP(-, '-')
TS_SYM_OP(*, '*')
TS_SYM_OP(/, '/')
#undef TS_SYM_OP

}  // namespace ts
