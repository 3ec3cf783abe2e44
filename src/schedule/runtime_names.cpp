#include "ts/schedule/runtime_names.hpp"

#include <map>

#include "ts/core/errors.hpp"

namespace ts {

namespace {

struct FirstUse {
  long long value = 0;
  std::string task, bound;
};

}  // namespace

void check_runtime_names(Model const& m) {
  std::map<std::string, FirstUse> seen;
  for (auto const& t : m.tasks) {
    auto const& ir = t.schedule;
    if (ir.domain_loop < 0) continue;
    auto const& loop = ir.blocks.at(ir.domain_loop);
    for (auto [which, b] : {std::pair{"start", &loop.start}, std::pair{"end", &loop.end}, std::pair{"step", &loop.step}})
      for (auto const& nv : b->named_values) {
        if (nv.value < nv.at_least) {
          // The checker trusts the declared minimum (it skips shorter loops): a value
          // below it would make that proof about runs that cannot be the real one.
          Diagnostic d;
          d.check = "capture.runtime-below-minimum";
          d.task = t.name;
          d.message = "ts::runtime(..., \"" + nv.name + "\").at_least(" + std::to_string(nv.at_least) + ") is " +
                      std::to_string(nv.value) + " at capture (domain_loop " + which +
                      "): the checker proves only lengths from the declared minimum on";
          d.expected = ">= " + std::to_string(nv.at_least);
          d.actual = std::to_string(nv.value);
          d.hint = "declare the minimum the launch guarantees, or drop .at_least()";
          throw CaptureError(d);
        }
        auto [it, fresh] = seen.try_emplace(nv.name, FirstUse{nv.value, t.name, which});
        if (fresh || it->second.value == nv.value) continue;
        Diagnostic d;
        d.check = "capture.runtime-name-values";
        d.task = t.name;
        d.message = "ts::runtime(..., \"" + nv.name + "\") is " + std::to_string(it->second.value) + " in task " +
                    it->second.task + " (domain_loop " + it->second.bound + ") but " + std::to_string(nv.value) +
                    " in task " + t.name + " (domain_loop " + which +
                    "): the checker reads one name as one launch value, so equal names would count as equal "
                    "loop lengths";
        d.expected = std::to_string(it->second.value) + " (as in task " + it->second.task + ")";
        d.actual = std::to_string(nv.value);
        d.hint = "give different launch values different names, or pass the same value";
        throw CaptureError(d);
      }
  }
}

}  // namespace ts
