// C entry points of the TS attention kernel for the Python bench (ctypes; no torch
// dependency): create a verified plan for one shape (mode 0: the pair schedule, 1: the
// shared-K/V schedule, 2: shared-K/V with intra-warpgroup overlap; + 8: the same under the
// dynamic global-counter scheduler, whose counter each ts_attn_run zeroes on its stream;
// -1: chosen per shape, schedule_choice.hpp) over caller-owned buffers, launch it on a stream, destroy it. Errors come back as text.
#include <cstring>
#include <vector>

#include "ts_attention.cuh"

extern "C" {

void* ts_attn_create(void const* q, void const* k, void const* v, void* o, float* lse, int const* cu_seqlens,
                     int num_seqs, int hq, int hkv, int head_dim, int causal, int mode, char* err, int err_len) {
  try {
    attn::Shape s{std::vector<int>(cu_seqlens, cu_seqlens + num_seqs + 1), hq, hkv, head_dim, causal != 0};
    return bench_attn::prepare(s, q, k, v, o, lse, bench_attn::sm_count(), false, mode).release();
  } catch (std::exception const& e) {
    if (err && err_len > 0) {
      std::strncpy(err, e.what(), size_t(err_len) - 1);
      err[err_len - 1] = 0;
    }
    return nullptr;
  }
}

int ts_attn_run(void* plan, void* stream) {
  static_cast<bench_attn::Runner*>(plan)->launch(static_cast<cudaStream_t>(stream));
  return int(cudaPeekAtLastError());
}

int ts_attn_pairs(void* plan) { return static_cast<bench_attn::Runner*>(plan)->pairs; }

int ts_attn_mode(void* plan) { return static_cast<bench_attn::Runner*>(plan)->mode; }

int ts_attn_resolve_mode(int mode, int head_dim, int causal) {
  return bench_attn::resolve_mode(mode, head_dim, causal != 0);
}

void ts_attn_destroy(void* plan) { delete static_cast<bench_attn::Runner*>(plan); }
}
