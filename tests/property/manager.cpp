#include "manager.hpp"

namespace prop {

ts::PipelineConfig pipeline_config(MemSpec const& m) {
  ts::PipelineConfig c = base_config(m);
  c.interleave_stride = ts::InterleaveStride(m.producer_stride, m.producer_stride, m.consumer_stride, m.consumer_stride);
  // Multi-warp tasks: the arrivals the issuing tasks' warps deliver (Signal::All).
  if (m.producer_threads > 0 && c.producer_engine() == ts::Engine::Async)
    c.producer_group = {ts::Agent::Thread, m.producer_threads};
  if (m.consumer_threads > 0 && c.consumer_engine() == ts::Engine::Async)
    c.consumer_group = {ts::Agent::Thread, m.consumer_threads};
  return c;
}

ts::PipelineConfig base_config(MemSpec const& m) {
  // 32-thread groups: one warp per task, every lane arrives (Signal::All).
  ts::CooperativeGroup warp{ts::Agent::Thread, kLanes};
  std::optional<ts::Signal> split;
  if (m.split_consumer) split = ts::Signal::All;
  switch (m.pipe) {
    case PipeKind::TmaAsync:
      return ts::PipelineConfig::tma_async({.num_stages = m.stages, .num_bytes = kStageBytes,
                                            .consumer_group = warp, .wait_signal_override = split});
    case PipeKind::TmaUmma:
      return ts::PipelineConfig::tma_umma({.num_stages = m.stages, .num_bytes = kStageBytes});
    default:
      return ts::PipelineConfig::async_async({.num_stages = m.stages, .producer_group = warp,
                                              .consumer_group = warp, .wait_signal_override = split});
  }
}

namespace {
void scan(std::vector<Node> const& nodes, TaskUse& u) {
  for (auto const& n : nodes) {
    switch (n.op) {
      case Op::Acquire: case Op::Commit: case Op::Put: case Op::Scribble: case Op::TmaCopy: u.writes.insert(n.res); break;
      case Op::Wait: case Op::Release: case Op::Take: case Op::Mma: case Op::Skip: u.reads.insert(n.res); break;
      case Op::WhenTrue: case Op::WhenFalse: case Op::Tick: u.flags = true; break;
      case Op::PdlWait: u.pdl_in = true; break;
      case Op::PdlLaunch: u.pdl_out = true; break;
      default: break;
    }
    scan(n.body, u);
  }
}
}  // namespace

TaskUse task_use(Program const& p, int t) {
  TaskUse u;
  auto const& tp = p.tasks[t];
  for (auto const* list : tp.lists()) scan(*list, u);
  return u;
}

}  // namespace prop
