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

// Over raw pointers (host memory for the emulator, device memory for the GPU), with
// `warps` warps per CTA.
inline auto make_pdl_primary(int* buf_data, long long n, ts::Options o = {}, int warps = 1) {
  auto launch = ts::resource("launch", ts::PdlLaunch{});
  auto buf = ts::resource("buf", PdlBuffer{{}, buf_data, n});
  auto t = ts::Task("Writer").warps(0, warps).writes(buf, launch).schedule(PdlPrimary{}, launch, buf);
  o.assume_pdl_wait_completed = true;  // first kernel of the chain: nothing to wait for
  return ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{buf, {}}}, o);
}

inline auto make_pdl_secondary(int* buf_data, int* out_data, long long n, ts::Options o = {}, int warps = 1) {
  auto dep = ts::resource("dep", ts::PdlWait{});
  auto buf = ts::resource("buf", PdlBuffer{{}, buf_data, n});
  auto out = ts::resource("out", PdlOut{{}, out_data});
  auto t = ts::Task("Reader").warps(0, warps).reads(dep, buf).writes(out).schedule(PdlSecondary{}, dep, buf, out);
  return ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{out, {buf}}}, o);
}

inline auto make_pdl_primary(PdlBuffers& b, ts::Options o = {}) {
  return make_pdl_primary(b.buf.data(), static_cast<long long>(b.buf.size()), o);
}

inline auto make_pdl_secondary(PdlBuffers& b, ts::Options o = {}) {
  return make_pdl_secondary(b.buf.data(), b.out.data(), static_cast<long long>(b.buf.size()), o);
}

}  // namespace examples

TS_WORK_SLOTS(&examples::PdlBuffer::read, ts::Slot<int>{"value", 0, "the primary's value at loop_offset"});
