/*
 * test_sbpf_ops.c — the sBPF interpreter, one case per line: version, the
 * program (encoded instructions), the CU limit, then r0 and the CU used, or
 * the trap and the CU used.  CU are worked out by hand from solana-sbpf
 * 0.23's step(): 1 per executed instruction (lddw once, the faulting one
 * included), a failing meter check (due >= remaining) stops *before* the
 * instruction and does not count it.  Every case runs in both dispatch
 * modes, which must agree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sbpf/sbpf_private.h"

typedef struct ins { uint8_t op, dst, src; int16_t off; int32_t imm; } ins;
#define I(op, d, s, off, imm) { op, d, s, off, imm }
/* lddw: two slots */
#define LDDW(d, v) I(0x18, d, 0, 0, (int32_t)(uint32_t)(v)), I(0, 0, 0, 0, (int32_t)(uint32_t)((uint64_t)(v) >> 32))
#define MOV(d, imm) I(0xb7, d, 0, 0, imm)
#define MOVR(d, s) I(0xbf, d, s, 0, 0)
#define EXIT I(0x95, 0, 0, 0, 0)
/* ends a program whose last slot would otherwise count as an lddw tail */
#define END I(0xff, 15, 15, -1, -1)

enum { OK = -1 };

typedef struct tcase {
  const char *name;
  scp_sbpf_version v;
  ins code[24];
  uint64_t limit;
  int trap;            /* OK, or an scp_sbpf_trap */
  uint64_t r0, cu;
  const char *msg;     /* expected trap message, or NULL */
} tcase;

#define V0 SCP_SBPF_V0
#define V1 SCP_SBPF_V1
#define V2 SCP_SBPF_V2
#define V3 SCP_SBPF_V3
#define T(x) SCP_SBPF_TRAP_##x

static const tcase cases[] = {
  { "mov exit", V0, { MOV(0, 42), EXIT }, 100, OK, 42, 2, NULL },
  /* lddw is one instruction (two slots) */
  { "lddw", V0, { LDDW(0, 0x1122334455667788ull), EXIT }, 100, OK, 0x1122334455667788ull, 2, NULL },
  { "mov64 imm sign-extends", V0, { MOV(0, -1), EXIT }, 100, OK, UINT64_MAX, 2, NULL },
  { "mov32 imm zero-extends", V0, { I(0xb4, 0, 0, 0, -1), EXIT }, 100, OK, 0xffffffffu, 2, NULL },
  /* add32: v0 sign-extends the 32-bit result, v2 zero-extends it */
  { "add32 v0", V0, { I(0xb4, 0, 0, 0, 0x7fffffff), I(0x04, 0, 0, 0, 1), EXIT }, 100, OK,
    0xffffffff80000000ull, 3, NULL },
  { "add32 v2", V2, { I(0xb4, 0, 0, 0, 0x7fffffff), I(0x04, 0, 0, 0, 1), EXIT }, 100, OK,
    0x80000000ull, 3, NULL },
  /* sub imm: v2 swaps the operands (imm - dst) */
  { "sub64 imm v0", V0, { MOV(0, 3), I(0x17, 0, 0, 0, 10), EXIT }, 100, OK, (uint64_t)-7, 3, NULL },
  { "sub64 imm v2", V2, { MOV(0, 3), I(0x17, 0, 0, 0, 10), EXIT }, 100, OK, 7, 3, NULL },
  { "sub32 imm v2", V2, { MOV(0, 3), I(0x14, 0, 0, 0, 10), EXIT }, 100, OK, 7, 3, NULL },
  /* mov32 reg: v2 sign-extends */
  { "mov32 reg v2", V2, { MOV(1, -2), I(0xbc, 0, 1, 0, 0), EXIT }, 100, OK, (uint64_t)-2, 3, NULL },
  { "mov32 reg v0", V0, { MOV(1, -2), I(0xbc, 0, 1, 0, 0), EXIT }, 100, OK, 0xfffffffeu, 3, NULL },
  { "mul32 sext", V0, { MOV(0, 0x10000), I(0x24, 0, 0, 0, 0x8000), EXIT }, 100, OK,
    0xffffffff80000000ull, 3, NULL },
  { "mul64", V0, { MOV(0, -3), I(0x27, 0, 0, 0, 7), EXIT }, 100, OK, (uint64_t)-21, 3, NULL },
  { "div64 imm (sign-extended imm)", V0, { MOV(0, -1), I(0x37, 0, 0, 0, -1), EXIT }, 100, OK, 1, 3, NULL },
  { "div32 reg", V0, { MOV(0, 100), MOV(1, 7), I(0x3c, 0, 1, 0, 0), EXIT }, 100, OK, 14, 4, NULL },
  { "mod64 reg", V0, { MOV(0, 100), MOV(1, 7), I(0x9f, 0, 1, 0, 0), EXIT }, 100, OK, 2, 4, NULL },
  { "div by zero", V0, { MOV(0, 1), MOV(1, 0), I(0x3f, 0, 1, 0, 0), EXIT }, 100, T(DIVIDE_BY_ZERO),
    0, 3, "divide by zero at BPF instruction" },
  { "mod32 by zero (low half)", V0, { MOV(0, 1), LDDW(1, 0x100000000ull), I(0x9c, 0, 1, 0, 0), EXIT },
    100, T(DIVIDE_BY_ZERO), 0, 3, NULL },
  { "neg64", V0, { MOV(0, 5), I(0x87, 0, 0, 0, 0), EXIT }, 100, OK, (uint64_t)-5, 3, NULL },
  { "neg32", V0, { MOV(0, 5), I(0x84, 0, 0, 0, 0), EXIT }, 100, OK, 0xfffffffbu, 3, NULL },
  { "lsh/rsh/arsh", V0, { MOV(0, -16), I(0xc7, 0, 0, 0, 2), I(0x67, 0, 0, 0, 60), I(0x77, 0, 0, 0, 61), EXIT },
    100, OK, 6, 5, NULL },
  { "arsh32", V0, { I(0xb4, 0, 0, 0, (int32_t)0x80000000u), I(0xc4, 0, 0, 0, 4), EXIT }, 100, OK,
    0xf8000000u, 3, NULL },
  { "le16", V0, { LDDW(0, 0x1122334455667788ull), I(0xd4, 0, 0, 0, 16), EXIT }, 100, OK, 0x7788, 3, NULL },
  { "be32", V0, { LDDW(0, 0x1122334455667788ull), I(0xdc, 0, 0, 0, 32), EXIT }, 100, OK, 0x88776655u, 3, NULL },
  { "be64", V0, { LDDW(0, 0x1122334455667788ull), I(0xdc, 0, 0, 0, 64), EXIT }, 100, OK,
    0x8877665544332211ull, 3, NULL },
  { "or/and/xor", V0, { MOV(0, 0xf0), I(0x47, 0, 0, 0, 0x0f), I(0x57, 0, 0, 0, 0x3c), I(0xa7, 0, 0, 0, 0xff), EXIT },
    100, OK, 0xc3, 5, NULL },
  /* every other ALU body: r0 = 100, r1 = 7 (or the imm 7), then the op */
#define A2(name, v, op, a, imm, want) { name, v, { MOV(0, a), MOV(1, 7), I(op, 0, 1, 0, imm), EXIT }, 100, OK, want, 4, NULL }
  A2("add32 reg", V0, 0x0c, 100, 0, 107), A2("sub32 reg", V0, 0x1c, 100, 0, 93),
  A2("mul32 reg", V0, 0x2c, 100, 0, 700), A2("div32 imm", V0, 0x34, 100, 7, 14),
  A2("mod32 imm", V0, 0x94, 100, 7, 2), A2("or32 reg", V0, 0x4c, 100, 0, 103),
  A2("or32 imm", V0, 0x44, 100, 7, 103), A2("and32 reg", V0, 0x5c, 100, 0, 4),
  A2("and32 imm", V0, 0x54, 100, 7, 4), A2("lsh32 reg", V0, 0x6c, 100, 0, 12800),
  A2("lsh32 imm", V0, 0x64, 100, 2, 400), A2("rsh32 reg", V0, 0x7c, 100, 0, 0),
  A2("rsh32 imm", V0, 0x74, 100, 2, 25), A2("xor32 reg", V0, 0xac, 100, 0, 99),
  A2("xor32 imm", V0, 0xa4, 100, 7, 99), A2("arsh32 reg", V0, 0xcc, -100, 0, 0xffffffffu),
  A2("mov32 imm", V0, 0xb4, 100, 7, 7), A2("add64 reg", V0, 0x0f, 100, 0, 107),
  A2("sub64 reg", V0, 0x1f, 100, 0, 93), A2("mul64 reg", V0, 0x2f, 100, 0, 700),
  A2("div64 reg", V0, 0x3f, 100, 0, 14), A2("mod64 imm", V0, 0x97, 100, 7, 2),
  A2("or64 reg", V0, 0x4f, 100, 0, 103), A2("and64 reg", V0, 0x5f, 100, 0, 4),
  A2("lsh64 reg", V0, 0x6f, 100, 0, 12800), A2("rsh64 reg", V0, 0x7f, 100, 0, 0),
  A2("rsh64 imm", V0, 0x77, 100, 2, 25), A2("xor64 reg", V0, 0xaf, 100, 0, 99),
  A2("arsh64 reg", V0, 0xcf, -100, 0, UINT64_MAX), A2("mov64 reg", V0, 0xbf, 100, 0, 7),
  A2("add32 reg v2", V2, 0x0c, 0x7fffffff, 0, 0x80000006u), A2("sub32 reg v2", V2, 0x1c, 0, 0, 0xfffffff9u),
  A2("add32 imm v3 sext", V3, 0x04, 0x7fffffff, 1, 0xffffffff80000000ull),
  A2("lmul32 reg", V2, 0x8e, 100, 0, 700), A2("lmul64 imm", V2, 0x96, 100, 7, 700),
  A2("lmul64 reg", V2, 0x9e, 100, 0, 700), A2("uhmul64 imm", V2, 0x36, -1, 2, 1),
  A2("shmul64 imm", V2, 0xb6, -1, 5, UINT64_MAX), A2("udiv32 imm", V2, 0x46, 100, 7, 14),
  A2("udiv32 reg", V2, 0x4e, 100, 0, 14), A2("udiv64 reg", V2, 0x5e, 100, 0, 14),
  A2("urem32 imm", V2, 0x66, 100, 7, 2), A2("urem32 reg", V2, 0x6e, 100, 0, 2),
  A2("urem64 imm", V2, 0x76, 100, 7, 2), A2("urem64 reg", V2, 0x7e, 100, 0, 2),
  A2("sdiv32 reg", V2, 0xce, -100, 0, 0xfffffff2u), A2("sdiv64 reg", V2, 0xde, -100, 0, (uint64_t)-14),
  A2("sdiv32 imm", V2, 0xc6, -100, 7, 0xfffffff2u), A2("srem32 imm", V2, 0xe6, -100, 7, 0xfffffffeu),
  A2("srem64 imm", V2, 0xf6, -100, 7, (uint64_t)-2), A2("srem64 reg", V2, 0xfe, -100, 0, (uint64_t)-2),
  { "udiv64 by zero", V2, { MOV(0, 1), MOV(1, 0), I(0x5e, 0, 1, 0, 0), EXIT }, 100, T(DIVIDE_BY_ZERO), 0, 3, NULL },
  { "srem64 overflow", V2, { MOV(0, 0), I(0xf7, 0, 0, 0, (int32_t)0x80000000u), I(0xf6, 0, 0, 0, -1), EXIT }, 100,
    T(DIVIDE_OVERFLOW), 0, 3, NULL },
  { "ldxh/ldxw", V0, { LDDW(1, 0x400000000ull), I(0x69, 0, 1, 8, 0), I(0x61, 2, 1, 8, 0), I(0x0f, 0, 2, 0, 0), EXIT },
    100, OK, 0x0201 + 0x04030201, 5, NULL },
  { "sth/stw/stdw/stxb/stxh/stxw", V0, { I(0x7a, 10, 0, -8, -1), I(0x6a, 10, 0, -8, 0x1234), I(0x62, 10, 0, -4, 0x55),
    MOV(1, 0x66), I(0x73, 10, 1, -2, 0), I(0x6b, 10, 1, -6, 0), I(0x63, 10, 1, -4, 0), I(0x79, 0, 10, -8, 0), EXIT },
    100, OK, 0x0000006600661234ull, 9, NULL },
#undef A2
  /* PQR (v2) */
  { "uhmul64", V2, { MOV(0, -1), MOV(1, -1), I(0x3e, 0, 1, 0, 0), EXIT }, 100, OK, 0xfffffffffffffffeull, 4, NULL },
  { "shmul64", V2, { MOV(0, -1), MOV(1, 5), I(0xbe, 0, 1, 0, 0), EXIT }, 100, OK, UINT64_MAX, 4, NULL },
  { "sdiv64 imm", V2, { MOV(0, -20), I(0xd6, 0, 0, 0, 3), EXIT }, 100, OK, (uint64_t)-6, 3, NULL },
  { "srem32 reg", V2, { MOV(0, -20), MOV(1, 3), I(0xee, 0, 1, 0, 0), EXIT }, 100, OK, 0xfffffffeu, 4, NULL },
  { "udiv64 imm (imm as u32)", V2, { MOV(0, -1), I(0x56, 0, 0, 0, -1), EXIT }, 100, OK, 0x100000001ull, 3, NULL },
  { "sdiv64 overflow", V2, { MOV(0, 0), I(0xf7, 0, 0, 0, (int32_t)0x80000000u), MOV(1, -1), I(0xde, 0, 1, 0, 0), EXIT },
    100, T(DIVIDE_OVERFLOW), 0, 4, NULL },
  { "sdiv32 overflow", V2, { I(0xb4, 0, 0, 0, (int32_t)0x80000000u), I(0xc6, 0, 0, 0, -1), EXIT },
    100, T(DIVIDE_OVERFLOW), 0, 2, "division overflow at BPF instruction" },
  { "hor64", V2, { MOV(0, 1), I(0xf7, 0, 0, 0, 2), EXIT }, 100, OK, 0x200000001ull, 3, NULL },
  { "lmul32", V2, { MOV(0, -1), I(0x86, 0, 0, 0, 2), EXIT }, 100, OK, 0xfffffffeu, 3, NULL },
  /* jumps: a loop of 3 instructions run 10 times: 2 + 30 + 1 = 33 */
  { "loop", V0, { MOV(1, 10), MOV(0, 0), I(0x0f, 0, 1, 0, 0), I(0x17, 1, 0, 0, 1), I(0x55, 1, 0, -3, 0), EXIT },
    100, OK, 55, 33, NULL },
  /* the meter at N-1, N, N+1: the 33rd instruction (exit) is the one a
   * 32-CU meter refuses; the 32 before it are consumed */
  { "meter N-1", V0, { MOV(1, 10), MOV(0, 0), I(0x0f, 0, 1, 0, 0), I(0x17, 1, 0, 0, 1), I(0x55, 1, 0, -3, 0), EXIT },
    32, T(EXCEEDED_MAX_INSTRUCTIONS), 0, 32, "exceeded CUs meter at BPF instruction" },
  { "meter N", V0, { MOV(1, 10), MOV(0, 0), I(0x0f, 0, 1, 0, 0), I(0x17, 1, 0, 0, 1), I(0x55, 1, 0, -3, 0), EXIT },
    33, OK, 55, 33, NULL },
  { "meter N+1", V0, { MOV(1, 10), MOV(0, 0), I(0x0f, 0, 1, 0, 0), I(0x17, 1, 0, 0, 1), I(0x55, 1, 0, -3, 0), EXIT },
    34, OK, 55, 33, NULL },
  /* out in the middle of a block: 4 of the loop's 5 first instructions */
  { "meter mid-block", V0, { MOV(1, 10), MOV(0, 0), I(0x0f, 0, 1, 0, 0), I(0x17, 1, 0, 0, 1), I(0x55, 1, 0, -3, 0), EXIT },
    4, T(EXCEEDED_MAX_INSTRUCTIONS), 0, 4, NULL },
  { "meter zero", V0, { MOV(0, 1), EXIT }, 0, T(EXCEEDED_MAX_INSTRUCTIONS), 0, 0, NULL },
  /* a fault before the meter stop wins: 1 mov + the faulting div */
  { "fault before meter stop", V0, { MOV(1, 0), I(0x3f, 0, 1, 0, 0), MOV(0, 1), MOV(0, 2), EXIT }, 3,
    T(DIVIDE_BY_ZERO), 0, 2, NULL },
  { "jsgt/jslt", V0, { MOV(1, -5), MOV(0, 0), I(0x65, 1, 0, 1, -6), EXIT, MOV(0, 7), EXIT }, 100, OK, 7, 5, NULL },
  { "jset", V0, { MOV(1, 6), MOV(0, 0), I(0x45, 1, 0, 1, 4), EXIT, MOV(0, 9), EXIT }, 100, OK, 9, 5, NULL },
  /* v3 jmp32 compares the low halves only */
  { "jeq32 v3", V3, { LDDW(1, 0x500000007ull), MOV(0, 0), I(0x16, 1, 0, 1, 7), EXIT, MOV(0, 1), EXIT },
    100, OK, 1, 5, NULL },
  { "jmp32 is v3 only", V0, { I(0x16, 1, 0, 0, 7), EXIT }, 100, -2, 0, 0, NULL },
  /* falling off the end: the instruction past .text costs 1 */
  { "overrun", V0, { MOV(0, 1) }, 100, T(EXECUTION_OVERRUN), 0, 2,
    "attempted to execute past the end of the text segment at BPF instruction" },
  /* calls: pc-relative imm resolved by the loader; the callee's exit
   * returns after the call.  mov, call, [mov, exit], exit = 5 */
  { "call", V0, { MOV(0, 1), I(0x85, 0, 0, 1, 1), EXIT, MOV(0, 5), EXIT }, 100, OK, 5, 5, NULL },
  /* r6-r9 and r10 are restored on return */
  { "call saves r6", V0, { MOV(6, 1), I(0x85, 0, 0, 0, 2), MOVR(0, 6), EXIT, MOV(6, 9), EXIT }, 100, OK, 1, 6, NULL },
  /* a function calling itself: mov + call per level; the 64th call makes
   * the depth 64 = max_call_depth and fails (it is counted): 128 */
  { "call depth", V0, { MOV(0, 0), I(0x85, 0, 0, 0, -2) }, 1000, T(CALL_DEPTH_EXCEEDED), 0, 128,
    "exceeded max BPF to BPF call depth" },
  { "call depth v3", V3, { MOV(0, 0), I(0x85, 0, 1, 0, -2) }, 1000, T(CALL_DEPTH_EXCEEDED), 0, 128, NULL },
  { "call v3 src=1", V3, { MOV(0, 1), I(0x85, 0, 1, 0, 1), EXIT, MOV(0, 5), EXIT }, 100, OK, 5, 5, NULL },
  { "unknown call key", V0, { I(0x85, 0, 0, 0, 0x7fffff) }, 100, T(UNSUPPORTED_INSTRUCTION), 0, 1,
    "unsupported BPF instruction" },
  /* callx: target VA in reg[imm] (v0) */
  { "callx", V0, { LDDW(1, 0x100000000ull + 4 * 8), I(0x8d, 0, 0, 0, 1), EXIT, MOV(0, 2), EXIT }, 100, OK,
    2, 5, NULL },
  { "callx v3 dst", V3, { LDDW(1, 0x100000000ull + 4 * 8), I(0x8d, 1, 0, 0, 0), EXIT, MOV(0, 2), EXIT }, 100, OK,
    2, 5, NULL },
  { "callx v2 src", V2, { MOV(1, 0), I(0xf7, 1, 0, 0, 1), I(0x07, 1, 0, 0, 5 * 8), I(0x8d, 0, 1, 0, 0), EXIT, MOV(0, 2), EXIT },
    100, OK, 2, 7, NULL },
  { "callx outside", V0, { MOV(1, 0), I(0x8d, 0, 0, 0, 1), EXIT }, 100, T(CALL_OUTSIDE_TEXT_SEGMENT), 0, 2,
    "callx attempted to call outside of the text segment" },
  /* callx into the middle of a block still charges from there */
  { "callx mid-block", V0, { LDDW(1, 0x100000000ull + 5 * 8), I(0x8d, 0, 0, 0, 1), EXIT, MOV(0, 1), MOV(0, 3), EXIT },
    100, OK, 3, 5, NULL },
  /* a mov64 reg and the 64-bit ALU instruction after it on the same dst
   * run as one fused body (sbpf_fuse): r1 = 100, r2 = 7, r0 = r1, r0 op= x */
#define F2(name, v, op, a, src, imm, want) \
  { name, v, { MOV(1, a), MOV(2, 7), MOVR(0, 1), I(op, 0, src, 0, imm), EXIT }, 100, OK, want, 5, NULL }
  F2("fused mov+add64 reg", V0, 0x0f, 100, 2, 0, 107), F2("fused mov+sub64 reg", V0, 0x1f, 100, 2, 0, 93),
  F2("fused mov+xor64 reg", V0, 0xaf, 100, 2, 0, 99), F2("fused mov+or64 reg", V0, 0x4f, 100, 2, 0, 103),
  F2("fused mov+and64 reg", V0, 0x5f, 100, 2, 0, 4), F2("fused mov+add64 imm", V0, 0x07, 100, 0, -3, 97),
  F2("fused mov+and64 imm", V0, 0x57, 100, 0, 0x3c, 36),
  F2("fused mov+lsh64 imm", V0, 0x67, 100, 0, 60, 0x4000000000000000ull),
  F2("fused mov+rsh64 imm", V0, 0x77, 100, 0, 2, 25),
  F2("fused mov+arsh64 imm", V0, 0xc7, -100, 0, 2, (uint64_t)-25),
  F2("fused mov+sub64 reg v2", V2, 0x1f, 100, 2, 0, 93), F2("fused mov+xor64 reg v3", V3, 0xaf, 100, 2, 0, 99),
  /* the second reads the mov's source (fused) or its dst (left unfused) */
  F2("fused mov+add64 reg, src twice", V0, 0x0f, 100, 1, 0, 200),
  F2("mov+add64 reg on dst itself", V0, 0x0f, 100, 0, 0, 200),
#undef F2
  /* the meter stops between the two: the pair must not run as one (it
   * would go on to the exit and return 10) */
  { "meter stop inside a fused pair", V0, { MOV(1, 5), MOVR(0, 1), I(0x0f, 0, 1, 0, 0), EXIT }, 2,
    T(EXCEEDED_MAX_INSTRUCTIONS), 0, 2, NULL },
  { "meter stop at a fused pair", V0, { MOV(1, 5), MOVR(0, 1), I(0x0f, 0, 1, 0, 0), EXIT }, 1,
    T(EXCEEDED_MAX_INSTRUCTIONS), 0, 1, NULL },
  { "fault after a fused pair", V0, { MOV(1, 0), MOVR(0, 1), I(0x0f, 0, 1, 0, 0), I(0x3f, 0, 1, 0, 0), EXIT }, 100,
    T(DIVIDE_BY_ZERO), 0, 4, NULL },
  /* a jump to the second of a pair runs it alone: mov, mov, ja, add, exit */
  { "jump into a fused pair", V0, { MOV(1, 3), MOV(0, 10), I(0x05, 0, 0, 1, 0), MOVR(0, 1), I(0x0f, 0, 1, 0, 0), EXIT },
    100, OK, 13, 5, NULL },
  /* an add64 imm and the conditional jump ending its block run as one body
   * (sbpf_fuse): r0 = 0, r1 = 5, r2 = 7, r1 += 2, then the jump; taken it
   * returns r1 (7 CU), not taken 0 (6 CU).  Each compares the add's result:
   * on r1 = 5 every one of them would go the other way. */
#define AJ(name, v, op, src, imm, taken) \
  { name, v, { MOV(0, 0), MOV(1, 5), MOV(2, 7), I(0x07, 1, 0, 0, 2), I(op, 1, src, 1, imm), EXIT, MOVR(0, 1), EXIT }, \
    100, OK, (taken) ? 7 : 0, (taken) ? 7 : 6, NULL }
  AJ("fused add64 imm+jeq imm", V0, 0x15, 0, 7, 1), AJ("fused add64 imm+jeq reg", V0, 0x1d, 2, 0, 1),
  AJ("fused add64 imm+jne imm", V0, 0x55, 0, 5, 1), AJ("fused add64 imm+jne reg", V0, 0x5d, 2, 0, 0),
  AJ("fused add64 imm+jgt imm", V0, 0x25, 0, 6, 1), AJ("fused add64 imm+jgt reg", V0, 0x2d, 2, 0, 0),
  AJ("fused add64 imm+jlt imm", V0, 0xa5, 0, 6, 0), AJ("fused add64 imm+jlt reg", V0, 0xad, 2, 0, 0),
  AJ("fused add64 imm+jeq imm v2", V2, 0x15, 0, 7, 1), AJ("fused add64 imm+jlt imm v3", V3, 0xa5, 0, 8, 1),
#undef AJ
  /* the jump names another register: r2 (7) > r1 (5 - 3) */
  { "fused add64 imm+jgt, other dst", V0, { MOV(0, 0), MOV(1, 5), MOV(2, 7), I(0x07, 1, 0, 0, -3), I(0x2d, 2, 1, 1, 0),
    EXIT, MOVR(0, 1), EXIT }, 100, OK, 2, 7, NULL },
  /* the loop counter pattern: r1 += 1; if r1 != 10 goto back, 10 times:
   * 2 + 10 * 3 + 2 */
  { "fused add64 imm+jne loop", V0, { MOV(1, 0), MOV(0, 0), I(0x07, 0, 0, 0, 3), I(0x07, 1, 0, 0, 1), I(0x55, 1, 0, -3, 10),
    EXIT }, 100, OK, 30, 33, NULL },
  /* the meter stops at the jump: the add runs alone (fused it would go on
   * to the exit and return 0) */
  { "meter stop inside add+jump", V0, { MOV(0, 0), MOV(1, 5), MOV(2, 7), I(0x07, 1, 0, 0, 2), I(0x15, 1, 0, 1, 7), EXIT,
    MOVR(0, 1), EXIT }, 4, T(EXCEEDED_MAX_INSTRUCTIONS), 0, 4, NULL },
  { "meter stop at add+jump", V0, { MOV(0, 0), MOV(1, 5), MOV(2, 7), I(0x07, 1, 0, 0, 2), I(0x15, 1, 0, 1, 7), EXIT,
    MOVR(0, 1), EXIT }, 3, T(EXCEEDED_MAX_INSTRUCTIONS), 0, 3, NULL },
  /* a jump to the pair's jump runs the jump alone (the add before it is
   * fused, and a block charge runs to the jump whether it starts at the add
   * or the jump): mov, mov, ja, jlt, then 3 x (add, jlt), mov, exit = 12 */
  { "jump into add+jump", V0, { MOV(0, 0), MOV(1, 0), I(0x05, 0, 0, 1, 0), I(0x07, 1, 0, 0, 1), I(0xa5, 1, 0, -2, 3),
    MOVR(0, 1), EXIT }, 100, OK, 3, 12, NULL },
  /* a fault right after the pair's jump lands: add, jump, then the div */
  { "fault after add+jump", V0, { MOV(0, 0), MOV(1, 5), I(0x07, 1, 0, 0, -5), I(0x15, 1, 0, 1, 0), EXIT,
    I(0x3f, 0, 1, 0, 0), EXIT }, 100, T(DIVIDE_BY_ZERO), 0, 5, NULL },
  /* two mov64 reg in a row run as one body, in order: r1 = r2, then
   * r2 = r1 copies r2 back (7, 7: 0x707); swapped it would give 5, 5 */
  { "fused mov+mov", V0, { MOV(1, 5), MOV(2, 7), MOVR(1, 2), MOVR(2, 1), I(0x67, 1, 0, 0, 8), I(0x0f, 1, 2, 0, 0),
    MOVR(0, 1), EXIT }, 100, OK, 0x707, 8, NULL },
  /* three in a row, then an add on the third dst: the first two fuse, the
   * third keeps its pair with the add */
  { "fused mov+mov+mov", V0, { MOV(1, 5), MOV(2, 7), MOVR(3, 1), MOVR(4, 2), MOVR(0, 3), I(0x0f, 0, 4, 0, 0), EXIT },
    100, OK, 12, 7, NULL },
  /* the meter stops at the second mov (fused, the pair would go on to the
   * exit and return 5) */
  { "meter stop inside mov+mov", V0, { MOV(1, 5), MOVR(2, 1), MOVR(0, 2), EXIT }, 2, T(EXCEEDED_MAX_INSTRUCTIONS),
    0, 2, NULL },
  /* a jump to the second mov runs it alone: r0 = r2 = 7, never r1 = 9 */
  { "jump into mov+mov", V0, { MOV(1, 9), MOV(2, 7), MOV(0, 0), I(0x05, 0, 0, 1, 0), MOVR(1, 2), MOVR(0, 2),
    I(0x0f, 0, 1, 0, 0), EXIT }, 100, OK, 16, 7, NULL },
  /* memory: the stack frame below r10 */
  { "stack store/load", V0, { MOV(1, 77), I(0x7b, 10, 1, -8, 0), I(0x79, 0, 10, -8, 0), EXIT }, 100, OK, 77, 4, NULL },
  { "store imm byte", V0, { MOV(0, -1), I(0x7b, 10, 0, -8, 0), I(0x72, 10, 0, -8, 0x12), I(0x79, 0, 10, -8, 0), EXIT },
    100, OK, 0xffffffffffffff12ull, 5, NULL },
  { "v2 memory classes", V2, { MOV(1, 77), I(0x9f, 10, 1, -8, 0), I(0x9c, 0, 10, -8, 0), EXIT }, 100, OK, 77, 4, NULL },
  { "null load", V0, { MOV(1, 0), I(0x79, 0, 1, 0, 0), EXIT }, 100, T(ACCESS_VIOLATION), 0, 2,
    "Access violation reading 8 bytes at address 0x0 (in unallocated region)" },
  /* v0 frames are 4 KiB with a 4 KiB gap above each */
  { "stack gap", V0, { I(0x79, 0, 10, 0, 0), EXIT }, 100, T(STACK_ACCESS_VIOLATION), 0, 1,
    "Access violation in stack frame 1 at address 0x200001000 of size 8" },
  { "v1 stack is one block", V1, { I(0x79, 0, 10, -4104, 0), EXIT }, 100, OK, 0, 2, NULL },
  { "heap store", V0, { LDDW(1, 0x300000000ull), MOV(2, 9), I(0x7b, 1, 2, 0x7ff8, 0), I(0x79, 0, 1, 0x7ff8, 0), EXIT },
    100, OK, 9, 5, NULL },
  { "heap end", V0, { LDDW(1, 0x300000000ull), I(0x7b, 1, 1, 0x7ffc, 0), EXIT }, 100, T(ACCESS_VIOLATION), 0, 2,
    "Access violation writing 8 bytes at address 0x300007ffc (in heap region)" },
  { "store to program", V0, { LDDW(1, 0x100000000ull), I(0x7b, 1, 1, 0, 0), EXIT }, 100, T(ACCESS_VIOLATION), 0, 2,
    "Access violation writing 8 bytes at address 0x100000000 (in program region)" },
  { "load text bytes", V0, { LDDW(1, 0x100000000ull), I(0x71, 0, 1, 0, 0), EXIT }, 100, OK, 0x18, 3, NULL },
  { "input region", V0, { LDDW(1, 0x400000000ull), I(0x79, 0, 1, 8, 0), EXIT }, 100, OK, 0x0807060504030201ull, 3, NULL },
  { "input read-only", V0, { LDDW(1, 0x400000000ull), I(0x7a, 1, 0, 0, 1), EXIT }, 100, T(ACCESS_VIOLATION), 0, 2,
    "Access violation writing 8 bytes at address 0x400000000 (in input region)" },
};

static uint8_t input[32] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8 };

static size_t encode(const ins *c, uint8_t *out) {
  size_t n = 0;
  while (n < 24 && !(c[n].op == 0xff && c[n].off == -1) &&
         (c[n].op || c[n].dst || c[n].imm || (n > 0 && c[n - 1].op == 0x18))) {
    out[8 * n] = c[n].op;
    out[8 * n + 1] = (uint8_t)(c[n].dst | c[n].src << 4);
    memcpy(out + 8 * n + 2, &c[n].off, 2);
    memcpy(out + 8 * n + 4, &c[n].imm, 4);
    n++;
  }
  return 8 * n;
}

typedef struct outcome {
  int rc, trap;
  uint64_t r0, used;
  uint32_t pc;         /* the trap's pc */
  char msg[512];
} outcome;

static outcome run_in(const scp_sbpf_loader *l, const tcase *t, bool sw, scp_sbpf_pool *pool) {
  uint8_t text[24 * 8];
  outcome o = { 0 };
  size_t len = encode(t->code, text);
  scp_sbpf_prog *p;
  scp_error err = { 0 };
  o.rc = sbpf_load_text(l, text, len, t->v, &p, &err);
  if (o.rc) {
    o.trap = -2;
    snprintf(o.msg, sizeof o.msg, "%s", err.msg);
    return o;
  }
  uint64_t meter = t->limit;
  scp_sbpf_region in = { SCP_SBPF_MM_INPUT, input, sizeof input, false };
  scp_sbpf_vm_config cfg = { .meter = &meter, .input = &in, .ninput = 1, .pool = pool };
  scp_sbpf_vm *vm;
  assert_int_equal(scp_sbpf_vm_create(p, &cfg, &vm, &err), SCP_OK);
  scp_sbpf_vm_set_switch_dispatch(vm, sw);
  o.rc = scp_sbpf_vm_run(vm, &o.r0, &err);
  o.trap = o.rc ? (int)scp_sbpf_vm_trap(vm) : OK;
  o.used = t->limit - meter;
  o.pc = o.rc ? scp_sbpf_vm_trap_pc(vm) : 0;
  assert_int_equal(scp_sbpf_vm_insns(vm), o.used);   /* no syscalls: CU = instructions */
  snprintf(o.msg, sizeof o.msg, "%s", o.rc ? err.msg : "");
  scp_sbpf_vm_destroy(vm);
  scp_sbpf_prog_free(p);
  return o;
}

static outcome run(const scp_sbpf_loader *l, const tcase *t, bool sw) { return run_in(l, t, sw, NULL); }

/* Every case also runs on pooled memory (one pool for all of them, so
 * each starts on the memory the cases before it used): the same outcome. */
static void test_cases(void **state) {
  (void)state;
  scp_sbpf_loader *l;
  assert_int_equal(scp_sbpf_loader_create(NULL, &l), SCP_OK);
  scp_sbpf_pool *pool = scp_sbpf_pool_new();
  assert_non_null(pool);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const tcase *t = &cases[i];
    outcome a = run(l, t, false), b = run(l, t, true), c = run_in(l, t, false, pool), d = run_in(l, t, true, pool);
    if (a.trap != c.trap || a.r0 != c.r0 || a.used != c.used || strcmp(a.msg, c.msg) ||
        a.trap != d.trap || a.r0 != d.r0 || a.used != d.used || strcmp(a.msg, d.msg))
      fail_msg("%s: pooled memory changes the outcome: trap %d r0 %#llx cu %llu msg '%s'", t->name, c.trap,
               (unsigned long long)c.r0, (unsigned long long)c.used, c.msg);
    if (a.trap != t->trap || (t->trap == OK && a.r0 != t->r0) || (t->trap != -2 && a.used != t->cu) ||
        (t->msg && strcmp(a.msg, t->msg)))
      fail_msg("%s: trap %d r0 %#llx cu %llu msg '%s' (want trap %d r0 %#llx cu %llu)", t->name, a.trap,
               (unsigned long long)a.r0, (unsigned long long)a.used, a.msg, t->trap,
               (unsigned long long)t->r0, (unsigned long long)t->cu);
    if (a.trap != b.trap || a.r0 != b.r0 || a.used != b.used || strcmp(a.msg, b.msg))
      fail_msg("%s: goto and switch dispatch disagree", t->name);
  }
  scp_sbpf_pool_free(pool);
  scp_sbpf_loader_destroy(l);
}

/* ---- pooled memory: a VM never sees what an earlier one left ------------ */

#define MM_STACK 0x200000000ull
#define MM_HEAP 0x300000000ull
/* what the writer stores and the reader loads: frame 0 below r10, the
 * last word of frames 5 and 63 (v0: frame k at k * 8 KiB), the first and
 * last word of a 32 KiB heap, and a word across the first 4 KiB of it */
static const uint64_t spots[] = { MM_STACK + 5 * 8192 + 4088, MM_STACK + 63 * 8192 + 4088, MM_HEAP,
                                  MM_HEAP + 0x7ff8, MM_HEAP + 4092 };

static scp_sbpf_prog *load_ins(const scp_sbpf_loader *l, const ins *code, scp_sbpf_version v) {
  uint8_t text[24 * 8];
  size_t len = encode(code, text);
  scp_sbpf_prog *p;
  scp_error err = { 0 };
  assert_int_equal(sbpf_load_text(l, text, len, v, &p, &err), SCP_OK);
  return p;
}

static scp_sbpf_vm *vm_in(const scp_sbpf_prog *p, scp_sbpf_pool *pool, uint32_t heap, uint64_t *meter) {
  scp_sbpf_vm_config cfg = { .meter = meter, .heap_size = heap, .pool = pool };
  scp_sbpf_vm *vm;
  scp_error err = { 0 };
  *meter = 1000;
  assert_int_equal(scp_sbpf_vm_create(p, &cfg, &vm, &err), SCP_OK);
  return vm;
}

static uint64_t run_vm(scp_sbpf_vm *vm) {
  uint64_t r0 = 1;
  scp_error err = { 0 };
  if (scp_sbpf_vm_run(vm, &r0, &err)) fail_msg("%s", err.msg);
  return r0;
}

static void test_pool(void **state) {
  (void)state;
  scp_sbpf_loader *l;
  assert_int_equal(scp_sbpf_loader_create(NULL, &l), SCP_OK);
  ins w[24] = { MOV(2, 0x5a), I(0x7b, 10, 2, -8, 0) }, r[24] = { MOV(0, 0), I(0x79, 0, 10, -8, 0) };
  size_t nw = 2, nr = 2;
  for (size_t i = 0; i < sizeof spots / sizeof spots[0]; i++) {
    ins ld[] = { LDDW(1, spots[i]) };
    memcpy(&w[nw], ld, sizeof ld);
    memcpy(&r[nr], ld, sizeof ld);
    w[nw + 2] = (ins)I(0x7b, 1, 2, 0, 0);             /* *(u64 *)r1 = r2 */
    r[nr + 2] = (ins)I(0x79, 3, 1, 0, 0);             /* r3 = *(u64 *)r1 */
    r[nr + 3] = (ins)I(0x4f, 0, 3, 0, 0);             /* r0 |= r3 */
    nw += 3;
    nr += 4;
  }
  w[nw] = (ins)EXIT;
  r[nr] = (ins)EXIT;
  scp_sbpf_prog *pw = load_ins(l, w, V0), *pr = load_ins(l, r, V0);
  scp_sbpf_pool *pool = scp_sbpf_pool_new();
  uint64_t meter;
  /* one after the other: the reader gets the writer's slot, zeroed */
  scp_sbpf_vm *vw = vm_in(pw, pool, 0, &meter);
  run_vm(vw);
  scp_sbpf_vm_destroy(vw);
  scp_sbpf_vm *vr = vm_in(pr, pool, 0, &meter);
  assert_int_equal(run_vm(vr), 0);
  assert_int_equal(1000 - meter, 2 + 3 * 5 + 1);   /* lddw counts once */
  scp_sbpf_vm_destroy(vr);
  /* the writer alive (a CPI's caller): the reader gets another slot; then
   * the writer's slot, zeroed */
  vw = vm_in(pw, pool, 0, &meter);
  run_vm(vw);
  vr = vm_in(pr, pool, 0, &meter);
  assert_int_equal(run_vm(vr), 0);
  scp_sbpf_vm_destroy(vr);
  scp_sbpf_vm_destroy(vw);
  for (int k = 0; k < 2; k++) {
    vr = vm_in(pr, pool, 0, &meter);
    assert_int_equal(run_vm(vr), 0);
    scp_sbpf_vm_destroy(vr);
  }
  /* a 256 KiB heap written at its top, then read by a 256 KiB VM */
  ins w2[] = { MOV(2, 0x5a), LDDW(1, MM_HEAP + 0x3fff8), I(0x7b, 1, 2, 0, 0), EXIT, { 0 } };
  ins r2[] = { LDDW(1, MM_HEAP + 0x3fff8), I(0x79, 0, 1, 0, 0), EXIT, { 0 } };
  scp_sbpf_prog *pw2 = load_ins(l, w2, V0), *pr2 = load_ins(l, r2, V0);
  vw = vm_in(pw2, pool, SCP_SBPF_HEAP_MAX, &meter);
  run_vm(vw);
  scp_sbpf_vm_destroy(vw);
  vr = vm_in(pr2, pool, SCP_SBPF_HEAP_MAX, &meter);
  assert_int_equal(run_vm(vr), 0);
  scp_sbpf_vm_destroy(vr);
  /* v1: r10 starts at the stack's top, the whole stack is mapped */
  ins w3[] = { MOV(2, 0x5a), LDDW(1, MM_STACK), I(0x7b, 1, 2, 0, 0), I(0x7b, 10, 2, -8, 0), EXIT, { 0 } };
  ins r3[] = { LDDW(1, MM_STACK), I(0x79, 0, 1, 0, 0), I(0x79, 3, 10, -8, 0), I(0x4f, 0, 3, 0, 0), EXIT, { 0 } };
  scp_sbpf_prog *pw3 = load_ins(l, w3, V1), *pr3 = load_ins(l, r3, V1);
  vw = vm_in(pw3, pool, 0, &meter);
  run_vm(vw);
  scp_sbpf_vm_destroy(vw);
  vr = vm_in(pr3, pool, 0, &meter);
  assert_int_equal(run_vm(vr), 0);
  scp_sbpf_vm_destroy(vr);
  scp_sbpf_pool_free(pool);
  scp_sbpf_prog *ps[] = { pw, pr, pw2, pr2, pw3, pr3 };
  for (size_t i = 0; i < 6; i++) scp_sbpf_prog_free(ps[i]);
  scp_sbpf_loader_destroy(l);
}

/* Every conditional jump, both forms, 64-bit (v0) and 32-bit (v3):
 * r0 = 0, r1 = a, r2 = b, jump +1 over an exit to r0 = 1.  Taken: 6
 * instructions and r0 1; not taken: 5 and r0 0.  With a = -1, b = 1
 * (unsigned a > b, signed a < b) and with a = b = 5. */
static void test_jumps(void **state) {
  (void)state;
  static const struct { const char *name; uint8_t op; bool t1, t2; } j[] = {
    { "jeq", 0x1d, false, true }, { "jgt", 0x2d, true, false }, { "jge", 0x3d, true, true },
    { "jlt", 0xad, false, false }, { "jle", 0xbd, false, true }, { "jset", 0x4d, true, true },
    { "jne", 0x5d, true, false }, { "jsgt", 0x6d, false, false }, { "jsge", 0x7d, false, true },
    { "jslt", 0xcd, true, false }, { "jsle", 0xdd, true, true },
  };
  scp_sbpf_loader *l;
  assert_int_equal(scp_sbpf_loader_create(NULL, &l), SCP_OK);
  for (size_t i = 0; i < sizeof j / sizeof j[0]; i++)
    for (int wide = 0; wide < 2; wide++)
      for (int reg = 0; reg < 2; reg++)
        for (int pair = 0; pair < 2; pair++) {
          int32_t a = pair ? 5 : -1, b = pair ? 5 : 1;
          uint8_t op = (uint8_t)((reg ? j[i].op : j[i].op - 8) + (wide ? 0 : 1));
          tcase t = { j[i].name, wide ? V0 : V3,
                      { MOV(0, 0), MOV(1, a), MOV(2, b), I(op, 1, 2, 1, b), EXIT, MOV(0, 1), EXIT },
                      100, OK, 0, 0, NULL };
          bool taken = pair ? j[i].t2 : j[i].t1;
          outcome o = run(l, &t, false), o2 = run(l, &t, true);
          if (o.trap != OK || o.r0 != (uint64_t)taken || o.used != (taken ? 6u : 5u) || o2.r0 != o.r0 ||
              o2.used != o.used)
            fail_msg("%s%s %s (a=%d b=%d): r0 %llu cu %llu", j[i].name, wide ? "" : "32", reg ? "reg" : "imm", a,
                     b, (unsigned long long)o.r0, (unsigned long long)o.used);
        }
  scp_sbpf_loader_destroy(l);
}

/* The meter stop inside an add+jump pair: the CU are the same whether the
 * pair runs fused or not (fused, the jump's target would stop on the empty
 * meter), so the trap's pc tells: the jump (4), not its target (6). */
static void test_meter_stop_add_jump(void **state) {
  (void)state;
  scp_sbpf_loader *l;
  assert_int_equal(scp_sbpf_loader_create(NULL, &l), SCP_OK);
  tcase t = { "meter stop inside add+jump", V0,
              { MOV(0, 0), MOV(1, 5), MOV(2, 7), I(0x07, 1, 0, 0, 2), I(0x15, 1, 0, 1, 7), EXIT, MOVR(0, 1), EXIT },
              4, T(EXCEEDED_MAX_INSTRUCTIONS), 0, 4, NULL };
  for (int sw = 0; sw < 2; sw++) {
    outcome o = run(l, &t, sw);
    assert_int_equal(o.trap, T(EXCEEDED_MAX_INSTRUCTIONS));
    assert_int_equal(o.used, 4);
    assert_int_equal(o.pc, 4);
  }
  scp_sbpf_loader_destroy(l);
}

/* ---- fused pairs and the meter stop on a program run again -------------- */

/* The meter stop unfuses the pair it falls inside for one run only: the
 * same program, stopped there, then run to the end, in both dispatch
 * modes; and the depth a call-depth trap leaves is the pushed one. */
static void test_fused_rerun(void **state) {
  (void)state;
  scp_sbpf_loader *l;
  assert_int_equal(scp_sbpf_loader_create(NULL, &l), SCP_OK);
  ins code[] = { MOV(1, 5), MOVR(0, 1), I(0x0f, 0, 1, 0, 0), MOVR(3, 0), I(0x77, 3, 0, 0, 1), MOVR(0, 3), EXIT, { 0 } };
  scp_sbpf_prog *p = load_ins(l, code, V0);
  for (int sw = 0; sw < 2; sw++)
    for (uint64_t limit = 1; limit <= 8; limit++) {
      uint64_t meter = limit, r0 = 0;
      scp_sbpf_vm_config cfg = { .meter = &meter };
      scp_sbpf_vm *vm;
      scp_error err = { 0 };
      assert_int_equal(scp_sbpf_vm_create(p, &cfg, &vm, &err), SCP_OK);
      scp_sbpf_vm_set_switch_dispatch(vm, sw);
      int rc = scp_sbpf_vm_run(vm, &r0, &err);
      /* 7 instructions: r0 = (5 + 5) >> 1 */
      if (limit >= 7) {
        assert_int_equal(rc, SCP_OK);
        assert_int_equal(r0, 5);
        assert_int_equal(limit - meter, 7);
      } else {
        assert_int_equal(scp_sbpf_vm_trap(vm), SCP_SBPF_TRAP_EXCEEDED_MAX_INSTRUCTIONS);
        assert_int_equal(scp_sbpf_vm_trap_pc(vm), limit);
        assert_int_equal(meter, 0);
      }
      scp_sbpf_vm_destroy(vm);
    }
  scp_sbpf_prog_free(p);
  ins deep[] = { MOV(0, 0), I(0x85, 0, 0, 0, -2), { 0 } };
  p = load_ins(l, deep, V0);
  uint64_t meter = 1000, r0;
  scp_sbpf_vm_config cfg = { .meter = &meter };
  scp_sbpf_vm *vm;
  scp_error err = { 0 };
  assert_int_equal(scp_sbpf_vm_create(p, &cfg, &vm, &err), SCP_OK);
  assert_int_equal(scp_sbpf_vm_run(vm, &r0, &err), SCP_ERR_TRAP);
  assert_int_equal(scp_sbpf_vm_depth(vm), SCP_SBPF_MAX_CALL_DEPTH);
  scp_sbpf_vm_destroy(vm);
  scp_sbpf_prog_free(p);
  scp_sbpf_loader_destroy(l);
}

/* ---- verifier --------------------------------------------------------- */

typedef struct vcase {
  scp_sbpf_version v;
  ins code[6];
  const char *msg;
} vcase;

static const vcase vcases[] = {
  { V0, { I(0x06, 0, 0, 0, 0), EXIT }, "Verifier error: unknown eBPF opcode 0x6 (insn #0) (UnknownOpCode)" },
  { V2, { LDDW(0, 1), EXIT }, "Verifier error: unknown eBPF opcode 0x18 (insn #0) (UnknownOpCode)" },
  { V0, { I(0x37, 0, 0, 0, 0), EXIT }, "Verifier error: division by 0 (insn #0) (DivisionByZero)" },
  { V0, { I(0x05, 0, 0, 5, 0), EXIT }, "Verifier error: jump out of code to #6 (insn #0) (JumpOutOfCode)" },
  { V0, { I(0x05, 0, 0, 1, 0), LDDW(0, 1), EXIT },
    "Verifier error: jump to middle of LD_DW at #2 (insn #0) (JumpToMiddleOfLDDW)" },
  { V0, { MOV(10, 1), EXIT }, "Verifier error: cannot write into register r10 (insn #0) (CannotWriteR10)" },
  { V0, { MOV(11, 1), EXIT }, "Verifier error: invalid destination register (insn #0) (InvalidDestinationRegister)" },
  { V0, { I(0x67, 0, 0, 0, 64), EXIT },
    "Verifier error: Shift with overflow of 64-bit value by 64 (insn #0) (ShiftWithOverflow)" },
  { V0, { I(0xd4, 0, 0, 0, 8), EXIT }, "Verifier error: unsupported argument for LE/BE (insn #0) (UnsupportedLEBEArgument)" },
  { V0, { EXIT, I(0x18, 0, 0, 0, 0), END }, "Verifier error: LD_DW instruction cannot be last in program (LDDWCannotBeLast)" },
  { V0, { I(0x8d, 0, 0, 0, 10), EXIT }, "Verifier error: Invalid register specified at instruction 0 (InvalidRegister)" },
  { V1, { I(0x07, 10, 0, 0, 8), EXIT }, "Verifier error: Unaligned immediate (insn #0) (UnalignedImmediate)" },
};

static void test_verifier(void **state) {
  (void)state;
  scp_sbpf_loader *l;
  assert_int_equal(scp_sbpf_loader_create(NULL, &l), SCP_OK);
  for (size_t i = 0; i < sizeof vcases / sizeof vcases[0]; i++) {
    uint8_t text[6 * 8];
    size_t len = encode(vcases[i].code, text);
    scp_sbpf_prog *p;
    scp_error err = { 0 };
    int rc = sbpf_load_text(l, text, len, vcases[i].v, &p, &err);
    if (rc != SCP_ERR_INVALID || strcmp(err.msg, vcases[i].msg))
      fail_msg("case %zu: rc %d '%s' want '%s'", i, rc, err.msg, vcases[i].msg);
  }
  /* v3: an unknown syscall key is a deployment error (LocalVerifier),
   * and at execution time UnsupportedInstruction when it is reached */
  {
    uint8_t t3[16];
    ins bad[] = { I(0x85, 0, 0, 0, 12345), EXIT, { 0 } };
    size_t n3 = encode(bad, t3);
    scp_sbpf_loader_opts o;
    scp_sbpf_loader_opts_default(&o);
    o.reject_broken_elfs = true;
    scp_sbpf_loader *strict;
    assert_int_equal(scp_sbpf_loader_create(&o, &strict), SCP_OK);
    scp_sbpf_prog *p3;
    scp_error e3;
    assert_int_equal(sbpf_load_text(strict, t3, n3, V3, &p3, &e3), SCP_ERR_INVALID);
    assert_string_equal(e3.msg, "Verifier error: Invalid syscall code 12345 (InvalidSyscall)");
    scp_sbpf_loader_destroy(strict);
    assert_int_equal(sbpf_load_text(l, t3, n3, V3, &p3, &e3), SCP_OK);
    uint64_t meter = 10, r0;
    scp_sbpf_vm_config cfg = { .meter = &meter };
    scp_sbpf_vm *vm;
    assert_int_equal(scp_sbpf_vm_create(p3, &cfg, &vm, &e3), SCP_OK);
    assert_int_equal(scp_sbpf_vm_run(vm, &r0, &e3), SCP_ERR_TRAP);
    assert_int_equal(scp_sbpf_vm_trap(vm), SCP_SBPF_TRAP_UNSUPPORTED_INSTRUCTION);
    scp_sbpf_vm_destroy(vm);
    scp_sbpf_prog_free(p3);
  }
  /* v1/v2 may bump r10 by a multiple of 64 */
  uint8_t text[16];
  ins ok[] = { I(0x07, 10, 0, 0, -64), EXIT, { 0 } };
  size_t len = encode(ok, text);
  scp_sbpf_prog *p;
  assert_int_equal(sbpf_load_text(l, text, len, V1, &p, NULL), SCP_OK);
  scp_sbpf_prog_free(p);
  scp_sbpf_loader_destroy(l);
}

/* ---- syscalls and the meter flush -------------------------------------- */

typedef struct seen {
  uint64_t args[5], remaining_at_entry;
  uint32_t pc, depth;
  int calls;
} seen;

static int log64(void *ctx, scp_sbpf_vm *vm, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  seen *s = ctx;
  memcpy(s->args, a, sizeof s->args);
  s->remaining_at_entry = scp_sbpf_vm_remaining(vm);
  s->pc = scp_sbpf_vm_pc(vm);
  s->depth = scp_sbpf_vm_depth(vm);
  s->calls++;
  *r0 = 99;
  return scp_sbpf_vm_consume(vm, 100) ? scp_fail(err, SCP_ERR_BUDGET, "Computational budget exceeded")
                                      : SCP_OK;
}

static int peek(void *ctx, scp_sbpf_vm *vm, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  uint8_t *h;
  int rc = scp_sbpf_vm_translate(vm, a[0], a[1], a[2] != 0, &h, err);
  if (rc) return rc;
  *r0 = a[1] ? h[0] : 0;
  return SCP_OK;
}

static void test_syscalls(void **state) {
  (void)state;
  scp_sbpf_loader *l;
  seen s = { 0 };
  assert_int_equal(scp_sbpf_loader_create(NULL, &l), SCP_OK);
  assert_int_equal(scp_sbpf_loader_register(l, "sol_log_64_", log64, &s, NULL), SCP_OK);
  assert_int_equal(scp_sbpf_loader_register(l, "peek", peek, NULL, NULL), SCP_OK);
  scp_error err;
  assert_int_equal(scp_sbpf_loader_register(l, "sol_log_64_", log64, &s, &err), SCP_ERR_INVALID);
  uint32_t key = scp_sbpf_hash("sol_log_64_", 11);
  assert_int_equal(key, 0x5c2a3178);
  assert_int_equal(scp_sbpf_hash("sol_log_", 8), 0x207559bd);
  assert_int_equal(scp_sbpf_hash("entrypoint", 10), 0x71e3cf81);
  /* 3 movs, the call (4 instructions flushed before the body: the meter
   * shows 1000 - 4 at entry), 100 for the body, mov + exit: 106 */
  ins code[] = { MOV(1, 1), MOV(2, 2), MOV(5, 5), I(0x85, 0, 0, 0, (int32_t)key), MOVR(0, 0), EXIT, { 0 } };
  uint8_t text[64];
  size_t len = encode(code, text);
  for (int v = 0; v <= 3; v += 3) {
    scp_sbpf_prog *p;
    memset(&s, 0, sizeof s);
    assert_int_equal(sbpf_load_text(l, text, len, (scp_sbpf_version)v, &p, &err), SCP_OK);
    assert_int_equal(scp_sbpf_prog_nsyscalls(p), 1);
    assert_string_equal(scp_sbpf_prog_syscall(p, 0)->name, "sol_log_64_");
    uint64_t meter = 1000, r0;
    scp_sbpf_vm_config cfg = { .meter = &meter };
    scp_sbpf_vm *vm;
    assert_int_equal(scp_sbpf_vm_create(p, &cfg, &vm, &err), SCP_OK);
    assert_int_equal(scp_sbpf_vm_run(vm, &r0, &err), SCP_OK);
    assert_int_equal(r0, 99);
    assert_int_equal(s.calls, 1);
    assert_int_equal(s.remaining_at_entry, 996);
    assert_int_equal(s.pc, 3);
    assert_int_equal(s.args[0], 1);
    assert_int_equal(s.args[4], 5);
    assert_int_equal(meter, 1000 - 106);
    assert_int_equal(scp_sbpf_vm_insns(vm), 6);
    scp_sbpf_vm_destroy(vm);
    /* the body's charge exhausting the meter is the syscall's error */
    meter = 50;
    assert_int_equal(scp_sbpf_vm_create(p, &cfg, &vm, &err), SCP_OK);
    assert_int_equal(scp_sbpf_vm_run(vm, &r0, &err), SCP_ERR_TRAP);
    assert_int_equal(scp_sbpf_vm_trap(vm), SCP_SBPF_TRAP_SYSCALL);
    assert_int_equal(scp_sbpf_vm_syscall_status(vm), SCP_ERR_BUDGET);
    assert_string_equal(err.msg, "Computational budget exceeded");
    assert_int_equal(meter, 0);
    scp_sbpf_vm_destroy(vm);
    scp_sbpf_prog_free(p);
  }
  /* translate from a syscall: a bad range is the VM's access violation */
  uint32_t pk = scp_sbpf_hash("peek", 4);
  ins code2[] = { LDDW(1, 0x300000000ull + 0x7fff), MOV(2, 2), I(0x85, 0, 0, 0, (int32_t)pk), EXIT, { 0 } };
  len = encode(code2, text);
  scp_sbpf_prog *p;
  assert_int_equal(sbpf_load_text(l, text, len, V0, &p, &err), SCP_OK);
  uint64_t meter = 100, r0;
  scp_sbpf_vm_config cfg = { .meter = &meter };
  scp_sbpf_vm *vm;
  assert_int_equal(scp_sbpf_vm_create(p, &cfg, &vm, &err), SCP_OK);
  assert_int_equal(scp_sbpf_vm_run(vm, &r0, &err), SCP_ERR_TRAP);
  assert_string_equal(err.msg, "Access violation reading 2 bytes at address 0x300007fff (in heap region)");
  assert_int_equal(meter, 97);
  scp_sbpf_vm_destroy(vm);
  scp_sbpf_prog_free(p);
  scp_sbpf_loader_destroy(l);
}

/* ---- profiling: block counters settle into exact per-pc CU ------------- */

static void test_profile(void **state) {
  (void)state;
  scp_sbpf_loader *l;
  assert_int_equal(scp_sbpf_loader_create(NULL, &l), SCP_OK);
  /* main: mov r1,3; call f; exit.  f: loop r1 times (add, sub, jne); exit */
  ins code[] = { MOV(1, 3), I(0x85, 0, 0, 0, 1), EXIT, MOV(0, 0), I(0x0f, 0, 1, 0, 0), I(0x17, 1, 0, 0, 1),
                 I(0x55, 1, 0, -3, 0), EXIT, { 0 } };
  uint8_t text[80];
  size_t len = encode(code, text);
  for (uint64_t limit = 10; limit <= 100; limit += 90) {
    scp_sbpf_prog *p;
    scp_error err;
    assert_int_equal(sbpf_load_text(l, text, len, V0, &p, &err), SCP_OK);
    scp_tree t;
    assert_int_equal(scp_tree_init(&t, 1), SCP_OK);
    uint64_t meter = limit, r0;
    scp_sbpf_vm_config cfg = { .meter = &meter, .tree = &t, .node = 0, .module = 7 };
    scp_sbpf_vm *vm;
    assert_int_equal(scp_sbpf_vm_create(p, &cfg, &vm, &err), SCP_OK);
    int rc = scp_sbpf_vm_run(vm, &r0, &err);
    /* 2 + (1 + 3*3 + 1) + 1 = 14 instructions */
    if (limit == 100) {
      assert_int_equal(rc, SCP_OK);
      assert_int_equal(limit - meter, 14);
    } else {
      assert_int_equal(rc, SCP_ERR_TRAP);
      assert_int_equal(meter, 0);
    }
    /* Σ self == consumed, per node and per pc */
    assert_int_equal(scp_tree_total(&t, 0), limit - meter);
    uint64_t sum_pcs = 0;
    for (size_t i = 0; i < t.n; i++)
      for (uint32_t k = 0; k < t.nodes[i].npcs; k++) sum_pcs += t.nodes[i].pcs[k].cost0;
    assert_int_equal(sum_pcs, limit - meter);
    /* root -> entry (pc 0) -> f (pc 3, called at byte 8) */
    assert_int_equal(t.n, 3);
    assert_int_equal(t.nodes[1].callee, 0);
    assert_int_equal(t.nodes[2].callee, 3);
    assert_int_equal(t.nodes[2].callsite, 8);
    assert_int_equal(t.nodes[1].self[0], limit == 100 ? 3 : 2);
    scp_sbpf_vm_destroy(vm);
    scp_tree_free(&t);
    scp_sbpf_prog_free(p);
  }
  scp_sbpf_loader_destroy(l);
}

/* The same call from the same node reuses the callee's counters; from
 * another node (f entered from two call sites) it must not, nor after a
 * callx from the same node filled the callee's frame.  main: call f; call
 * f; mov r0,0; exit.  f (4): r6 = 3; loop 3 times over calls of g (10) and
 * h (11); exit.  Every f node (calls 1) gets its own g and h nodes, each
 * called 3 times with 3 CU of self, in both dispatch modes. */
typedef struct calls_case {
  ins code[14];
  uint64_t cu, fself;
  uint32_t g_site, h_site;     /* call pcs in f; 0: not called */
} calls_case;

static const calls_case calls_cases[] = {
  /* call g */
  { { I(0x85, 0, 0, 0, 3), I(0x85, 0, 0, 0, 2), MOV(0, 0), EXIT, MOV(6, 3), I(0x85, 0, 0, 0, 3),
      I(0x17, 6, 0, 0, 1), I(0x55, 6, 0, -3, 0), EXIT, EXIT, EXIT }, 32, 11, 5, 0 },
  /* callx g */
  { { I(0x85, 0, 0, 0, 3), I(0x85, 0, 0, 0, 2), MOV(0, 0), EXIT, MOV(6, 3), I(0x8d, 0, 0, 0, 2),
      I(0x17, 6, 0, 0, 1), I(0x55, 6, 0, -3, 0), EXIT, EXIT, EXIT }, 32, 11, 5, 0 },
  /* call h, callx g: each fills the frame above the other used */
  { { I(0x85, 0, 0, 0, 3), I(0x85, 0, 0, 0, 2), MOV(0, 0), EXIT, MOV(6, 3), I(0x85, 0, 0, 0, 5),
      I(0x8d, 0, 0, 0, 2), I(0x17, 6, 0, 0, 1), I(0x55, 6, 0, -4, 0), EXIT, EXIT, EXIT }, 44, 14, 6, 5 },
};

static void test_profile_calls(void **state) {
  (void)state;
  scp_sbpf_loader *l;
  assert_int_equal(scp_sbpf_loader_create(NULL, &l), SCP_OK);
  for (size_t c = 0; c < SCP_ARRAY_LEN(calls_cases); c++)
    for (int sw = 0; sw < 2; sw++) {
      const calls_case *k = &calls_cases[c];
      scp_sbpf_prog *p = load_ins(l, k->code, V0);
      scp_tree t;
      assert_int_equal(scp_tree_init(&t, 1), SCP_OK);
      uint64_t meter = 100, r0;
      scp_sbpf_vm_config cfg = { .meter = &meter, .tree = &t, .node = 0, .module = 7 };
      scp_sbpf_vm *vm;
      scp_error err = { 0 };
      assert_int_equal(scp_sbpf_vm_create(p, &cfg, &vm, &err), SCP_OK);
      scp_sbpf_vm_set_switch_dispatch(vm, sw);
      uint32_t g = k->h_site ? 10 : 9, h = 11;
      scp_sbpf_vm_set_reg(vm, 2, 0x100000000ull + 8ull * g);
      assert_int_equal(scp_sbpf_vm_run(vm, &r0, &err), SCP_OK);
      assert_int_equal(100 - meter, k->cu);
      assert_int_equal(scp_tree_total(&t, 0), k->cu);
      uint32_t fs[2], nf = 0, parents[4], np = 0;
      for (uint32_t i = 0; i < t.n; i++) {
        const scp_tree_node *n = &t.nodes[i];
        if (n->kind != SCP_KIND_GUEST) continue;
        if (n->callee == 4) {
          assert_true(nf < 2);
          assert_int_equal(n->calls, 1);
          assert_int_equal(n->self[0], k->fself);
          fs[nf++] = i;
        } else if (n->callee == g || (k->h_site && n->callee == h)) {
          assert_true(np < 4);
          assert_int_equal(n->calls, 3);
          assert_int_equal(n->self[0], 3);
          assert_int_equal(n->callsite, 8ull * (n->callee == g ? k->g_site : k->h_site));
          parents[np++] = n->parent;
        }
      }
      assert_int_equal(nf, 2);
      assert_int_equal(np, k->h_site ? 4 : 2);
      /* as many callees under each f */
      uint32_t under0 = 0;
      for (uint32_t i = 0; i < np; i++) {
        assert_true(parents[i] == fs[0] || parents[i] == fs[1]);
        under0 += parents[i] == fs[0];
      }
      assert_int_equal(under0, np / 2);
      scp_sbpf_vm_destroy(vm);
      scp_tree_free(&t);
      scp_sbpf_prog_free(p);
    }
  scp_sbpf_loader_destroy(l);
}

/* ---- boundary hooks ------------------------------------------------------ */

typedef struct hook_log { char ev[32][48]; int n; } hook_log;

static void h_call(void *c, scp_sbpf_vm *vm, uint32_t site, uint32_t target, uint32_t node) {
  hook_log *h = c;
  (void)node;
  snprintf(h->ev[h->n++], 48, "call %u->%u d%u", site, target, scp_sbpf_vm_depth(vm));
}
static void h_ret(void *c, scp_sbpf_vm *vm, uint32_t ret_pc, uint32_t node) {
  hook_log *h = c;
  (void)node;
  snprintf(h->ev[h->n++], 48, "ret %u d%u", ret_pc, scp_sbpf_vm_depth(vm));
}
static void h_enter(void *c, scp_sbpf_vm *vm, uint32_t key, uint32_t pc, uint32_t node) {
  hook_log *h = c;
  (void)node;
  snprintf(h->ev[h->n++], 48, "sys %s at %u left %llu", key == scp_sbpf_hash("sol_log_64_", 11) ? "log64" : "?",
           pc, (unsigned long long)scp_sbpf_vm_remaining(vm));
}
static void h_exit(void *c, scp_sbpf_vm *vm, uint32_t key, uint32_t pc, int status) {
  hook_log *h = c;
  (void)key;
  snprintf(h->ev[h->n++], 48, "sysret %u %d left %llu", pc, status, (unsigned long long)scp_sbpf_vm_remaining(vm));
}
static void h_trap(void *c, scp_sbpf_vm *vm, scp_sbpf_trap t, uint32_t pc) {
  hook_log *h = c;
  (void)vm;
  snprintf(h->ev[h->n++], 48, "trap %s at %u", scp_sbpf_trap_name(t), pc);
}

static void test_hooks(void **state) {
  (void)state;
  scp_sbpf_loader *l;
  seen s = { 0 };
  assert_int_equal(scp_sbpf_loader_create(NULL, &l), SCP_OK);
  assert_int_equal(scp_sbpf_loader_register(l, "sol_log_64_", log64, &s, NULL), SCP_OK);
  uint32_t key = scp_sbpf_hash("sol_log_64_", 11);
  /* 0 call f; 1 mov r1,0; 2 div r1,r1 (traps); 3 exit; f: 4 syscall; 5 exit */
  ins code[] = { I(0x85, 0, 0, 0, 3), MOV(1, 0), I(0x3f, 1, 1, 0, 0), EXIT,
                 I(0x85, 0, 0, 0, (int32_t)key), EXIT, { 0 } };
  uint8_t text[64];
  size_t len = encode(code, text);
  scp_sbpf_prog *p;
  scp_error err;
  assert_int_equal(sbpf_load_text(l, text, len, V0, &p, &err), SCP_OK);
  hook_log h = { .n = 0 };
  scp_sbpf_hooks hooks = { h_call, h_ret, h_enter, h_exit, h_trap };
  uint64_t meter = 1000, r0;
  scp_sbpf_vm_config cfg = { .meter = &meter, .hooks = &hooks, .hooks_ctx = &h };
  scp_sbpf_vm *vm;
  assert_int_equal(scp_sbpf_vm_create(p, &cfg, &vm, &err), SCP_OK);
  assert_int_equal(scp_sbpf_vm_run(vm, &r0, &err), SCP_ERR_TRAP);
  const char *want[] = { "call 0->4 d1", "sys log64 at 4 left 998", "sysret 4 0 left 898", "ret 1 d0",
                         "trap DivideByZero at 2" };
  assert_int_equal(h.n, 5);
  for (int i = 0; i < 5; i++) assert_string_equal(h.ev[i], want[i]);
  assert_int_equal(meter, 1000 - 100 - 5);   /* call, syscall, exit, mov, div */
  assert_int_equal(scp_sbpf_vm_trap_pc(vm), 2);
  scp_sbpf_vm_destroy(vm);
  scp_sbpf_prog_free(p);
  scp_sbpf_loader_destroy(l);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cases),
    cmocka_unit_test(test_pool),
    cmocka_unit_test(test_jumps),
    cmocka_unit_test(test_fused_rerun),
    cmocka_unit_test(test_meter_stop_add_jump),
    cmocka_unit_test(test_verifier),
    cmocka_unit_test(test_syscalls),
    cmocka_unit_test(test_profile),
    cmocka_unit_test(test_profile_calls),
    cmocka_unit_test(test_hooks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
