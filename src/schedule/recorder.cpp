#include "ts/schedule/recorder.hpp"

#include <algorithm>

namespace ts {

ScheduleRecorder::ScheduleRecorder(std::string schedule_name, std::string task_name,
                                   std::vector<ResourceInfoForRecording> resources)
    : task_(std::move(task_name)), resources_(std::move(resources)) {
  ir_.name = std::move(schedule_name);
  ir::Block root;
  root.id = 0;
  root.kind = ir::BlockKind::Root;
  ir_.blocks.push_back(root);
  open_.push_back(0);
}

void ScheduleRecorder::fail(std::string check, std::string message, std::string expected, std::string actual,
                            int resource) const {
  Diagnostic d;
  d.check = std::move(check);
  d.task = task_;
  if (resource >= 0) d.resource = resources_.at(resource).name;
  d.step = static_cast<int>(ir_.steps.size());
  d.section = ir::to_string(current_section());
  d.message = "in schedule " + ir_.name + ": " + message;
  d.expected = std::move(expected);
  d.actual = std::move(actual);
  throw CaptureError(d);
}

bool ScheduleRecorder::is_open(int block_id) const {
  return std::find(open_.begin(), open_.end(), block_id) != open_.end();
}

ir::Section ScheduleRecorder::current_section() const {
  switch (domain_state_) {
    case DomainState::Before: return ir::Section::Head;
    case DomainState::Inside: return ir::Section::Loop;
    case DomainState::After: return ir::Section::Tail;
  }
  return ir::Section::Head;
}

void ScheduleRecorder::add_child(ir::Node n) { ir_.blocks[open_.back()].children.push_back(n); }

int ScheduleRecorder::open_block(ir::BlockKind kind) {
  ir::Block b;
  b.id = static_cast<int>(ir_.blocks.size());
  b.kind = kind;
  b.parent = open_.back();
  ir_.blocks.push_back(b);
  add_child(ir::Node{true, b.id});
  open_.push_back(b.id);
  return b.id;
}

void ScheduleRecorder::close_block(int id) {
  if (open_.size() <= 1 || open_.back() != id)
    fail("capture.block-nesting", "block " + std::to_string(id) + " closed out of order",
         "block " + std::to_string(open_.back()), "block " + std::to_string(id));
  open_.pop_back();
}

int ScheduleRecorder::open_domain_loop(ir::Bound start, ir::Bound end, ir::Bound step, std::optional<int> unroll) {
  // One domain loop per schedule (SPEC S4.2), with one exception: inside a work-tile
  // loop, loops may follow one another when their bounds are provably equal (the same
  // affine forms), so every loop of a tile has the task's one length (a producer that
  // fills a pair of tiles' stages one tile after the other: the ping-pong GEMM).
  if (ir_.domain_loop >= 0) {
    auto const& first = ir_.blocks[ir_.domain_loop];
    auto same = [](ir::Bound const& a, ir::Bound const& b) { return a.form_known && b.form_known && a.form == b.form; };
    bool in_tile_loop = ir_.work_tile_loop >= 0 && is_open(ir_.work_tile_loop);
    if (domain_state_ == DomainState::Inside || !in_tile_loop || !same(first.start, start) || !same(first.end, end) ||
        !same(first.step, step))
      fail("capture.second-domain-loop",
           "a schedule has at most one domain_loop (SPEC S4.2), or, inside a work_tile_loop, loops one after another "
           "with equal bounds",
           "1 domain_loop", "a second domain_loop");
  }
  if (step.kind == ir::Bound::Kind::Static && step.value == 0)
    fail("capture.zero-step", "domain_loop step is a static zero, so the loop would never advance (SPEC S6.1)",
         "a non-zero step", "0");
  if (unroll && *unroll < 1)
    fail("capture.unroll", "domain_loop unroll must be >= 1, or Unroll::compiler_choice()", ">= 1",
         std::to_string(*unroll));
  int id = open_block(ir::BlockKind::DomainLoop);
  auto& b = ir_.blocks[id];
  b.start = std::move(start);
  b.end = std::move(end);
  b.step = std::move(step);
  b.unroll = unroll;
  b.loop_block = id;
  if (ir_.domain_loop < 0) ir_.domain_loop = id;  // the first of several equal loops
  domain_state_ = DomainState::Inside;
  return id;
}

void ScheduleRecorder::close_domain_loop(int id) {
  close_block(id);
  domain_state_ = DomainState::After;
}

int ScheduleRecorder::open_work_tile_loop(int queue_resource, ir::SkipIf skip) {
  if (ir_.work_tile_loop >= 0)
    fail("capture.second-work-tile-loop", "a schedule has at most one work_tile_loop (SPEC S4.5)",
         "1 work_tile_loop", "a second work_tile_loop", queue_resource);
  if (domain_state_ == DomainState::Inside)
    fail("capture.tile-loop-in-domain-loop",
         "work_tile_loop must enclose the domain_loop, not sit inside it (SPEC S4.5)",
         "work_tile_loop outside domain_loop", "work_tile_loop inside domain_loop", queue_resource);
  int id = open_block(ir::BlockKind::WorkTileLoop);
  auto& b = ir_.blocks[id];
  b.queue_resource = queue_resource;
  b.skip_if = std::move(skip);
  ir_.work_tile_loop = id;
  return id;
}

void ScheduleRecorder::close_work_tile_loop(int id) { close_block(id); }

int ScheduleRecorder::open_guard(ir::BlockKind kind, int loop_block, int period, int start) {
  if (!is_open(loop_block))
    fail("capture.guard-outside-loop",
         ir::to_string(kind) + " guard used outside its domain_loop (SPEC S4.3): guards are legal only inside "
         "the loop they belong to",
         "inside domain_loop block " + std::to_string(loop_block), "outside it");
  if (kind == ir::BlockKind::Every && period < 1)
    fail("capture.every-period", "every(period, start): period must be at least 1", ">= 1", std::to_string(period));
  if (kind == ir::BlockKind::Every && start < 0)
    fail("capture.every-start", "every(period, start): start must be non-negative", ">= 0", std::to_string(start));
  int id = open_block(kind);
  auto& b = ir_.blocks[id];
  b.loop_block = loop_block;
  b.period = period;
  b.every_start = start;
  return id;
}

int ScheduleRecorder::open_skippable(int tile_loop_block) {
  if (!is_open(tile_loop_block))
    fail("capture.skippable-outside-tile-loop", "skippable() used outside its work_tile_loop (SPEC S4.5)",
         "inside work_tile_loop", "outside it");
  for (int b : open_)
    if (ir_.blocks[b].kind == ir::BlockKind::Skippable)
      fail("capture.nested-skippable", "skippable() regions cannot nest", "one skippable region", "a nested one");
  int id = open_block(ir::BlockKind::Skippable);
  ir_.blocks[id].loop_block = tile_loop_block;
  return id;
}

int ScheduleRecorder::open_condition(ir::BlockKind kind, int slot, const char* explicit_key) {
  if (slot < 0 || slot >= static_cast<int>(ir_.slots.size()))
    fail("capture.condition-unwritten",
         ir::to_string(kind) + " condition is a token no work call of this schedule wrote (SPEC S4.4)",
         "a token returned by a work call", "an unwritten token");
  int id = open_block(kind);
  auto& b = ir_.blocks[id];
  b.cond_slot = slot;
  if (explicit_key) {
    b.cond_key = explicit_key;
    b.key_explicit = true;
  } else {
    b.cond_key = ir_.slots[slot].name;
  }
  return id;
}

void ScheduleRecorder::break_loop(int loop_block) {
  if (!is_open(loop_block))
    fail("capture.break-outside-loop", "break_loop() used outside its domain_loop (SPEC S4.9)",
         "inside domain_loop", "outside it");
  ir::Step s;
  s.id = static_cast<int>(ir_.steps.size());
  s.kind = SyncOp::BreakLoop;
  s.block = open_.back();
  s.section = current_section();
  s.method = "break_loop";
  ir_.steps.push_back(s);
  add_child(ir::Node{false, s.id});
}

int ScheduleRecorder::add_sync(SyncOp kind, int resource) {
  ir::Step s;
  s.id = static_cast<int>(ir_.steps.size());
  s.kind = kind;
  s.resource = resource;
  s.member = resources_.at(resource).group_member;
  s.method = ir::to_string(kind);
  s.block = open_.back();
  s.section = current_section();
  ir_.steps.push_back(s);
  add_child(ir::Node{false, s.id});
  return s.id;
}

void ScheduleRecorder::set_step_count(int step, ir::Bound count) { ir_.steps.at(step).count = std::move(count); }

void ScheduleRecorder::add_group_sync(SyncOp kind, std::vector<int> const& handles) {
  std::string op = ir::to_string(kind);
  std::string listed;
  for (int h : handles) listed += (listed.empty() ? "" : ", ") + resources_.at(h).name;
  int group = -1;
  for (int h : handles) {
    auto const& info = resources_.at(h);
    if (info.group < 0)
      fail("S6.24.group-view-member", "ts::group(" + listed + ")." + op + "(): '" + info.name +
               "' is not a member of any pipeline group", "members of one ts::pipeline_group", "'" + info.name + "'", h);
    if (group >= 0 && info.group != group)
      fail("S6.24.group-view-member", "ts::group(" + listed + ")." + op + "(): '" + info.name +
               "' belongs to group '" + info.group_model->name + "', not '" +
               resources_.at(handles[0]).group_model->name + "'",
           "members of one group", "members of two groups", h);
    group = info.group;
  }
  GroupModel const& g = *resources_.at(handles.at(0)).group_model;
  auto const& members = g.members;
  std::string all;
  for (auto const& n : g.member_names) all += (all.empty() ? "" : ", ") + n;
  bool same = handles.size() == members.size();
  for (int m : members) {
    int n = 0;
    for (int h : handles) n += h == m;
    same &= n == 1;
  }
  if (!same)
    fail("S6.24.group-view-member", "ts::group(" + listed + ")." + op + "(): a collapsed op names every member of group '" +
             g.name + "' once",
         "ts::group(" + all + ")", "ts::group(" + listed + ")", handles[0]);
  bool first = true;
  for (int m : members) {
    int id = add_sync(kind, m);
    ir_.steps[id].group = group;
    ir_.steps[id].group_lead = first;
    first = false;
  }
}

int ScheduleRecorder::add_work(int resource, WorkRole role, std::string method, std::vector<int> reads,
                               int num_results, std::vector<std::string> ct_args) {
  ir::Step s;
  s.id = static_cast<int>(ir_.steps.size());
  s.kind = SyncOp::Work;
  s.resource = resource;
  s.member = resources_.at(resource).group_member;
  s.role = role;
  s.ct_args = std::move(ct_args);
  s.method = std::move(method);
  s.reads_slots = std::move(reads);
  s.block = open_.back();
  s.section = current_section();
  for (int i = 0; i < num_results; ++i) {
    ir::Slot sl;
    sl.id = static_cast<int>(ir_.slots.size());
    sl.producer_step = s.id;
    sl.result_index = i;
    ir_.slots.push_back(sl);
    s.writes_slots.push_back(sl.id);
  }
  ir_.steps.push_back(s);
  add_child(ir::Node{false, s.id});
  return s.id;
}

void ScheduleRecorder::describe_slot(int slot, std::string name, std::string type, std::string default_value,
                                     std::string doc) {
  auto& s = ir_.slots.at(slot);
  s.name = std::move(name);
  s.type = std::move(type);
  s.default_value = std::move(default_value);
  s.doc = std::move(doc);
}

void ScheduleRecorder::check_token(int slot, int resource, std::string const& method, int arg_index) {
  if (slot < 0 || slot >= static_cast<int>(ir_.slots.size()))
    fail("capture.unwritten-token",
         "argument " + std::to_string(arg_index) + " of " + method +
             " is a token that no work call of this schedule wrote (SPEC S2.2)",
         "a token returned by a consumer or auxiliary work call", "an unwritten token", resource);
}

ir::ScheduleIR ScheduleRecorder::finish() {
  if (open_.size() != 1)
    fail("capture.block-nesting", "schedule ended with open blocks", "all blocks closed",
         std::to_string(open_.size() - 1) + " open");
  return std::move(ir_);
}

namespace rec {

ir::Bound to_bound(long long v) {
  ir::Bound b;
  b.kind = ir::Bound::Kind::Static;
  b.value = v;
  b.expr = std::to_string(v);
  b.form = ir::Affine::of_constant(v);
  b.form_known = true;
  return b;
}

ir::Bound to_bound(Sym const& s) {
  ir::Bound b;
  b.kind = ir::Bound::Kind::Runtime;
  b.value = s.value;
  b.value_known = s.known;
  b.expr = s.expr;
  b.form = affine_of(s);
  b.form_known = true;
  return b;
}

ir::Bound to_bound(RuntimeValue const& v) {
  ir::Bound b;
  b.kind = ir::Bound::Kind::Runtime;
  b.value = v.value;
  b.value_known = true;
  b.expr = v.name;
  b.form = ir::Affine::of_symbol(v.name);
  b.form_known = true;
  b.named_values.push_back({v.name, v.value, v.least});
  return b;
}

}  // namespace rec
}  // namespace ts
