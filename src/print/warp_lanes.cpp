// The warp-lane block of the printout (docs/warp-lanes.md): for every side of a resource
// that runs in warp-lane mode, which stages each warp of each issuing task handles. The
// schedule table's simulation steps a lane op as `stride` stage ops and names the first
// stage in its cell; this block shows which stage each warp takes.
#include <ostream>
#include <string>

#include "ts/print/printout.hpp"
#include "ts/schedule/lane_mode.hpp"

namespace ts::print {

namespace {

struct Side {
  SyncOp open, close;
  char const* name;
};

// "warp 1 -> stages 0, 2; warp 2 -> stages 1, 3" (block warp numbers, as the table's
// column headers count them).
std::string stages_per_warp(TaskModel const& t, int stride, int stages) {
  std::string out;
  for (int lane = 0; lane < stride && lane < t.num_warps; ++lane) {
    out += (lane ? "; warp " : "warp ") + std::to_string(t.warp_start + lane) + " -> stage" + (stages / stride > 1 ? "s " : " ");
    for (int s = lane; s < stages; s += stride) out += (s == lane ? "" : ", ") + std::to_string(s);
  }
  return out;
}

}  // namespace

void warp_lanes(Model const& m, std::ostream& os) {
  bool header = false;
  for (size_t r = 0; r < m.resources.size(); ++r) {
    auto const& res = *m.resources[r];
    if (!res.pipelined()) continue;
    for (Side side : {Side{SyncOp::Acquire, SyncOp::Commit, "acquire/commit"}, Side{SyncOp::Wait, SyncOp::Release, "wait/release"}}) {
      for (auto const& t : m.tasks) {
        int stride = 0;
        for (auto const& s : t.schedule.steps)
          if (s.resource == static_cast<int>(r) && (s.kind == side.open || s.kind == side.close) &&
              ir::lane_mode(t.schedule, s, op_stride(*res.pipeline, s.kind)) == ir::LaneMode::WarpLane)
            stride = op_stride(*res.pipeline, s.kind);
        if (!stride) continue;
        if (!header) {
          os << "Warp lanes (S6.12): each warp of the task is one lane; one op of the task is `stride` stage ops, "
                "one per warp (the table above counts all of them and names the first stage):\n";
          header = true;
        }
        os << "  " << res.name << " " << side.name << " in " << t.name << "[" << t.warp_start << ":" << t.warp_end()
           << ") stride " << stride << ": " << stages_per_warp(t, stride, res.pipeline->num_stages) << "\n";
      }
    }
  }
}

}  // namespace ts::print
