// RapidCheck generators of Recipes. Built only from rc::gen combinators, so a failing
// case shrinks automatically: vectors lose elements, numbers and enums move toward 0
// (no pipe feature, fewest stages, no mutation).
#pragma once
#include <rapidcheck.h>

#include "recipe.hpp"

namespace prop {

rc::Gen<Recipe> gen_recipe(AvoidKnownBugs const& avoid);

}  // namespace prop

namespace rc {
template <>
struct Arbitrary<prop::Recipe> {
  static Gen<prop::Recipe> arbitrary();
};
}  // namespace rc
