// Printing a Program as schedule pseudo-code: a shrunk counterexample reads like the
// hand-written functor it becomes in regressions_test.cpp.
#include "schedule_program.hpp"

#include <sstream>

namespace prop {

bool is_block(Op op) {
  switch (op) {
    case Op::WhenTrue: case Op::WhenFalse: case Op::FirstIter: case Op::LastIter: case Op::Every:
    case Op::Skippable:
      return true;
    default:
      return false;
  }
}

char const* op_name(Op op) {
  switch (op) {
    case Op::Acquire: return "acquire";
    case Op::Commit: return "commit";
    case Op::Wait: return "wait";
    case Op::Release: return "release";
    case Op::Put: return "work<put>";
    case Op::Take: return "work<take>";
    case Op::Scribble: return "work<scribble>";
    case Op::TmaCopy: return "work<tma_copy>";
    case Op::Mma: return "work<mma>";
    case Op::PdlWait: return "pdl_in.wait";
    case Op::PdlLaunch: return "pdl_out.commit";
    case Op::Advance: return "queue.get_and_advance_work_tile";
    case Op::Tick: return "work<tick>(flags)";
    case Op::WhenTrue: return "when_true";
    case Op::WhenFalse: return "when_false";
    case Op::FirstIter: return "first_iter";
    case Op::LastIter: return "last_iter";
    case Op::Every: return "every";
    case Op::Skippable: return "skippable";
    case Op::Skip: return "skip";
  }
  return "?";
}

namespace {
void print_nodes(std::ostream& os, std::vector<Node> const& nodes, int indent) {
  std::string pad(indent * 2, ' ');
  for (auto const& n : nodes) {
    os << pad;
    switch (n.op) {
      case Op::Acquire: case Op::Commit: case Op::Wait: case Op::Release:
        os << "m" << n.res << "." << op_name(n.op) << "();\n";
        break;
      case Op::Skip:
        os << "m" << n.res << ".skip(" << n.period << ");\n";
        break;
      case Op::Put: case Op::Take: case Op::Scribble: case Op::TmaCopy: case Op::Mma:
        os << op_name(n.op) << "(m" << n.res << ");\n";
        break;
      case Op::PdlWait: case Op::PdlLaunch: case Op::Advance: case Op::Tick:
        os << op_name(n.op) << "();\n";
        break;
      case Op::WhenTrue: case Op::WhenFalse:
        os << "s." << op_name(n.op) << "(flags.more(), Key{k" << n.key << "}) {\n";
        break;
      case Op::Every:
        os << "d.every(" << n.period << ", " << n.start << ") {\n";
        break;
      default:
        os << (n.op == Op::Skippable ? "wt." : "d.") << op_name(n.op) << " {\n";
    }
    if (is_block(n.op)) {
      print_nodes(os, n.body, indent + 1);
      os << pad << "}\n";
    }
  }
}
char const* pipe_name(PipeKind k) {
  switch (k) {
    case PipeKind::None: return "plain";
    case PipeKind::AsyncAsync: return "async_async";
    case PipeKind::TmaAsync: return "tma_async";
    case PipeKind::TmaUmma: return "tma_umma";
  }
  return "?";
}
}  // namespace

std::string to_string(Program const& p) {
  std::ostringstream os;
  os << "\n";
  for (int i = 0; i < kMemSlots; ++i) {
    auto const& m = p.mem[i];
    os << "m" << i << ": " << pipe_name(m.pipe);
    if (m.pipe != PipeKind::None) os << " stages=" << m.stages;
    if (m.split_consumer) os << " split_consumer";
    if (m.producer_stride != 1 || m.consumer_stride != 1)
      os << " interleave_stride(" << m.producer_stride << ", " << m.producer_stride << ", " << m.consumer_stride << ", "
         << m.consumer_stride << ")";
    if (m.alias_group >= 0) os << " alias(g" << m.alias_group << ", " << m.alias_phase << ")";
    os << "\n";
  }
  char const* loops[] = {"domain_loop(0, ", "domain_loop(0, runtime(", "work_tile_loop(queue", "work_tile_loop(queue",
                         "work_tile_loop(queue"};
  for (size_t t = 0; t < p.tasks.size(); ++t) {
    auto const& tp = p.tasks[t];
    os << "task T" << t << (p.warps[t] != 1 ? " (" + std::to_string(p.warps[t]) + " warps)" : "") << ":\n";
    print_nodes(os, tp.head, 1);
    os << "  " << loops[int(p.loop)];
    bool const nested = nested_loops(p.loop);
    if (p.loop != LoopKind::Tiles && !nested && int(t) == p.late_start_task) os << "/* start 1 */ ";
    if (p.loop == LoopKind::StaticDomain) os << p.length << ", 1)";
    else if (p.loop == LoopKind::RuntimeDomain) os << p.length << ", \"n\"), 1)";
    else os << (p.skip_tiles ? ", skip_if<empty_tile>)" : ")");
    os << " {\n";
    if (nested) {  // the domain loop(s) one level in, between the tile's pre, mid and post parts
      auto domain_loop = [&](std::vector<Node> const& body) {
        os << "    domain_loop(" << (int(t) == p.late_start_task ? "1" : "0") << ", ";
        if (p.per_tile_bound) os << "per_tile(queue.length) /* " << p.length << " unless set per tile */, 1) {\n";
        else os << "runtime(" << p.length << ", \"n\"), 1) {\n";
        print_nodes(os, body, 3);
        os << "    }\n";
      };
      print_nodes(os, tp.tile_pre, 2);
      domain_loop(tp.body);
      if (p.loop == LoopKind::TilesOfTwoDomains) {
        print_nodes(os, tp.tile_mid, 2);
        domain_loop(tp.body2);
      }
      print_nodes(os, tp.tile_post, 2);
    } else {
      print_nodes(os, tp.body, 2);
    }
    os << "  }\n";
    print_nodes(os, tp.tail, 1);
  }
  return os.str();
}

}  // namespace prop
