// The collapsed side of a pipeline group while executing (ts::group, SPEC S10). Each
// member runs its op in the group's order (the recorder's order too, so step hooks line
// up) with `collapsed` set; a barrier the members share is signalled once, through the
// lead member (pipeline/pipe.hpp: signals_full / signals_empty). Waiting twice on a shared
// full barrier is harmless: its phase cannot move on before this consumer releases the
// stage.
#pragma once
#include <cstddef>
#include <utility>

#include "ts/core/macros.hpp"
#include "ts/core/results.hpp"

namespace ts::exec {

template <class... H>
class GroupView {
 public:
  TS_HD explicit GroupView(H const*... h) : h_(h...) {}
  TS_HD void try_acquire() const { each([](auto const& m) { m.try_acquire(); }); }
  TS_HD void acquire() const { each([](auto const& m) { m.acquire_op(true); }); }
  TS_HD void commit() const { each([](auto const& m) { m.commit_op(true); }); }
  TS_HD void try_wait() const { each([](auto const& m) { m.try_wait(); }); }
  TS_HD void wait() const { each([](auto const& m) { m.wait(); }); }
  TS_HD void release() const { each([](auto const& m) { m.release_op(true); }); }

 private:
  // Members in group order: the view may list them in any order.
  template <class F>
  TS_HD void each(F const& f) const {
    for (int k = 0; k < int(sizeof...(H)); ++k) visit(k, f, std::index_sequence_for<H...>{});
  }
  template <class F, std::size_t... I>
  TS_HD void visit(int k, F const& f, std::index_sequence<I...>) const {
    ((h_.template get<I>()->member_index() == k ? f(*h_.template get<I>()) : void()), ...);
  }
  Results<H const*...> h_;
};

}  // namespace ts::exec
