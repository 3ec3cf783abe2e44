// PyTorch entry point for TS's forward attention: validates torch tensors, then calls the C
// API of the prebuilt libts_attention.so (ts_attention_c_api.h) on torch's current stream.
// Built by ts_attention.py through torch.utils.cpp_extension.load; TS's CUDA code is not
// compiled here (the library is linked), so this file needs only torch and the CUDA runtime
// headers. Layouts and the plan cache are described in docs/attention-torch.md.
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <cuda_runtime_api.h>
#include <torch/extension.h>

#include <climits>
#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <tuple>
#include <vector>

#include "ts_attention_c_api.h"

namespace {

constexpr char const* kWho = "ts_attention.forward: ";

// Everything a plan depends on. ts_attn_create bakes the five device addresses into the
// plan (TMA tensor maps, the O/LSE pointers) and derives its Q-block list from cu_seqlens,
// the head counts, the head dim, causal and mode; nothing else. So a plan whose key equals
// the call's is the plan a fresh ts_attn_create would build: reusing it is safe even when
// the memory at those addresses now belongs to other tensors of the same shape.
struct PlanKey {
  int device = 0;
  void const *q = nullptr, *k = nullptr, *v = nullptr;
  void* o = nullptr;
  float* lse = nullptr;
  int hq = 0, hkv = 0, d = 0, causal = 0, mode = 0;
  std::vector<int> cu;
  // Under the dynamic scheduler (mode + 8) a plan owns one tile counter, zeroed before each
  // of its launches on the launch's stream: launches of one plan must not overlap, so such
  // a plan also belongs to one stream (nullptr for the static modes, which share plans).
  void* stream = nullptr;
  bool operator==(PlanKey const& x) const {
    return device == x.device && q == x.q && k == x.k && v == x.v && o == x.o && lse == x.lse && hq == x.hq &&
           hkv == x.hkv && d == x.d && causal == x.causal && mode == x.mode && cu == x.cu && stream == x.stream;
  }
};

// A small LRU of plans. A miss runs the library's schedule verification and small
// cudaMalloc/cudaMemcpy calls (milliseconds); a hit is a list walk. Outputs come from
// torch's caching allocator, which in a loop usually hands back the same blocks, so the
// o/lse addresses repeat and the steady state hits.
class PlanCache {
 public:
  static constexpr size_t kCapacity = 16;

  // Finds or builds the plan for key and launches it on stream. The launch stays under the
  // lock so that another thread cannot evict (and free) the plan between lookup and launch.
  void run(PlanKey const& key, cudaStream_t stream) {
    std::lock_guard<std::mutex> lock(mu_);
    void* plan = find_or_create(key);
    int rc = ts_attn_run(plan, static_cast<void*>(stream));
    TORCH_CHECK(rc == 0, kWho, "ts_attn_run failed: CUDA error ", rc, " (", cudaGetErrorString(cudaError_t(rc)), ")");
  }

  void clear() {
    std::lock_guard<std::mutex> lock(mu_);
    if (lru_.empty()) return;
    sync_or_throw("before clearing the plan cache");
    for (auto& e : lru_) ts_attn_destroy(e.second);
    lru_.clear();
  }

  std::tuple<int64_t, int64_t, int64_t, int64_t> info() {
    std::lock_guard<std::mutex> lock(mu_);
    return {hits_, misses_, int64_t(lru_.size()), int64_t(kCapacity)};
  }

 private:
  void* find_or_create(PlanKey const& key) {
    for (auto it = lru_.begin(); it != lru_.end(); ++it) {
      if (it->first == key) {
        lru_.splice(lru_.begin(), lru_, it);  // most recently used first
        ++hits_;
        return lru_.front().second;
      }
    }
    ++misses_;
    char err[1024] = {0};
    void* plan = ts_attn_create(key.q, key.k, key.v, key.o, key.lse, key.cu.data(), int(key.cu.size()) - 1, key.hq,
                                key.hkv, key.d, key.causal, key.mode, err, int(sizeof err));
    TORCH_CHECK(plan != nullptr, kWho, "ts_attn_create failed (mode ", key.mode, "): ", err);
    lru_.emplace_front(key, plan);  // first, so a failing sync below leaks nothing
    // The library copies the plan's block list and tensor maps with cudaMemcpy from pageable
    // memory on the legacy default stream: that may return before the DMA lands, and a
    // kernel on a non-blocking torch stream is not ordered after it. A miss is already
    // slow, so wait for the device here rather than reason about stream flags.
    sync_or_throw("after ts_attn_create");
    if (lru_.size() > kCapacity) {
      // ts_attn_destroy cudaFrees buffers an earlier launch of that plan may still read.
      sync_or_throw("before evicting a plan");
      ts_attn_destroy(lru_.back().second);
      lru_.pop_back();
    }
    return plan;
  }

  static void sync_or_throw(char const* when) {
    cudaError_t e = cudaDeviceSynchronize();
    TORCH_CHECK(e == cudaSuccess, kWho, "cudaDeviceSynchronize ", when, " failed: ", cudaGetErrorString(e));
  }
  std::mutex mu_;
  std::list<std::pair<PlanKey, void*>> lru_;
  int64_t hits_ = 0, misses_ = 0;
};

// Never destroyed: plans hold cudaMalloc'd buffers, and freeing them from a static
// destructor at interpreter exit would run after the CUDA runtime may have shut down.
PlanCache& cache() {
  static PlanCache* c = new PlanCache();
  return *c;
}

void check_tensor(at::Tensor const& t, char const* name, at::Tensor const& q) {
  TORCH_CHECK(t.is_cuda(), kWho, name, " must be a CUDA tensor, got device ", t.device());
  TORCH_CHECK(t.device() == q.device(), kWho, name, " is on ", t.device(), " but q is on ", q.device(),
              ": q, k and v must be on one CUDA device");
  TORCH_CHECK(t.scalar_type() == at::kBFloat16, kWho, name, " must have dtype BFloat16 (torch.bfloat16), got ",
              t.scalar_type());
}

// The kernel reads each tensor through a TMA map of rows of heads x D contiguous bf16
// elements, so the storage must be exactly the packed layout and the base 16-byte aligned.
void check_packed(at::Tensor const& t, char const* name) {
  TORCH_CHECK(t.is_contiguous(), kWho, name, " must be contiguous (packed, last dim stride 1, rows of heads x D), got ",
              "shape ", t.sizes(), " strides ", t.strides(), "; call .contiguous()");
  auto addr = reinterpret_cast<std::uintptr_t>(t.data_ptr());
  TORCH_CHECK(addr % 16 == 0, kWho, name, ".data_ptr() must be 16-byte aligned (TMA), got address % 16 = ", addr % 16,
              " (a view with a storage offset?)");
}

// Host copy of cu_seqlens, checked. A CUDA cu_seqlens is copied to the host, which waits
// for the current stream (documented); a CPU one costs nothing.
std::vector<int> host_cu_seqlens(at::Tensor const& cu, at::Tensor const& q, int64_t total) {
  TORCH_CHECK(cu.scalar_type() == at::kInt, kWho, "cu_seqlens must have dtype Int (torch.int32), got ",
              cu.scalar_type());
  TORCH_CHECK(cu.device().is_cpu() || cu.device() == q.device(), kWho, "cu_seqlens must be on the CPU or on q's device ",
              q.device(), ", got ", cu.device());
  TORCH_CHECK(cu.dim() == 1 && cu.size(0) >= 2, kWho, "cu_seqlens must be 1-D with at least 2 entries, got shape ",
              cu.sizes());
  at::Tensor h = cu.cpu().contiguous();
  int const* p = h.data_ptr<int>();
  std::vector<int> out(p, p + h.numel());
  TORCH_CHECK(out[0] == 0, kWho, "cu_seqlens[0] must be 0, got ", out[0]);
  for (size_t i = 1; i < out.size(); ++i)
    TORCH_CHECK(out[i] >= out[i - 1], kWho, "cu_seqlens must be non-decreasing, got cu_seqlens[", i, "] = ", out[i],
                " < cu_seqlens[", i - 1, "] = ", out[i - 1]);
  TORCH_CHECK(out.back() == total, kWho, "cu_seqlens[-1] must equal the total tokens q.size(0) = ", total, ", got ",
              out.back());
  return out;
}

// q [B, S, Hq, D] (k, v [B, S, Hkv, D]), or with cu_seqlens q [T, Hq, D] (k, v [T, Hkv, D]).
// Returns o shaped like q and lse: [B, Hq, S] (a view of the [Hq, B*S] buffer) or [Hq, T].
std::tuple<at::Tensor, at::Tensor> forward(at::Tensor const& q, at::Tensor const& k, at::Tensor const& v, bool causal,
                                           std::optional<at::Tensor> const& cu_seqlens, int64_t mode) {
  check_tensor(q, "q", q);
  check_tensor(k, "k", q);
  check_tensor(v, "v", q);
  bool const varlen = cu_seqlens.has_value();
  int64_t const rank = varlen ? 3 : 4;
  TORCH_CHECK(q.dim() == rank, kWho, "q must have ",
              varlen ? "3 dims [total_tokens, Hq, D] when cu_seqlens is given" : "4 dims [B, S, Hq, D] (or 3 dims "
              "[total_tokens, Hq, D] with cu_seqlens)", ", got ", q.dim(), " dims, shape ", q.sizes());
  TORCH_CHECK(k.dim() == rank, kWho, "k must have ", rank, " dims like q, got ", k.dim(), " dims, shape ", k.sizes());
  // Queries and keys share cu_seqlens (the library has one), so the token dims must agree.
  std::vector<int64_t> want(k.sizes().begin(), k.sizes().end());
  for (int64_t i = 0; i < rank - 2; ++i) want[i] = q.size(i);
  want[rank - 1] = q.size(rank - 1);
  TORCH_CHECK(k.sizes() == at::IntArrayRef(want), kWho,
              "k must match q's token dims and head dim (queries and keys have the same lengths): expected shape ",
              at::IntArrayRef(want), ", got ", k.sizes());
  TORCH_CHECK(v.sizes() == k.sizes(), kWho, "v must have k's shape ", k.sizes(), ", got ", v.sizes());
  int64_t const d = q.size(rank - 1), hq = q.size(rank - 2), hkv = k.size(rank - 2);
  TORCH_CHECK(d == 64 || d == 128 || d == 256, kWho, "head dim q.size(-1) must be 64, 128 or 256, got ", d);
  TORCH_CHECK(hq >= 1 && hkv >= 1, kWho, "head counts must be >= 1, got Hq=", hq, " Hkv=", hkv);
  TORCH_CHECK(hq % hkv == 0, kWho, "Hq (q.size(-2)) must be a multiple of Hkv (k.size(-2)), got Hq=", hq, " Hkv=", hkv);
  check_packed(q, "q");
  check_packed(k, "k");
  check_packed(v, "v");
  int64_t const total = varlen ? q.size(0) : q.size(0) * q.size(1);
  TORCH_CHECK(total <= INT_MAX, kWho, "total tokens must fit in int32, got ", total);
  TORCH_CHECK(mode >= INT_MIN && mode <= INT_MAX, kWho, "mode must fit in int32, got ", mode);

  c10::cuda::CUDAGuard guard(q.device());
  PlanKey key;
  key.device = q.get_device();
  if (varlen) {
    key.cu = host_cu_seqlens(*cu_seqlens, q, total);
  } else {
    key.cu.resize(size_t(q.size(0)) + 1);
    for (size_t b = 0; b < key.cu.size(); ++b) key.cu[b] = int(int64_t(b) * q.size(1));
  }
  at::Tensor o = at::empty(q.sizes(), q.options());
  at::Tensor lse = at::empty({hq, total}, q.options().dtype(at::kFloat));
  if (total > 0) {  // the library cannot map an empty tensor; nothing to compute either
    key.q = q.data_ptr();
    key.k = k.data_ptr();
    key.v = v.data_ptr();
    key.o = o.data_ptr();
    key.lse = lse.data_ptr<float>();
    key.hq = int(hq);
    key.hkv = int(hkv);
    key.d = int(d);
    key.causal = causal ? 1 : 0;
    // Resolved before keying: an auto plan is then the same plan as one asked for by its
    // concrete mode, and only a dynamic one is tied to a stream.
    key.mode = ts_attn_resolve_mode(int(mode), key.d, key.causal);
    cudaStream_t stream = at::cuda::getCurrentCUDAStream(key.device).stream();
    if (key.mode & 8) key.stream = static_cast<void*>(stream);
    cache().run(key, stream);
  }
  if (!varlen) lse = lse.view({hq, q.size(0), q.size(1)}).permute({1, 0, 2});
  return {o, lse};
}

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.doc() = "TS forward attention (libts_attention.so) for torch tensors";
  m.def("forward", &forward, "attention forward -> (o, lse)", py::arg("q"), py::arg("k"), py::arg("v"),
        py::arg("causal"), py::arg("cu_seqlens"), py::arg("mode"));
  m.def("cache_info", []() { return cache().info(); }, "(hits, misses, size, capacity) of the plan cache");
  m.def("clear_cache", []() { cache().clear(); }, "destroy every cached plan (synchronizes the device first)");
}
