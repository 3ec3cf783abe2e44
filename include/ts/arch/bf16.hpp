// bf16 on the host: the 16 high bits of an IEEE binary32, stored as uint16_t. The
// emulated GEMMs keep A, B and D as these bits (the layout the GPU's __nv_bfloat16 has),
// so a host buffer can be handed to either backend unchanged.
#pragma once
#include <cstdint>
#include <cstring>

namespace ts::arch {

inline float bf16_to_float(uint16_t b) {
  uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// Round to nearest, ties to even (what __float2bfloat16_rn does); NaN stays a quiet NaN.
inline uint16_t float_to_bf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu)) return uint16_t((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}

// bf16 keeps 8 significant bits: one rounding of a value v is off by at most |v| * 2^-8.
constexpr float kBf16Epsilon = 1.0f / 256.0f;

}  // namespace ts::arch
