/*
 * wasm_iops.h — the interpreter's internal operation set.  Numeric, load
 * and store operations come from wasm_ops.def; the rest are control and
 * variable operations of the internal form (immediates in scp_ins a/b).
 */
#ifndef SCP_WASM_IOPS_H
#define SCP_WASM_IOPS_H

#define SCP_IOPS_CONTROL(X)                                                  \
  X(UNREACHABLE)    /* trap */                                               \
  X(FUEL)           /* a = region, b = static fuel of the region */          \
  X(BR)             /* a = target ip */                                      \
  X(BR_ADJ)         /* a = target, b = drop | keep << 32 */                  \
  X(BR_IF)          /* a = target; pops i32 */                               \
  X(BR_IF_ADJ)      /* a = target, b = drop | keep << 32 */                  \
  X(BR_UNLESS)      /* a = target (else/end of an if) */                     \
  X(BR_TABLE)       /* a = n; n+1 entries follow: a = target or RET, b = dk*/\
  X(RETURN)         /* return from the frame */                              \
  X(RETURN_IF)      /* br_if to the function body */                         \
  X(CALL)           /* a = function index (defined), b = wasm pc */          \
  X(CALL_IMPORT)    /* a = import function index, b = wasm pc */             \
  X(CALL_INDIRECT)  /* a = type index, b = wasm pc */                        \
  X(DROP)                                                                    \
  X(SELECT)                                                                  \
  X(LOCAL_GET)      /* a = local */                                          \
  X(LOCAL_SET)                                                               \
  X(LOCAL_TEE)                                                               \
  X(GLOBAL_GET)     /* a = global */                                         \
  X(GLOBAL_SET)                                                              \
  X(CONST)          /* b = value */                                          \
  X(MEMORY_SIZE)                                                             \
  X(MEMORY_GROW)    /* b = wasm pc */                                        \
  X(MEMORY_FILL)    /* b = wasm pc */                                        \
  X(MEMORY_COPY)    /* b = wasm pc */                                        \
  X(MEMORY_INIT)    /* a = data segment, b = wasm pc */                      \
  X(DATA_DROP)      /* a = data segment */                                   \
  X(TABLE_INIT)     /* a = elem segment, b = wasm pc */                      \
  X(TABLE_COPY)     /* b = wasm pc */                                        \
  X(ELEM_DROP)      /* a = elem segment */                                   \
  X(LOCAL_COPY)     /* local.get b; local.set a */                          \
  X(TAKEN)          /* counters[a]++, go to b: a taken conditional branch */\
  X(BR_IF_L)        /* local.get b; br_if a */                              \
  X(LOCAL_SET_C)    /* const b; local.set a */                              \
  X(I32_SHL_ADD)    /* (local a << (uint32_t)b) + (b >> 32): an index scaled */\
  X(SELECT_S)       /* select; local.set a */                              \
  X(TAKEN_FUEL)     /* TAKEN whose target b is a FUEL: runs it too */

enum scp_iop {
#define X(n) IOP_##n,
  SCP_IOPS_CONTROL(X)
#undef X
#define UN(n, b, i, o, e) IOP_##n,
/* Each binary operator has fused forms, consecutive after it (the
 * compiler adds a BIN_* offset): an operand from a constant or locals,
 * a br_if folded in, a local.set folded in (_S: the result goes to a
 * local instead of the stack) or a local.tee (_T: to a local and the
 * stack), or a local compared with a constant or a local and a br_if
 * (_LC_BRIF, _LL_BRIF). */
#define BIN(n, b, i, o, e) IOP_##n, IOP_##n##_C, IOP_##n##_LC, IOP_##n##_LL, \
                           IOP_##n##_BRIF, IOP_##n##_C_BRIF,                \
                           IOP_##n##_S, IOP_##n##_C_S, IOP_##n##_LC_S, IOP_##n##_LL_S, \
                           IOP_##n##_C_T, IOP_##n##_LC_T,                   \
                           IOP_##n##_LC_BRIF, IOP_##n##_LL_BRIF,
#define TRAP_BIN(n, b, i, o) IOP_##n,
/* Each load has a form whose address is a local (_L: a = offset,
 * b = local), one that first tees its address into local b (_T), one at
 * offset 0 whose address is an array element's (_X: a = local, b as
 * I32_SHL_ADD's), and _L and _T with a local.set folded in (_LS, _TS:
 * the local in the low half of b, the loaded value to local b >> 32). */
#define LOAD(n, b, o, s, e) IOP_##n, IOP_##n##_L, IOP_##n##_T, IOP_##n##_X, \
                            IOP_##n##_LS, IOP_##n##_TS,
/* Each store has a form whose value is a local (_L: a = offset, b =
 * local) and one whose address is a local too (_LL: b = address local |
 * value local << 32). */
#define STORE(n, b, i, s) IOP_##n, IOP_##n##_L, IOP_##n##_LL,
#include "wasm/wasm_ops.def"
  IOP_COUNT
};

enum {
  BIN_C = 1,       /* a op const: b = const */
  BIN_LC = 2,      /* local a op const b; pushes */
  BIN_LL = 3,      /* local a op local b; pushes */
  BIN_BRIF = 4,    /* pops 2, branches to a when the result is non-zero */
  BIN_C_BRIF = 5,  /* pops 1, b = const, branches to a */
  BIN_S = 6,       /* pops 2, result to local a */
  BIN_C_S = 7,     /* pops 1 op const b, result to local a */
  BIN_LC_S = 8,    /* local a op const (low 32 bits of b, sign-extended);
                      result to local b >> 32 */
  BIN_LL_S = 9,    /* local a op local (uint32_t)b; result to local b >> 32 */
  BIN_C_T = 10,    /* as _C_S, and the result stays on the stack */
  BIN_LC_T = 11,   /* as _LC_S, and the result is pushed */
  BIN_LC_BRIF = 12, /* local (uint32_t)b op const (b >> 32, sign-extended);
                       branches to a when the result is non-zero */
  BIN_LL_BRIF = 13, /* local (uint32_t)b op local b >> 32; branches to a */
  LOAD_L = 1,
  LOAD_T = 2,
  LOAD_X = 3,
  LOAD_LS = 4,
  LOAD_TS = 5,
  STORE_L = 1,
  STORE_LL = 2
};

#define SCP_BR_RETURN UINT32_MAX   /* br_table entry that returns */

#endif
