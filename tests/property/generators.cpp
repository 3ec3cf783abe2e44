#include "generators.hpp"

#include <cstdlib>

#include "known_bugs.hpp"

namespace prop {

namespace {
template <class E>
rc::Gen<E> gen_enum() {
  return rc::gen::cast<E>(rc::gen::inRange(0, int(E::kCount)));
}

rc::Gen<PipeRecipe> gen_pipe(AvoidKnownBugs const& avoid) {
  auto scratch = avoid.por_alias ? rc::gen::just(Scratch::None) : gen_enum<Scratch>();
  return rc::gen::build<PipeRecipe>(
      rc::gen::set(&PipeRecipe::producer, rc::gen::inRange(0, 4)),
      rc::gen::set(&PipeRecipe::consumer_offset, rc::gen::inRange(0, 3)),
      rc::gen::set(&PipeRecipe::stages, rc::gen::inRange(1, 4)),
      // Half the rings are async_async, the others TMA-fed (a quarter with an MMA consumer).
      rc::gen::set(&PipeRecipe::flavor, rc::gen::weightedOneOf<PipeFlavor>({{2, rc::gen::just(PipeFlavor::Async)},
                                                                            {1, rc::gen::just(PipeFlavor::Tma)},
                                                                            {1, rc::gen::just(PipeFlavor::TmaUmma)}})),
      rc::gen::set(&PipeRecipe::guarded_copy, rc::gen::weightedOneOf<bool>({{5, rc::gen::just(false)}, {1, rc::gen::just(true)}})),
      rc::gen::set(&PipeRecipe::guard, gen_enum<Guard>()),
      rc::gen::set(&PipeRecipe::cond_key, rc::gen::inRange(0, 3)),
      rc::gen::set(&PipeRecipe::scratch, scratch),
      rc::gen::set(&PipeRecipe::split, gen_enum<Split>()),
      rc::gen::set(&PipeRecipe::place, gen_enum<Place>()));
}

// A vector whose length comes from `count` (rc's size parameter would also shrink the
// elements' ranges, so the length is drawn explicitly).
template <class T>
rc::Gen<std::vector<T>> vector_of(rc::Gen<int> count, rc::Gen<T> element) {
  return rc::gen::mapcat(count, [element](int n) { return rc::gen::container<std::vector<T>>(n, element); });
}

rc::Gen<Mutation> gen_mutation() {
  return rc::gen::build<Mutation>(rc::gen::set(&Mutation::kind, gen_enum<MutationKind>()),
                                  rc::gen::set(&Mutation::task, rc::gen::inRange(0, 4)),
                                  rc::gen::set(&Mutation::position, rc::gen::inRange(0, 16)));
}


// PROP_LOOP_KIND=<n> in the environment draws every recipe with LoopKind n (0 StaticDomain,
// ..., 4 TilesOfTwoDomains), to hunt in one shape; the properties that fix a kind keep it.
rc::Gen<LoopKind> gen_loop_kind() {
  if (char const* k = std::getenv("PROP_LOOP_KIND")) return rc::gen::just(LoopKind(std::atoi(k)));
  // Each loop kind a fifth of the time (inRange scales with RapidCheck's size and drew
  // the last kind in 5 % of the cases); TilesOfDomain nests the domain loop in a tile
  // loop, TilesOfTwoDomains two loops of one bound one after the other.
  return rc::gen::element(LoopKind::StaticDomain, LoopKind::RuntimeDomain, LoopKind::Tiles, LoopKind::TilesOfDomain,
                          LoopKind::TilesOfTwoDomains);
}
}  // namespace

rc::Gen<Recipe> gen_recipe(AvoidKnownBugs const& avoid) {
  // A third of the recipes are unmutated, the rest carry one or two mutations (well-formed, mostly SAFE); the rest carry one or two
  // mutations (mostly UNSAFE), so both verdicts are common.
  auto mutations = vector_of(rc::gen::weightedOneOf<int>({{1, rc::gen::just(0)}, {1, rc::gen::just(1)}, {1, rc::gen::just(2)}}),
                             gen_mutation());
  return rc::gen::build<Recipe>(
      rc::gen::set(&Recipe::tasks, rc::gen::inRange(2, 5)),
      rc::gen::set(&Recipe::loop, gen_loop_kind()),
      rc::gen::set(&Recipe::length, rc::gen::inRange(1, 4)),
      rc::gen::set(&Recipe::skip_tiles, rc::gen::arbitrary<bool>()),
      // A third of the nested-loop recipes bound their loops per tile (shrinks to "n").
      rc::gen::set(&Recipe::per_tile_bound,
                   rc::gen::weightedOneOf<bool>({{2, rc::gen::just(false)}, {1, rc::gen::just(true)}})),
      rc::gen::set(&Recipe::pipes, vector_of(rc::gen::inRange(1, 4), gen_pipe(avoid))),
      rc::gen::set(&Recipe::pdl, rc::gen::weightedOneOf<int>({{6, rc::gen::just(0)}, {1, rc::gen::just(1)}, {1, rc::gen::just(2)}})),
      rc::gen::set(&Recipe::pdl_task, rc::gen::inRange(0, 4)),
      // One recipe in six gives one task a loop one iteration shorter (shrinks to none).
      rc::gen::set(&Recipe::late_start_task,
                   rc::gen::weightedOneOf<int>({{5, rc::gen::just(-1)}, {1, rc::gen::inRange(0, 4)}})),
      rc::gen::set(&Recipe::mutations, mutations));
}

}  // namespace prop

rc::Gen<prop::Recipe> rc::Arbitrary<prop::Recipe>::arbitrary() { return prop::gen_recipe(prop::kAvoidKnownBugs); }
