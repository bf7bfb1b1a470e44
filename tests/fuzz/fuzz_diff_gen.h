/*
 * fuzz_diff_gen.h — turns fuzzer bytes into a valid WASM module inside
 * Soroban's feature set (integer MVP, mutable globals, sign-extension,
 * bulk memory; one memory, one table; no floats, no multi-value), for the
 * differential target (fuzz_diff.h).  Every byte is a choice; when the
 * input runs out every choice is the simplest one, so any input gives a
 * module.
 *
 * Termination is built in rather than left to fuel, because the reference
 * interpreter has none: calls go only to lower-numbered functions, the
 * table holds only leaf functions (which call nothing), every loop runs a
 * dedicated counter down from at most 5 and no branch targets a loop
 * label, and a non-leaf call never sits inside a loop.
 *
 * Layout: functions 0..n-1 generated (0..nleaf-1 leaves), function n-1
 * exported "a" (no parameters), then "b": a checksum of the first 512
 * bytes of memory, memory.size and every global, so stores and global
 * writes are compared too even when "a" traps.
 */
#ifndef SCP_FUZZ_DIFF_GEN_H
#define SCP_FUZZ_DIFF_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { DG_I32 = 0x7f, DG_I64 = 0x7e, DG_VOID = 0x40, DG_LOOP = 0xff };
enum { DG_MAXF = 6, DG_MAXP = 3, DG_MAXL = 5, DG_NCOUNT = 3, DG_MAXG = 4,
       DG_MAXLAB = 48, DG_MAXDEPTH = 6, DG_CAP = 1 << 16 };

typedef struct dg_out {
  uint8_t *b;
  size_t n;
  bool full;
} dg_out;

typedef struct dg {
  const uint8_t *in;
  size_t nin, pos;
  dg_out *o;
  int nfunc, nleaf, ntable;
  uint8_t np[DG_MAXF + 1], params[DG_MAXF + 1][DG_MAXP], res[DG_MAXF + 1];
  int nglob;
  uint8_t gtype[DG_MAXG];
  bool gmut[DG_MAXG];
  /* the function being generated */
  int cur, nloc, counter0, loops, depth, budget;
  uint8_t ltype[DG_MAXP + DG_MAXL + DG_NCOUNT];
  uint8_t lab[DG_MAXLAB];
  int nlab;
} dg;

static unsigned dg_take(dg *g, unsigned range) {
  if (range <= 1 || g->pos >= g->nin) return 0;
  return g->in[g->pos++] % range;
}

static uint64_t dg_bits(dg *g, unsigned nbytes) {
  uint64_t v = 0;
  for (unsigned i = 0; i < nbytes; i++) v = v << 8 | dg_take(g, 256);
  return v;
}

static void dg_byte(dg *g, uint8_t v) {
  if (g->o->n < DG_CAP) g->o->b[g->o->n++] = v;
  else g->o->full = true;
}

static void dg_uleb(dg *g, uint64_t v) {
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    dg_byte(g, b | (v ? 0x80 : 0));
  } while (v);
}

static void dg_sleb(dg *g, int64_t v) {
  for (;;) {
    uint8_t b = v & 0x7f;
    v >>= 7;   /* arithmetic: gnu11 */
    bool done = (v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40));
    dg_byte(g, b | (done ? 0 : 0x80));
    if (done) return;
  }
}

static void dg_op(dg *g, uint8_t op) {
  dg_byte(g, op);
  g->budget--;
}

static void dg_expr(dg *g, uint8_t t);
static void dg_stmts(dg *g, int max);

static uint8_t dg_type(dg *g) { return dg_take(g, 2) ? DG_I64 : DG_I32; }

static void dg_const(dg *g, uint8_t t) {
  static const int64_t special[] = {0, 1, -1, 2, 7, 31, 32, 63, 64, 255, 256, 65535, 65536,
                                    0x7fffffff, INT32_MIN, INT64_MAX, INT64_MIN, 0x80000000LL,
                                    0xffffffffLL, 65532, 65528, 65529};
  unsigned k = dg_take(g, 4);
  int64_t v;
  if (k == 0) v = (int64_t)dg_bits(g, t == DG_I32 ? 4 : 8);
  else if (k == 1) v = (int64_t)dg_take(g, 256) - 128;
  else v = special[dg_take(g, sizeof special / sizeof *special)];
  if (t == DG_I32) {
    dg_op(g, 0x41);
    dg_sleb(g, (int32_t)(uint32_t)v);
  } else {
    dg_op(g, 0x42);
    dg_sleb(g, v);
  }
}

/* A local of type t (any local when !writable, else not a loop counter);
 * -1 when there is none. */
static int dg_local(dg *g, uint8_t t, bool writable) {
  int n = writable ? g->counter0 : g->nloc, idx[DG_MAXP + DG_MAXL + DG_NCOUNT], k = 0;
  for (int i = 0; i < n; i++)
    if (g->ltype[i] == t) idx[k++] = i;
  return k ? idx[dg_take(g, k)] : -1;
}

static int dg_global(dg *g, uint8_t t, bool writable) {
  int idx[DG_MAXG], k = 0;
  for (int i = 0; i < g->nglob; i++)
    if (g->gtype[i] == t && (!writable || g->gmut[i])) idx[k++] = i;
  return k ? idx[dg_take(g, k)] : -1;
}

/* An address: mostly inside the first page, sometimes anything. */
static void dg_addr(dg *g) {
  unsigned k = dg_take(g, 32);
  if (k < 10) {
    dg_op(g, 0x41);
    dg_sleb(g, (int32_t)(k < 4 ? dg_take(g, 64) * 8 : k < 9 ? dg_take(g, 256) : 65536 - dg_take(g, 16)));
  } else if (k < 31) {
    dg_expr(g, DG_I32);
    dg_op(g, 0x41);
    dg_sleb(g, k == 30 ? 0xffff : 0x1ff);
    dg_op(g, 0x71);   /* i32.and */
  } else {
    dg_expr(g, DG_I32);
  }
}

static void dg_memarg(dg *g, unsigned maxalign) {
  dg_uleb(g, dg_take(g, maxalign + 1));
  unsigned k = dg_take(g, 32);
  dg_uleb(g, k < 24 ? 0 : k < 31 ? dg_take(g, 64) : 0xfffffff0u + dg_take(g, 16));
}

static void dg_load(dg *g, uint8_t t) {
  /* opcode, log2 width */
  static const uint8_t l32[][2] = {{0x28, 2}, {0x2c, 0}, {0x2d, 0}, {0x2e, 1}, {0x2f, 1}};
  static const uint8_t l64[][2] = {{0x29, 3}, {0x30, 0}, {0x31, 0}, {0x32, 1},
                                   {0x33, 1}, {0x34, 2}, {0x35, 2}};
  const uint8_t *op = t == DG_I32 ? l32[dg_take(g, 5)] : l64[dg_take(g, 7)];
  dg_addr(g);
  dg_op(g, op[0]);
  dg_memarg(g, op[1]);
}

static void dg_store(dg *g) {
  static const uint8_t s[][3] = {{0x36, DG_I32, 2}, {0x37, DG_I64, 3}, {0x3a, DG_I32, 0},
                                 {0x3b, DG_I32, 1}, {0x3c, DG_I64, 0}, {0x3d, DG_I64, 1},
                                 {0x3e, DG_I64, 2}};
  const uint8_t *op = s[dg_take(g, 7)];
  dg_addr(g);
  dg_expr(g, op[1]);
  dg_op(g, op[0]);
  dg_memarg(g, op[2]);
}

static void dg_args(dg *g, int f) {
  for (int i = 0; i < g->np[f]; i++) dg_expr(g, g->params[f][i]);
}

/* A function below the current one with result r (DG_VOID: any); -1 when
 * the current function is a leaf or none fits. */
static int dg_callee(dg *g, uint8_t r) {
  if (g->cur < g->nleaf) return -1;
  int idx[DG_MAXF], k = 0;
  for (int f = 0; f < g->cur; f++)
    if (r == DG_VOID || g->res[f] == r) idx[k++] = f;
  if (g->loops) {   /* inside a loop only leaves: bounded work */
    k = 0;
    for (int f = 0; f < g->nleaf; f++)
      if (r == DG_VOID || g->res[f] == r) idx[k++] = f;
  }
  return k ? idx[dg_take(g, k)] : -1;
}

/* call_indirect through a type whose result is r (any function's type). */
static bool dg_call_indirect(dg *g, uint8_t r) {
  if (!g->ntable || g->cur < g->nleaf) return false;
  int idx[DG_MAXF], k = 0;
  for (int f = 0; f < g->nfunc; f++)
    if (g->res[f] == r) idx[k++] = f;
  if (!k) return false;
  int ty = idx[dg_take(g, k)];
  dg_args(g, ty);
  if (dg_take(g, 4)) {
    dg_op(g, 0x41);
    dg_sleb(g, dg_take(g, g->ntable + 2));
  } else {
    dg_expr(g, DG_I32);
  }
  dg_op(g, 0x11);
  dg_uleb(g, ty);
  dg_byte(g, 0);
  return true;
}

/* A label a branch may take (not a loop); -1 when none. */
static int dg_label(dg *g) {
  int idx[DG_MAXLAB], k = 0;
  for (int i = 0; i < g->nlab; i++)
    if (g->lab[i] != DG_LOOP) idx[k++] = i;
  return k ? idx[dg_take(g, k)] : -1;
}

static void dg_push(dg *g, uint8_t kind) { if (g->nlab < DG_MAXLAB) g->lab[g->nlab++] = kind; }

/* Leave the current path: br / br_table / return / unreachable.  After it
 * the stack is polymorphic, so the code around stays valid. */
static void dg_escape(dg *g) {
  unsigned k = dg_take(g, 4);
  int l = dg_label(g);
  if (k == 0 || l < 0) {
    dg_op(g, 0x00);
    return;
  }
  if (k == 1) {
    if (g->res[g->cur] != DG_VOID) dg_expr(g, g->res[g->cur]);
    dg_op(g, 0x0f);
    return;
  }
  uint8_t ty = g->lab[l];
  if (ty != DG_VOID) dg_expr(g, ty);
  if (k == 2) {
    dg_op(g, 0x0c);
    dg_uleb(g, g->nlab - 1 - l);
    return;
  }
  /* br_table: every target of the same type as l */
  int idx[DG_MAXLAB], n = 0;
  for (int i = 0; i < g->nlab; i++)
    if (g->lab[i] == ty) idx[n++] = i;
  dg_expr(g, DG_I32);
  dg_op(g, 0x0e);
  unsigned cnt = dg_take(g, 5);
  dg_uleb(g, cnt);
  for (unsigned i = 0; i <= cnt; i++) dg_uleb(g, g->nlab - 1 - idx[dg_take(g, n)]);
}

static void dg_unop(dg *g, uint8_t t) {
  static const uint8_t u32[] = {0x67, 0x68, 0x69, 0xc0, 0xc1};
  static const uint8_t u64[] = {0x79, 0x7a, 0x7b, 0xc2, 0xc3, 0xc4};
  unsigned k = dg_take(g, 8);
  if (t == DG_I32 && k == 0) {                 /* eqz of either */
    uint8_t a = dg_type(g);
    dg_expr(g, a);
    dg_op(g, a == DG_I32 ? 0x45 : 0x50);
  } else if (t == DG_I32 && k == 1) {          /* i32.wrap_i64 */
    dg_expr(g, DG_I64);
    dg_op(g, 0xa7);
  } else if (t == DG_I64 && k < 2) {           /* i64.extend_i32_s/u */
    dg_expr(g, DG_I32);
    dg_op(g, 0xac + k);
  } else {
    dg_expr(g, t);
    dg_op(g, t == DG_I32 ? u32[dg_take(g, 5)] : u64[dg_take(g, 6)]);
  }
}

static void dg_binop(dg *g, uint8_t t) {
  /* add sub mul div_s div_u rem_s rem_u and or xor shl shr_s shr_u rotl rotr */
  unsigned k = dg_take(g, 15);
  if (k >= 3 && k <= 6 && dg_take(g, 3)) k = dg_take(g, 3);   /* fewer divisions: they trap */
  dg_expr(g, t);
  dg_expr(g, t);
  dg_op(g, (t == DG_I32 ? 0x6a : 0x7c) + k);
}

static void dg_compare(dg *g) {
  uint8_t a = dg_type(g);
  unsigned k = dg_take(g, 10);   /* eq ne lt_s lt_u gt_s gt_u le_s le_u ge_s ge_u */
  dg_expr(g, a);
  dg_expr(g, a);
  dg_op(g, (a == DG_I32 ? 0x46 : 0x51) + k);
}

static void dg_block_expr(dg *g, uint8_t t, bool as_if) {
  if (as_if) dg_expr(g, DG_I32);
  dg_op(g, as_if ? 0x04 : 0x02);
  dg_byte(g, t);
  int save = g->nlab;
  dg_push(g, t);
  dg_stmts(g, 2);
  if (as_if) {
    dg_expr(g, t);
    dg_op(g, 0x05);
    dg_stmts(g, 2);
    dg_expr(g, t);
  } else if (dg_take(g, 2)) {   /* leave early with a value */
    dg_expr(g, t);
    dg_expr(g, DG_I32);
    dg_op(g, 0x0d);
    dg_uleb(g, 0);
    if (dg_take(g, 2)) {
      dg_op(g, 0x1a);
      dg_expr(g, t);
    }
  } else {
    dg_expr(g, t);
  }
  g->nlab = save;
  dg_op(g, 0x0b);
}

static void dg_expr(dg *g, uint8_t t) {
  if (g->depth >= DG_MAXDEPTH || g->budget <= 0 || g->o->full) {
    int l = dg_local(g, t, false);
    if (l >= 0 && dg_take(g, 2)) {
      dg_op(g, 0x20);
      dg_uleb(g, l);
    } else {
      dg_const(g, t);
    }
    return;
  }
  g->depth++;
  int x;
  switch (dg_take(g, 20)) {
    case 0: case 1: dg_const(g, t); break;
    case 2: case 3:
      if ((x = dg_local(g, t, false)) >= 0) { dg_op(g, 0x20); dg_uleb(g, x); }
      else dg_const(g, t);
      break;
    case 4:
      if ((x = dg_global(g, t, false)) >= 0) { dg_op(g, 0x23); dg_uleb(g, x); }
      else dg_const(g, t);
      break;
    case 5: dg_unop(g, t); break;
    case 6: case 7: case 8: dg_binop(g, t); break;
    case 9:
      if (t == DG_I32) dg_compare(g);
      else dg_binop(g, t);
      break;
    case 10: dg_load(g, t); break;
    case 11:
      dg_expr(g, t);
      dg_expr(g, t);
      dg_expr(g, DG_I32);
      dg_op(g, 0x1b);
      break;
    case 12:
      if ((x = dg_callee(g, t)) >= 0) {
        dg_args(g, x);
        dg_op(g, 0x10);
        dg_uleb(g, x);
      } else if (!dg_call_indirect(g, t)) {
        dg_const(g, t);
      }
      break;
    case 13:
      if (!dg_call_indirect(g, t)) dg_load(g, t);
      break;
    case 14: dg_block_expr(g, t, false); break;
    case 15: dg_block_expr(g, t, true); break;
    case 16:
      if ((x = dg_local(g, t, true)) >= 0) {
        dg_expr(g, t);
        dg_op(g, 0x22);
        dg_uleb(g, x);
      } else {
        dg_unop(g, t);
      }
      break;
    case 17:
      if (t == DG_I32) {
        if (dg_take(g, 2)) {
          dg_op(g, 0x3f);
        } else {
          dg_op(g, 0x41);
          dg_sleb(g, dg_take(g, 3));
          dg_op(g, 0x40);
        }
        dg_byte(g, 0);
      } else {
        dg_unop(g, t);
      }
      break;
    case 18:
      if (dg_take(g, 4) == 0) {
        dg_escape(g);
        break;
      }
      dg_binop(g, t);
      break;
    default: dg_unop(g, t); break;
  }
  g->depth--;
}

static void dg_loop(dg *g) {
  if (g->loops >= DG_NCOUNT) {
    dg_store(g);
    return;
  }
  int c = g->counter0 + g->loops;
  dg_op(g, 0x41);
  dg_sleb(g, 1 + dg_take(g, 5));
  dg_op(g, 0x21);
  dg_uleb(g, c);
  dg_op(g, 0x03);
  dg_byte(g, DG_VOID);
  int save = g->nlab;
  dg_push(g, DG_LOOP);
  g->loops++;
  dg_stmts(g, 4);
  g->loops--;
  g->nlab = save;
  /* c = c - 1; br_if 0 (c) */
  dg_op(g, 0x20); dg_uleb(g, c);
  dg_op(g, 0x41); dg_sleb(g, 1);
  dg_op(g, 0x6b);
  dg_op(g, 0x22); dg_uleb(g, c);
  dg_op(g, 0x0d); dg_uleb(g, 0);
  dg_op(g, 0x0b);
}

static void dg_stmt(dg *g) {
  int x;
  g->depth++;
  switch (dg_take(g, 13)) {
    case 0: case 1: {
      uint8_t t = dg_type(g);
      if ((x = dg_local(g, t, true)) < 0) { dg_store(g); break; }
      dg_expr(g, t);
      dg_op(g, 0x21);
      dg_uleb(g, x);
      break;
    }
    case 2: {
      uint8_t t = dg_type(g);
      if ((x = dg_global(g, t, true)) < 0) { dg_store(g); break; }
      dg_expr(g, t);
      dg_op(g, 0x24);
      dg_uleb(g, x);
      break;
    }
    case 3: case 4: dg_store(g); break;
    case 5: dg_expr(g, dg_type(g)); dg_op(g, 0x1a); break;
    case 6: {   /* if / else without a result */
      dg_expr(g, DG_I32);
      dg_op(g, 0x04);
      dg_byte(g, DG_VOID);
      int save = g->nlab;
      dg_push(g, DG_VOID);
      dg_stmts(g, 3);
      if (dg_take(g, 2)) {
        dg_op(g, 0x05);
        dg_stmts(g, 3);
      }
      g->nlab = save;
      dg_op(g, 0x0b);
      break;
    }
    case 7: {   /* block with conditional exits */
      dg_op(g, 0x02);
      dg_byte(g, DG_VOID);
      int save = g->nlab;
      dg_push(g, DG_VOID);
      dg_stmts(g, 2);
      dg_expr(g, DG_I32);
      dg_op(g, 0x0d);
      dg_uleb(g, 0);
      dg_stmts(g, 2);
      g->nlab = save;
      dg_op(g, 0x0b);
      break;
    }
    case 8: dg_loop(g); break;
    case 9:
      if ((x = dg_callee(g, DG_VOID)) >= 0) {
        dg_args(g, x);
        dg_op(g, 0x10);
        dg_uleb(g, x);
        if (g->res[x] != DG_VOID) dg_op(g, 0x1a);
      } else {
        dg_store(g);
      }
      break;
    case 10: {  /* memory.fill / memory.copy */
      bool copy = dg_take(g, 2);
      dg_addr(g);
      if (copy) dg_addr(g);
      else dg_expr(g, DG_I32);
      dg_op(g, 0x41);
      dg_sleb(g, dg_take(g, 32) == 0 ? 70000 : (int)dg_take(g, 64));
      dg_byte(g, 0xfc);
      dg_uleb(g, copy ? 10 : 11);
      dg_byte(g, 0);
      if (copy) dg_byte(g, 0);
      break;
    }
    case 11: {  /* br_if to any label, keeping its value */
      int l = dg_label(g);
      if (l < 0) { dg_store(g); break; }
      uint8_t ty = g->lab[l];
      if (ty != DG_VOID) dg_expr(g, ty);
      dg_expr(g, DG_I32);
      dg_op(g, 0x0d);
      dg_uleb(g, g->nlab - 1 - l);
      if (ty != DG_VOID) dg_op(g, 0x1a);
      break;
    }
    default:
      if (dg_take(g, 8) == 0) dg_escape(g);
      else dg_store(g);
      break;
  }
  g->depth--;
}

static void dg_stmts(dg *g, int max) {
  int n = dg_take(g, max + 1);
  for (int i = 0; i < n && g->budget > 0 && g->depth < DG_MAXDEPTH; i++) dg_stmt(g);
}

static void dg_function(dg *g, int f) {
  g->cur = f;
  g->nloc = 0;
  for (int i = 0; i < g->np[f]; i++) g->ltype[g->nloc++] = g->params[f][i];
  int nl = dg_take(g, DG_MAXL + 1);
  uint8_t decl[DG_MAXL];
  for (int i = 0; i < nl; i++) g->ltype[g->nloc++] = decl[i] = dg_type(g);
  g->counter0 = g->nloc;
  for (int i = 0; i < DG_NCOUNT; i++) g->ltype[g->nloc++] = DG_I32;
  dg_uleb(g, nl + 1);
  for (int i = 0; i < nl; i++) {
    dg_uleb(g, 1);
    dg_byte(g, decl[i]);
  }
  dg_uleb(g, DG_NCOUNT);
  dg_byte(g, DG_I32);
  g->loops = g->depth = 0;
  g->budget = 60 + dg_take(g, 200);
  g->nlab = 0;
  dg_push(g, g->res[f]);
  dg_stmts(g, 6);
  if (g->res[f] != DG_VOID) dg_expr(g, g->res[f]);
  dg_byte(g, 0x0b);
}

/* "b": rotl/xor of memory.size, the first 512 bytes and every global. */
static void dg_checksum(dg *g) {
  dg_uleb(g, 1);
  dg_uleb(g, 1);
  dg_byte(g, DG_I64);
  dg_byte(g, 0x3f); dg_byte(g, 0); dg_byte(g, 0xad); dg_byte(g, 0x21); dg_uleb(g, 0);
  for (int k = 0; k < 64 + g->nglob; k++) {
    dg_byte(g, 0x20); dg_uleb(g, 0);
    dg_byte(g, 0x42); dg_sleb(g, 7);
    dg_byte(g, 0x89);                         /* i64.rotl */
    if (k < 64) {
      dg_byte(g, 0x41); dg_sleb(g, 0);
      dg_byte(g, 0x29); dg_uleb(g, 3); dg_uleb(g, k * 8);
    } else {
      dg_byte(g, 0x23); dg_uleb(g, k - 64);
      if (g->gtype[k - 64] == DG_I32) dg_byte(g, 0xad);
    }
    dg_byte(g, 0x85);                         /* i64.xor */
    dg_byte(g, 0x21); dg_uleb(g, 0);
  }
  dg_byte(g, 0x20); dg_uleb(g, 0);
  dg_byte(g, 0x0b);
}

/* Append o's bytes to g->o as a section with id and a size prefix. */
static void dg_section(dg *g, uint8_t id, const dg_out *s) {
  dg_byte(g, id);
  dg_uleb(g, s->n);
  for (size_t i = 0; i < s->n; i++) dg_byte(g, s->b[i]);
  if (s->full) g->o->full = true;
}

static void dg_types_globals(dg *g, dg_out *types, dg_out *globals) {
  g->o = types;
  dg_uleb(g, g->nfunc + 1);
  for (int f = 0; f <= g->nfunc; f++) {
    dg_byte(g, 0x60);
    dg_uleb(g, g->np[f]);
    for (int i = 0; i < g->np[f]; i++) dg_byte(g, g->params[f][i]);
    dg_uleb(g, g->res[f] == DG_VOID ? 0 : 1);
    if (g->res[f] != DG_VOID) dg_byte(g, g->res[f]);
  }
  g->o = globals;
  dg_uleb(g, g->nglob);
  for (int i = 0; i < g->nglob; i++) {
    dg_byte(g, g->gtype[i]);
    dg_byte(g, g->gmut[i]);
    g->budget = 1;
    dg_const(g, g->gtype[i]);
    dg_byte(g, 0x0b);
  }
}

/* Build the module from in[0..nin) into out (DG_CAP bytes); returns its
 * length, 0 when it would not fit. */
static size_t dg_module(const uint8_t *in, size_t nin, uint8_t *out) {
  dg *g = calloc(1, sizeof *g);
  dg_out sec[6];
  for (int i = 0; i < 6; i++) sec[i] = (dg_out){malloc(DG_CAP), 0, false};
  dg_out mod = {out, 0, false};
  size_t len = 0;
  if (!g) goto done;
  for (int i = 0; i < 6; i++) if (!sec[i].b) goto done;
  g->in = in;
  g->nin = nin;
  g->nfunc = 2 + dg_take(g, DG_MAXF - 1);
  g->nleaf = 1 + dg_take(g, g->nfunc - 1);
  for (int f = 0; f < g->nfunc; f++) {
    static const uint8_t rs[] = {DG_VOID, DG_I32, DG_I64};
    g->np[f] = f == g->nfunc - 1 ? 0 : dg_take(g, DG_MAXP + 1);
    for (int i = 0; i < g->np[f]; i++) g->params[f][i] = dg_type(g);
    g->res[f] = rs[dg_take(g, 3)];
  }
  g->np[g->nfunc] = 0;
  g->res[g->nfunc] = DG_I64;
  g->nglob = dg_take(g, DG_MAXG + 1);
  for (int i = 0; i < g->nglob; i++) {
    g->gtype[i] = dg_type(g);
    g->gmut[i] = dg_take(g, 4) != 0;
  }
  g->ntable = dg_take(g, 7);
  unsigned maxpages = 1 + dg_take(g, 3);
  /* section contents: 0 types, 1 globals, 2 code, 3 elements, 4 data */
  dg_types_globals(g, &sec[0], &sec[1]);
  g->o = &sec[2];
  dg_uleb(g, g->nfunc + 1);
  for (int f = 0; f < g->nfunc; f++) {
    dg_out body = {sec[5].b, 0, false};
    g->o = &body;
    dg_function(g, f);
    g->o = &sec[2];
    dg_uleb(g, body.n);
    for (size_t i = 0; i < body.n; i++) dg_byte(g, body.b[i]);
    if (body.full) sec[2].full = true;
  }
  {
    dg_out body = {sec[5].b, 0, false};
    g->o = &body;
    dg_checksum(g);
    g->o = &sec[2];
    dg_uleb(g, body.n);
    for (size_t i = 0; i < body.n; i++) dg_byte(g, body.b[i]);
  }
  g->o = &sec[3];
  unsigned nelem = g->ntable ? dg_take(g, g->ntable + 1) : 0;
  dg_uleb(g, 1);
  dg_byte(g, 0); dg_byte(g, 0x41); dg_sleb(g, 0); dg_byte(g, 0x0b);
  dg_uleb(g, nelem);
  for (unsigned i = 0; i < nelem; i++) dg_uleb(g, dg_take(g, g->nleaf));
  g->o = &sec[4];
  unsigned ndata = dg_take(g, 32);
  dg_uleb(g, 1);
  dg_byte(g, 0); dg_byte(g, 0x41); dg_sleb(g, dg_take(g, 64) * 8); dg_byte(g, 0x0b);
  dg_uleb(g, ndata);
  for (unsigned i = 0; i < ndata; i++) dg_byte(g, dg_take(g, 256));
  /* the module */
  g->o = &mod;
  static const uint8_t head[] = {0, 'a', 's', 'm', 1, 0, 0, 0};
  for (size_t i = 0; i < sizeof head; i++) dg_byte(g, head[i]);
  dg_section(g, 1, &sec[0]);
  dg_byte(g, 3);                                   /* function section */
  {
    dg_out fs = {sec[5].b, 0, false};
    g->o = &fs;
    dg_uleb(g, g->nfunc + 1);
    for (int f = 0; f <= g->nfunc; f++) dg_uleb(g, f);
    g->o = &mod;
    dg_uleb(g, fs.n);
    for (size_t i = 0; i < fs.n; i++) dg_byte(g, fs.b[i]);
  }
  if (g->ntable) {
    dg_byte(g, 4); dg_uleb(g, 4); dg_byte(g, 1); dg_byte(g, 0x70); dg_byte(g, 0);
    dg_byte(g, g->ntable);
  }
  dg_byte(g, 5); dg_uleb(g, 4); dg_byte(g, 1); dg_byte(g, 1); dg_byte(g, 1); dg_byte(g, maxpages);
  dg_section(g, 6, &sec[1]);
  dg_byte(g, 7);                                   /* exports "a", "b" */
  dg_uleb(g, 9);
  dg_uleb(g, 2);
  dg_byte(g, 1); dg_byte(g, 'a'); dg_byte(g, 0); dg_uleb(g, g->nfunc - 1);
  dg_byte(g, 1); dg_byte(g, 'b'); dg_byte(g, 0); dg_uleb(g, g->nfunc);
  if (g->ntable) dg_section(g, 9, &sec[3]);
  dg_section(g, 10, &sec[2]);
  dg_section(g, 11, &sec[4]);
  if (!mod.full && mod.n < DG_CAP) len = mod.n;
done:
  for (int i = 0; i < 6; i++) free(sec[i].b);
  free(g);
  return len;
}

#endif
