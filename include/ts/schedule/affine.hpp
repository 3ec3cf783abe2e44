// Affine: a loop bound as the checker compares it, `constant + sum of coeff * symbol`.
//
// Symbols are the launch quantities the host cannot know (block_idx, grid_blocks,
// thread, tile_idx), the names given to ts::runtime values, and per-tile providers
// ("<resource>.<method>(tile)"). A sub-expression that is not affine (a product of two
// symbols, a division that does not come out exact) becomes one opaque symbol named by
// its printed text: the same text is the same function of the same inputs, so equal
// forms still mean equal values, and different text only means "not provably equal".
//
// The form is kept normalised (terms sorted by symbol, no zero coefficients), so two
// bounds are provably equal exactly when their forms compare equal.
#pragma once
#include <string>
#include <vector>

namespace ts::ir {

struct AffineTerm {
  std::string symbol;
  long long coeff = 0;
  bool operator==(AffineTerm const&) const = default;
};

struct Affine {
  long long constant = 0;
  std::vector<AffineTerm> terms;  // sorted by symbol, coefficients non-zero

  static Affine of_constant(long long v);
  static Affine of_symbol(std::string name);

  bool is_constant() const { return terms.empty(); }
  bool operator==(Affine const&) const = default;

  // Printable and canonical: "12 - block_idx", "2*grid_blocks + 1", "0".
  std::string to_string() const;
};

Affine operator+(Affine const& a, Affine const& b);
Affine operator-(Affine const& a, Affine const& b);
Affine operator*(Affine const& a, long long k);

// a * b when one side is a constant; otherwise the opaque symbol `text`.
Affine affine_product(Affine const& a, Affine const& b, std::string const& text);
// a / b when the division is exact for every value of the symbols (b a non-zero
// constant dividing every coefficient and the constant); otherwise the opaque `text`.
Affine affine_quotient(Affine const& a, Affine const& b, std::string const& text);

}  // namespace ts::ir
