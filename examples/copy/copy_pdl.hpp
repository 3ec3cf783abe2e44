// ---- 06: a Programmatic Dependent Launch chain (SPEC S12) ----
// The primary kernel lets its dependents launch first (PdlLaunch commit), then writes a
// buffer; the secondary kernel's CTAs may start while the primary still runs, and its
// PdlWait blocks until the primary grid completed, so it reads every write. The checker
// proves the secondary never launches dependents before waiting; the primary has no
// predecessor, so it says so (assume_pdl_wait_completed).
#pragma once
#include <cstdint>
#include <vector>

#include "ts/schedule.hpp"
#include "ts/ts.hpp"

namespace examples {

struct PdlBuffer : ts::MemoryResource {
  int* data = nullptr;
  long long n = 0;
  TS_HD void write(ts::ProducerStage const& si) const { data[si.loop_offset] = int(si.loop_offset * 5 + 1); }
  TS_HD int read(ts::ConsumerStage const& si) const { return data[si.loop_offset]; }
};
struct PdlOut : ts::MemoryResource {
  int* data = nullptr;
  TS_HD void put(ts::ProducerStage const& si, int v) const { data[si.loop_offset] = v; }
};

struct PdlPrimary {
  template <class S, class L, class B>
  TS_HD void operator()(S& s, L& launch, B& buf) const {
    launch.acquire();
    launch.commit();  // griddepcontrol.launch_dependents: the secondary may start now
    s.domain_loop(s.global_thread(), buf->n, s.grid_threads(), [&] { ts::work<&PdlBuffer::write>(buf); });
  }
};
struct PdlSecondary {
  template <class S, class W, class B, class O>
  TS_HD void operator()(S& s, W& dep, B& buf, O& out) const {
    dep.wait();  // griddepcontrol.wait: the primary grid has completed
    s.domain_loop(s.global_thread(), buf->n, s.grid_threads(),
                  [&] { ts::work<&PdlOut::put>(out, ts::work<&PdlBuffer::read>(buf)); });
  }
};

struct PdlBuffers {
  std::vector<int> buf, out;
  explicit PdlBuffers(long long n) : buf(n, 0), out(n, -1) {}
  bool matches() const {
    for (size_t i = 0; i < out.size(); ++i)
      if (out[i] != int(i * 5 + 1)) return false;
    return true;
  }
};

inline auto make_pdl_primary(PdlBuffers& b, ts::Options o = {}) {
  long long n = static_cast<long long>(b.buf.size());
  auto launch = ts::resource("launch", ts::PdlLaunch{});
  auto buf = ts::resource("buf", PdlBuffer{{}, b.buf.data(), n});
  auto t = ts::Task("Writer").warps(0, 1).writes(buf, launch).schedule(PdlPrimary{}, launch, buf);
  o.assume_pdl_wait_completed = true;  // first kernel of the chain: nothing to wait for
  return ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{buf, {}}}, o);
}

inline auto make_pdl_secondary(PdlBuffers& b, ts::Options o = {}) {
  long long n = static_cast<long long>(b.buf.size());
  auto dep = ts::resource("dep", ts::PdlWait{});
  auto buf = ts::resource("buf", PdlBuffer{{}, b.buf.data(), n});
  auto out = ts::resource("out", PdlOut{{}, b.out.data()});
  auto t = ts::Task("Reader").warps(0, 1).reads(dep, buf).writes(out).schedule(PdlSecondary{}, dep, buf, out);
  return ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{out, {buf}}}, o);
}

}  // namespace examples

TS_WORK_SLOTS(&examples::PdlBuffer::read, ts::Slot<int>{"value", 0, "the primary's value at loop_offset"});
