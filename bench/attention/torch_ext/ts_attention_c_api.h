// The C entry points of libts_attention.so (bench/attention/attention_lib.cu), declared
// here so the torch extension can link the prebuilt library without seeing any TS header:
// the extension never compiles TS's CUDA code, and the library never sees torch.
// Keep in step with attention_lib.cu (same names, same argument order).
#pragma once

extern "C" {
// A verified plan for one shape over caller-owned device buffers: q, o [tokens][hq][D],
// k, v [tokens][hkv][D] (bf16), lse [hq][tokens] (fp32); cu_seqlens is a HOST array of
// num_seqs + 1 ints. mode: 0 pair, 1 shared-K/V, 2 overlap, + 8 under the dynamic scheduler,
// -1 chosen per shape (or whatever the library accepts). Returns null and writes a message
// into err on failure.
void* ts_attn_create(void const* q, void const* k, void const* v, void* o, float* lse, int const* cu_seqlens,
                     int num_seqs, int hq, int hkv, int head_dim, int causal, int mode, char* err, int err_len);
// Launches the plan on a stream; returns the library's cudaPeekAtLastError() as an int.
int ts_attn_run(void* plan, void* stream);
// The plan's number of work tiles.
int ts_attn_pairs(void* plan);
// The mode the plan runs (-1 resolved to the library's choice for the shape).
int ts_attn_mode(void* plan);
// The mode ts_attn_create would run for mode, head_dim and causal: -1 becomes the library's
// per-shape choice; any other value comes back unchanged (not validated).
int ts_attn_resolve_mode(int mode, int head_dim, int causal);
// Frees the plan's device buffers (cudaFree) and the plan.
void ts_attn_destroy(void* plan);
}
