#include "ts/check/length_classes.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace ts::check {

namespace {

// The bound's affine form when the recorder filled it; a bound built by other means
// (by hand, imported) is comparable only when static.
bool comparable(ir::Bound const& b) { return b.form_known || b.kind == ir::Bound::Kind::Static; }

ir::Affine form_of(ir::Bound const& b) {
  return b.form_known ? b.form : ir::Affine::of_constant(b.value);
}

// Equal keys mean provably equal trip counts; "" means "equal to nothing".
std::string trip_key(ir::Block const& loop) {
  if (!comparable(loop.start) || !comparable(loop.end) || !comparable(loop.step)) return "";
  return (form_of(loop.end) - form_of(loop.start)).to_string() + " step " + form_of(loop.step).to_string();
}

// 1 when the loop provably runs at least once: a positive constant step and an
// `end - start` whose terms can all be bounded below (ts::runtime names by their declared
// at_least, launch indices by 0, the grid size by 1) to a sum >= 1. Otherwise 0: the
// checker then covers the zero-trip loop too.
int provable_min_trip(ir::Block const& loop) {
  if (!comparable(loop.start) || !comparable(loop.end) || !comparable(loop.step)) return 0;
  ir::Affine step = form_of(loop.step);
  if (!step.is_constant() || step.constant <= 0) return 0;
  ir::Affine diff = form_of(loop.end) - form_of(loop.start);
  // A whole bound declared with ts::at_least(m, bound) over a constant start.
  if (loop.end.at_least != LLONG_MIN && form_of(loop.start).is_constant())
    return loop.end.at_least - form_of(loop.start).constant >= 1 ? 1 : 0;
  std::map<std::string, long long> least;
  for (auto const* b : {&loop.start, &loop.end})
    for (auto const& nv : b->named_values) least[nv.name] = nv.at_least;
  long long low = diff.constant;
  for (auto const& term : diff.terms) {
    long long bound;
    if (auto it = least.find(term.symbol); it != least.end()) bound = it->second;
    else if (term.symbol == "block_idx" || term.symbol == "thread" || term.symbol == "tile_idx") bound = 0;
    else if (term.symbol == "grid_blocks") bound = 1;
    else return 0;  // a per-tile provider or an opaque expression: no lower bound known
    if (term.coeff < 0) return 0;  // would need an upper bound
    low += term.coeff * bound;
  }
  return low >= 1 ? 1 : 0;
}

struct UnionFind {
  std::vector<int> parent;
  explicit UnionFind(int n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int x) { return parent[x] == x ? x : parent[x] = find(parent[x]); }
  void join_mask(uint64_t tasks) {
    int first = -1;
    for (int t = 0; t < 64; ++t)
      if (tasks >> t & 1) {
        if (first < 0) first = t;
        else parent[find(t)] = find(first);
      }
  }
};

std::string class_tasks(Model const& m, LengthClass const& c) {
  std::string s;
  for (size_t i = 0; i < c.tasks.size(); ++i)
    s += (i == 0 ? "" : i + 1 == c.tasks.size() ? " and " : ", ") + m.tasks[c.tasks[i]].name;
  return s;
}

}  // namespace

bool same_in_every_tile(ir::Block const& loop) {
  for (auto const* b : {&loop.start, &loop.end, &loop.step}) {
    if (b->kind == ir::Bound::Kind::Static) continue;
    if (b->kind == ir::Bound::Kind::PerTile || !b->form_known) return false;
    for (auto const& term : b->form.terms) {
      bool named = std::any_of(b->named_values.begin(), b->named_values.end(),
                               [&](auto const& nv) { return nv.name == term.symbol; });
      if (!named && term.symbol != "block_idx" && term.symbol != "grid_blocks") return false;
    }
  }
  return true;
}

std::string loop_length_text(ir::Block const& loop) {
  bool from_zero = loop.start.kind == ir::Bound::Kind::Static && loop.start.value == 0;
  bool unit_step = loop.step.kind == ir::Bound::Kind::Static && loop.step.value == 1;
  if (from_zero && unit_step) return loop.end.expr;
  std::string s = loop.start.expr + ".." + loop.end.expr;
  if (!unit_step) s += " step " + loop.step.expr;
  return s;
}

void assign_length_classes(Model const& m, ProgramSet& ps) {
  int nt = static_cast<int>(ps.tasks.size());
  std::vector<std::string> keys;  // per class
  for (int t = 0; t < nt; ++t) {
    auto& prog = ps.tasks[t];
    if (!prog.has_loop || prog.static_trip >= 0) continue;
    auto const& loop = m.tasks[t].schedule.blocks.at(m.tasks[t].schedule.domain_loop);
    ps.min_runtime_trip = std::min(ps.min_runtime_trip, provable_min_trip(loop));
    std::string key = trip_key(loop);
    int found = -1;
    for (size_t c = 0; c < keys.size() && !key.empty(); ++c)
      if (keys[c] == key) found = static_cast<int>(c);
    if (found < 0) {
      found = static_cast<int>(ps.length_classes.size());
      keys.push_back(key);
      ps.length_classes.push_back({{}, loop_length_text(loop)});
    }
    ps.length_classes[found].tasks.push_back(t);
    prog.length_class = found;
  }
  if (ps.length_classes.size() < 2) return;

  // Tasks that interact, directly or through others: credits on one pipe, work on two
  // aliased resources, one shared condition, PDL ordering.
  UnionFind uf(nt);
  for (auto const& p : ps.pipes) uf.join_mask(p.users);
  for (auto const& k : ps.keys) uf.join_mask(k.users);
  uint64_t pdl = 0;
  std::vector<uint64_t> alias_users(ps.aliased.size(), 0);
  for (int t = 0; t < nt; ++t)
    for (auto const& si : ps.steps[t]) {
      if (si.effect == Effect::PdlWait || si.effect == Effect::PdlLaunch) pdl |= uint64_t(1) << t;
      if (si.effect == Effect::AliasWork) alias_users[si.alias] |= uint64_t(1) << t;
    }
  uf.join_mask(pdl);
  for (auto const& pair : ps.pairs) uf.join_mask(alias_users[pair.a] | alias_users[pair.b]);

  for (int a = 0; a < nt && !ps.independent_lengths; ++a)
    for (int b = a + 1; b < nt && !ps.independent_lengths; ++b) {
      int ca = ps.tasks[a].length_class, cb = ps.tasks[b].length_class;
      if (ca < 0 || cb < 0 || ca == cb || uf.find(a) != uf.find(b)) continue;
      ps.independent_lengths = true;
      ps.lengths_note = m.tasks[a].name + "'s domain loop (" + ps.length_classes[ca].loop_text + ") and " +
                        m.tasks[b].name + "'s (" + ps.length_classes[cb].loop_text + ")";
    }
}

std::string describe_class_lengths(Model const& m, ProgramSet const& ps, std::vector<long long> const& class_length) {
  std::string s;
  for (size_t c = 0; c < ps.length_classes.size() && c < class_length.size(); ++c) {
    auto const& lc = ps.length_classes[c];
    std::string len = std::to_string(class_length[c]);
    if (c == 0) s += class_tasks(m, lc) + "'s domain loop (" + lc.loop_text + ") has length " + len;
    else s += ", " + class_tasks(m, lc) + "'s (" + lc.loop_text + ") length " + len;
  }
  return s;
}

}  // namespace ts::check
