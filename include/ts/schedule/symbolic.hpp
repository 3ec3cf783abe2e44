// Sym: a runtime integer as seen by the recorder (a thread or block index, a launch
// value). It keeps a printable expression and, when the host knows it, the value, so
// a loop bound like `block_idx*256 + thread` is recorded as Runtime with its text.
// It also keeps the expression as a normalised affine form (schedule/affine.hpp), so the
// checker can tell when two tasks' loops provably run equally long.
// In the executing contexts the same expressions are plain ints.
#pragma once
#include <string>

#include "ts/schedule/affine.hpp"

namespace ts {

struct Sym {
  std::string expr;
  bool known = false;
  long long value = 0;
  // Set by arithmetic; a Sym written as {name, false, 0} is the symbol `name` itself.
  bool has_form = false;
  ir::Affine form;
};

// The affine form of a Sym: its own, the constant when known, else the symbol `expr`.
inline ir::Affine affine_of(Sym const& s) {
  if (s.has_form) return s.form;
  if (s.known) return ir::Affine::of_constant(s.value);
  return ir::Affine::of_symbol(s.expr);
}

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
  auto fa = affine_of(a), fb = affine_of(b);
  r.has_form = true;
  switch (op) {
    case '+': r.form = fa + fb; break;
    case '-': r.form = fa - fb; break;
    case '*': r.form = ir::affine_product(fa, fb, r.expr); break;
    default: r.form = r.known ? ir::Affine::of_constant(r.value) : ir::affine_quotient(fa, fb, r.expr); break;
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
