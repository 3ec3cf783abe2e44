// Runs the TS attention kernel once on the GPU and checks it against the double-precision
// host reference (attn::HostAttention::check), or only runs it (for compute-sanitizer).
//   ts_attention_check D hq hkv causal check|run seqlen...     e.g. 128 4 2 1 check 200 37 128
//   ts_attention_check D hq hkv causal run many N L            N sequences of L tokens
// TS_ATTN_SHARED=<mode> in the environment picks the schedule (ts_attention.cuh): 0 (or
// unset) the pair one, 1 the shared-K/V one, 2 shared-K/V with intra-warpgroup overlap;
// mode + 8 (8, 9, 10) the same under the dynamic global-counter scheduler; -1 the library's
// per-shape choice (schedule_choice.hpp; the line names the mode chosen). The run is
// launched twice, the second time over NaN-filled outputs, so a dynamic plan also shows that
// its counter is reset per launch (a second launch from a spent counter would write nothing).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ts_attention.cuh"

namespace {

template <int D>
int run(attn::Shape s, bool check) {
  char const* env = std::getenv("TS_ATTN_SHARED");
  int const asked = env ? std::atoi(env) : 0;
  int const mode = bench_attn::resolve_mode(asked, D, s.causal);  // the host reference needs the block size
  bool const shared = (mode & 7) != 0;
  attn::HostAttention<D> h(s, 42, shared);
  void *q, *k, *v, *o;
  float* lse;
  using bench_attn::cuda_check;
  cuda_check(cudaMalloc(&q, h.q.size() * 2), "malloc q");
  cuda_check(cudaMalloc(&k, h.k.size() * 2), "malloc k");
  cuda_check(cudaMalloc(&v, h.v.size() * 2), "malloc v");
  cuda_check(cudaMalloc(&o, h.o.size() * 2), "malloc o");
  cuda_check(cudaMalloc(&lse, h.lse.size() * 4), "malloc lse");
  cuda_check(cudaMemcpy(q, h.q.data(), h.q.size() * 2, cudaMemcpyHostToDevice), "copy q");
  cuda_check(cudaMemcpy(k, h.k.data(), h.k.size() * 2, cudaMemcpyHostToDevice), "copy k");
  cuda_check(cudaMemcpy(v, h.v.data(), h.v.size() * 2, cudaMemcpyHostToDevice), "copy v");
  cuda_check(cudaMemcpy(o, h.o.data(), h.o.size() * 2, cudaMemcpyHostToDevice), "copy o (NaN)");
  cuda_check(cudaMemcpy(lse, h.lse.data(), h.lse.size() * 4, cudaMemcpyHostToDevice), "copy lse (NaN)");
  auto r = bench_attn::prepare(s, q, k, v, o, lse, bench_attn::sm_count(), false, asked);
  r->launch(0);
  cuda_check(cudaDeviceSynchronize(), "kernel");
  if (check) {  // again, from NaN outputs: the second launch must redo every tile
    cuda_check(cudaMemcpy(o, h.o.data(), h.o.size() * 2, cudaMemcpyHostToDevice), "copy o (NaN) again");
    cuda_check(cudaMemcpy(lse, h.lse.data(), h.lse.size() * 4, cudaMemcpyHostToDevice), "copy lse (NaN) again");
    r->launch(0);
    cuda_check(cudaDeviceSynchronize(), "kernel (second launch)");
  }
  cuda_check(cudaMemcpy(h.o.data(), o, h.o.size() * 2, cudaMemcpyDeviceToHost), "copy o back");
  cuda_check(cudaMemcpy(h.lse.data(), lse, h.lse.size() * 4, cudaMemcpyDeviceToHost), "copy lse back");
  char const* const names[] = {"", "_shared", "_overlap"};
  std::printf("attention%s%s%s D=%d hq=%d hkv=%d causal=%d seqs=%zu tokens=%d tiles=%d grid=%d: ",
              asked == bench_attn::kAuto ? "_auto=" : "", names[r->mode & 7],
              (r->mode & bench_attn::kDynamic) ? "_dynamic" : "", D, s.hq, s.hkv, int(s.causal), s.cu_seqlens.size() - 1, h.tokens, r->pairs, r->grid);
  if (!check) {
    std::printf("ran\n");
    return 0;
  }
  std::string err = h.check();
  std::printf("%s\n%s", err.empty() ? "PASS" : "FAIL", err.c_str());
  return err.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr, "usage: %s D hq hkv causal check|run seqlen... | many N L\n", argv[0]);
    return 2;
  }
  attn::Shape s;
  s.head_dim = std::atoi(argv[1]);
  s.hq = std::atoi(argv[2]);
  s.hkv = std::atoi(argv[3]);
  s.causal = std::atoi(argv[4]) != 0;
  bool const check = std::string(argv[5]) == "check";
  s.cu_seqlens = {0};
  if (std::string(argv[6]) == "many" && argc >= 9) {
    for (int i = 0; i < std::atoi(argv[7]); ++i) s.cu_seqlens.push_back(s.cu_seqlens.back() + std::atoi(argv[8]));
  } else {
    for (int i = 6; i < argc; ++i) s.cu_seqlens.push_back(s.cu_seqlens.back() + std::atoi(argv[i]));
  }
  try {
    switch (s.head_dim) {
      case 64: return run<64>(s, check);
      case 128: return run<128>(s, check);
      case 256: return run<256>(s, check);
      default: attn::validate(s);
    }
  } catch (std::exception const& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 1;
}
