// Host implementation of ts/arch/emulated_mma.hpp: the wgmma and UMMA emulation of the
// GEMM examples, on the CPU emulator's SMEM, MMA engine and tensor memory.
#include "ts/arch/emulated_mma.hpp"
#include "ts/arch/wgmma.hpp"

#include <cstring>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "ts/arch/bf16.hpp"
#include "ts/runtime/cpu/emulator.hpp"

namespace ts::arch::emu {

using ts::cpu::Emulator;

namespace {

struct WgmmaOp {
  Operand a, b;
  int thread_in_wg;
  bool accumulate;
  int n = 256;           // the instruction's N (256 or 128)
  float* d = nullptr;    // its N / 2 accumulators (null: the group's own array)
};

// The asynchronous wgmma groups one emulated thread has in flight. A thread is known by
// the address of its accumulator array: every emulated thread owns its copy of the
// accumulator resource, for as long as it runs. The emulator runs all fibers on one OS
// thread, so a thread_local table needs no lock.
struct InFlight {
  Emulator* emu = nullptr;
  std::vector<WgmmaOp> open;
  std::deque<std::vector<WgmmaOp>> groups;
};
thread_local std::unordered_map<float*, InFlight> g_in_flight;

InFlight& in_flight(float* acc) {
  InFlight& f = g_in_flight[acc];
  Emulator* e = &Emulator::current();
  if (f.emu != e) f = InFlight{e, {}, {}};  // an entry left by an earlier run at the same address
  return f;
}

// Range and race checks of the SMEM an operand of `rows` x `k` elements reads: one run of
// k elements per row when K-major, one run of kMnBlockRows elements per K row and row
// block when MN-major.
void check_reads(Operand const& op, int rows, int k) {
  if (!op.is_mn_major) {
    for (int r = 0; r < rows; ++r) ts::arch::smem_check(op.at(r, 0), size_t(k) * 2, false);
    return;
  }
  for (int r = 0; r < rows; r += Operand::kMnBlockRows)
    for (int kk = 0; kk < k; ++kk) ts::arch::smem_check(op.at(r, kk), Operand::kMnBlockRows * 2, false);
}

// An MN-major operand spanning several row blocks needs their distance: 0 would read one
// block for all (a descriptor bug that the device would turn into silent garbage).
void check_operand(Operand const& op, int rows, char const* which) {
  if (op.is_mn_major && rows > Operand::kMnBlockRows && op.stride < Operand::kMnBlockRows * 16)
    Emulator::current().fail(std::string("wgmma: MN-major operand ") + which + " spans " + std::to_string(rows) +
                             " rows in blocks of " + std::to_string(Operand::kMnBlockRows) +
                             ", but its descriptor's block distance is " + std::to_string(op.stride * 2) +
                             " bytes (expected at least the 2048 bytes of a 16-K-row block)");
}

// Executes one wgmma for one thread: reads SMEM now (the hardware reads it at some
// point before wait_group returns).
void execute(float* group_acc, WgmmaOp const& o) {
  constexpr int kM = 64, kK = 16;
  int const kN = o.n;
  float* acc = o.d ? o.d : group_acc;
  if (o.thread_in_wg == 0) {  // range / race check once per warpgroup
    check_reads(o.a, kM, kK);
    check_reads(o.b, kN, kK);
  }
  for (int i = 0; i < kN / 2; ++i) {
    int r = wgmma_d_row(o.thread_in_wg, i), c = wgmma_d_col(o.thread_in_wg, i);
    uint16_t const* ar = o.a.row(r);
    uint16_t const* bc = o.b.row(c);
    int const as = o.a.k_step(), bs = o.b.k_step();
    float s = 0.0f;
    for (int k = 0; k < kK; ++k) s += bf16_to_float(ar[k * as]) * bf16_to_float(bc[k * bs]);
    acc[i] = (o.accumulate ? acc[i] : 0.0f) + s;
  }
}

}  // namespace

void fail(char const* what) { Emulator::current().fail(what); }

void wgmma_m64n256k16_bf16(float* acc, Operand a, Operand b, int thread_in_wg, bool accumulate) {
  if (thread_in_wg < 0 || thread_in_wg >= 128) fail("wgmma: thread index outside its 128-thread warpgroup");
  check_operand(a, 64, "A");
  check_operand(b, 256, "B");
  in_flight(acc).open.push_back({a, b, thread_in_wg, accumulate});
}

void wgmma_m64n128k16_bf16(float* group_acc, float* d, Operand a, Operand b, int thread_in_wg, bool accumulate) {
  if (thread_in_wg < 0 || thread_in_wg >= 128) fail("wgmma: thread index outside its 128-thread warpgroup");
  if (d < group_acc) fail("wgmma m64n128k16: the accumulators lie before the group's array");
  check_operand(a, 64, "A");
  check_operand(b, 128, "B");
  in_flight(group_acc).open.push_back({a, b, thread_in_wg, accumulate, 128, d});
}

void wgmma_commit(float* acc) {
  InFlight& f = in_flight(acc);
  f.groups.push_back(std::move(f.open));
  f.open.clear();
}

void wgmma_wait(float* acc, int pending) {
  InFlight& f = in_flight(acc);
  while (int(f.groups.size()) > pending) {
    for (auto const& op : f.groups.front()) execute(acc, op);
    f.groups.pop_front();
  }
  if (f.groups.empty() && f.open.empty()) g_in_flight.erase(acc);
}

void umma_bf16(uint32_t tmem_col, uint16_t const* a, int lda, uint16_t const* b, int ldb, MmaShape s,
               bool accumulate) {
  Emulator& e = Emulator::current();
  if (s.m > 128) e.fail("umma_bf16: M larger than the 128 TMEM lanes");
  std::vector<Emulator::SmemRange> reads;
  for (int r = 0; r < s.m; ++r) reads.push_back({a + size_t(r) * lda, size_t(s.k) * 2});
  for (int c = 0; c < s.n; ++c) reads.push_back({b + size_t(c) * ldb, size_t(s.k) * 2});
  // Resolve the TMEM rows now (range check with the issuing thread known); the
  // arithmetic runs later, in order, on the CTA's MMA engine.
  std::vector<float*> rows(s.m);
  for (int i = 0; i < s.m; ++i) rows[i] = e.tmem(tmem_col, i), e.tmem(tmem_col + s.n - 1, i);
  e.umma_issue([rows, a, lda, b, ldb, s, accumulate] {
    std::vector<float> bt(size_t(s.n) * s.k);
    for (int c = 0; c < s.n; ++c)
      for (int k = 0; k < s.k; ++k) bt[size_t(c) * s.k + k] = bf16_to_float(b[size_t(c) * ldb + k]);
    std::vector<float> ar(s.k);
    for (int r = 0; r < s.m; ++r) {
      for (int k = 0; k < s.k; ++k) ar[k] = bf16_to_float(a[size_t(r) * lda + k]);
      for (int c = 0; c < s.n; ++c) {
        float acc = 0.0f;
        for (int k = 0; k < s.k; ++k) acc += ar[k] * bt[size_t(c) * s.k + k];
        rows[r][c] = (accumulate ? rows[r][c] : 0.0f) + acc;
      }
    }
  }, std::move(reads));
}

void tmem_load_row(float* dst, uint32_t col, int lane, int cols, ThreadCoord const& thread) {
  Emulator& e = Emulator::current();
  int warp = thread.thread_in_block / 32;
  if (lane / 32 != warp % 4)
    e.fail("tcgen05.ld: warp " + std::to_string(warp) + " may access TMEM lanes " + std::to_string(32 * (warp % 4)) +
           ".." + std::to_string(32 * (warp % 4) + 31) + " only, not lane " + std::to_string(lane));
  e.tmem(col + uint32_t(cols) - 1, lane);  // range check of the last column
  std::memcpy(dst, e.tmem(col, lane), sizeof(float) * size_t(cols));
}

}  // namespace ts::arch::emu

namespace ts::arch {

uint64_t wgmma_desc_mn_major(void const* tile, uint32_t mn_block_bytes) {
  auto const address = uint64_t(reinterpret_cast<uintptr_t>(tile));
  if (address > kHostDescAddressMask)
    ts::cpu::Emulator::current().fail("wgmma_desc_mn_major: the tile's address does not fit 48 bits");
  if (mn_block_bytes % 16 != 0 || mn_block_bytes / 16 > 0xFFFF)
    ts::cpu::Emulator::current().fail("wgmma_desc_mn_major: the block distance " + std::to_string(mn_block_bytes) +
                             " bytes is not a multiple of 16 below 1 MiB");
  return address | (uint64_t(mn_block_bytes / 16) << kHostDescAddressBits);
}

}  // namespace ts::arch
