#include "ts/schedule/ir.hpp"

namespace ts::ir {

std::string to_string(Section s) {
  switch (s) {
    case Section::Head: return "head";
    case Section::Loop: return "loop";
    case Section::Tail: return "tail";
  }
  return "?";
}

std::string to_string(BlockKind k) {
  switch (k) {
    case BlockKind::Root: return "root";
    case BlockKind::DomainLoop: return "domain_loop";
    case BlockKind::WorkTileLoop: return "work_tile_loop";
    case BlockKind::Skippable: return "skippable";
    case BlockKind::FirstIter: return "first_iter";
    case BlockKind::LastIter: return "last_iter";
    case BlockKind::Every: return "every";
    case BlockKind::WhenTrue: return "when_true";
    case BlockKind::WhenFalse: return "when_false";
  }
  return "?";
}

std::string to_string(Bound::Kind k) {
  switch (k) {
    case Bound::Kind::Static: return "static";
    case Bound::Kind::Runtime: return "runtime";
    case Bound::Kind::PerTile: return "per_tile";
  }
  return "?";
}

std::string to_string(SkipIf::Form f) {
  switch (f) {
    case SkipIf::Form::None: return "none";
    case SkipIf::Form::QueueMethod: return "queue_method";
    case SkipIf::Form::ForeignMethod: return "foreign_method";
    case SkipIf::Form::FunctionQueueTile: return "function_queue_tile";
    case SkipIf::Form::FunctionTile: return "function_tile";
  }
  return "?";
}

std::string to_string(WorkRole r) {
  switch (r) {
    case WorkRole::Producer: return "producer";
    case WorkRole::Consumer: return "consumer";
    case WorkRole::Auxiliary: return "auxiliary";
  }
  return "?";
}

bool is_producer_sync(SyncOp k) {
  return k == SyncOp::TryAcquire || k == SyncOp::Acquire || k == SyncOp::Commit;
}
bool is_consumer_sync(SyncOp k) {
  return k == SyncOp::TryWait || k == SyncOp::Wait || k == SyncOp::Release || k == SyncOp::Skip;
}
bool is_sync(SyncOp k) { return is_producer_sync(k) || is_consumer_sync(k); }

std::string short_name(Step const& s) {
  if (s.kind != SyncOp::Work) return to_string(s.kind);
  auto p = s.method.rfind("::");
  std::string n = p == std::string::npos ? s.method : s.method.substr(p + 2);
  if (!s.ct_args.empty()) {
    n += "<";
    for (size_t i = 0; i < s.ct_args.size(); ++i) n += (i ? "," : "") + s.ct_args[i];
    n += ">";
  }
  return n;
}

std::vector<int> enclosing_blocks(ScheduleIR const& ir, int block) {
  std::vector<int> out;
  for (int b = block; b >= 0; b = ir.blocks[b].parent) out.push_back(b);
  return out;
}

bool inside(ScheduleIR const& ir, int block, BlockKind kind) {
  for (int b : enclosing_blocks(ir, block))
    if (ir.blocks[b].kind == kind) return true;
  return false;
}

int domain_lane(ScheduleIR const& ir, int resource, SyncOp op, int stride) {
  if (ir.domain_loop < 0 || stride <= 1) return -1;
  for (auto const& s : ir.steps) {
    if (s.kind != op || s.resource != resource) continue;
    if (!inside(ir, s.block, BlockKind::DomainLoop)) return -1;
    auto const& loop = ir.blocks[ir.domain_loop];
    bool ok = loop.step.kind == Bound::Kind::Static && loop.step.value == stride && loop.start.value_known &&
              loop.start.kind != Bound::Kind::PerTile && loop.start.value >= 0 && loop.start.value < stride;
    return ok ? static_cast<int>(loop.start.value) : -1;
  }
  return -1;
}


Bound operator+(Bound b, long long k) {
  if (k == 0) return b;
  b.value += k;
  b.expr += (k > 0 ? " + " : " - ") + std::to_string(k > 0 ? k : -k);
  b.form = b.form + Affine::of_constant(k);
  if (b.at_least != LLONG_MIN) b.at_least += k;
  return b;
}

Bound operator-(Bound b, long long k) { return b + -k; }

}  // namespace ts::ir
