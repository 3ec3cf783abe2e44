// The one place a work body's code picks its backend: TS_BACKEND_HEADER("dev.cuh",
// "emu.hpp") names the header this compilation pass includes, the device one in nvcc's
// device pass (sm_90a), the host one everywhere else (the CPU emulator). An example whose
// two backends run different algorithms for a step (e.g. warp shuffles on the GPU, whole
// rows per thread on the emulator, which has no shuffles) writes both headers with the
// same function names, and its work bodies call those names unconditionally:
//   #include TS_BACKEND_HEADER("attention_device.cuh", "attention_emu.hpp")
#pragma once

#if defined(__CUDA_ARCH__)
#define TS_BACKEND_HEADER(device_header, host_header) device_header
#else
#define TS_BACKEND_HEADER(device_header, host_header) host_header
#endif
