#include "ts/schedule/affine.hpp"

#include <algorithm>
#include <map>

namespace ts::ir {

namespace {

// Merges equal symbols and drops zero coefficients, so equal values compare equal.
Affine normalised(long long constant, std::vector<AffineTerm> const& raw) {
  std::map<std::string, long long> sum;
  for (auto const& t : raw) sum[t.symbol] += t.coeff;
  Affine out;
  out.constant = constant;
  for (auto const& [s, c] : sum)
    if (c != 0) out.terms.push_back({s, c});
  return out;
}

}  // namespace

Affine Affine::of_constant(long long v) { return Affine{v, {}}; }

Affine Affine::of_symbol(std::string name) { return Affine{0, {{std::move(name), 1}}}; }

std::string Affine::to_string() const {
  std::string s;
  for (auto const& t : terms) {
    long long c = t.coeff;
    if (s.empty()) s += c < 0 ? "-" : "";
    else s += c < 0 ? " - " : " + ";
    long long mag = c < 0 ? -c : c;
    if (mag != 1) s += std::to_string(mag) + "*";
    s += t.symbol;
  }
  if (s.empty()) return std::to_string(constant);
  if (constant > 0) s += " + " + std::to_string(constant);
  if (constant < 0) s += " - " + std::to_string(-constant);
  return s;
}

Affine operator+(Affine const& a, Affine const& b) {
  auto raw = a.terms;
  raw.insert(raw.end(), b.terms.begin(), b.terms.end());
  return normalised(a.constant + b.constant, raw);
}

Affine operator*(Affine const& a, long long k) {
  auto raw = a.terms;
  for (auto& t : raw) t.coeff *= k;
  return normalised(a.constant * k, raw);
}

Affine operator-(Affine const& a, Affine const& b) { return a + b * -1; }

Affine affine_product(Affine const& a, Affine const& b, std::string const& text) {
  if (b.is_constant()) return a * b.constant;
  if (a.is_constant()) return b * a.constant;
  return Affine::of_symbol(text);
}

Affine affine_quotient(Affine const& a, Affine const& b, std::string const& text) {
  if (!b.is_constant() || b.constant == 0) return Affine::of_symbol(text);
  long long d = b.constant;
  bool exact = a.constant % d == 0 &&
               std::all_of(a.terms.begin(), a.terms.end(), [&](AffineTerm const& t) { return t.coeff % d == 0; });
  if (!exact) return Affine::of_symbol(text);
  Affine out = a;
  out.constant /= d;
  for (auto& t : out.terms) t.coeff /= d;
  return out;
}

}  // namespace ts::ir
