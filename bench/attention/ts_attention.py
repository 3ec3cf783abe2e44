"""TS forward attention from PyTorch (docs/attention-torch.md).

Builds once (torch.utils.cpp_extension.load, ninja) and loads the extension in torch_ext/,
which links the prebuilt libts_attention.so and calls its C API; TS's CUDA code is not
compiled here. Needs torch with CUDA; nothing in CMake or ctest imports this file.

    import ts_attention
    ts_attention.load("/path/to/libts_attention.so")  # optional: else $TS_ATTENTION_LIB, else beside this file
    o, lse = ts_attention.forward(q, k, v, causal=True)      # q [B, S, Hq, D], k, v [B, S, Hkv, D]
    o, lse = ts_attention.forward(q, k, v, cu_seqlens=cu)    # q [T, Hq, D],    k, v [T, Hkv, D]

bf16 in and out, head dim 64/128/256, scale 1/sqrt(D); lse float32 in natural log,
[B, Hq, S] (a strided view) or [Hq, T]. Forward only: the outputs carry no autograd graph.
"""
import ctypes
import os

import torch

# -1: the library chooses per shape (bench/attention/schedule_choice.hpp: the overlapped
# shared-K/V schedule, under the dynamic scheduler for non-causal head dim 64, else the static
# one; measured in bench/RESULTS.md, stop 38). mode is passed to the library unchanged, so
# values the library adds later work without edits here: 2 or 10 force one scheduler.
DEFAULT_MODE = -1

_HERE = os.path.dirname(os.path.abspath(__file__))
_ext = None


def load(lib_path=None, build_dir=None, verbose=False):
    """Build (if needed) and import the extension linked against lib_path; returns the module.

    lib_path: libts_attention.so (default $TS_ATTENTION_LIB, else the file beside this one).
    build_dir: where ninja builds (default $TS_ATTENTION_BUILD, else torch's extensions dir).
    The library's folder goes into the extension's rpath, so keep the library there.
    """
    global _ext
    if _ext is not None:
        return _ext
    from torch.utils.cpp_extension import load as cpp_load  # imported late: it pulls in setuptools

    lib = os.path.abspath(lib_path or os.environ.get("TS_ATTENTION_LIB") or os.path.join(_HERE, "libts_attention.so"))
    if not os.path.isfile(lib):
        raise FileNotFoundError(f"ts_attention: {lib} not found (pass lib_path= or set TS_ATTENTION_LIB)")
    lib_dir, lib_name = os.path.split(lib)
    # Load the library on its own before the extension that needs it. Loaded first as the
    # extension's dependency, a build that exported its C++ symbols crashed in the first
    # forward (H200, stop 24: loaded first it ran). The library now exports its C API only
    # (bench/attention/ts_attention.map); this keeps the order that was measured to work.
    ctypes.CDLL(lib)
    src = os.path.join(_HERE, "torch_ext")
    kwargs = {}
    build_dir = build_dir or os.environ.get("TS_ATTENTION_BUILD")
    if build_dir:
        os.makedirs(build_dir, exist_ok=True)
        kwargs["build_directory"] = build_dir
    _ext = cpp_load(
        name="ts_attention_ext",
        sources=[os.path.join(src, "ts_attention_ext.cpp")],
        extra_include_paths=[src],
        extra_cflags=["-O2"],
        # -l:<file> links that exact file; the rpath lets the dynamic loader find it again.
        extra_ldflags=[f"-L{lib_dir}", f"-l:{lib_name}", f"-Wl,-rpath,{lib_dir}"],
        with_cuda=True,  # CUDA include/library paths for ATen/cuda and c10/cuda; no nvcc step
        verbose=verbose,
        **kwargs,
    )
    # The H200 machine's $CXX (/opt/gcc/bin/g++) links libstdc++ statically: a second copy
    # of the C++ runtime in the extension, whose locale facets the process's streams do not
    # know, crashed the first error message holding a number (SIGSEGV in
    # basic_ostream::_M_insert<long>, stop 26; -lstdc++ did not help). Such a build is refused
    # here with what to do; with CXX=/usr/bin/g++ all cases pass (run_torch.sh sets it).
    _check_shared_runtime(_ext.__file__)
    return _ext


def _needed_libraries(path):
    """DT_NEEDED entries of an ELF64 little-endian shared object (the dynamic section)."""
    import struct
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise RuntimeError(f"ts_attention: {path} is not an ELF64 little-endian file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    SHT_DYNAMIC, DT_NEEDED = 6, 1
    needed = []
    for sh in sections:
        if sh[1] != SHT_DYNAMIC:
            continue
        strtab = sections[sh[6]]  # sh_link: the dynamic string table
        for off in range(sh[4], sh[4] + sh[5], 16):
            tag, val = struct.unpack_from("<qQ", data, off)
            if tag == DT_NEEDED:
                start = strtab[4] + val
                needed.append(data[start:data.index(b"\0", start)].decode())
    return needed


def _check_shared_runtime(ext_path):
    """Refuse an extension that does not load the shared libstdc++ (a static copy crashes)."""
    needed = _needed_libraries(ext_path)
    if not any(n.startswith("libstdc++.so") for n in needed):
        raise RuntimeError(
            f"ts_attention: the extension {ext_path} does not link the shared libstdc++ (NEEDED: {', '.join(needed)}): "
            "its compiler linked the C++ runtime statically, and a second copy of it in the process crashes when an "
            "error message is formatted. Build with a compiler that links libstdc++.so (set CXX, e.g. CXX=/usr/bin/g++) "
            "after deleting the build directory.")


def forward(q, k, v, causal=False, cu_seqlens=None, mode=DEFAULT_MODE):
    """O = softmax(Q K^T / sqrt(D) [+ causal mask]) V and its log-sum-exp.

    Without cu_seqlens: q [B, S, Hq, D], k, v [B, S, Hkv, D] -> o [B, S, Hq, D], lse [B, Hq, S].
    With cu_seqlens (int32, CPU or q's device, [N + 1], 0 first, non-decreasing, last = T):
    q [T, Hq, D], k, v [T, Hkv, D] -> o [T, Hq, D], lse [Hq, T]. Sequence i is tokens
    cu_seqlens[i] .. cu_seqlens[i + 1] of q, k and v alike. A CUDA cu_seqlens is copied to the
    host, which waits for the current stream; pass a CPU tensor (or a list) to avoid that.
    Runs on torch's current CUDA stream of q's device.
    """
    ext = load()
    if cu_seqlens is not None and not isinstance(cu_seqlens, torch.Tensor):
        cu_seqlens = torch.tensor(list(cu_seqlens), dtype=torch.int32)
    return ext.forward(q, k, v, bool(causal), cu_seqlens, int(mode))


def cache_info():
    """The plan cache: {'hits', 'misses', 'size', 'capacity'} (a miss verifies a new plan)."""
    hits, misses, size, capacity = load().cache_info()
    return {"hits": hits, "misses": misses, "size": size, "capacity": capacity}


def clear_cache():
    """Destroy every cached plan (synchronizes the device first)."""
    load().clear_cache()
