// The accumulator operand lists of the wgmma wrappers (sm90_wgmma.cuh, sm90_wgmma_rs.cuh):
// an m64nNk16 f32 fragment is R = N / 2 registers per thread, named %0 .. %R-1 in the
// instruction and bound to d[0] .. d[R-1] as "+f" operands. Inline asm takes only literal
// strings and operand lists (no pack expansion, no constexpr strings), so the lists are
// macros: numbers 0-9, then decades t0-t9 pasted from the tens digit t, then the rest.
#pragma once

#define TS_WGMMA_UNITS_STR "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9"
#define TS_WGMMA_DECADE_STR(t) "%" #t "0, %" #t "1, %" #t "2, %" #t "3, %" #t "4, %" #t "5, %" #t "6, %" #t "7, %" #t "8, %" #t "9"
#define TS_WGMMA_UNITS_OUT(d) "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9])
#define TS_WGMMA_DECADE_OUT(d, t) "+f"(d[t##0]), "+f"(d[t##1]), "+f"(d[t##2]), "+f"(d[t##3]), "+f"(d[t##4]), "+f"(d[t##5]), "+f"(d[t##6]), "+f"(d[t##7]), "+f"(d[t##8]), "+f"(d[t##9])

// "%0, ..., %R-1" for R = 32, 40, 64, 128, and the matching outputs.
#define TS_WGMMA_REGS_32 \
  TS_WGMMA_UNITS_STR ", " TS_WGMMA_DECADE_STR(1) ", " TS_WGMMA_DECADE_STR(2) ", %30, %31"
#define TS_WGMMA_REGS_40 \
  TS_WGMMA_UNITS_STR ", " TS_WGMMA_DECADE_STR(1) ", " TS_WGMMA_DECADE_STR(2) ", " TS_WGMMA_DECADE_STR(3)
#define TS_WGMMA_REGS_64                                                                                    \
  TS_WGMMA_UNITS_STR ", " TS_WGMMA_DECADE_STR(1) ", " TS_WGMMA_DECADE_STR(2) ", " TS_WGMMA_DECADE_STR(3) \
      ", " TS_WGMMA_DECADE_STR(4) ", " TS_WGMMA_DECADE_STR(5) ", %60, %61, %62, %63"
#define TS_WGMMA_REGS_128                                                                                   \
  TS_WGMMA_UNITS_STR ", " TS_WGMMA_DECADE_STR(1) ", " TS_WGMMA_DECADE_STR(2) ", " TS_WGMMA_DECADE_STR(3) \
      ", " TS_WGMMA_DECADE_STR(4) ", " TS_WGMMA_DECADE_STR(5) ", " TS_WGMMA_DECADE_STR(6) ", "           \
      TS_WGMMA_DECADE_STR(7) ", " TS_WGMMA_DECADE_STR(8) ", " TS_WGMMA_DECADE_STR(9) ", "                \
      TS_WGMMA_DECADE_STR(10) ", " TS_WGMMA_DECADE_STR(11) ", %120, %121, %122, %123, %124, %125, %126, %127"
#define TS_WGMMA_OUTS_32(d) \
  TS_WGMMA_UNITS_OUT(d), TS_WGMMA_DECADE_OUT(d, 1), TS_WGMMA_DECADE_OUT(d, 2), "+f"(d[30]), "+f"(d[31])
#define TS_WGMMA_OUTS_40(d) \
  TS_WGMMA_UNITS_OUT(d), TS_WGMMA_DECADE_OUT(d, 1), TS_WGMMA_DECADE_OUT(d, 2), TS_WGMMA_DECADE_OUT(d, 3)
#define TS_WGMMA_OUTS_64(d)                                                                              \
  TS_WGMMA_UNITS_OUT(d), TS_WGMMA_DECADE_OUT(d, 1), TS_WGMMA_DECADE_OUT(d, 2), TS_WGMMA_DECADE_OUT(d, 3), \
      TS_WGMMA_DECADE_OUT(d, 4), TS_WGMMA_DECADE_OUT(d, 5), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
#define TS_WGMMA_OUTS_128(d)                                                                             \
  TS_WGMMA_UNITS_OUT(d), TS_WGMMA_DECADE_OUT(d, 1), TS_WGMMA_DECADE_OUT(d, 2), TS_WGMMA_DECADE_OUT(d, 3), \
      TS_WGMMA_DECADE_OUT(d, 4), TS_WGMMA_DECADE_OUT(d, 5), TS_WGMMA_DECADE_OUT(d, 6),                    \
      TS_WGMMA_DECADE_OUT(d, 7), TS_WGMMA_DECADE_OUT(d, 8), TS_WGMMA_DECADE_OUT(d, 9),                    \
      TS_WGMMA_DECADE_OUT(d, 10), TS_WGMMA_DECADE_OUT(d, 11), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]),   \
      "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

// One wgmma.mma_async of shape m64n<N>k16 (bf16 x bf16 -> f32) over R = N / 2 accumulators.
// SS: A and B from SMEM descriptors; operands after the R outputs: desc_a (%R), desc_b
// (%R+1), scale_d (%R+2, 0 overwrites D), TransB (%R+3), TransA (%R+4). P0 .. P4 name them
// in the instruction's order: desc_a, desc_b, scale_d, imm-trans-a, imm-trans-b.
#define TS_WGMMA_SS(N, R, P0, P1, P2, P3, P4, d, desc_a, desc_b, scale_d, TransB, TransA)                  \
  asm volatile("{\n"                                                                                        \
               ".reg .pred p;\n"                                                                            \
               "setp.ne.b32 p, %" #P2 ", 0;\n"                                                              \
               "wgmma.mma_async.sync.aligned.m64n" #N "k16.f32.bf16.bf16 "                                   \
               "{" TS_WGMMA_REGS_##R "}, "                                                                   \
               "%" #P0 ", %" #P1 ", p, 1, 1, %" #P3 ", %" #P4 ";\n"                                          \
               "}\n"                                                                                        \
               : TS_WGMMA_OUTS_##R(d)                                                                        \
               : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TransB), "n"(TransA))
// RS: A from four bf16x2 registers (the wgmma A fragment); operands after the outputs:
// a[0..3] (%R..%R+3), desc_b (%R+4), scale_d (%R+5), TransB (%R+6).
#define TS_WGMMA_RS(N, R, P0, P1, P2, P3, P4, P5, P6, d, a, desc_b, scale_d, TransB)                        \
  asm volatile("{\n"                                                                                        \
               ".reg .pred p;\n"                                                                            \
               "setp.ne.b32 p, %" #P5 ", 0;\n"                                                              \
               "wgmma.mma_async.sync.aligned.m64n" #N "k16.f32.bf16.bf16 "                                   \
               "{" TS_WGMMA_REGS_##R "}, "                                                                   \
               "{%" #P0 ", %" #P1 ", %" #P2 ", %" #P3 "}, %" #P4 ", p, 1, 1, %" #P6 ";\n"                    \
               "}\n"                                                                                        \
               : TS_WGMMA_OUTS_##R(d)                                                                        \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d), "n"(TransB))
