// Portability macros shared by host and device code.
#pragma once

#if defined(__CUDACC__)
#define TS_HD __host__ __device__
#define TS_DEVICE __device__
#else
#define TS_HD
#define TS_DEVICE
#endif

// True while compiling the device pass of nvcc; host-only bookkeeping (the schedule
// recorder) is compiled out there so HD schedule bodies stay callable on both sides.
#if defined(__CUDA_ARCH__)
#define TS_DEVICE_PASS 1
#else
#define TS_DEVICE_PASS 0
#endif

// `#pragma unroll` for loops both compilers see: nvcc unrolls (the wgmma fragments of work
// bodies must stay in registers; the runtime's per-resource loops fold to constants), the
// host compiler ignores it without a warning.
#if defined(__CUDACC__)
#define TS_UNROLL _Pragma("unroll")
#else
#define TS_UNROLL
#endif

#if defined(__CUDACC__)
#define TS_NO_HD_WARNING _Pragma("nv_exec_check_disable")
#else
#define TS_NO_HD_WARNING
#endif
