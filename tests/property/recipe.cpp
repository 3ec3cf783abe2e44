// Recipe -> Program: lays each pipe's ops into its tasks, then applies the mutations.
#include "recipe.hpp"

#include <algorithm>

#include "known_bugs.hpp"
#include "program_builders.hpp"

namespace prop {
using namespace prop::build;

namespace {

struct Builder {
  Program p;
  int next_slot = 0;
  bool domain() const { return has_domain_loop(p.loop); }
  bool two_loops() const { return p.loop == LoopKind::TilesOfTwoDomains; }
  // After the producer's loop: after the task's loop, or (a domain loop in a tile loop)
  // after the domain loop in the same tile, as a GEMM's epilogue reads its accumulator.
  // Two loops in a tile: after the loop(s) the pipe's producer side runs in (Place).
  std::vector<std::vector<Node>*> after_loop(TaskProgram& t, PipeRecipe const& pr) const {
    if (!two_loops()) return {nested_loops(p.loop) ? &t.tile_post : &t.tail};
    switch (pr.place) {
      case Place::First: return {&t.tile_mid};
      case Place::Both: return {&t.tile_mid, &t.tile_post};
      default: return {&t.tile_post};
    }
  }
  // The loop bodies a side's per-iteration ops go into (Place; one loop: the body).
  std::vector<std::vector<Node>*> loops_of(TaskProgram& t, PipeRecipe const& pr, bool consumer_side) const {
    if (!two_loops()) return {&t.body};
    switch (pr.place) {
      case Place::First: return {&t.body};
      case Place::Second: return {&t.body2};
      case Place::Both: return {&t.body, &t.body2};
      default: return {consumer_side ? &t.body2 : &t.body};  // Across
    }
  }
  void to_lists(std::vector<std::vector<Node>*> const& lists, std::vector<Node> const& ops) const {
    for (auto* l : lists) append(*l, ops);
  }
  // A side's per-iteration ops, wrapped in the pipe's guard and condition, into its loop(s).
  void to_loops(TaskProgram& t, PipeRecipe const& pr, std::vector<Node> ops, bool consumer_side = false) const {
    to_lists(loops_of(t, pr, consumer_side), wrap(pr, std::move(ops), consumer_side));
  }
  int take_slot() { return next_slot < kMemSlots ? next_slot++ : -1; }

  // Wraps a side's ops in the pipe's guard (tile loops: the skippable region) and condition.
  int pipe_index = 0;
  std::vector<Node> wrap(PipeRecipe const& pr, std::vector<Node> ops, bool consumer_side = false) const {
    int key = consumer_side && pr.cond_key == 2 ? 3 : pipe_index;
    // Each pipe has its own key (one key at two sites of one task would tie their outcomes);
    // cond_key 2 puts the consumer under a key of its own: uncorrelated, usually UNSAFE.
    if (pr.cond_key > 0) ops = {block(Op::WhenTrue, std::move(ops), key)};
    if (!domain()) {
      if (pr.guard != Guard::None && p.skip_tiles) ops = {block(Op::Skippable, std::move(ops))};
      return ops;
    }
    switch (pr.guard) {
      case Guard::FirstIter: return {block(Op::FirstIter, std::move(ops))};
      case Guard::LastIter: return {block(Op::LastIter, std::move(ops))};
      case Guard::Every2: return {every(2, 0, std::move(ops))};
      case Guard::Every2From1: return {every(2, 1, std::move(ops))};
      default: return ops;
    }
  }
  static void append(std::vector<Node>& to, std::vector<Node> ops) {
    for (auto& n : ops) to.push_back(std::move(n));
  }

  void add_pipe(PipeRecipe const& pr) {
    int tasks = int(p.tasks.size());
    int prod = pr.producer % tasks;
    int cons = (prod + 1 + pr.consumer_offset % (tasks - 1)) % tasks;
    int ring_slot = take_slot();
    if (ring_slot < 0) return;
    p.mem[ring_slot] = ring(pr.stages);
    bool tma = pr.flavor != PipeFlavor::Async, mma = pr.flavor == PipeFlavor::TmaUmma;
    if (tma) p.mem[ring_slot].pipe = mma ? PipeKind::TmaUmma : PipeKind::TmaAsync;
    Op fill = tma ? Op::TmaCopy : Op::Put;
    Op read = mma ? Op::Mma : Op::Take;
    auto& P = p.tasks[prod];
    auto& C = p.tasks[cons];

    // Warp-lane: the lane side's task gets two warps (one lane each, stride 2); the
    // other side makes two stage ops per op of the lane side, so the ring stays balanced.
    if (pr.warp_lane != WarpLane::None) {
      bool producer_lanes = pr.warp_lane == WarpLane::Producer;
      (producer_lanes ? p.mem[ring_slot].producer_stride : p.mem[ring_slot].consumer_stride) = 2;
      p.warps[producer_lanes ? prod : cons] = 2;
      std::vector<Node> fill_one = {op(Op::Acquire, ring_slot), op(fill, ring_slot), op(Op::Commit, ring_slot)};
      std::vector<Node> use_one = {op(Op::Wait, ring_slot), op(read, ring_slot), op(Op::Release, ring_slot)};
      std::vector<Node> fills = fill_one, uses = use_one;
      if (producer_lanes) append(uses, use_one);
      else append(fills, fill_one);
      to_loops(P, pr, fills);
      to_loops(C, pr, uses, true);
      return;
    }
    // An accumulator: acquired on the first iteration, committed on the last, drained after
    // the loop. A TMA stage takes one copy (its transaction bytes), issued with the commit.
    if (pr.guard == Guard::Accumulator && domain()) {
      // Two loops in a tile: the accumulator is filled in the producer side's loop(s)
      // (Across: the first) and drained after each.
      auto producer_loops = loops_of(P, pr, false);
      if (tma)
        to_lists(producer_loops, {block(Op::FirstIter, {op(Op::Acquire, ring_slot)}),
                                  block(Op::LastIter, {op(fill, ring_slot), op(Op::Commit, ring_slot)})});
      else
        to_lists(producer_loops, {block(Op::FirstIter, {op(Op::Acquire, ring_slot)}), op(Op::Put, ring_slot),
                                  block(Op::LastIter, {op(Op::Commit, ring_slot)})});
      to_lists(after_loop(C, pr), {op(Op::Wait, ring_slot), op(read, ring_slot), op(Op::Release, ring_slot)});
      return;
    }
    // An operand loaded once per tile (per run without a tile loop) and read by every
    // iteration of the domain loop: the producer fills it before the loop, the consumer
    // waits for it before the loop and releases it after.
    // Two loops in a tile: filled before, and released after, the loop(s) reading it; Across:
    // filled before the first loop, waited for between the loops, read in the second.
    if (pr.guard == Guard::PerTile && domain()) {
      bool const nested = nested_loops(p.loop);
      bool const second_only = two_loops() && pr.place == Place::Second;
      bool const wait_between = two_loops() && (pr.place == Place::Second || pr.place == Place::Across);
      append(!nested ? P.head : second_only ? P.tile_mid : P.tile_pre,
             {op(Op::Acquire, ring_slot), op(fill, ring_slot), op(Op::Commit, ring_slot)});
      append(!nested ? C.head : wait_between ? C.tile_mid : C.tile_pre, {op(Op::Wait, ring_slot)});
      to_lists(loops_of(C, pr, true), {op(read, ring_slot)});
      append(two_loops() && pr.place == Place::First ? C.tile_mid : !nested ? C.tail : C.tile_post,
             {op(Op::Release, ring_slot)});
      return;
    }
    // A TMA copy under a condition of its own (key 3): when it is false, the commit arms
    // the stage for bytes no copy delivers, a hang ("TMA commit without TMA work").
    Node copy = tma && pr.guarded_copy ? block(Op::WhenTrue, {op(fill, ring_slot)}, 3) : op(fill, ring_slot);
    std::vector<Node> fill_one = {op(Op::Acquire, ring_slot), copy, op(Op::Commit, ring_slot)};

    std::vector<Node> use = {op(Op::Wait, ring_slot), op(read, ring_slot)};
    // Turn-taking consumers: a third task takes every second stage; each passes over the
    // other's stage with skip(1). Two commits per step, so every stage has its taker.
    int other = (cons + 1) % tasks;
    if (pr.split == Split::Turns && other != prod && !mma) {
      std::vector<Node> two = fill_one;
      append(two, fill_one);
      to_loops(P, pr, two);
      use.push_back(op(Op::Release, ring_slot));  // no scratch: the turn-takers share no plain buffer
      std::vector<Node> first = use, second = {Node{Op::Skip, ring_slot, 0, 1, 0, {}}};
      first.push_back(Node{Op::Skip, ring_slot, 0, 1, 0, {}});
      append(second, use);
      to_loops(C, pr, first, true);
      to_loops(p.tasks[other], pr, second, true);
      return;
    }
    to_loops(P, pr, fill_one);
    if (pr.scratch != Scratch::None) {
      int x = take_slot();
      if (x >= 0) {
        p.mem[ring_slot].alias_group = x;  // one group per aliased pair
        p.mem[x].alias_group = x;
        p.mem[x].alias_phase = 1;
        if (pr.scratch == Scratch::BeforeRelease) use.push_back(op(Op::Scribble, x));
        if (pr.scratch == Scratch::BeforeRead) use.insert(use.begin() + 1, op(Op::Scribble, x));
      }
      if (pr.scratch == Scratch::AfterRelease && x >= 0) {
        use.push_back(op(Op::Release, ring_slot));
        use.push_back(op(Op::Scribble, x));
        to_loops(C, pr, use, true);
        return;
      }
    }
    // Split consumer: a third task releases what `cons` waited for.
    int releaser = (cons + 1) % tasks;
    if (pr.split != Split::None && releaser != prod && !mma) {  // tma_umma: one MMA task releases
      p.mem[ring_slot].split_consumer = true;
      auto& R = p.tasks[releaser];
      if (pr.split == Split::Proxy || pr.split == Split::ProxyBeforeRead) {
        int done = take_slot();
        if (done >= 0) {
          p.mem[done] = ring(pr.stages);
          auto at = pr.split == Split::Proxy ? use.end() : use.begin() + 1;  // after the wait
          use.insert(at, {op(Op::Acquire, done), op(Op::Commit, done)});
          to_loops(C, pr, use, true);
          to_loops(R, pr, {op(Op::Wait, done), op(Op::Release, ring_slot), op(Op::Release, done)}, true);
          return;
        }
      }
      to_loops(C, pr, use, true);
      to_loops(R, pr, {op(Op::Release, ring_slot)}, true);
      return;
    }
    use.push_back(op(Op::Release, ring_slot));
    to_loops(C, pr, use, true);
  }
};

// The n-th node of a task in program order, with the list holding it.
struct Position {
  std::vector<Node>* list = nullptr;
  size_t index = 0;
};
void collect(std::vector<Node>& nodes, std::vector<Position>& out) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    out.push_back({&nodes, i});
    if (is_block(nodes[i].op)) collect(nodes[i].body, out);
  }
}

bool holds_acquire_or_commit(Node const& n) {
  if (n.op == Op::Acquire || n.op == Op::Commit) return true;
  for (auto const& c : n.body)
    if (holds_acquire_or_commit(c)) return true;
  return false;
}

void mutate(Program& p, Mutation const& m, AvoidKnownBugs const& avoid) {
  auto& tp = p.tasks[m.task % p.tasks.size()];
  std::vector<Position> where;
  for (auto* list : tp.lists()) collect(*list, where);
  if (where.empty()) return;
  auto [list, i] = where[m.position % where.size()];
  auto& v = *list;
  if (avoid.commit_without_acquire && m.kind != MutationKind::StageCount &&
      (holds_acquire_or_commit(v[i]) || (m.kind == MutationKind::SwapWithNext && i + 1 < v.size() &&
                                         holds_acquire_or_commit(v[i + 1]))))
    return;
  switch (m.kind) {
    case MutationKind::Drop: v.erase(v.begin() + i); break;
    case MutationKind::Duplicate: {
      Node copy = v[i];
      v.insert(v.begin() + i, std::move(copy));
      break;
    }
    case MutationKind::SwapWithNext:
      if (i + 1 < v.size()) std::swap(v[i], v[i + 1]);
      break;
    case MutationKind::Unwrap:
      if (is_block(v[i].op)) {
        auto body = v[i].body;
        v.erase(v.begin() + i);
        v.insert(v.begin() + i, body.begin(), body.end());
      }
      break;
    case MutationKind::StageCount: {
      auto& spec = p.mem[v[i].res];
      if (spec.pipe != PipeKind::None) spec.stages = spec.stages % 3 + 1;
      break;
    }
    case MutationKind::FlipCondition:
      if (v[i].op == Op::WhenTrue) v[i].op = Op::WhenFalse;
      else if (v[i].op == Op::WhenFalse) v[i].key = 3;  // a key no other site shares
      break;
    default: break;
  }
}

// Shapes of TMA rings the known checker bugs make unsound or non-replayable (known_bugs.hpp).
// The task's ops in program order, blocks flattened (their bodies in place).
void flatten(std::vector<Node> const& nodes, std::vector<Node const*>& out) {
  for (auto const& n : nodes) {
    out.push_back(&n);
    flatten(n.body, out);
  }
}
// A TMA copy whose next op in program order is not its ring's commit (a block may end in
// between: acquire; when_true(k) { copy } commit is fine).
bool tma_copy_not_before_commit(TaskProgram const& t) {
  std::vector<Node const*> ops;
  for (auto const* list : t.lists()) flatten(*list, ops);
  for (size_t i = 0; i < ops.size(); ++i)
    if (ops[i]->op == Op::TmaCopy &&
        !(i + 1 < ops.size() && ops[i + 1]->op == Op::Commit && ops[i + 1]->res == ops[i]->res))
      return true;
  return false;
}
void ops_on(std::vector<Node> const& nodes, int res, Op o, int& count) {
  for (auto const& n : nodes) {
    if (n.op == o && n.res == res) ++count;
    ops_on(n.body, res, o, count);
  }
}
// A TMA ring acquired twice with no commit in between (in program order, blocks flattened).
bool tma_acquired_twice(TaskProgram const& t, int r) {
  std::vector<Node const*> ops;
  for (auto const* list : t.lists()) flatten(*list, ops);
  bool open = false;
  for (auto const* n : ops) {
    if (n->res != r) continue;
    if (n->op == Op::Acquire) {
      if (open) return true;
      open = true;
    }
    if (n->op == Op::Commit) open = false;
  }
  return false;
}
// A TMA ring copied twice with no acquire in between (blocks flattened). Each generated
// copy delivers the whole stage's bytes, so a second one over-delivers: the emulator
// reports the transaction-byte overflow, but how many bytes a work body copies is the
// body's business, which the checker does not model (docs/checker.md, "Other gaps"). Not
// a checker bug, so not a known-bug switch: the generator never makes the shape.
bool tma_copied_twice(TaskProgram const& t, int r) {
  std::vector<Node const*> ops;
  // The loop twice (wrap-around): the tile's parts around the domain bodies, twice.
  for (auto const* list : {&t.head, &t.tile_pre, &t.body, &t.body, &t.tile_mid, &t.body2, &t.body2, &t.tile_post,
                           &t.tile_pre, &t.body, &t.body, &t.tile_mid, &t.body2, &t.body2, &t.tile_post, &t.tail})
    flatten(*list, ops);
  bool copied = false;
  for (auto const* n : ops) {
    if (n->res != r) continue;
    if (n->op == Op::Acquire) copied = false;
    if (n->op == Op::TmaCopy) {
      if (copied) return true;
      copied = true;
    }
  }
  return false;
}
bool is_tma(MemSpec const& m) { return m.pipe == PipeKind::TmaAsync || m.pipe == PipeKind::TmaUmma; }
bool avoided_tma_shape(Program const& p, AvoidKnownBugs const& avoid) {
  for (int r = 0; r < kMemSlots; ++r)
    if (is_tma(p.mem[r]))
      for (auto const& t : p.tasks)
        if (tma_copied_twice(t, r)) return true;
  if (avoid.tma_stages_outstanding)
    for (int r = 0; r < kMemSlots; ++r)
      if (is_tma(p.mem[r]))
        for (auto const& t : p.tasks)
          if (tma_acquired_twice(t, r)) return true;
  for (auto const& t : p.tasks)
    if (avoid.tma_full_at_commit && tma_copy_not_before_commit(t)) return true;
  if (avoid.tma_pipe_without_copy)
    for (int r = 0; r < kMemSlots; ++r) {
      if (p.mem[r].pipe != PipeKind::TmaAsync && p.mem[r].pipe != PipeKind::TmaUmma) continue;
      int copies = 0;
      for (auto const& t : p.tasks)
        for (auto const* list : t.lists()) ops_on(*list, r, Op::TmaCopy, copies);
      if (copies == 0) return true;
    }
  return false;
}

// Programs with a 2-warp task: each ring's groups count the warps of the tasks that commit
// (release) it, per stage (divided by the side's stride), as S6.10 recomputes them.
void set_arrival_groups(Program& p) {
  for (int r = 0; r < kMemSlots; ++r) {
    auto& m = p.mem[r];
    if (m.pipe == PipeKind::None) continue;
    int producers = 0, consumers = 0;
    for (size_t t = 0; t < p.tasks.size(); ++t) {
      int commits = 0, releases = 0;
      for (auto const* list : p.tasks[t].lists()) {
        ops_on(*list, r, Op::Commit, commits);
        ops_on(*list, r, Op::Release, releases);
      }
      if (commits) producers += p.warps[t];
      if (releases) consumers += p.warps[t];
    }
    m.producer_threads = std::max(1, producers / m.producer_stride) * 32;  // Signal::All: every thread of a warp
    m.consumer_threads = std::max(1, consumers / m.consumer_stride) * 32;
  }
}

// True when some step runs on an iteration that is neither the first nor the last.
bool has_plain_iteration_step(std::vector<Node> const& body) {
  for (auto const& n : body) {
    if (!is_block(n.op)) return true;
    if (n.op != Op::FirstIter && n.op != Op::LastIter && has_plain_iteration_step(n.body)) return true;
    if (n.op == Op::WhenTrue || n.op == Op::WhenFalse) return true;  // flags.more() is a step
  }
  return false;
}

}  // namespace

Program build_program(Recipe const& r, AvoidKnownBugs const& avoid) {
  Builder b;
  b.p.loop = r.loop;
  b.p.length = std::max(1, r.length);
  b.p.skip_tiles = r.loop == LoopKind::Tiles && r.skip_tiles;  // nested loops: no skippable region yet
  b.p.per_tile_bound = nested_loops(r.loop) && r.per_tile_bound;
  // Only where the shorter loop still runs an iteration: the checker covers domain
  // lengths >= 1 (docs/checker.md, "What is not covered"), so a zero-trip loop would test
  // a claim it does not make.
  b.p.late_start_task = r.late_start_task < 0 || !has_domain_loop(r.loop) || b.p.length < 2
                            ? -1
                            : r.late_start_task % std::clamp(r.tasks, 2, 4);
  b.p.tasks.resize(std::clamp(r.tasks, 2, 4));
  for (auto const& pr : r.pipes) {
    b.add_pipe(pr);
    ++b.pipe_index;
  }
  if (r.pdl != 0) {
    auto& t = b.p.tasks[r.pdl_task % b.p.tasks.size()];
    Op first = r.pdl == 1 ? Op::PdlWait : Op::PdlLaunch;
    Op last = r.pdl == 1 ? Op::PdlLaunch : Op::PdlWait;
    t.head.insert(t.head.begin(), op(first));
    t.tail.push_back(op(last));
  }
  for (auto const& m : r.mutations) {
    Program before = b.p;
    mutate(b.p, m, avoid);
    if (avoided_tma_shape(b.p, avoid)) b.p = std::move(before);  // a known bug's shape: undone
  }
  if (avoid.parametric_step_free_loop && runtime_length(r.loop))
    for (auto& t : b.p.tasks)
      for (auto* body : {&t.body, &t.body2})
        if ((body == &t.body || r.loop == LoopKind::TilesOfTwoDomains) && !has_plain_iteration_step(*body))
          body->push_back(op(Op::Tick));
  if (avoid.elected_async_work_orders_the_whole_task) {
    bool mixed = false;
    for (int t = 0; t < int(b.p.tasks.size()); ++t) {
      int copies = 0, aliased = 0;
      for (int r = 0; r < kMemSlots; ++r) {
        auto const& tp = b.p.tasks[t];
        for (auto const* list : tp.lists()) {
          ops_on(*list, r, Op::TmaCopy, copies);
          ops_on(*list, r, Op::Mma, copies);
          if (b.p.mem[r].alias_group >= 0)
            for (Op o : {Op::Put, Op::Take, Op::Scribble}) ops_on(*list, r, o, aliased);
        }
      }
      mixed |= copies > 0 && aliased > 0;
    }
    if (mixed)
      for (auto& m : b.p.mem) m.alias_group = -1, m.alias_phase = 0;
  }
  bool multi_warp = false;
  for (int w : b.p.warps) multi_warp |= w > 1;
  if (multi_warp) set_arrival_groups(b.p);
  // A static queue advances once per tile in every task; mutations leave it alone.
  if (has_tile_loop(r.loop))
    for (auto& t : b.p.tasks) (r.loop == LoopKind::Tiles ? t.body : t.tile_post).push_back(op(Op::Advance));
  return b.p;
}

void showValue(Recipe const& r, std::ostream& os) { os << to_string(build_program(r, kAvoidKnownBugs)); }

}  // namespace prop
