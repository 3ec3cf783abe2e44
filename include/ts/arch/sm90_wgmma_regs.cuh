// The accumulator operand lists of the wgmma wrappers (sm90_wgmma.cuh, sm90_wgmma_rs.cuh):
// an m64nNk16 f32 fragment is N / 2 registers per thread, named %0 .. %(N/2 - 1) in the
// instruction and bound to d[0] .. d[N/2 - 1] as "+f" operands. Inline asm takes only
// literal strings and operand lists (no pack expansion), so the lists are macros, built
// from 32-register blocks; each form then names its trailing operands by number.
#pragma once

#define TS_WGMMA_REGS_0_31 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define TS_WGMMA_REGS_32_63 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define TS_WGMMA_REGS_64_95 "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
#define TS_WGMMA_REGS_96_127 "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"

#define TS_WGMMA_OUTS_0_31(d) \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
#define TS_WGMMA_OUTS_32_63(d) \
  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
#define TS_WGMMA_OUTS_64_95(d) \
  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), \
  "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), \
  "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), \
  "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
#define TS_WGMMA_OUTS_96_127(d) \
  "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), \
  "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), \
  "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), \
  "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

// The register list "{%0, ..., %R-1}" text and the matching outputs for R = 32, 64, 128.
#define TS_WGMMA_REGS_32 TS_WGMMA_REGS_0_31
#define TS_WGMMA_REGS_64 TS_WGMMA_REGS_0_31 ", " TS_WGMMA_REGS_32_63
#define TS_WGMMA_REGS_128 TS_WGMMA_REGS_64 ", " TS_WGMMA_REGS_64_95 ", " TS_WGMMA_REGS_96_127
#define TS_WGMMA_OUTS_32(d) TS_WGMMA_OUTS_0_31(d)
#define TS_WGMMA_OUTS_64(d) TS_WGMMA_OUTS_0_31(d), TS_WGMMA_OUTS_32_63(d)
#define TS_WGMMA_OUTS_128(d) TS_WGMMA_OUTS_64(d), TS_WGMMA_OUTS_64_95(d), TS_WGMMA_OUTS_96_127(d)

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
