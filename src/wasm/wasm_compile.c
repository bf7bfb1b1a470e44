/*
 * wasm_compile.c — validate one function body and translate it into the
 * internal form, placing fuel exactly where wasmi 0.31 places it.
 *
 * Fuel model (stellar/wasmi v0.31.1-soroban.20.0.1, func_builder/
 * translator.rs; summarised in docs/reference/metering.txt):
 *  - A ConsumeFuel instruction opens every region: the function body,
 *    each `loop`, the then-arm of `if`, the `else` arm.  `block` has none:
 *    it adds into the enclosing region.  Each starts at base (1).
 *  - Every reachable operator bumps the innermost region's ConsumeFuel by
 *    its class cost, so a region pays for all its operators on entry, even
 *    those an early branch skips.  Unreachable code adds nothing.
 *  - Function entry adds (params + locals) / 8.
 *  - br / br_if / br_table / return cost base, plus keep/8 when values are
 *    dropped; without multi-value keep <= 1, so that term is always 0.
 *    A br_if whose target is the function body becomes ReturnIfNez, which
 *    costs nothing; a br to it is a return (base).
 *  - `if` costs base in the enclosing region (its BrIfEqz); a reachable
 *    end of the then-arm adds base (the Br over the else-arm) to the
 *    enclosing region too, since visit_else pops the `if` frame before it
 *    charges; the reachable end of the function body is a return (base).
 *  - After `end`, code is reachable iff the ended frame was entered
 *    reachable (wasmi does not track whether the end is branched to).
 *
 * Validation follows the spec's algorithm (operand and control stacks,
 * polymorphic stack after unconditional branches).  Soroban's feature set:
 * no floats, SIMD, reference types, multi-value or tail calls.
 */
#include "wasm/wasm_private.h"
#include "wasm/wasm_iops.h"
#include "wasm/wasm_fuse.h"

#include <stdlib.h>
#include <string.h>

#define T_UNKNOWN 0

typedef struct ctrl_frame {
  uint8_t kind;          /* 0x02 block, 0x03 loop, 0x04 if, 0x05 else, 0 func */
  uint8_t result;        /* valtype or 0 (empty) */
  bool unreachable;      /* validation: stack is polymorphic */
  bool entry_reachable;  /* translation: was code reachable at entry */
  uint32_t height;       /* operand stack height at entry */
  uint32_t fuel_ins;     /* index of the region's FUEL instruction */
  uint32_t start_ip;     /* loop: branch target */
  uint32_t else_patch;   /* if: the BR_UNLESS to patch, or UINT32_MAX */
  uint32_t *patches;     /* forward branches to this frame's end */
  size_t npatches, cappatches;
} ctrl_frame;

typedef struct compiler {
  scp_wasm_module *m;
  wasm_func *fn;
  const uint8_t *start, *p, *end;
  uint32_t op_pc;              /* code-section offset of the current operator */
  scp_error *err;
  /* operand types */
  uint8_t *vals; size_t nvals, capvals;
  size_t max_height;
  ctrl_frame *ctrl; size_t nctrl, capctrl;
  /* output */
  scp_ins *code; size_t ncode, capcode;
  wasm_fuel_meta *meta; size_t nmeta, capmeta;
  uint32_t nregions;
  uint32_t nsites;             /* conditional-branch counters after the regions */
  bool reachable;              /* translation reachability */
  size_t label_at;             /* latest code index a branch may target */
  uint8_t *local_types; uint32_t nlocals_total;
  uint64_t n_ops;
} compiler;

static int fail(compiler *c, int code, const char *what) {
  return scp_fail(c->err, code, "%s at byte offset 0x%zx (function %u)", what,
                  (size_t)(c->op_pc + c->m->code_offset),
                  c->m->nfunc_imports + (uint32_t)(c->fn - c->m->funcs));
}

#define NOMEM(c) fail(c, SCP_ERR_NOMEM, "out of memory")

/* ---- emission ---------------------------------------------------------- */

static int emit(compiler *c, uint32_t op, uint32_t a, uint64_t b) {
  if (!scp_grow(&c->code, &c->capcode, c->ncode + 1, sizeof *c->code))
    return NOMEM(c);
  c->code[c->ncode++] = (scp_ins){.op = op, .a = a, .b = b};
  return SCP_OK;
}

static ctrl_frame *top(compiler *c) { return &c->ctrl[c->nctrl - 1]; }

/* ---- superinstructions ----------------------------------------------------
 * The last k emitted instructions may merge with the one being emitted
 * unless a branch can land between them: a label pinned after the first of
 * them.  Merging INTO an instruction that is itself a branch target is fine
 * (the target then runs both halves, as before). */
static bool can_fuse(const compiler *c, size_t k) {
  return c->ncode > k && c->label_at + k <= c->ncode;
}

static void pin_label(compiler *c) { c->label_at = c->ncode; }

static int emit_local_tee(compiler *c, uint32_t idx) {
  if (can_fuse(c, 1) && wasm_fuse_tee(&c->code[c->ncode - 1], idx)) return SCP_OK;
  return emit(c, IOP_LOCAL_TEE, idx, 0);
}

static int emit_bin(compiler *c, uint32_t op) {
  scp_ins *k = c->code + c->ncode;
  /* local << k + constant: an array's element address */
  if (op == IOP_I32_ADD && can_fuse(c, 2) && k[-2].op == IOP_I32_SHL_LC && k[-1].op == IOP_CONST) {
    k[-2] = (scp_ins){.op = IOP_I32_SHL_ADD, .a = k[-2].a,
                      .b = (uint32_t)k[-2].b | (uint64_t)(uint32_t)k[-1].b << 32};
    c->ncode--;
    return SCP_OK;
  }
  if (can_fuse(c, 2) && k[-2].op == IOP_LOCAL_GET && k[-1].op == IOP_CONST) {
    k[-2] = (scp_ins){.op = op + BIN_LC, .a = k[-2].a, .b = k[-1].b};
    c->ncode--;
    return SCP_OK;
  }
  if (can_fuse(c, 2) && k[-2].op == IOP_LOCAL_GET && k[-1].op == IOP_LOCAL_GET) {
    k[-2] = (scp_ins){.op = op + BIN_LL, .a = k[-2].a, .b = k[-1].a};
    c->ncode--;
    return SCP_OK;
  }
  if (can_fuse(c, 1) && k[-1].op == IOP_CONST) {
    k[-1].op = op + BIN_C;
    return SCP_OK;
  }
  return emit(c, op, 0, 0);
}

static int emit_load(compiler *c, uint32_t op, uint32_t offset) {
  scp_ins *k = c->code + c->ncode;
  /* the element address's 32-bit sum is the effective address only
   * when no offset is added to it */
  if (offset == 0 && can_fuse(c, 1) && k[-1].op == IOP_I32_SHL_ADD) {
    k[-1].op = op + LOAD_X;
    return SCP_OK;
  }
  if (can_fuse(c, 1) && k[-1].op == IOP_LOCAL_GET) {
    k[-1] = (scp_ins){.op = op + LOAD_L, .a = offset, .b = k[-1].a};
    return SCP_OK;
  }
  if (can_fuse(c, 1) && k[-1].op == IOP_LOCAL_TEE) {
    k[-1] = (scp_ins){.op = op + LOAD_T, .a = offset, .b = k[-1].a};
    return SCP_OK;
  }
  return emit(c, op, offset, 0);
}

/* A store of a local's value: local.get folded in, and the address's
 * local.get too when it comes right before.  A trap still reports the
 * store's pc, the last operator recorded at the fused instruction. */
static int emit_store(compiler *c, uint32_t op, uint32_t offset) {
  scp_ins *k = c->code + c->ncode;
  if (can_fuse(c, 2) && k[-2].op == IOP_LOCAL_GET && k[-1].op == IOP_LOCAL_GET) {
    k[-2] = (scp_ins){.op = op + STORE_LL, .a = offset, .b = k[-2].a | (uint64_t)k[-1].a << 32};
    c->ncode--;
    return SCP_OK;
  }
  if (can_fuse(c, 1) && k[-1].op == IOP_LOCAL_GET) {
    k[-1] = (scp_ins){.op = op + STORE_L, .a = offset, .b = k[-1].a};
    return SCP_OK;
  }
  return emit(c, op, offset, 0);
}

static int emit_local_set(compiler *c, uint32_t idx) {
  scp_ins *k = c->code + c->ncode;
  if (can_fuse(c, 1) && k[-1].op == IOP_LOCAL_GET) {
    k[-1] = (scp_ins){.op = IOP_LOCAL_COPY, .a = idx, .b = k[-1].a};
    return SCP_OK;
  }
  if (can_fuse(c, 1) && wasm_fuse_set(&k[-1], idx)) return SCP_OK;
  return emit(c, IOP_LOCAL_SET, idx, 0);
}

/* A br_if without stack adjustment: fold it into the instruction that
 * computes its condition when possible.  Returns the index of the
 * instruction whose `a` is the branch target. */
static int emit_br_if(compiler *c, uint32_t target, uint32_t *at) {
  if (can_fuse(c, 1) && wasm_fuse_br_if(&c->code[c->ncode - 1], target)) {
    *at = (uint32_t)c->ncode - 1;
    return SCP_OK;
  }
  *at = (uint32_t)c->ncode;
  return emit(c, IOP_BR_IF, target, 0);
}

/* Add fuel to the innermost region, recorded at the current operator's pc
 * so a region's count can later be split exactly over its operators. */
/* `ins` is the internal instruction that runs the operator: the next one
 * emitted (fusion moves it back, see clamp_meta), or for a region's own
 * base its FUEL instruction. */
static int bump_at(compiler *c, uint32_t fuel_ins, uint64_t fuel, uint32_t ins) {
  if (fuel == 0) return SCP_OK;
  scp_ins *fi = &c->code[fuel_ins];
  fi->b += fuel;
  wasm_fuel_meta *last = c->nmeta ? &c->meta[c->nmeta - 1] : NULL;
  if (last && last->pc == c->op_pc && last->region == fi->a && last->ins == ins) {
    last->fuel += fuel;
    return SCP_OK;
  }
  if (!scp_grow(&c->meta, &c->capmeta, c->nmeta + 1, sizeof *c->meta))
    return NOMEM(c);
  c->meta[c->nmeta++] = (wasm_fuel_meta){.pc = c->op_pc, .region = fi->a, .fuel = fuel, .ins = ins};
  return SCP_OK;
}

static int bump_region(compiler *c, uint32_t fuel_ins, uint64_t fuel) {
  return bump_at(c, fuel_ins, fuel, (uint32_t)c->ncode);
}

static int bump(compiler *c, uint64_t fuel) {
  return bump_region(c, top(c)->fuel_ins, fuel);
}

/* The base of the region just opened, run by its FUEL instruction. */
static int bump_base(compiler *c, uint64_t fuel) {
  uint32_t fi = top(c)->fuel_ins;
  return bump_at(c, fi, fuel, fi);
}

/* An operator fused into the instruction before it was recorded at an
 * index that was then not emitted (or was taken back): it runs with the
 * instruction it was folded into. */
static void clamp_meta(compiler *c) {
  for (size_t i = c->nmeta; i-- > 0 && c->meta[i].ins >= c->ncode;)
    c->meta[i].ins = c->ncode ? (uint32_t)c->ncode - 1 : 0;
}

/* Open a new region: emits its FUEL instruction charging base. */
static int open_region(compiler *c, uint32_t *fuel_ins) {
  int rc;
  *fuel_ins = (uint32_t)c->ncode;
  if ((rc = emit(c, IOP_FUEL, c->nregions++, 0))) return rc;
  return SCP_OK;
}

/* ---- operand stack ------------------------------------------------------ */

static int push(compiler *c, uint8_t t) {
  if (!scp_grow(&c->vals, &c->capvals, c->nvals + 1, 1)) return NOMEM(c);
  c->vals[c->nvals++] = t;
  /* wasmi's translator tracks the height of reachable code only */
  if (c->reachable && c->nvals > c->max_height) c->max_height = c->nvals;
  return SCP_OK;
}

/* Pop one operand, expecting type `want` (T_UNKNOWN = any). */
static int pop(compiler *c, uint8_t want, uint8_t *got) {
  ctrl_frame *f = top(c);
  uint8_t t;
  if (c->nvals == f->height) {
    if (!f->unreachable) return fail(c, SCP_ERR_INVALID, "type mismatch: operand stack underflow");
    t = T_UNKNOWN;
  } else {
    t = c->vals[--c->nvals];
  }
  if (want != T_UNKNOWN && t != T_UNKNOWN && t != want)
    return fail(c, SCP_ERR_INVALID, "type mismatch");
  if (got) *got = t == T_UNKNOWN ? want : t;
  return SCP_OK;
}

#define TRY(x) do { int rc_ = (x); if (rc_) return rc_; } while (0)

static int push_ctrl(compiler *c, uint8_t kind, uint8_t result) {
  if (!scp_grow(&c->ctrl, &c->capctrl, c->nctrl + 1, sizeof *c->ctrl))
    return NOMEM(c);
  ctrl_frame *f = &c->ctrl[c->nctrl++];
  memset(f, 0, sizeof *f);
  f->kind = kind;
  f->result = result;
  f->height = (uint32_t)c->nvals;
  f->entry_reachable = c->reachable;
  f->else_patch = UINT32_MAX;
  if (c->nctrl > 1) f->fuel_ins = c->ctrl[c->nctrl - 2].fuel_ins;
  return SCP_OK;
}

static int add_patch(compiler *c, ctrl_frame *f, uint32_t ins) {
  if (!scp_grow(&f->patches, &f->cappatches, f->npatches + 1, sizeof *f->patches))
    return NOMEM(c);
  f->patches[f->npatches++] = ins;
  return SCP_OK;
}

static void set_unreachable(compiler *c) {
  ctrl_frame *f = top(c);
  c->nvals = f->height;
  f->unreachable = true;
  c->reachable = false;
}

/* Values a branch to frame f carries: a loop's params (none in MVP), a
 * block's results. */
static uint8_t label_type(const ctrl_frame *f) {
  return f->kind == 0x03 ? 0 : f->result;
}

/* ---- reading immediates ------------------------------------------------- */

static int rd_u32(compiler *c, uint32_t *v) {
  *v = 0;
  if (!scp_leb_u32(&c->p, c->end, v))
    return fail(c, SCP_ERR_MALFORMED, c->p >= c->end ? "unexpected end" : "integer representation too long");
  return SCP_OK;
}

static int rd_byte(compiler *c, uint8_t *v) {
  *v = 0;
  if (c->p >= c->end) return fail(c, SCP_ERR_MALFORMED, "unexpected end");
  *v = *c->p++;
  return SCP_OK;
}

static int rd_blocktype(compiler *c, uint8_t *result) {
  if (c->p >= c->end) return fail(c, SCP_ERR_MALFORMED, "unexpected end");
  uint8_t b = *c->p;
  if (b == 0x40) { c->p++; *result = 0; return SCP_OK; }
  if (b == SCP_WASM_I32 || b == SCP_WASM_I64) { c->p++; *result = b; return SCP_OK; }
  if (b == SCP_WASM_F32 || b == SCP_WASM_F64)
    return fail(c, SCP_ERR_UNSUPPORTED, "floating-point block type (floats are disabled in Soroban)");
  if (b == 0x7b) return fail(c, SCP_ERR_UNSUPPORTED, "SIMD block type (SIMD is disabled in Soroban)");
  if (b == 0x70 || b == 0x6f)
    return fail(c, SCP_ERR_UNSUPPORTED, "reference-type block type (reference types are disabled in Soroban)");
  int64_t idx;
  if (!scp_leb_s33(&c->p, c->end, &idx)) return fail(c, SCP_ERR_MALFORMED, "malformed block type");
  if (idx < 0) return fail(c, SCP_ERR_MALFORMED, "malformed block type");
  if ((uint64_t)idx >= c->m->ntypes) return fail(c, SCP_ERR_INVALID, "unknown type");
  return fail(c, SCP_ERR_UNSUPPORTED, "type-index block type (multi-value is disabled in Soroban)");
}

static int rd_memarg(compiler *c, unsigned natural, uint32_t *offset) {
  uint32_t align;
  TRY(rd_u32(c, &align));
  TRY(rd_u32(c, offset));
  if (!c->m->has_memory) return fail(c, SCP_ERR_INVALID, "unknown memory 0");
  if (align >= 32 || (1u << align) > natural)
    return fail(c, SCP_ERR_INVALID, "alignment must not be larger than natural");
  return SCP_OK;
}

static int rd_zero_byte(compiler *c) {
  uint8_t b = 0;
  TRY(rd_byte(c, &b));
  if (b != 0) return fail(c, SCP_ERR_MALFORMED, "zero byte expected");
  return SCP_OK;
}

static int rd_local(compiler *c, uint32_t *idx, uint8_t *type) {
  TRY(rd_u32(c, idx));
  if (*idx >= c->nlocals_total) return fail(c, SCP_ERR_INVALID, "unknown local");
  *type = c->local_types[*idx];
  return SCP_OK;
}

/* ---- branches ------------------------------------------------------------ */

/* Translate a branch to relative depth `depth` (already validated).  kind:
 * 0 = br, 1 = br_if.  Emits code and bumps fuel per wasmi. */
static int emit_branch(compiler *c, uint32_t depth, int kind) {
  ctrl_frame *f = &c->ctrl[c->nctrl - 1 - depth];
  if (c->nctrl - 1 - depth == 0) {             /* the function body: a return */
    if (kind == 0) {
      TRY(bump(c, FUEL_BASE));
      return emit(c, IOP_RETURN, 0, 0);
    }
    return emit(c, IOP_RETURN_IF, 0, 0);       /* ReturnIfNez: no fuel */
  }
  TRY(bump(c, FUEL_BASE));
  uint32_t keep = label_type(f) ? 1 : 0;
  uint32_t height = (uint32_t)c->nvals;
  uint32_t drop = height - f->height - keep;
  uint32_t target = f->kind == 0x03 ? f->start_ip : 0;
  uint32_t at = (uint32_t)c->ncode;
  if (kind == 1 && !drop) {
    TRY(emit_br_if(c, target, &at));
  } else {
    uint32_t op = kind == 0 ? (drop ? IOP_BR_ADJ : IOP_BR) : IOP_BR_IF_ADJ;
    TRY(emit(c, op, target, drop | (uint64_t)keep << 32));
  }
  if (f->kind != 0x03) TRY(add_patch(c, f, at));
  return SCP_OK;
}

/* ---- the operator loop --------------------------------------------------- */

static int check_label_types(compiler *c, uint32_t depth, uint8_t *lt) {
  if (depth >= c->nctrl) return fail(c, SCP_ERR_INVALID, "unknown label");
  *lt = label_type(&c->ctrl[c->nctrl - 1 - depth]);
  return SCP_OK;
}

static int unsupported_op(compiler *c, uint8_t op) {
  if ((op >= 0x2a && op <= 0x2b) || (op >= 0x38 && op <= 0x39) ||
      (op >= 0x43 && op <= 0x44) || (op >= 0x5b && op <= 0x66) ||
      (op >= 0x8b && op <= 0xa6) || (op >= 0xa8 && op <= 0xab) ||
      (op >= 0xae && op <= 0xbf))
    return fail(c, SCP_ERR_UNSUPPORTED, "floating-point instruction (floats are disabled in Soroban)");
  if (op == 0x1c || (op >= 0x25 && op <= 0x26) || (op >= 0xd0 && op <= 0xd2))
    return fail(c, SCP_ERR_UNSUPPORTED, "reference-types instruction (disabled in Soroban)");
  if (op == 0x12 || op == 0x13)
    return fail(c, SCP_ERR_UNSUPPORTED, "tail-call instruction (disabled in Soroban)");
  if (op == 0xfd) return fail(c, SCP_ERR_UNSUPPORTED, "SIMD instruction (disabled in Soroban)");
  if (op == 0xfe) return fail(c, SCP_ERR_UNSUPPORTED, "threads instruction (disabled in Soroban)");
  if (op == 0x06 || op == 0x07 || op == 0x08 || op == 0x09 || op == 0x18 || op == 0x19)
    return fail(c, SCP_ERR_UNSUPPORTED, "exception-handling instruction (disabled in Soroban)");
  return fail(c, SCP_ERR_MALFORMED, "illegal opcode");
}

static int compile_misc(compiler *c);   /* 0xfc prefix */

static int compile_op(compiler *c, uint8_t op) {
  uint32_t idx = 0, offset = 0;
  uint8_t t = 0, t2 = 0;
  switch (op) {
  case 0x00:  /* unreachable */
    if (c->reachable) { TRY(bump(c, FUEL_BASE)); TRY(emit(c, IOP_UNREACHABLE, 0, 0)); }
    set_unreachable(c);
    return SCP_OK;
  case 0x01:  /* nop */
    return SCP_OK;
  case 0x02: case 0x03: {  /* block, loop */
    uint8_t rt;
    TRY(rd_blocktype(c, &rt));
    TRY(push_ctrl(c, op, rt));
    if (op == 0x03 && c->reachable) {
      ctrl_frame *f = top(c);
      f->start_ip = (uint32_t)c->ncode;
      pin_label(c);
      TRY(open_region(c, &f->fuel_ins));
      TRY(bump_base(c, FUEL_BASE));
    }
    return SCP_OK;
  }
  case 0x04: {  /* if */
    uint8_t rt;
    TRY(rd_blocktype(c, &rt));
    TRY(pop(c, SCP_WASM_I32, NULL));
    bool reach = c->reachable;
    uint32_t patch = UINT32_MAX;
    if (reach) {
      TRY(bump(c, FUEL_BASE));           /* BrIfEqz, in the enclosing region */
      patch = (uint32_t)c->ncode;
      TRY(emit(c, IOP_BR_UNLESS, 0, 0));
    }
    TRY(push_ctrl(c, 0x04, rt));
    ctrl_frame *f = top(c);
    f->else_patch = patch;
    if (reach) {
      TRY(open_region(c, &f->fuel_ins));
      TRY(bump_base(c, FUEL_BASE));
    }
    return SCP_OK;
  }
  case 0x05: {  /* else */
    ctrl_frame *f = top(c);
    if (f->kind != 0x04) return fail(c, SCP_ERR_MALFORMED, "else without if");
    if (f->result) TRY(pop(c, f->result, NULL));
    if (c->nvals != f->height) return fail(c, SCP_ERR_INVALID, "type mismatch: values remaining at end of then-arm");
    if (f->entry_reachable) {
      if (c->reachable) {                /* Br over the else-arm */
        /* wasmi pops the `if` frame before charging this Br, so it lands
         * in the enclosing region (already paid on its entry), not the
         * then-arm's. */
        TRY(bump_region(c, c->ctrl[c->nctrl - 2].fuel_ins, FUEL_BASE));
        uint32_t at = (uint32_t)c->ncode;
        TRY(emit(c, IOP_BR, 0, 0));
        TRY(add_patch(c, f, at));
      }
      c->code[f->else_patch].a = (uint32_t)c->ncode;
      f->else_patch = UINT32_MAX;
      pin_label(c);
      TRY(open_region(c, &f->fuel_ins));
      c->reachable = true;
      TRY(bump_base(c, FUEL_BASE));
    }
    f->kind = 0x05;
    f->unreachable = false;
    return SCP_OK;
  }
  case 0x0b: {  /* end */
    ctrl_frame *f = top(c);
    if (f->result) TRY(pop(c, f->result, NULL));
    if (c->nvals != f->height) return fail(c, SCP_ERR_INVALID, "type mismatch: values remaining at end of block");
    if (f->kind == 0x04 && f->result)
      return fail(c, SCP_ERR_INVALID, "type mismatch: if without else must not produce a value");
    if (c->nctrl == 1) {                 /* function body */
      if (c->reachable) {
        TRY(bump(c, FUEL_BASE));
        TRY(emit(c, IOP_RETURN, 0, 0));
      }
    }
    uint32_t here = (uint32_t)c->ncode;
    pin_label(c);
    if (f->else_patch != UINT32_MAX) c->code[f->else_patch].a = here;
    for (size_t i = 0; i < f->npatches; i++) c->code[f->patches[i]].a = here;
    free(f->patches);
    uint8_t result = f->result;
    bool entry = f->entry_reachable;
    c->nctrl--;
    if (result) TRY(push(c, result));
    c->reachable = entry;
    return SCP_OK;
  }
  case 0x0c:  /* br */
    TRY(rd_u32(c, &idx));
    TRY(check_label_types(c, idx, &t));
    if (t) TRY(pop(c, t, NULL));
    if (c->reachable) { if (t) c->nvals++; TRY(emit_branch(c, idx, 0)); if (t) c->nvals--; }
    set_unreachable(c);
    return SCP_OK;
  case 0x0d:  /* br_if */
    TRY(rd_u32(c, &idx));
    TRY(check_label_types(c, idx, &t));
    TRY(pop(c, SCP_WASM_I32, NULL));
    if (t) TRY(pop(c, t, NULL));
    if (c->reachable) { if (t) c->nvals++; TRY(emit_branch(c, idx, 1)); if (t) c->nvals--; }
    if (t) TRY(push(c, t));
    return SCP_OK;
  case 0x0e: {  /* br_table */
    uint32_t n = 0;
    TRY(rd_u32(c, &n));
    if (n > (uint32_t)(c->end - c->p)) return fail(c, SCP_ERR_MALFORMED, "unexpected end");
    uint32_t *depths = malloc(((size_t)n + 1) * sizeof *depths);
    if (!depths) return NOMEM(c);
    int rc = SCP_OK;
    for (uint32_t i = 0; i <= n && !rc; i++) rc = rd_u32(c, &depths[i]);
    uint8_t arity = 0;
    if (!rc) rc = check_label_types(c, depths[n], &arity);
    for (uint32_t i = 0; i < n && !rc; i++) {
      rc = check_label_types(c, depths[i], &t);
      if (!rc && (t ? 1 : 0) != (arity ? 1 : 0)) rc = fail(c, SCP_ERR_INVALID, "type mismatch: br_table arity");
      if (!rc && t && arity && t != arity) {
        /* in polymorphic code the operand may be unknown: check both */
        rc = fail(c, SCP_ERR_INVALID, "type mismatch: br_table label types");
      }
    }
    if (!rc) rc = pop(c, SCP_WASM_I32, NULL);
    if (!rc && arity) rc = pop(c, arity, NULL);
    if (!rc && c->reachable) {
      if (arity) c->nvals++;
      rc = bump(c, FUEL_BASE);
      if (!rc) rc = emit(c, IOP_BR_TABLE, n, 0);
      for (uint32_t i = 0; i <= n && !rc; i++) {
        uint32_t fi = (uint32_t)(c->nctrl - 1 - depths[i]);
        ctrl_frame *f = &c->ctrl[fi];
        if (fi == 0) {
          rc = emit(c, IOP_BR_TABLE, SCP_BR_RETURN, 0);
          continue;
        }
        uint32_t keep = label_type(f) ? 1 : 0;
        uint32_t drop = (uint32_t)c->nvals - f->height - keep;
        uint32_t at = (uint32_t)c->ncode;
        rc = emit(c, IOP_BR_TABLE, f->kind == 0x03 ? f->start_ip : 0, drop | (uint64_t)keep << 32);
        if (!rc && f->kind != 0x03) rc = add_patch(c, f, at);
      }
      if (arity) c->nvals--;
    }
    free(depths);
    if (rc) return rc;
    set_unreachable(c);
    return SCP_OK;
  }
  case 0x0f:  /* return */
    if (c->ctrl[0].result) TRY(pop(c, c->ctrl[0].result, NULL));
    if (c->reachable) {
      TRY(bump(c, FUEL_BASE));
      TRY(emit(c, IOP_RETURN, 0, 0));
    }
    set_unreachable(c);
    return SCP_OK;
  case 0x10: {  /* call */
    TRY(rd_u32(c, &idx));
    if (idx >= c->m->nfuncs) return fail(c, SCP_ERR_INVALID, "unknown function");
    const wasm_functype *ft = &c->m->types[c->m->func_types[idx]];
    const uint8_t *ps = functype_params(ft);
    for (uint32_t i = ft->nparams; i-- > 0;) TRY(pop(c, ps[i], NULL));
    if (c->reachable) {
      TRY(bump(c, FUEL_CALL));
      if (idx < c->m->nfunc_imports) TRY(emit(c, IOP_CALL_IMPORT, idx, c->op_pc));
      else TRY(emit(c, IOP_CALL, idx, c->op_pc));
    }
    if (ft->nresults) TRY(push(c, ft->results[0]));
    return SCP_OK;
  }
  case 0x11: {  /* call_indirect */
    uint32_t table;
    TRY(rd_u32(c, &idx));
    TRY(rd_u32(c, &table));
    if (table != 0) return fail(c, SCP_ERR_MALFORMED, "zero byte expected");
    if (!c->m->has_table) return fail(c, SCP_ERR_INVALID, "unknown table");
    if (idx >= c->m->ntypes) return fail(c, SCP_ERR_INVALID, "unknown type");
    const wasm_functype *ft = &c->m->types[idx];
    TRY(pop(c, SCP_WASM_I32, NULL));
    const uint8_t *ps = functype_params(ft);
    for (uint32_t i = ft->nparams; i-- > 0;) TRY(pop(c, ps[i], NULL));
    if (c->reachable) {
      TRY(bump(c, FUEL_CALL));
      TRY(emit(c, IOP_CALL_INDIRECT, idx, c->op_pc));
    }
    if (ft->nresults) TRY(push(c, ft->results[0]));
    return SCP_OK;
  }
  case 0x1a:  /* drop */
    TRY(pop(c, T_UNKNOWN, NULL));
    if (c->reachable) { TRY(bump(c, FUEL_BASE)); TRY(emit(c, IOP_DROP, 0, 0)); }
    return SCP_OK;
  case 0x1b:  /* select */
    TRY(pop(c, SCP_WASM_I32, NULL));
    TRY(pop(c, T_UNKNOWN, &t));
    TRY(pop(c, t, &t2));
    if (t == T_UNKNOWN) t = t2;
    if (c->reachable) { TRY(bump(c, FUEL_BASE)); TRY(emit(c, IOP_SELECT, 0, 0)); }
    TRY(push(c, t));
    return SCP_OK;
  case 0x20: case 0x21: case 0x22:  /* local.get/set/tee */
    TRY(rd_local(c, &idx, &t));
    if (op == 0x20) TRY(push(c, t));
    else { TRY(pop(c, t, NULL)); if (op == 0x22) TRY(push(c, t)); }
    if (c->reachable) {
      TRY(bump(c, FUEL_BASE));
      if (op == 0x21) TRY(emit_local_set(c, idx));
      else if (op == 0x22) TRY(emit_local_tee(c, idx));
      else TRY(emit(c, IOP_LOCAL_GET, idx, 0));
    }
    return SCP_OK;
  case 0x23: case 0x24:  /* global.get/set */
    TRY(rd_u32(c, &idx));
    if (idx >= c->m->nglobals) return fail(c, SCP_ERR_INVALID, "unknown global");
    t = c->m->globals[idx].type;
    if (op == 0x23) TRY(push(c, t));
    else {
      if (!c->m->globals[idx].mut) return fail(c, SCP_ERR_INVALID, "global is immutable");
      TRY(pop(c, t, NULL));
    }
    if (c->reachable) {
      TRY(bump(c, FUEL_ENTITY));
      TRY(emit(c, op == 0x23 ? IOP_GLOBAL_GET : IOP_GLOBAL_SET, idx, 0));
    }
    return SCP_OK;
  case 0x3f: case 0x40:  /* memory.size / memory.grow */
    TRY(rd_zero_byte(c));
    if (!c->m->has_memory) return fail(c, SCP_ERR_INVALID, "unknown memory 0");
    if (op == 0x40) TRY(pop(c, SCP_WASM_I32, NULL));
    TRY(push(c, SCP_WASM_I32));
    if (c->reachable) {
      TRY(bump(c, FUEL_ENTITY));
      TRY(emit(c, op == 0x3f ? IOP_MEMORY_SIZE : IOP_MEMORY_GROW, 0, c->op_pc));
    }
    return SCP_OK;
  case 0x41: {  /* i32.const */
    int32_t v;
    if (!scp_leb_s32(&c->p, c->end, &v)) return fail(c, SCP_ERR_MALFORMED, "integer representation too long");
    TRY(push(c, SCP_WASM_I32));
    if (c->reachable) { TRY(bump(c, FUEL_BASE)); TRY(emit(c, IOP_CONST, 0, (uint32_t)v)); }
    return SCP_OK;
  }
  case 0x42: {  /* i64.const */
    int64_t v;
    if (!scp_leb_s64(&c->p, c->end, &v)) return fail(c, SCP_ERR_MALFORMED, "integer representation too long");
    TRY(push(c, SCP_WASM_I64));
    if (c->reachable) { TRY(bump(c, FUEL_BASE)); TRY(emit(c, IOP_CONST, 0, (uint64_t)v)); }
    return SCP_OK;
  }
  case 0xfc:
    return compile_misc(c);
#define LOAD(n, b, o, s, e)                                                   \
  case b:                                                                     \
    TRY(rd_memarg(c, s, &offset));                                            \
    TRY(pop(c, SCP_WASM_I32, NULL));                                          \
    TRY(push(c, SCP_WASM_##o));                                               \
    if (c->reachable) { TRY(bump(c, FUEL_LOAD)); TRY(emit_load(c, IOP_##n, offset)); } \
    return SCP_OK;
#define STORE(n, b, i, s)                                                     \
  case b:                                                                     \
    TRY(rd_memarg(c, s, &offset));                                            \
    TRY(pop(c, SCP_WASM_##i, NULL));                                          \
    TRY(pop(c, SCP_WASM_I32, NULL));                                          \
    if (c->reachable) { TRY(bump(c, FUEL_STORE)); TRY(emit_store(c, IOP_##n, offset)); } \
    return SCP_OK;
#define UN(n, b, i, o, e)                                                     \
  case b:                                                                     \
    TRY(pop(c, SCP_WASM_##i, NULL));                                          \
    TRY(push(c, SCP_WASM_##o));                                               \
    if (c->reachable) { TRY(bump(c, FUEL_BASE)); TRY(emit(c, IOP_##n, 0, 0)); } \
    return SCP_OK;
#define BIN(n, b, i, o, e)                                                    \
  case b:                                                                     \
    TRY(pop(c, SCP_WASM_##i, NULL));                                          \
    TRY(pop(c, SCP_WASM_##i, NULL));                                          \
    TRY(push(c, SCP_WASM_##o));                                               \
    if (c->reachable) { TRY(bump(c, FUEL_BASE)); TRY(emit_bin(c, IOP_##n)); } \
    return SCP_OK;
#define TRAP_BIN(n, b, i, o)                                                  \
  case b:                                                                     \
    TRY(pop(c, SCP_WASM_##i, NULL));                                          \
    TRY(pop(c, SCP_WASM_##i, NULL));                                          \
    TRY(push(c, SCP_WASM_##o));                                               \
    if (c->reachable) { TRY(bump(c, FUEL_BASE)); TRY(emit(c, IOP_##n, 0, 0)); } \
    return SCP_OK;
#include "wasm/wasm_ops.def"
  default:
    return unsupported_op(c, op);
  }
}

static int compile_misc(compiler *c) {
  uint32_t sub = 0, idx = 0;
  TRY(rd_u32(c, &sub));
  switch (sub) {
  case 8:  /* memory.init */
    TRY(rd_u32(c, &idx));
    TRY(rd_zero_byte(c));
    if (!c->m->has_memory) return fail(c, SCP_ERR_INVALID, "unknown memory 0");
    if (!c->m->has_datacount) return fail(c, SCP_ERR_MALFORMED, "data count section required");
    if (idx >= c->m->datacount) return fail(c, SCP_ERR_INVALID, "unknown data segment");
    for (int i = 0; i < 3; i++) TRY(pop(c, SCP_WASM_I32, NULL));
    if (c->reachable) { TRY(bump(c, FUEL_ENTITY)); TRY(emit(c, IOP_MEMORY_INIT, idx, c->op_pc)); }
    return SCP_OK;
  case 9:  /* data.drop */
    TRY(rd_u32(c, &idx));
    if (!c->m->has_datacount) return fail(c, SCP_ERR_MALFORMED, "data count section required");
    if (idx >= c->m->datacount) return fail(c, SCP_ERR_INVALID, "unknown data segment");
    if (c->reachable) { TRY(bump(c, FUEL_ENTITY)); TRY(emit(c, IOP_DATA_DROP, idx, 0)); }
    return SCP_OK;
  case 10:  /* memory.copy */
    TRY(rd_zero_byte(c));
    TRY(rd_zero_byte(c));
    if (!c->m->has_memory) return fail(c, SCP_ERR_INVALID, "unknown memory 0");
    for (int i = 0; i < 3; i++) TRY(pop(c, SCP_WASM_I32, NULL));
    if (c->reachable) { TRY(bump(c, FUEL_ENTITY)); TRY(emit(c, IOP_MEMORY_COPY, 0, c->op_pc)); }
    return SCP_OK;
  case 11:  /* memory.fill */
    TRY(rd_zero_byte(c));
    if (!c->m->has_memory) return fail(c, SCP_ERR_INVALID, "unknown memory 0");
    for (int i = 0; i < 3; i++) TRY(pop(c, SCP_WASM_I32, NULL));
    if (c->reachable) { TRY(bump(c, FUEL_ENTITY)); TRY(emit(c, IOP_MEMORY_FILL, 0, c->op_pc)); }
    return SCP_OK;
  case 12: {  /* table.init */
    uint32_t table;
    TRY(rd_u32(c, &idx));
    TRY(rd_u32(c, &table));
    if (table != 0 || !c->m->has_table) return fail(c, SCP_ERR_INVALID, "unknown table");
    if (idx >= c->m->nelems) return fail(c, SCP_ERR_INVALID, "unknown elem segment");
    for (int i = 0; i < 3; i++) TRY(pop(c, SCP_WASM_I32, NULL));
    if (c->reachable) { TRY(bump(c, FUEL_ENTITY)); TRY(emit(c, IOP_TABLE_INIT, idx, c->op_pc)); }
    return SCP_OK;
  }
  case 13:  /* elem.drop */
    TRY(rd_u32(c, &idx));
    if (idx >= c->m->nelems) return fail(c, SCP_ERR_INVALID, "unknown elem segment");
    if (c->reachable) { TRY(bump(c, FUEL_ENTITY)); TRY(emit(c, IOP_ELEM_DROP, idx, 0)); }
    return SCP_OK;
  case 14: {  /* table.copy */
    uint32_t t1, t2;
    TRY(rd_u32(c, &t1));
    TRY(rd_u32(c, &t2));
    if (t1 != 0 || t2 != 0 || !c->m->has_table) return fail(c, SCP_ERR_INVALID, "unknown table");
    for (int i = 0; i < 3; i++) TRY(pop(c, SCP_WASM_I32, NULL));
    if (c->reachable) { TRY(bump(c, FUEL_ENTITY)); TRY(emit(c, IOP_TABLE_COPY, 0, c->op_pc)); }
    return SCP_OK;
  }
  case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7:
    return fail(c, SCP_ERR_UNSUPPORTED, "saturating float-to-int instruction (floats are disabled in Soroban)");
  case 15: case 16: case 17:
    return fail(c, SCP_ERR_UNSUPPORTED, "reference-types table instruction (disabled in Soroban)");
  default:
    return fail(c, SCP_ERR_MALFORMED, "illegal opcode");
  }
}

/* ---- a whole body ---------------------------------------------------------- */

static int read_locals(compiler *c, const wasm_functype *ft) {
  uint32_t ngroups;
  uint64_t total = ft->nparams;
  TRY(rd_u32(c, &ngroups));
  const uint8_t *save = c->p;
  /* first pass: count, so the types array is allocated once */
  for (uint32_t i = 0; i < ngroups; i++) {
    uint32_t n = 0;
    uint8_t t = 0;
    TRY(rd_u32(c, &n));
    TRY(rd_byte(c, &t));
    total += n;
    if (total > 50000) return fail(c, SCP_ERR_MALFORMED, "too many locals");
  }
  c->p = save;
  c->nlocals_total = (uint32_t)total;
  c->local_types = malloc(total ? total : 1);
  if (!c->local_types) return NOMEM(c);
  memcpy(c->local_types, functype_params(ft), ft->nparams);
  uint32_t at = ft->nparams;
  for (uint32_t i = 0; i < ngroups; i++) {
    uint32_t n = 0;
    uint8_t t = 0;
    TRY(rd_u32(c, &n));
    TRY(rd_byte(c, &t));
    if (t == SCP_WASM_F32 || t == SCP_WASM_F64)
      return fail(c, SCP_ERR_UNSUPPORTED, "floating-point local (floats are disabled in Soroban)");
    if (t == 0x7b) return fail(c, SCP_ERR_UNSUPPORTED, "SIMD local (disabled in Soroban)");
    if (t == 0x70 || t == 0x6f) return fail(c, SCP_ERR_UNSUPPORTED, "reference-type local (disabled in Soroban)");
    if (t != SCP_WASM_I32 && t != SCP_WASM_I64) return fail(c, SCP_ERR_MALFORMED, "malformed value type");
    memset(c->local_types + at, t, n);
    at += n;
  }
  c->fn->nlocals = (uint32_t)total - ft->nparams;
  return SCP_OK;
}

/* ---- branch counters ---------------------------------------------------- */

static const bool cond_branch[IOP_COUNT] = {
  [IOP_BR_IF] = true, [IOP_BR_IF_ADJ] = true, [IOP_BR_UNLESS] = true, [IOP_BR_IF_L] = true,
#define BIN(n, b, i, o, e) [IOP_##n##_BRIF] = true, [IOP_##n##_C_BRIF] = true,  \
    [IOP_##n##_LC_BRIF] = true, [IOP_##n##_LL_BRIF] = true,
#include "wasm/wasm_ops.def"
};

bool wasm_iop_is_cond_branch(uint32_t op) { return op < IOP_COUNT && cond_branch[op]; }

/* A TAKEN stub at the end of the code: counts a taken branch in counter
 * nregions + site and goes on to `target`, or returns when target is
 * SCP_BR_RETURN.  Returns the stub's index in *at. */
static int count_stub(compiler *c, uint32_t target, uint32_t *at) {
  *at = (uint32_t)c->ncode;
  uint32_t slot = c->nregions + c->nsites++;
  if (target == SCP_BR_RETURN) {
    TRY(emit(c, IOP_TAKEN, slot, *at + 1));
    return emit(c, IOP_RETURN, 0, 0);
  }
  return emit(c, c->code[target].op == IOP_FUEL ? IOP_TAKEN_FUEL : IOP_TAKEN, slot, target);
}

/* Every conditional branch and br_table target goes through a TAKEN stub,
 * so that a node's counters also say how often each branch was taken.
 * With the region entries that gives how often every instruction ran
 * (scp_wasm_settle): a region is charged on entry, so the instructions an
 * early exit skips are paid without running ("charged ahead").  Only taken
 * branches pay the stub's dispatch; no fuel is involved. */
static int add_count_stubs(compiler *c) {
  uint32_t body = (uint32_t)c->ncode;
  for (uint32_t k = 0; k < body; k++) {
    uint32_t op = c->code[k].op, at;
    if (op == IOP_RETURN_IF) {
      TRY(count_stub(c, SCP_BR_RETURN, &at));
      c->code[k] = (scp_ins){.op = IOP_BR_IF, .a = at, .b = 0};
    } else if (cond_branch[op]) {
      TRY(count_stub(c, c->code[k].a, &at));
      c->code[k].a = at;
    } else if (op == IOP_BR_TABLE) {
      uint32_t n = c->code[k].a;
      for (uint32_t j = k + 1; j <= k + 1 + n; j++) {
        scp_ins *e = &c->code[j];
        TRY(count_stub(c, e->a, &at));
        e = &c->code[j];                 /* emit may have moved the code */
        if (e->a == SCP_BR_RETURN) e->b = 0;   /* the stub returns */
        e->a = at;
      }
      k += n + 1;
    }
  }
  return SCP_OK;
}

int scp_wasm_compile_func(scp_wasm_module *m, uint32_t def_index,
                          const uint8_t *body, const uint8_t *end,
                          scp_error *err) {
  compiler cc;
  memset(&cc, 0, sizeof cc);
  compiler *c = &cc;
  c->m = m;
  c->fn = &m->funcs[def_index];
  c->p = c->start = body;
  c->end = end;
  c->err = err;
  c->reachable = true;
  c->op_pc = (uint32_t)(body - m->bytes) - m->code_offset;
  const wasm_functype *ft = &m->types[c->fn->type];

  int rc = read_locals(c, ft);
  if (!rc) rc = push_ctrl(c, 0, ft->nresults ? ft->results[0] : 0);
  if (!rc) rc = open_region(c, &c->ctrl[0].fuel_ins);
  if (!rc) rc = bump_base(c, FUEL_BASE + c->nlocals_total / FUEL_LOCALS_PER);
  while (!rc) {
    if (c->p >= c->end) { rc = fail(c, SCP_ERR_MALFORMED, "unexpected end of function body"); break; }
    c->op_pc = (uint32_t)(c->p - m->bytes) - m->code_offset;
    uint8_t op = *c->p++;
    c->n_ops++;
    rc = compile_op(c, op);
    clamp_meta(c);
    if (!rc && c->nctrl == 0) {
      if (c->p != c->end) rc = fail(c, SCP_ERR_MALFORMED, "section size mismatch: operators after function end");
      break;
    }
  }
  for (size_t i = 0; i < c->nctrl; i++) free(c->ctrl[i].patches);
  free(c->ctrl);
  free(c->vals);
  free(c->local_types);
  if (rc) {
    free(c->code);
    free(c->meta);
    return rc;
  }
  c->fn->body_len = (uint32_t)c->ncode;
  if ((rc = add_count_stubs(c))) {
    free(c->code);
    free(c->meta);
    return rc;
  }
  c->fn->code = c->code;
  c->fn->ncode = (uint32_t)c->ncode;
  c->fn->meta = c->meta;
  c->fn->nmeta = (uint32_t)c->nmeta;
  c->fn->nregions = c->nregions;
  c->fn->ncounters = c->nregions + c->nsites;
  c->fn->max_height = (uint32_t)c->max_height;
  c->fn->nparams = ft->nparams;
  c->fn->nresults = ft->nresults;
  c->fn->frame_need = c->fn->nlocals + c->fn->max_height;
  m->n_instructions += c->n_ops;
  return SCP_OK;
}
