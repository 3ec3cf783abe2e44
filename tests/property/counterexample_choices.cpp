#include "counterexample_choices.hpp"

#include <string>
#include <vector>

namespace prop {

namespace {
// A block's IR steps: the recorder numbers steps in program order, one per sync op or
// work call; a condition's flags.more() step comes right before its body.
struct Region {
  Op op;
  int key;
  int first_step;  // condition: its more() step; skippable: first body step
  int last_step;   // last step of the body (first_step - 1 + count when empty)
  int loop;        // the domain loop of the tile it is in: 2 (the second), else 1
};

// Steps are numbered in program order (TaskProgram::lists()), so a step also tells which
// of a tile's two domain loops it is in.
void number(std::vector<Node> const& nodes, int& next, std::vector<Region>& out, int loop) {
  for (auto const& n : nodes) {
    if (!is_block(n.op)) {
      ++next;
      continue;
    }
    bool cond = n.op == Op::WhenTrue || n.op == Op::WhenFalse;
    int first = next;
    if (cond) ++next;
    number(n.body, next, out, loop);
    if (cond || n.op == Op::Skippable) out.push_back({n.op, n.key, first, next - 1, loop});
  }
}
// The step task `t` is blocked at in a deadlock ("T1 at m0.wait() (step 1, ..."), or -1:
// where it went after its last event.
int blocked_step(ts::check::Counterexample const& cex, int t) {
  std::string prefix = "T" + std::to_string(t) + " at ";
  for (auto const& line : cex.blocked) {
    auto at = line.find("(step ");
    if (line.rfind(prefix, 0) == 0 && at != std::string::npos) return std::stoi(line.substr(at + 6));
  }
  return -1;
}
// The tile of that blocked step ("..., tile 1) is blocked"), or -1.
int blocked_tile(ts::check::Counterexample const& cex, int t) {
  std::string prefix = "T" + std::to_string(t) + " at ";
  for (auto const& line : cex.blocked) {
    auto at = line.find(", tile ");
    if (line.rfind(prefix, 0) == 0 && at != std::string::npos) return std::stoi(line.substr(at + 7));
  }
  return -1;
}

}  // namespace

RuntimeChoices choices_of(Program const& p, ts::check::Counterexample const& cex) {
  RuntimeChoices c;
  c.tiles = has_tile_loop(p.loop);
  c.nested = nested_loops(p.loop);
  for (int t = 0; t < int(p.tasks.size()); ++t) {
    std::vector<Region> regions;
    int next = 0;
    auto lists = p.tasks[t].lists();
    for (int l = 0; l < int(lists.size()); ++l)
      number(*lists[l], next, regions, TaskProgram::loop_of_list(l) == 2 ? 2 : 1);
    std::vector<ts::check::Event> mine;
    for (auto const& e : cex.events)
      if (e.task == t) mine.push_back(e);
    for (size_t i = 0; i < mine.size(); ++i) {
      auto const& e = mine[i];
      for (auto const& r : regions) {
        bool cond = r.op != Op::Skippable;
        // Where the task went next: its next event, else the step it is blocked at, else
        // (a deadlock leaves every unfinished task blocked) it ran to its end.
        int s = i + 1 < mine.size() ? mine[i + 1].step : blocked_step(cex, t);
        if (s < 0 && cex.kind == "deadlock") s = 1 << 30;
        if (cond && e.step == r.first_step && r.last_step > r.first_step && s >= 0) {
          bool entered = s > r.first_step && s <= r.last_step;
          bool outcome = r.op == Op::WhenTrue ? entered : !entered;
          c.pinned_conditions[{r.key, r.loop, c.tiles && !c.nested ? -1 : e.iteration, c.tiles ? e.tile : -1}] = outcome;
        }
        if (!cond && e.step >= r.first_step && e.step <= r.last_step) c.pinned_skips[e.tile] = false;
      }
    }
    // A task blocked inside a skippable region (a deadlock) entered its tile, even with no
    // event there yet (found: a consumer blocked at its first wait of tile 0 while the
    // other task's tile-0 event made the tile look skipped).
    int bs = blocked_step(cex, t), bt = blocked_tile(cex, t);
    if (bs >= 0 && bt >= 0)
      for (auto const& r : regions)
        if (r.op == Op::Skippable && bs >= r.first_step && bs <= r.last_step) c.pinned_skips[bt] = false;
  }
  // A tile some task finished (advanced past) without running its skippable steps was skipped.
  for (auto const& e : cex.events) {
    if (e.tile < 0 || c.pinned_skips.count(e.tile)) continue;
    c.pinned_skips[e.tile] = true;
  }
  return c;
}

}  // namespace prop
