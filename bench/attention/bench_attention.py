#!/usr/bin/env python3
"""TS forward attention (examples/attention) against torch SDPA on the H200, one process.

The TS kernel comes from libts_attention.so (bench/attention/attention_lib.cu, ctypes; the
library does not depend on torch). For each shape: one TS run checked against a float32
reference on the first and last (batch, head) and against SDPA (cuDNN) everywhere, then
interleaved rounds (fresh order each round) of 20 back-to-back launches per CUDA-event pair
for TS, SDPA cuDNN and SDPA flash; medians. TFLOP/s count 4 B H S^2 D (half when causal).
Prints, per shape and reference:
  bench attention size=<B>x<H>x<S>x<D>[c] ts=<TFLOP/s> ref=<TFLOP/s> ref_name=<cudnn|flash> unit=TFLOP/s ratio=<ts/ref>
and the SM clock range nvidia-smi saw while the shape ran.
Usage: bench_attention.py <path to libts_attention.so> [quick|full] [modes, e.g. 2,1,0]
(mode 0: the pair schedule, 1: shared-K/V, 2: shared-K/V with intra-warpgroup overlap)
"""
import ctypes
import math
import random
import statistics
import subprocess
import sys
import threading

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

SHAPES = [(16, 16, 1024, 128), (4, 16, 4096, 128), (2, 16, 8192, 128), (1, 16, 16384, 128), (4, 32, 4096, 64),
          (4, 8, 4096, 256)]
ROUNDS, REPS = 7, 20


class Lib:
    def __init__(self, path):
        self.l = ctypes.CDLL(path)
        self.l.ts_attn_create.restype = ctypes.c_void_p
        self.l.ts_attn_create.argtypes = [ctypes.c_void_p] * 5 + [ctypes.POINTER(ctypes.c_int)] + [ctypes.c_int] * 6 + \
            [ctypes.c_char_p, ctypes.c_int]
        self.l.ts_attn_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        self.l.ts_attn_destroy.argtypes = [ctypes.c_void_p]

    def plan(self, q, k, v, o, lse, cu, hq, hkv, d, causal, shared):
        arr = (ctypes.c_int * len(cu))(*cu)
        err = ctypes.create_string_buffer(512)
        h = self.l.ts_attn_create(q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), lse.data_ptr(), arr,
                                  len(cu) - 1, hq, hkv, d, int(causal), int(shared), err, 512)
        if not h:
            raise RuntimeError(err.value.decode())
        return h


class Clock:
    """SM clock samples from nvidia-smi every 100 ms while the shape runs."""

    def __enter__(self):
        self.p = subprocess.Popen(["nvidia-smi", "--query-gpu=clocks.sm", "--format=csv,noheader,nounits", "-lms", "100"],
                                  stdout=subprocess.PIPE, text=True)
        self.samples = []
        self.t = threading.Thread(target=lambda: [self.samples.append(int(x)) for x in self.p.stdout if x.strip().isdigit()])
        self.t.start()
        return self

    def __exit__(self, *a):
        self.p.terminate()
        self.t.join()

    def text(self):
        return f"min={min(self.samples)} max={max(self.samples)}" if self.samples else "no samples"


def reference_head(q4, k4, v4, b, h, hk, causal):
    """float32 attention and LSE of one (batch, head); q4 [B,H,S,D]."""
    q, k, v = q4[b, h].float(), k4[b, hk].float(), v4[b, hk].float()
    s = (q @ k.T) / math.sqrt(q.shape[-1])
    if causal:
        s.masked_fill_(torch.ones_like(s, dtype=torch.bool).triu(1), float("-inf"))
    return torch.softmax(s, -1) @ v, torch.logsumexp(s, -1)


def timed(fns):
    for f in fns.values():
        for _ in range(3):
            f()
    torch.cuda.synchronize()
    t = {n: [] for n in fns}
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for _ in range(ROUNDS):
        names = list(fns)
        random.shuffle(names)
        for n in names:
            start.record()
            for _ in range(REPS):
                fns[n]()
            end.record()
            end.synchronize()
            t[n].append(start.elapsed_time(end) / REPS)
    return {n: statistics.median(v) for n, v in t.items()}


TAGS = {0: "", 1: "_shared", 2: "_overlap"}


def run_shape(lib, B, H, S, D, causal, hkv=None, cu=None, shared=0):
    hkv = hkv or H
    torch.manual_seed(B * 1000003 + H * 1009 + S + D + int(causal))
    q4 = torch.randn(B, H, S, D, device="cuda", dtype=torch.bfloat16)
    k4 = torch.randn(B, hkv, S, D, device="cuda", dtype=torch.bfloat16)
    v4 = torch.randn(B, hkv, S, D, device="cuda", dtype=torch.bfloat16)
    qp, kp, vp = (x.transpose(1, 2).contiguous() for x in (q4, k4, v4))  # [B,S,H,D] = packed [tokens][H][D]
    o = torch.full((B * S, H, D), float("nan"), device="cuda", dtype=torch.bfloat16)
    lse = torch.full((H, B * S), float("nan"), device="cuda", dtype=torch.float32)
    cu = cu or [i * S for i in range(B + 1)]
    plan = lib.plan(qp, kp, vp, o, lse, cu, H, hkv, D, causal, shared)
    stream = torch.cuda.current_stream().cuda_stream
    ts_run = lambda: lib.l.ts_attn_run(plan, stream)
    ts_run()
    torch.cuda.synchronize()
    name = f"{B}x{H}x{S}x{D}{'c' if causal else ''}" + ("" if hkv == H else f"g{hkv}")
    enable_gqa = hkv != H
    with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
        ref = F.scaled_dot_product_attention(q4, k4, v4, is_causal=causal, enable_gqa=enable_gqa)
    o4 = o.view(B, S, H, D).transpose(1, 2)
    ok = bool(torch.isfinite(o4).all())
    worst = 0.0
    for b, h in ((0, 0), (B - 1, H - 1)):
        r, rl = reference_head(q4, k4, v4, b, h, h // (H // hkv), causal)
        e_ts = (o4[b, h].float() - r).abs().max().item()
        e_ref = (ref[b, h].float() - r).abs().max().item()
        e_lse = (lse[h, b * S:(b + 1) * S] - rl).abs().max().item()
        worst = max(worst, e_ts)
        ok &= e_ts <= 2 * e_ref + 2e-3 and e_lse <= 1e-3 * (1 + rl.abs().max().item())
        print(f"check{TAGS[shared]} {name} b={b} h={h}: max|ts-f32|={e_ts:.2e} max|cudnn-f32|={e_ref:.2e} max|lse-f32|={e_lse:.2e}")
    d_all = (o4.float() - ref.float()).abs().max().item()
    ok &= d_all <= 3e-2
    print(f"check{TAGS[shared]} {name}: max|ts-cudnn| over all of O = {d_all:.2e} -> {'PASS' if ok else 'FAIL'}")
    if not ok:
        lib.l.ts_attn_destroy(plan)
        return
    flops = 4.0 * B * H * S * S * D * (0.5 if causal else 1.0)

    def sdpa(backend):
        def f():
            with sdpa_kernel([backend]):
                F.scaled_dot_product_attention(q4, k4, v4, is_causal=causal, enable_gqa=enable_gqa)
        return f

    fns = {"ts": ts_run, "cudnn": sdpa(SDPBackend.CUDNN_ATTENTION)}
    if not enable_gqa:
        fns["flash"] = sdpa(SDPBackend.FLASH_ATTENTION)
    with Clock() as clk:
        t = timed(fns)
    tf = {n: flops / (ms * 1e-3) / 1e12 for n, ms in t.items()}
    for ref_name in [n for n in fns if n != "ts"]:
        print(f"bench attention{TAGS[shared]} size={name} ts={tf['ts']:.1f} ref={tf[ref_name]:.1f} ref_name={ref_name} "
              f"unit=TFLOP/s ratio={tf['ts'] / tf[ref_name]:.3f}")
    print(f"clock {name} sm_mhz {clk.text()} ms ts={t['ts']:.3f} " + " ".join(f"{n}={t[n]:.3f}" for n in fns if n != "ts"))
    lib.l.ts_attn_destroy(plan)


def main():
    lib = Lib(sys.argv[1])
    quick = len(sys.argv) > 2 and sys.argv[2] == "quick"
    print(f"device {torch.cuda.get_device_name()} torch {torch.__version__} cudnn {torch.backends.cudnn.version()}")
    shapes = SHAPES[:2] if quick else SHAPES
    modes = [int(m) for m in sys.argv[3].split(",")] if len(sys.argv) > 3 else [2, 1, 0]
    for shared in modes:  # bench attention_overlap / attention_shared / attention lines
        for causal in (False, True):
            for (B, H, S, D) in shapes:
                run_shape(lib, B, H, S, D, causal, shared=shared)
        run_shape(lib, 4, 32, 4096, 128, True, hkv=8, shared=shared)  # GQA 4:1 (SDPA enable_gqa)


if __name__ == "__main__":
    main()
