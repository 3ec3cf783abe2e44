// BENCH_CHECK: every bench's CUDA runtime call is checked; a failure prints the call, where
// it was made and CUDA's error, and ends the process (a bench never times a failed launch).
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define BENCH_CHECK(x)                                                                                    \
  do {                                                                                                    \
    cudaError_t e_ = (x);                                                                                 \
    if (e_ != cudaSuccess) {                                                                              \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s: %s\n", cudaGetErrorName(e_), __FILE__, __LINE__, #x, \
                   cudaGetErrorString(e_));                                                               \
      std::exit(1);                                                                                       \
    }                                                                                                     \
  } while (0)
