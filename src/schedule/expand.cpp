#include "ts/schedule/expand.hpp"

namespace ts {

std::string ExpandedStep::phase_tag() const {
  switch (section) {
    case ir::Section::Head: return "H";
    case ir::Section::Tail: return "T";
    case ir::Section::Loop: break;
  }
  bool first = iteration == 0, last = iteration == iterations - 1;
  if (first && last) return "FL";
  if (first) return "F";
  if (last) return "L";
  return "M";
}

long long static_trip_count(ir::Block const& b) {
  using K = ir::Bound::Kind;
  if (b.start.kind != K::Static || b.end.kind != K::Static || b.step.kind != K::Static) return -1;
  long long s = b.start.value, e = b.end.value, st = b.step.value;
  if (st > 0) return e > s ? (e - s + st - 1) / st : 0;
  if (st < 0) return s > e ? (s - e + (-st) - 1) / (-st) : 0;
  return -1;
}

namespace {

struct Walker {
  ir::ScheduleIR const& ir;
  ExpandOptions const& opt;
  std::vector<ExpandedStep> out;
  long long iteration = -1, iterations = 0;
  int tile = 0;
  bool broken = false;

  // Returns false when a break_loop fired (the rest of the iteration is skipped).
  bool run_children(ir::Block const& b) {
    for (auto const& n : b.children) {
      if (broken) return false;
      if (n.is_block) {
        run_block(ir.blocks[n.index]);
      } else {
        auto const& s = ir.steps[n.index];
        if (s.kind == SyncOp::BreakLoop && opt.take_break) {
          out.push_back({s.id, s.section, iteration, iterations, tile});
          broken = true;
          return false;
        }
        out.push_back({s.id, s.section, iteration, iterations, tile});
      }
    }
    return true;
  }

  void run_block(ir::Block const& b) {
    using BK = ir::BlockKind;
    switch (b.kind) {
      case BK::Root: run_children(b); break;
      case BK::WorkTileLoop:
        for (int t = 0; t < opt.tiles; ++t) {
          tile = t;
          run_children(b);
        }
        break;
      case BK::DomainLoop: {
        long long n = static_trip_count(b);
        if (n < 0) n = opt.iterations;
        iterations = n;
        for (long long i = 0; i < n; ++i) {
          iteration = i;
          run_children(b);
          if (broken) {
            broken = false;
            break;
          }
        }
        iteration = -1;
        break;
      }
      case BK::Skippable:
        if (!opt.skip_tiles) run_children(b);
        break;
      case BK::FirstIter:
        if (iteration == 0) run_children(b);
        break;
      case BK::LastIter:
        if (iteration == iterations - 1) run_children(b);
        break;
      case BK::Every:
        if (iteration >= b.every_start && (iteration - b.every_start) % b.period == 0) run_children(b);
        break;
      case BK::WhenTrue:
        if (opt.conditions) run_children(b);
        break;
      case BK::WhenFalse:
        if (!opt.conditions) run_children(b);
        break;
    }
  }
};

}  // namespace

std::vector<ExpandedStep> expand(ir::ScheduleIR const& ir, ExpandOptions const& opt) {
  Walker w{ir, opt, {}};
  w.run_block(ir.blocks.at(0));
  return std::move(w.out);
}

}  // namespace ts
