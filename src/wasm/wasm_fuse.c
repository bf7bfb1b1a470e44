/*
 * wasm_fuse.c — superinstructions: folding an operator into the internal
 * instruction emitted just before it (a local.set, a local.tee or a
 * br_if), on the instruction alone.  The compiler decides whether a
 * branch can land between the two (wasm_compile.c, can_fuse) and keeps
 * each operator's fuel at its own pc.
 */
#include "wasm/wasm_fuse.h"
#include "wasm/wasm_iops.h"

static const bool is_bin[IOP_COUNT] = {
#define BIN(n, b, i, o, e) [IOP_##n] = true,
#include "wasm/wasm_ops.def"
};
static const bool is_bin_c[IOP_COUNT] = {
#define BIN(n, b, i, o, e) [IOP_##n##_C] = true,
#include "wasm/wasm_ops.def"
};

static const bool is_bin_lc[IOP_COUNT] = {
#define BIN(n, b, i, o, e) [IOP_##n##_LC] = true,
#include "wasm/wasm_ops.def"
};
static const bool is_bin_ll[IOP_COUNT] = {
#define BIN(n, b, i, o, e) [IOP_##n##_LL] = true,
#include "wasm/wasm_ops.def"
};
static const bool is_load_l[IOP_COUNT] = {
#define LOAD(n, b, o, s, e) [IOP_##n##_L] = true,
#include "wasm/wasm_ops.def"
};
static const bool is_load_t[IOP_COUNT] = {
#define LOAD(n, b, o, s, e) [IOP_##n##_T] = true,
#include "wasm/wasm_ops.def"
};
static const bool is_bin_i64[IOP_COUNT] = {
#define BIN(n, b, i, o, e) [IOP_##n##_LC] = SCP_WASM_##i == SCP_WASM_I64,
#include "wasm/wasm_ops.def"
};

/* A _LC form's constant kept in the low 32 bits of b (the destination
 * local takes the high half): an i64 constant that does not survive sign
 * extension from 32 bits cannot be. */
static bool lc_fits(const scp_ins *k) {
  return !is_bin_i64[k->op] || (uint64_t)(int64_t)(int32_t)(uint32_t)k->b == k->b;
}

/* The instruction's result goes to local idx instead of the stack. */
bool wasm_fuse_set(scp_ins *k, uint32_t idx) {
  uint32_t op = k->op;
  if (is_bin[op]) { k->op = op + BIN_S; k->a = idx; return true; }
  if (is_bin_c[op]) { k->op = op - BIN_C + BIN_C_S; k->a = idx; return true; }
  if (is_bin_ll[op]) {
    k->op = op - BIN_LL + BIN_LL_S;
    k->b = (uint32_t)k->b | (uint64_t)idx << 32;
    return true;
  }
  if (is_bin_lc[op] && lc_fits(k)) {
    k->op = op - BIN_LC + BIN_LC_S;
    k->b = (uint32_t)k->b | (uint64_t)idx << 32;
    return true;
  }
  if (op == IOP_CONST) { *k = (scp_ins){.op = IOP_LOCAL_SET_C, .a = idx, .b = k->b}; return true; }
  if (op == IOP_SELECT) { *k = (scp_ins){.op = IOP_SELECT_S, .a = idx, .b = 0}; return true; }
  /* a trap of the load still names the load's pc (pc_of) and does not
   * count a run of the local.set (settle's stopped_before) */
  if (is_load_l[op] || is_load_t[op]) {
    k->op = op + (is_load_l[op] ? LOAD_LS - LOAD_L : LOAD_TS - LOAD_T);
    k->b = (uint32_t)k->b | (uint64_t)idx << 32;
    return true;
  }
  return false;
}

bool wasm_fuse_tee(scp_ins *k, uint32_t idx) {
  if (is_bin_c[k->op]) {
    k->op += BIN_C_T - BIN_C;
    k->a = idx;
    return true;
  }
  if (is_bin_lc[k->op] && lc_fits(k)) {
    k->op += BIN_LC_T - BIN_LC;
    k->b = (uint32_t)k->b | (uint64_t)idx << 32;
    return true;
  }
  return false;
}

bool wasm_fuse_br_if(scp_ins *k, uint32_t target) {
  uint32_t op = k->op;
  if (is_bin[op]) { k->op += BIN_BRIF; k->a = target; return true; }
  if (is_bin_c[op]) { k->op += BIN_C_BRIF - BIN_C; k->a = target; return true; }
  if (op == IOP_I32_EQZ) { *k = (scp_ins){.op = IOP_BR_UNLESS, .a = target, .b = 0}; return true; }
  /* the condition's operands both from locals, or a local and a constant */
  if ((is_bin_lc[op] && lc_fits(k)) || is_bin_ll[op]) {
    uint32_t form = is_bin_ll[op] ? op - BIN_LL + BIN_LL_BRIF : op - BIN_LC + BIN_LC_BRIF;
    *k = (scp_ins){.op = form, .a = target, .b = k->a | (uint64_t)(uint32_t)k->b << 32};
    return true;
  }
  if (op == IOP_LOCAL_GET) { *k = (scp_ins){.op = IOP_BR_IF_L, .a = target, .b = k->a}; return true; }
  return false;
}
