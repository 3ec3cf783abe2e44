#!/usr/bin/env python3
"""GPU test of the torch extension (ts_attention.forward) against torch SDPA and a float32 reference.

Usage: test_torch_ext.py <path to libts_attention.so> [modes, e.g. 1,0,2]
Prints one PASS / FAIL (or SKIP) line per case, then 'N passed, M failed'; exits 1 on any
failure. Numeric cases run once per mode; the bad-input cases once.
"""
import math
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ts_attention  # noqa: E402

passed, failed = 0, 0


def case(name, fn):
    global passed, failed
    try:
        detail = fn()
        print(f"PASS {name}" + (f": {detail}" if detail else ""), flush=True)
        passed += 1
    except Exception as e:  # report and go on: one line per case
        print(f"FAIL {name}: {type(e).__name__}: {e}", flush=True)
        failed += 1


def rand(*shape, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return torch.randn(*shape, generator=g, device="cuda", dtype=torch.bfloat16)


def ref_seq(q, k, v, causal):
    """float32 O [L, Hq, D] and LSE [Hq, L] of one sequence; q [L, Hq, D], k, v [L, Hkv, D]."""
    g = q.shape[1] // k.shape[1]
    qf = q.float().transpose(0, 1)
    kf = k.float().transpose(0, 1).repeat_interleave(g, 0)
    vf = v.float().transpose(0, 1).repeat_interleave(g, 0)
    s = (qf @ kf.transpose(1, 2)) / math.sqrt(q.shape[-1])
    if causal:
        s.masked_fill_(torch.ones_like(s, dtype=torch.bool).triu(1), float("-inf"))
    return (torch.softmax(s, -1) @ vf).transpose(0, 1), torch.logsumexp(s, -1)


def sdpa_seq(q, k, v, causal):
    """torch SDPA (its default backend choice) of one sequence, back in [L, Hq, D]."""
    o = F.scaled_dot_product_attention(q.transpose(0, 1)[None], k.transpose(0, 1)[None], v.transpose(0, 1)[None],
                                       is_causal=causal, enable_gqa=q.shape[1] != k.shape[1])
    return o[0].transpose(0, 1)


def compare(seqs, causal):
    """seqs: (q, k, v, o, lse) per sequence. TS must be as close to float32 as SDPA is (the
    bench's rule: 2x SDPA's error + 2e-3), LSE within 1e-3 relative, all finite."""
    worst = [0.0, 0.0, 0.0]
    for q, k, v, o, lse in seqs:
        if q.shape[0] == 0:
            continue
        r, rl = ref_seq(q, k, v, causal)
        e_ts = (o.float() - r).abs().max().item()
        e_sdpa = (sdpa_seq(q, k, v, causal).float() - r).abs().max().item()
        e_lse = (lse - rl).abs().max().item()
        assert torch.isfinite(o).all() and torch.isfinite(lse).all(), "non-finite O or LSE"
        assert e_ts <= 2 * e_sdpa + 2e-3, f"L={q.shape[0]}: max|ts-f32|={e_ts:.2e} > 2*max|sdpa-f32|+2e-3 ({e_sdpa:.2e})"
        assert e_lse <= 1e-3 * (1 + rl.abs().max().item()), f"L={q.shape[0]}: max|lse-f32|={e_lse:.2e}"
        worst = [max(worst[0], e_ts), max(worst[1], e_sdpa), max(worst[2], e_lse)]
    return f"max|ts-f32|={worst[0]:.2e} max|sdpa-f32|={worst[1]:.2e} max|lse-f32|={worst[2]:.2e}"


def fixed(B, S, hq, hkv, d, causal, mode, seed=1):
    def run():
        q, k, v = rand(B, S, hq, d, seed=seed), rand(B, S, hkv, d, seed=seed + 1), rand(B, S, hkv, d, seed=seed + 2)
        o, lse = ts_attention.forward(q, k, v, causal=causal, mode=mode)
        assert o.shape == q.shape and o.dtype == torch.bfloat16, f"o {tuple(o.shape)} {o.dtype}"
        assert lse.shape == (B, hq, S) and lse.dtype == torch.float32, f"lse {tuple(lse.shape)} {lse.dtype}"
        return compare([(q[b], k[b], v[b], o[b], lse[b]) for b in range(B)], causal)
    return run


def varlen(lens, hq, hkv, d, causal, mode, cu_on_gpu=False, seed=7):
    def run():
        cu = [0]
        for n in lens:
            cu.append(cu[-1] + n)
        T = cu[-1]
        q, k, v = rand(T, hq, d, seed=seed), rand(T, hkv, d, seed=seed + 1), rand(T, hkv, d, seed=seed + 2)
        cu_t = torch.tensor(cu, dtype=torch.int32, device="cuda" if cu_on_gpu else "cpu")
        o, lse = ts_attention.forward(q, k, v, causal=causal, cu_seqlens=cu_t, mode=mode)
        assert o.shape == q.shape and lse.shape == (hq, T) and lse.dtype == torch.float32, \
            f"o {tuple(o.shape)} lse {tuple(lse.shape)} {lse.dtype}"
        seqs = [(q[a:b], k[a:b], v[a:b], o[a:b], lse[:, a:b]) for a, b in zip(cu, cu[1:])]
        return compare(seqs, causal)
    return run


def side_stream(mode):
    """The launch must be ordered on torch's current stream. On a non-blocking side stream,
    q2 is zeroed, the stream sleeps ~25 ms, then q2 gets its values and forward(q2) is
    called (a plan-cache hit, so the extension does not synchronize): a launch on any other
    stream would read the zeros and differ from the default stream's result."""
    def run():
        q, k, v = rand(2, 512, 4, 128, seed=3), rand(2, 512, 4, 128, seed=4), rand(2, 512, 4, 128, seed=5)
        o0, l0 = ts_attention.forward(q, k, v, causal=True, mode=mode)
        main, s = torch.cuda.current_stream(), torch.cuda.Stream()
        q2 = torch.empty_like(q)
        s.wait_stream(main)
        with torch.cuda.stream(s):
            q2.copy_(q)
            o, lse = ts_attention.forward(q2, k, v, causal=True, mode=mode)  # builds the plan for q2
            del o, lse  # their blocks go back to s's pool and come back on the next call
            before = ts_attention.cache_info()["hits"]
            q2.zero_()
            torch.cuda._sleep(50_000_000)
            q2.copy_(q)
            o1, l1 = ts_attention.forward(q2, k, v, causal=True, mode=mode)
            hit = ts_attention.cache_info()["hits"] > before
        main.wait_stream(s)
        assert hit, "the second call on the side stream missed the plan cache (so it synchronized): inconclusive"
        assert torch.equal(o0, o1) and torch.equal(l0, l1), \
            f"side-stream result differs: max|diff|={(o0.float() - o1.float()).abs().max().item():.2e}"
        return "ordered after the side stream's sleep and copy"
    return run


def cache_reuse(mode):
    """Repeated calls hit the plan cache and give bitwise the same output."""
    def run():
        q, k, v = rand(1, 1024, 8, 64, seed=9), rand(1, 1024, 8, 64, seed=10), rand(1, 1024, 8, 64, seed=11)
        first = ts_attention.forward(q, k, v, mode=mode)[0].clone()
        before = ts_attention.cache_info()
        for _ in range(3):
            o = ts_attention.forward(q, k, v, mode=mode)[0]  # dropped: the allocator hands its block back
            assert torch.equal(o, first), "repeated call differs"
            del o
        after = ts_attention.cache_info()
        hits = after["hits"] - before["hits"]
        assert hits >= 1, f"no cache hit in 3 identical calls: {before} -> {after}"
        return f"{hits} hits of 3, cache {after}"
    return run


def auto_choice(d, causal, chosen):
    """mode -1 (the default) runs the mode the library chooses for the shape: bitwise its
    output, and the same cached plan (the extension resolves the mode before keying)."""
    def run():
        q, k, v = rand(2, 640, 4, d, seed=13), rand(2, 640, 2, d, seed=14), rand(2, 640, 2, d, seed=15)
        o, lse = ts_attention.forward(q, k, v, causal=causal)
        o_auto, l_auto = o.clone(), lse.clone()
        # The plan is keyed by the output addresses too: dropped, their blocks come back
        # from the caching allocator for the next call (as in cache_reuse).
        del o, lse
        before = ts_attention.cache_info()
        o, lse = ts_attention.forward(q, k, v, causal=causal, mode=chosen)
        after = ts_attention.cache_info()
        assert torch.equal(o_auto, o) and torch.equal(l_auto, lse), \
            f"auto differs from mode {chosen}: max|diff|={(o_auto.float() - o.float()).abs().max().item():.2e}"
        assert after["hits"] == before["hits"] + 1 and after["misses"] == before["misses"], \
            f"mode {chosen} did not reuse the auto plan: {before} -> {after}"
        return f"auto = mode {chosen}, one plan"
    return run


def empty(mode):
    def run():
        q, k = torch.empty(0, 4, 64, device="cuda", dtype=torch.bfloat16), torch.empty(0, 2, 64, device="cuda",
                                                                                      dtype=torch.bfloat16)
        o, lse = ts_attention.forward(q, k, k, cu_seqlens=[0, 0], mode=mode)
        assert o.shape == (0, 4, 64) and lse.shape == (4, 0), f"o {tuple(o.shape)} lse {tuple(lse.shape)}"
    return run


def expect_error(parts, fn):
    def run():
        try:
            fn()
        except RuntimeError as e:
            msg = str(e)
            missing = [p for p in parts if p not in msg]
            assert not missing, f"message lacks {missing}: {msg.splitlines()[0] if msg else msg!r}"
            return msg.splitlines()[0][:160]
        raise AssertionError("no error raised")
    return run


def bad_inputs():
    bf = dict(device="cuda", dtype=torch.bfloat16)
    q, k, v = torch.randn(1, 128, 4, 64, **bf), torch.randn(1, 128, 2, 64, **bf), torch.randn(1, 128, 2, 64, **bf)
    q3, k3, v3 = q[0], k[0], v[0]
    f = ts_attention.forward
    cu = lambda xs, **kw: torch.tensor(xs, dtype=kw.pop("dtype", torch.int32), **kw)  # noqa: E731
    cases = [
        ("dtype q fp16", ["q must have dtype BFloat16", "got Half"], lambda: f(q.half(), k, v)),
        ("dtype k fp32", ["k must have dtype BFloat16", "got Float"], lambda: f(q, k.float(), v)),
        ("q on cpu", ["q must be a CUDA tensor", "got device cpu"], lambda: f(q.cpu(), k, v)),
        ("v on cpu (mixed)", ["v must be a CUDA tensor", "got device cpu"], lambda: f(q, k, v.cpu())),
        ("rank q 3 without cu_seqlens", ["q must have 4 dims", "got 3 dims"], lambda: f(q3, k3, v3)),
        ("rank q 4 with cu_seqlens", ["q must have 3 dims", "cu_seqlens", "got 4 dims"],
         lambda: f(q, k, v, cu_seqlens=[0, 128])),
        ("rank k", ["k must have 4 dims like q", "got 3 dims"], lambda: f(q, k3, v3)),
        ("k tokens", ["k must match q's token dims", "expected shape [1, 128, 2, 64]", "got [1, 64, 2, 64]"],
         lambda: f(q, k[:, :64].contiguous(), v[:, :64].contiguous())),
        ("v shape", ["v must have k's shape [1, 128, 2, 64]", "got [1, 128, 1, 64]"],
         lambda: f(q, k, v[:, :, :1].contiguous())),
        ("head dim 96", ["head dim q.size(-1) must be 64, 128 or 256", "got 96"],
         lambda: f(torch.randn(1, 128, 4, 96, **bf), torch.randn(1, 128, 2, 96, **bf), torch.randn(1, 128, 2, 96, **bf))),
        ("Hq not a multiple of Hkv", ["must be a multiple of Hkv", "Hq=6 Hkv=4"],
         lambda: f(torch.randn(1, 128, 6, 64, **bf), torch.randn(1, 128, 4, 64, **bf), torch.randn(1, 128, 4, 64, **bf))),
        ("zero kv heads", ["head counts must be >= 1", "Hkv=0"],
         lambda: f(q, torch.empty(1, 128, 0, 64, **bf), torch.empty(1, 128, 0, 64, **bf))),
        ("non-contiguous q", ["q must be contiguous", "strides"],
         lambda: f(torch.randn(1, 4, 128, 64, **bf).transpose(1, 2), k, v)),
        ("misaligned q", ["q.data_ptr() must be 16-byte aligned", "% 16 = 2"],
         lambda: f(torch.empty(128 * 4 * 64 + 1, **bf)[1:].view(1, 128, 4, 64), k, v)),
        ("cu_seqlens int64", ["cu_seqlens must have dtype Int", "got Long"],
         lambda: f(q3, k3, v3, cu_seqlens=cu([0, 128], dtype=torch.int64))),
        ("cu_seqlens 2-D", ["cu_seqlens must be 1-D with at least 2 entries", "[1, 2]"],
         lambda: f(q3, k3, v3, cu_seqlens=cu([[0, 128]]))),
        ("cu_seqlens one entry", ["cu_seqlens must be 1-D with at least 2 entries", "[1]"],
         lambda: f(q3, k3, v3, cu_seqlens=cu([0]))),
        ("cu_seqlens[0] != 0", ["cu_seqlens[0] must be 0, got 5"], lambda: f(q3, k3, v3, cu_seqlens=cu([5, 128]))),
        ("cu_seqlens decreasing", ["cu_seqlens must be non-decreasing", "cu_seqlens[2] = 50 < cu_seqlens[1] = 100"],
         lambda: f(q3, k3, v3, cu_seqlens=cu([0, 100, 50, 128]))),
        ("cu_seqlens last != tokens", ["cu_seqlens[-1] must equal the total tokens q.size(0) = 128, got 100"],
         lambda: f(q3, k3, v3, cu_seqlens=cu([0, 100]))),
        ("cu_seqlens last != tokens (on GPU)", ["cu_seqlens[-1] must equal the total tokens q.size(0) = 128, got 127"],
         lambda: f(q3, k3, v3, cu_seqlens=cu([0, 127], device="cuda"))),
        ("mode -2 refused by the library", ["ts_attn_create failed (mode -2)", "or -1 (chosen per shape); got -2"],
         lambda: f(q, k, v, mode=-2)),
        ("mode 3 refused by the library", ["ts_attn_create failed (mode 3)", "got 3"], lambda: f(q, k, v, mode=3)),
    ]
    for name, parts, fn in cases:
        case(f"error {name}", expect_error(parts, fn))
    if torch.cuda.device_count() >= 2:
        case("error k on another GPU", expect_error(["k is on cuda:1 but q is on cuda:0"],
                                                    lambda: f(q, k.to("cuda:1"), v)))
        case("error cu_seqlens on another GPU", expect_error(["cu_seqlens must be on the CPU or on q's device cuda:0",
                                                              "got cuda:1"],
                                                             lambda: f(q3, k3, v3, cu_seqlens=cu([0, 128], device="cuda:1"))))
    else:
        print("SKIP error k / cu_seqlens on another GPU: one GPU", flush=True)


def main():
    ts_attention.load(sys.argv[1] if len(sys.argv) > 1 else None)
    modes = [int(m) for m in sys.argv[2].split(",")] if len(sys.argv) > 2 else [ts_attention.DEFAULT_MODE]
    print(f"device {torch.cuda.get_device_name()} torch {torch.__version__} modes {modes}", flush=True)
    edges = [200, 1, 128, 0, 513, 37, 1000]  # a length-1 and an empty sequence, lengths off the 128 grid
    plain = [200, 128, 513, 37]
    for m in modes:
        for d in (64, 128, 256):
            for causal in (False, True):
                c = " causal" if causal else ""
                case(f"mode={m} fixed 2x384 H=4 d={d}{c}", fixed(2, 384, 4, 4, d, causal, m))
                case(f"mode={m} varlen {edges} Hq=4 Hkv=2 d={d}{c}", varlen(edges, 4, 2, d, causal, m))
        for causal in (False, True):
            c = " causal" if causal else ""
            case(f"mode={m} varlen {plain} Hq=4 Hkv=4 d=128{c}", varlen(plain, 4, 4, 128, causal, m))
        case(f"mode={m} GQA 8:2 2x512 d=128 causal", fixed(2, 512, 8, 2, 128, True, m))
        case(f"mode={m} MQA 4:1 1x640 d=64", fixed(1, 640, 4, 1, 64, False, m))
        case(f"mode={m} odd heads 3:1 1x300 d=256 causal", fixed(1, 300, 3, 1, 256, True, m))
        case(f"mode={m} varlen cu_seqlens on the GPU d=128 causal", varlen(plain, 4, 2, 128, True, m, cu_on_gpu=True))
        case(f"mode={m} side stream", side_stream(m))
        case(f"mode={m} plan cache reuse", cache_reuse(m))
        case(f"mode={m} empty batch", empty(m))
    # The per-shape choice (schedule_choice.hpp): dynamic for non-causal head dim 64 only.
    for d, causal, chosen in ((64, False, 10), (64, True, 2), (128, False, 2), (256, True, 2)):
        case(f"auto d={d}{' causal' if causal else ''} runs mode {chosen}", auto_choice(d, causal, chosen))
    bad_inputs()
    torch.cuda.synchronize()
    print(f"cache {ts_attention.cache_info()}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
