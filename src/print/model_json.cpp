#include <cstdio>

#include "json_writer.hpp"
#include "ts/print/printout.hpp"

namespace ts::print {

namespace {

void bound(JsonWriter& w, std::string const& k, ir::Bound const& b) {
  w.key(k).begin_object();
  w.field("kind", ir::to_string(b.kind));
  w.field("expr", b.expr);
  w.key("value");
  if (b.kind == ir::Bound::Kind::PerTile || !b.value_known) w.null();
  else w.value(b.value);
  w.field("provider_resource", b.provider_resource);
  w.end_object();
}

void pipeline(JsonWriter& w, PipelineConfig const& p) {
  w.begin_object();
  w.field("type", to_string(p.type));
  w.field("num_stages", p.num_stages);
  w.field("num_bytes", p.num_bytes);
  w.field("producer_group", p.producer_group.threads());
  w.field("consumer_group", p.consumer_group.threads());
  w.key("cta_layout_vmnk");
  if (p.cta_layout_vmnk) {
    w.begin_array();
    for (int v : *p.cta_layout_vmnk) w.value(v);
    w.end_array();
  } else {
    w.null();
  }
  w.field("num_bytes_per_warp_per_cta", p.num_bytes_per_warp_per_cta);
  w.field("producer_signal", to_string(p.producer_signal));
  w.field("consumer_signal", to_string(p.consumer_signal));
  w.key("wait_signal_override");
  if (p.wait_signal_override) w.value(to_string(*p.wait_signal_override));
  else w.null();
  auto const& s = p.interleave_stride;
  w.ints("interleave_stride", {s.acquire, s.commit, s.wait, s.release});
  w.field("advance_on_wait", p.advance_on_wait);
  w.field("advance_on_acquire", p.advance_on_acquire);
  w.field("async_flavor", std::string(p.async_flavor == AsyncFlavor::AsyncThread ? "AsyncThread" : "AsyncLoad"));
  w.end_object();
}

void schedule(JsonWriter& w, ir::ScheduleIR const& s) {
  w.begin_object();
  w.field("name", s.name);
  w.field("domain_loop", s.domain_loop);
  w.field("work_tile_loop", s.work_tile_loop);
  w.key("blocks").begin_array();
  for (auto const& b : s.blocks) {
    w.begin_object();
    w.field("id", b.id);
    w.field("kind", ir::to_string(b.kind));
    w.field("parent", b.parent);
    w.key("children").begin_array();
    for (auto const& n : b.children) {
      w.begin_object();
      w.field(n.is_block ? "block" : "step", n.index);
      w.end_object();
    }
    w.end_array();
    using BK = ir::BlockKind;
    if (b.kind == BK::DomainLoop) {
      bound(w, "start", b.start);
      bound(w, "end", b.end);
      bound(w, "step", b.step);
      w.key("unroll");
      if (b.unroll) w.value(*b.unroll);
      else w.null();
    }
    if (b.kind == BK::Every) {
      w.field("period", b.period);
      w.field("start", b.every_start);
    }
    if (b.kind == BK::FirstIter || b.kind == BK::LastIter || b.kind == BK::Every || b.kind == BK::Skippable)
      w.field("loop_block", b.loop_block);
    if (b.kind == BK::WhenTrue || b.kind == BK::WhenFalse) {
      w.field("cond_slot", b.cond_slot);
      w.field("key", b.cond_key);
      w.field("key_explicit", b.key_explicit);
    }
    if (b.kind == BK::WorkTileLoop) {
      w.field("queue_resource", b.queue_resource);
      w.key("skip_if").begin_object();
      w.field("form", ir::to_string(b.skip_if.form));
      w.field("name", b.skip_if.name);
      w.field("owner_type", b.skip_if.owner_type);
      w.end_object();
    }
    w.end_object();
  }
  w.end_array();
  w.key("steps").begin_array();
  for (auto const& st : s.steps) {
    w.begin_object();
    w.field("id", st.id);
    w.field("kind", ir::to_string(st.kind));
    w.field("resource", st.resource);
    if (st.kind == SyncOp::Work) {
      w.field("role", ir::to_string(st.role));
      w.field("method", st.method);
      w.strings("ct_args", st.ct_args);
      w.ints("reads", st.reads_slots);
      w.ints("writes", st.writes_slots);
    }
    w.field("block", st.block);
    w.field("section", ir::to_string(st.section));
    if (st.member >= 0) w.field("member", st.member);
    if (st.group >= 0) {
      w.field("group", st.group);
      w.field("group_lead", st.group_lead);
    }
    w.end_object();
  }
  w.end_array();
  w.key("slots").begin_array();
  for (auto const& sl : s.slots) {
    w.begin_object();
    w.field("id", sl.id);
    w.field("name", sl.name);
    w.field("type", sl.type);
    w.field("default", sl.default_value);
    w.field("doc", sl.doc);
    w.field("producer_step", sl.producer_step);
    w.field("result_index", sl.result_index);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace

std::string model_json(Model const& m) {
  JsonWriter w;
  w.begin_object();
  w.field("schema", "ts.model/1");
  w.key("resources").begin_array();
  for (size_t i = 0; i < m.resources.size(); ++i) {
    auto const& r = *m.resources[i];
    w.begin_object();
    w.field("id", static_cast<int>(i));
    w.field("name", r.name);
    w.field("type", r.type_name);
    w.field("kind", to_string(r.kind));
    w.key("pipeline");
    if (r.pipeline) pipeline(w, *r.pipeline);
    else w.null();
    w.key("allocations").begin_array();
    for (auto const& a : r.allocations.decls()) {
      w.begin_object();
      w.field("name", a.name);
      w.field("space", std::string(a.space == MemSpace::Smem ? "smem" : "tmem"));
      w.field("element_type", a.element_type);
      w.field("element_bytes", a.element_bytes);
      w.field("count", static_cast<long long>(a.count));
      w.field("alignment", a.alignment);
      w.field("side", std::string(a.side == AccessSide::Both ? "both" : a.side == AccessSide::Producer ? "producer" : "consumer"));
      w.field("alias_group", a.alias_group);
      w.field("alias_phase", a.alias_phase);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.key("graph").begin_array();
  for (auto const& e : m.graph) {
    w.begin_object();
    w.field("resource", e.resource);
    w.ints("upstream", e.upstream);
    w.end_object();
  }
  w.end_array();
  if (!m.groups.empty()) {  // pipeline groups (SPEC S10); absent when there are none
    w.key("groups").begin_array();
    for (auto const& g : m.groups) {
      w.begin_object();
      w.field("name", g.name);
      w.field("mode", to_string(g.mode));
      w.ints("members", g.members);
      w.field("num_stages", g.num_stages);
      w.field("total_bytes", g.total_bytes);
      w.end_object();
    }
    w.end_array();
  }
  w.key("tasks").begin_array();
  for (auto const& t : m.tasks) {
    w.begin_object();
    w.field("name", t.name);
    w.field("warp_start", t.warp_start);
    w.field("num_warps", t.num_warps);
    w.ints("reads", t.reads);
    w.ints("writes", t.writes);
    w.ints("schedule_args", t.schedule_args);
    w.key("num_registers");
    if (t.num_registers) w.value(*t.num_registers);
    else w.null();
    w.key("schedule");
    schedule(w, t.schedule);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.str();
}

}  // namespace ts::print
