// The asynchronous engines of the emulated SM: bulk (1-D) and tensor (2-D, TMA-like)
// copies that complete transaction bytes on an mbarrier, the in-order MMA engine with
// its tensor memory, and Cluster Launch Control (SPEC S13). Each asynchronous
// operation completes at a later scheduling decision of the seeded scheduler.
#include <cstring>

#include "state.hpp"
#include "ts/core/queue_response.hpp"

namespace ts::cpu {

namespace {
// The 16-byte CLC response as this emulator lays it out (opaque on hardware):
// word 0 bit 0 = canceled, word 1 = first CTA id (x), words 2-3 = 0 (y, z).
struct ClcResponse {
  uint32_t canceled, x, y, z;
};
static_assert(sizeof(ClcResponse) == kQueueResponseBytes);
}  // namespace

void Emulator::Impl::check_smem_range(Cta& c, void const* p, std::size_t bytes, char const* what) {
  auto const* q = static_cast<unsigned char const*>(p);
  if (q < c.smem || q + bytes > c.smem + c.smem_bytes || bytes > c.smem_bytes) {
    long long off = static_cast<long long>(q - c.smem);
    self->fail(std::string("out-of-range shared-memory access by ") + what + ": bytes [" + std::to_string(off) + ", " +
               std::to_string(off + (long long)bytes) + ") of a " + std::to_string(c.smem_bytes) + "-byte CTA SMEM");
  }
}

void Emulator::smem_access(void const* p, std::size_t bytes, bool write) {
  Impl& im = *impl_;
  Fiber& f = im.fiber();
  Cta& c = *f.cta;
  im.check_smem_range(c, p, bytes, write ? "a checked store" : "a checked load");
  if (im.opt.detect_races)
    im.record_access(c, f.tid, f.vc, f.step, uint32_t(static_cast<unsigned char const*>(p) - c.smem), bytes, write);
}

void Emulator::Impl::record_copy_write(Cta& c, uint64_t* b, int issuer, int step, VClock const& issued,
                                       void const* dst, std::size_t bytes) {
  uint32_t bar_off = uint32_t(reinterpret_cast<unsigned char*>(b) - c.smem);
  int a = c.engine_actor(false, bar_off), me = c.actor_tid(a);
  auto& actor = c.actors[size_t(a)];
  actor.issued.emplace_back(issuer, step);
  uint32_t const clk = uint32_t(actor.issued.size());
  // Ordered after what the issuer knew at the issue, the actor's earlier copies included
  // only as far as it waited for them.
  record_access_at(c, me, clk, issued, step, uint32_t(static_cast<unsigned char const*>(dst) - c.smem), bytes, true,
                   false);
  VClock vc = issued;
  if (vc.size() <= size_t(me)) vc.resize(size_t(me) + 1, 0);
  vc[me] = clk;
  vc_join(c.bars[bar_off].accum, vc);  // the barrier's completion releases the write to its waiters
}

void Emulator::bulk_copy_g2s(void* dst, void const* src, uint32_t bytes, uint64_t* b) {
  Impl& im = *impl_;
  Fiber& f = im.fiber();
  Cta* c = f.cta;
  im.check_smem_range(*c, dst, bytes, "a bulk copy (global -> shared)");
  im.bar(*c, b, "bulk copy completion");
  if (bytes % 16) fail("bulk copy of " + std::to_string(bytes) + " bytes: the size must be a multiple of 16");
  Impl* ip = &im;
  int tid = f.tid, step = f.step;
  VClock snap = f.vc;
  ++c->async_inflight;
  im.async_ops.push_back({c, [ip, c, dst, src, bytes, b, tid, step, snap] {
                            std::memcpy(dst, src, bytes);
                            if (ip->opt.detect_races) ip->record_copy_write(*c, b, tid, step, snap, dst, bytes);
                            ip->complete_tx(*c, b, bytes);
                          }});
  if (im.opt.detect_races) ++f.vc[f.tid];
}

void Emulator::bulk_copy_s2g(void* dst, void const* src, uint32_t bytes) {
  Impl& im = *impl_;
  Fiber& f = im.fiber();
  im.check_smem_range(*f.cta, src, bytes, "a bulk copy (shared -> global)");
  if (im.opt.detect_races)
    im.record_access(*f.cta, f.tid, f.vc, f.step, uint32_t(static_cast<unsigned char const*>(src) - f.cta->smem), bytes,
                     false);
  // Modelled as complete on issue, its SMEM read by the issuing thread: the emulator has
  // no bulk-group wait to order it by (docs/emulator.md, "Not covered").
  std::memcpy(dst, src, bytes);
}

void Emulator::tensor_copy_2d_g2s(void* dst, arch::TensorMap2D const& m, long long x, long long y, uint64_t* b) {
  Impl& im = *impl_;
  Fiber& f = im.fiber();
  Cta* c = f.cta;
  uint32_t bytes = uint32_t(m.box_w) * uint32_t(m.box_h) * uint32_t(m.elem_bytes);
  if (m.box_w <= 0 || m.box_h <= 0 || m.elem_bytes <= 0 || !m.base) fail("tensor copy with an invalid tensor map");
  im.check_smem_range(*c, dst, bytes, "a tensor copy (global -> shared)");
  im.bar(*c, b, "tensor copy completion");
  Impl* ip = &im;
  int tid = f.tid, step = f.step;
  VClock snap = f.vc;
  ++c->async_inflight;
  im.async_ops.push_back({c, [ip, c, dst, m, x, y, bytes, b, tid, step, snap] {
                            auto* out = static_cast<unsigned char*>(dst);
                            auto const* base = static_cast<unsigned char const*>(m.base);
                            for (int r = 0; r < m.box_h; ++r)
                              for (int e = 0; e < m.box_w; ++e) {
                                long long gx = x + e, gy = y + r;
                                unsigned char* o = out + (size_t(r) * m.box_w + e) * m.elem_bytes;
                                if (gx >= 0 && gx < m.width && gy >= 0 && gy < m.height)
                                  std::memcpy(o, base + gy * m.row_stride_bytes + gx * m.elem_bytes, m.elem_bytes);
                                else
                                  std::memset(o, 0, m.elem_bytes);  // out-of-bounds box elements are zero-filled
                              }
                            if (ip->opt.detect_races) ip->record_copy_write(*c, b, tid, step, snap, out, bytes);
                            ip->complete_tx(*c, b, bytes);  // the full box counts, OOB fill included
                          }});
  if (im.opt.detect_races) ++f.vc[f.tid];
}

void Emulator::umma_issue(std::function<void()> op, std::vector<SmemRange> reads) {
  Impl& im = *impl_;
  Fiber& f = im.fiber();
  Cta* c = f.cta;
  for (auto const& r : reads) im.check_smem_range(*c, r.p, r.bytes, "an MMA operand");
  if (!im.opt.detect_races) {
    c->mma_queue.push_back(std::move(op));
    return;
  }
  // The engine's reads happen when the MMA executes: ordered after what the issuer did
  // before the issue (its clock now), not after what it does next.
  Impl* ip = &im;
  VClock snap = f.vc;
  int tid = f.tid, step = f.step;
  ++f.vc[f.tid];
  c->mma_queue.push_back([ip, c, snap, tid, step, reads, op = std::move(op)] {
    int a = c->engine_actor(true, uint32_t(tid)), me = c->actor_tid(a);
    auto& actor = c->actors[size_t(a)];
    vc_join(actor.vc, snap);
    if (actor.vc.size() <= size_t(me)) actor.vc.resize(size_t(me) + 1, 0);
    actor.issued.emplace_back(tid, step);
    actor.vc[me] = uint32_t(actor.issued.size());
    for (auto const& r : reads)
      ip->record_access(*c, me, actor.vc, step, uint32_t(static_cast<unsigned char const*>(r.p) - c->smem), r.bytes,
                        false);
    op();
  });
}

float* Emulator::tmem(uint32_t column, int lane) {
  Impl& im = *impl_;
  Cta& c = *im.fiber().cta;
  uint32_t cols = c.tmem_columns ? c.tmem_columns : 512;
  if (c.tmem.empty()) c.tmem.assign(size_t(128) * cols, 0.0f);
  if (lane < 0 || lane >= 128 || column >= cols)
    fail("tensor-memory access out of range: lane " + std::to_string(lane) + ", column " + std::to_string(column) +
         " (" + std::to_string(cols) + " columns allocated)");
  return &c.tmem[size_t(lane) * cols + column];
}

// ---- Cluster Launch Control (SPEC S13): try_cancel a pending CTA of this grid ----
void Emulator::clc_try_cancel(void* response, uint64_t* b) {
  Impl& im = *impl_;
  Fiber& f = im.fiber();
  Cta* c = f.cta;
  if (c->clc_failed_seen)
    fail("CLC try_cancel issued after this CTA observed a failed response: undefined behaviour (SPEC S13.3)");
  im.check_smem_range(*c, response, kQueueResponseBytes, "a CLC response");
  if (reinterpret_cast<uintptr_t>(response) & 15) fail("CLC response buffer is not 16-byte aligned");
  im.bar(*c, b, "CLC response completion");
  Impl* ip = &im;
  // Race detection: the response is a write into the slot by the copy engine of the
  // barrier, made when the engine completes it, and its completion releases that write to
  // the barrier's waiters (like a bulk copy's). The readers are every lane of the consuming tasks
  // (clc_is_canceled / clc_first_ctaid), so a slot refilled while a lane still reads it
  // is a race, as racecheck sees it on the GPU.
  int tid = f.tid, step = f.step;
  VClock snap = f.vc;
  ++c->async_inflight;
  im.async_ops.push_back({c, [ip, c, response, b, tid, step, snap] {
                            Kernel& k = *c->kernel;
                            ClcResponse r{0, 0, 0, 0};
                            for (size_t i = 0; i < k.status.size(); ++i)
                              if (k.status[i] == CtaStatus::Pending) {
                                // Cancelled before it started: the coordinate now belongs to the caller.
                                k.status[i] = CtaStatus::Canceled;
                                ++k.finished;
                                ++k.triggered;
                                ++ip->stats.ctas_canceled;
                                r = {1u, uint32_t(i), 0, 0};
                                break;
                              }
                            if (ip->opt.detect_races)
                              ip->record_copy_write(*c, b, tid, step, snap, response, kQueueResponseBytes);
                            std::memcpy(response, &r, sizeof r);
                            if (k.complete()) ip->wake_all(k.pdl_waiters);
                            ip->complete_tx(*c, b, kQueueResponseBytes);
                          }});
  if (im.opt.detect_races) ++f.vc[f.tid];
}

// A lane's read of the whole 16-byte response (race detection).
void Emulator::Impl::record_response_read(Cta& c, void const* response) {
  if (!opt.detect_races) return;
  Fiber& f = fiber();
  record_access(c, f.tid, f.vc, f.step, uint32_t(static_cast<unsigned char const*>(response) - c.smem), kQueueResponseBytes,
                false);
}

bool Emulator::clc_is_canceled(void const* response) {
  Impl& im = *impl_;
  Cta& c = *im.fiber().cta;
  im.check_smem_range(c, response, kQueueResponseBytes, "a CLC response query");
  im.record_response_read(c, response);
  ClcResponse r;
  std::memcpy(&r, response, sizeof r);
  if (r.canceled > 1) fail("CLC response read before any response was written (garbage in shared memory)");
  if (!r.canceled) c.clc_failed_seen = true;
  return r.canceled != 0;
}

int Emulator::clc_first_ctaid(void const* response) {
  Impl& im = *impl_;
  Cta& c = *im.fiber().cta;
  im.record_response_read(c, response);
  ClcResponse r;
  std::memcpy(&r, response, sizeof r);
  if (r.canceled != 1)
    fail("CLC: reading the first CTA id of a failed response: undefined behaviour (SPEC S13.3)");
  return int(r.x);
}

// One claim per CTA. Fibers run one at a time, so the first caller's claim completes
// before any other thread of the CTA runs: no spinning (which would never yield here).
int Emulator::cta_claim_once(std::function<int()> const& claim) {
  Cta& c = *impl_->fiber().cta;
  if (!c.claimed) {
    c.claim_value = claim();
    c.claimed = true;
  }
  return c.claim_value;
}

}  // namespace ts::cpu
