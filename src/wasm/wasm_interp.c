/*
 * wasm_interp.c — the interpreter loop over the internal form.
 *
 * Compiled twice: with computed goto (default) and, through
 * wasm_interp_switch.c, with a portable switch; the opcode bodies are the
 * same text.  Hot state (ip, sp, fp, fuel, region counters) lives in
 * locals and is spilled to the instance before any host call, memory-grow
 * hook or trap, as Lua's savepc does.
 *
 * Metering: FUEL instructions charge a region's whole static fuel and
 * count one entry for the calling-context node of the running frame; no
 * per-instruction event exists.  Dynamic fuel (memory.grow, bulk memory)
 * is charged before the operation (wasmi's Eager mode) and booked at its
 * pc straight away.
 */
#include "wasm/wasm_private.h"
#include "wasm/wasm_iops.h"

#include <stdlib.h>
#include <string.h>

#ifndef SCP_WASM_SWITCH
#define EXEC_NAME scp_wasm_exec_goto
#else
#define EXEC_NAME scp_wasm_exec_switch
#endif


#ifndef SCP_WASM_INTERP_HELPERS
#define SCP_WASM_INTERP_HELPERS
static inline uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static inline uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
#endif

/* Same signature: structural equality of two type indices. */
static bool same_type(const scp_wasm_module *m, uint32_t a, uint32_t b) {
  if (a == b) return true;
  const wasm_functype *x = &m->types[a], *y = &m->types[b];
  return x->nparams == y->nparams && x->nresults == y->nresults &&
         memcmp(functype_params(x), functype_params(y), x->nparams) == 0 &&
         (x->nresults == 0 || x->results[0] == y->results[0]);
}

#ifndef SCP_WASM_ENTER_NODE
#define SCP_WASM_ENTER_NODE
/* The calling-context node of a call from *node at instruction ip to
 * function callee: from the call cache, else the tree (counting the call
 * either way).  Sets *node and returns the node's region counters, or NULL
 * on OOM. */
static inline uint64_t *enter_node(scp_wasm_instance *inst, uint32_t *node, const void *ip,
                                   uint32_t callee, uint64_t callsite_pc, uint32_t ncounters) {
  uintptr_t k = ((uintptr_t)ip >> 4) ^ ((uintptr_t)*node * 0x9e3779b1u) ^ callee;
  wasm_call_cache *e = &inst->call_cache[(k ^ (k >> 10)) & (SCP_CALL_CACHE - 1)];
  scp_tree *t = inst->tree;
  if (SCP_LIKELY(e->ip == ip && e->node == *node && e->callee == callee)) {
    t->nodes[e->child].calls++;
    *node = e->child;
    return e->counters;
  }
  uint32_t child = scp_tree_enter(t, *node, callsite_pc, SCP_KIND_GUEST, inst->module_id, callee);
  if (child == SCP_NODE_NONE) return NULL;
  uint64_t *c = t->nodes[child].counters ? t->nodes[child].counters
                                         : scp_tree_counters(t, child, ncounters);
  if (!c) return NULL;
  *e = (wasm_call_cache){.ip = ip, .node = *node, .callee = callee, .child = child, .counters = c};
  *node = child;
  return c;
}
#endif

#ifndef SCP_WASM_TRACE
#define SCP_WASM_TRACE
/* Loads with a local.set folded in after them: the load, not the last
 * operator of the instruction, is the one that traps. */
static const bool load_then_set[IOP_COUNT] = {
#define LOAD(n, b, o, s, e) [IOP_##n##_LS] = true, [IOP_##n##_TS] = true,
#include "wasm/wasm_ops.def"
};

/* The wasm pc of internal instruction ip of fn, where it stopped: the
 * operator whose fuel it runs (the last one recorded at or before it),
 * or for a load with a local.set after it, the load. */
static uint32_t pc_of(const wasm_func *fn, const scp_ins *ip) {
  uint32_t k = (uint32_t)(ip - fn->code), pc = fn->body_start, prev = pc;
  for (uint32_t i = 0; i < fn->nmeta && fn->meta[i].ins <= k; i++) {
    prev = pc;
    pc = fn->meta[i].pc;
  }
  return load_then_set[ip->op] ? prev : pc;
}

static uint32_t func_index_of(const scp_wasm_module *m, const wasm_func *fn) {
  return (uint32_t)(fn - m->funcs) + m->nfunc_imports;
}

/* Keep the guest stack of a trap (cold path: once per failed call). */
static void wasm_trace(scp_wasm_instance *inst, const wasm_func *fn, uint32_t func_index,
                       const scp_ins *ip, uint32_t depth, uint32_t node) {
  inst->ntrace = 0;
  inst->trace_unsettled = true;
  if (!fn || !ip) return;
  inst->trace[inst->ntrace].func = func_index;
  inst->trace[inst->ntrace].node = node;
  inst->trace[inst->ntrace].ins = (uint32_t)(ip - fn->code);
  inst->trace[inst->ntrace++].pc = pc_of(fn, ip);
  /* frames[d] (d >= 1) holds the caller of the d-th call: its function and
   * the call instruction, whose b is the call's wasm pc */
  for (uint32_t d = depth; d-- > 1 && inst->ntrace < SCP_WASM_TRACE_MAX;) {
    const wasm_frame *fr = &inst->frames[d];
    if (!fr->func || !fr->ret_ip) break;
    inst->trace[inst->ntrace].func = func_index_of(inst->mod, fr->func);
    inst->trace[inst->ntrace].node = fr->node;
    inst->trace[inst->ntrace].ins = (uint32_t)(fr->ret_ip - fr->func->code);
    inst->trace[inst->ntrace++].pc = (uint32_t)fr->ret_ip->b;
  }
}
#endif

/* Dynamic fuel at pc: book fuel*scale as metric 0 of the running node. */
static void book_dynamic(scp_wasm_instance *inst, uint32_t node, uint64_t pc, uint64_t fuel) {
  if (!inst->tree || fuel == 0) return;
  uint64_t cost[SCP_MAX_METRICS] = {0};
  cost[0] = fuel * inst->fuel_scale;
  scp_tree_add_pc(inst->tree, node, pc, cost);
}

int EXEC_NAME(scp_wasm_instance *inst, uint32_t f, uint64_t *args, scp_error *err) {
  /* The module is read through inst->mod where it is needed (calls, traps,
   * bulk memory), not held in a local: a local kept it in a callee-saved
   * register the whole loop long. */
  scp_trap trap = SCP_TRAP_NONE;
  uint64_t fuel = inst->fuel;
  uint8_t *mem = inst->mem;
  uint64_t mem_len = inst->mem_len;

  const wasm_func *fn;
  const scp_ins *ip;
  uint64_t *fp, *sp;
  uint64_t *counters;
  uint32_t node = inst->root_node;
  /* the function a trap is charged to while no guest frame runs: kept in
   * the instance, not in f, which would hold a register through the loop */
  inst->trap_func = f;
  /* top: the next frame slot; the call depth is top - inst->frames.  The
   * bounds are read from the instance where they are needed: held in
   * locals they take registers the hot operators' state would lose. */
  wasm_frame *top = inst->frames;

  /* Enter function `callee` with its params at sp - nparams.  Shared by
   * the initial call, CALL and CALL_INDIRECT.  The callee's node is the
   * one its frame slot kept from the last call made there when that call
   * came from the same node and instruction to the same function, else the
   * call cache's or the tree's (child_callee is tested first: a slot no call
   * has filled has only that field set, when a call first reaches it after
   * an attach: the depth test that guards stack exhaustion compares with
   * frames_ready, so that marking costs the hot path nothing).  Up to four
   * locals are zeroed by stores that may run past them into the frame's
   * own operand cells (the stack has slack above its last cell for that),
   * more by memset.  The entry
   * region (region 0, opened first by the compiler, its FUEL the first
   * instruction) is charged here, as its FUEL instruction would: a
   * shortfall traps with ip on it, in the callee's frame. */
#define ENTER(callee_index, callsite_pc)                                           \
  do {                                                                             \
    uint32_t ci_ = (callee_index);                                                 \
    const wasm_func *cf_ = &inst->mod->funcs[ci_ - inst->mod->nfunc_imports];      \
    uint64_t *nfp_ = sp - cf_->nparams;                                            \
    if (SCP_UNLIKELY(top >= inst->frames_ready ||                                  \
                     cf_->frame_need > (size_t)(inst->stack + SCP_WASM_STACK_CELLS - sp))) { \
      if (top >= inst->frames + inst->max_frames ||                                \
          cf_->frame_need > (size_t)(inst->stack + SCP_WASM_STACK_CELLS - sp)) {   \
        trap = SCP_TRAP_STACK_EXHAUSTED;                                           \
        goto out_trap;                                                             \
      }                                                                            \
      top->child_callee = UINT32_MAX;                                              \
      inst->frames_ready = top + 1;                                                \
    }                                                                              \
    wasm_frame *fr_ = top;                                                         \
    uint64_t *cc_;                                                                 \
    uint32_t cn_ = node;                                                           \
    if (!inst->tree) {                                                             \
      cc_ = inst->scratch_counters[ci_ - inst->mod->nfunc_imports];                \
    } else if (SCP_LIKELY(fr_->child_callee == ci_ && fr_->ret_ip == ip &&         \
                          fr_->node == node)) {                                    \
      cn_ = fr_->child;                                                            \
      cc_ = fr_->child_counters;                                                   \
      inst->tree->nodes[cn_].calls++;                                              \
    } else {                                                                       \
      cc_ = enter_node(inst, &cn_, ip, ci_, (callsite_pc),                         \
                       cf_->ncounters ? cf_->ncounters : 1);                      \
      if (SCP_UNLIKELY(!cc_)) goto out_nomem;                                      \
      fr_->child_callee = ci_; fr_->child = cn_; fr_->child_counters = cc_;        \
    }                                                                              \
    top++;                                                                         \
    fr_->ret_ip = ip; fr_->fp = fp; fr_->func = fn; fr_->counters = counters;      \
    fr_->node = node;                                                              \
    node = cn_; counters = cc_;                                                    \
    fp = nfp_;                                                                     \
    uint64_t *lp_ = nfp_ + cf_->nparams;                                           \
    lp_[0] = 0; lp_[1] = 0; lp_[2] = 0; lp_[3] = 0;                                \
    if (SCP_UNLIKELY(cf_->nlocals > 4))                                            \
      memset(lp_ + 4, 0, (size_t)(cf_->nlocals - 4) * sizeof *lp_);               \
    sp = lp_ + cf_->nlocals;                                                       \
    fn = cf_;                                                                      \
    ip = cf_->code;                                                                \
    if (SCP_UNLIKELY(ip->b > fuel)) { trap = SCP_TRAP_OUT_OF_FUEL; goto out_trap; } \
    fuel -= ip->b;                                                                 \
    counters[0]++;                                                                 \
    ip++;                                                                          \
  } while (0)

  /* Dynamic fuel (wasmi's Eager mode): charged before the operation and
   * kept if it then fails; booked at the operation's pc. */
#define CHARGE_DYNAMIC(fuel_)                                                      \
  do {                                                                             \
    uint64_t dyn_ = (fuel_);                                                       \
    if (dyn_ > fuel) { trap = SCP_TRAP_OUT_OF_FUEL; goto out_trap; }               \
    fuel -= dyn_;                                                                  \
    book_dynamic(inst, node, ip->b, dyn_);                                         \
  } while (0)

  /* Call imported function `imp_index` (a function index below the
   * module's nfunc_imports) with its params at sp - nparams; the hook gets
   * its index among all imports.  A failure names the import as the trap's
   * function, which out_trap keeps when no guest frame was entered. */
#define CALL_HOST(imp_index, callsite_pc)                                          \
  do {                                                                             \
    const wasm_functype *ht_ = &inst->mod->types[inst->mod->func_types[(imp_index)]];              \
    uint64_t *hargs_ = sp - ht_->nparams;                                          \
    inst->fuel = fuel; inst->cur_node = node; inst->cur_pc = (callsite_pc);        \
    int hrc_ = inst->env.call ? inst->env.call(inst->env.ctx, inst, inst->mod->func_import[(imp_index)], hargs_, &inst->host_err) \
                              : scp_fail(&inst->host_err, SCP_ERR_HOST, "no host for import"); \
    fuel = inst->fuel; mem = inst->mem; mem_len = inst->mem_len;                   \
    if (SCP_UNLIKELY(hrc_)) {                                                     \
      inst->host_status = hrc_; inst->trap_func = (imp_index);                   \
      trap = SCP_TRAP_HOST; goto out_trap;                                       \
    }                                                                            \
    sp = hargs_ + ht_->nresults;                                                   \
  } while (0)

  sp = args + inst->mod->types[inst->mod->func_types[f]].nparams;
  fp = args;
  fn = NULL;
  ip = NULL;
  counters = NULL;
  if (f < inst->mod->nfunc_imports) {
    CALL_HOST(f, 0);
    goto out_ok;
  }
  ENTER(f, 0);

#ifndef SCP_WASM_SWITCH
  static const void *const labels[IOP_COUNT] = {
#define X(n) [IOP_##n] = &&L_##n,
    SCP_IOPS_CONTROL(X)
#undef X
#define UN(n, b, i, o, e) [IOP_##n] = &&L_##n,
#define BIN(n, b, i, o, e) [IOP_##n] = &&L_##n, [IOP_##n##_C] = &&L_##n##_C,          \
    [IOP_##n##_LC] = &&L_##n##_LC, [IOP_##n##_LL] = &&L_##n##_LL,                \
    [IOP_##n##_BRIF] = &&L_##n##_BRIF, [IOP_##n##_C_BRIF] = &&L_##n##_C_BRIF,        \
    [IOP_##n##_S] = &&L_##n##_S, [IOP_##n##_C_S] = &&L_##n##_C_S,                \
    [IOP_##n##_LC_S] = &&L_##n##_LC_S, [IOP_##n##_LL_S] = &&L_##n##_LL_S,          \
    [IOP_##n##_C_T] = &&L_##n##_C_T, [IOP_##n##_LC_T] = &&L_##n##_LC_T,          \
    [IOP_##n##_LC_BRIF] = &&L_##n##_LC_BRIF, [IOP_##n##_LL_BRIF] = &&L_##n##_LL_BRIF,
#define TRAP_BIN(n, b, i, o) [IOP_##n] = &&L_##n,
#define LOAD(n, b, o, s, e) [IOP_##n] = &&L_##n, [IOP_##n##_L] = &&L_##n##_L,    \
    [IOP_##n##_T] = &&L_##n##_T, [IOP_##n##_X] = &&L_##n##_X,                  \
    [IOP_##n##_LS] = &&L_##n##_LS, [IOP_##n##_TS] = &&L_##n##_TS,
#define STORE(n, b, i, s) [IOP_##n] = &&L_##n, [IOP_##n##_L] = &&L_##n##_L,     \
    [IOP_##n##_LL] = &&L_##n##_LL,
#include "wasm/wasm_ops.def"
  };
#define CASE(n) L_##n:
#define DISPATCH() goto *labels[ip->op]
#define NEXT() do { ip++; DISPATCH(); } while (0)
  DISPATCH();
#else
#define CASE(n) case IOP_##n:
#define DISPATCH() continue
#define NEXT() { ip++; continue; }   /* no do-while: continue must reach the loop */
  for (;;) switch (ip->op) {
#endif

  CASE(UNREACHABLE) { trap = SCP_TRAP_UNREACHABLE; goto out_trap; }
  CASE(FUEL) {
    if (SCP_UNLIKELY(ip->b > fuel)) { trap = SCP_TRAP_OUT_OF_FUEL; goto out_trap; }
    fuel -= ip->b;
    counters[ip->a]++;
    NEXT();
  }
  CASE(BR) { ip = fn->code + ip->a; DISPATCH(); }
  CASE(TAKEN) { counters[ip->a]++; ip = fn->code + ip->b; DISPATCH(); }
  CASE(TAKEN_FUEL) {
    /* a loop's back edge: the region's entry without a dispatch of its
     * own; running out of fuel stops at the FUEL instruction, as there */
    counters[ip->a]++;
    ip = fn->code + ip->b;
    if (SCP_UNLIKELY(ip->b > fuel)) { trap = SCP_TRAP_OUT_OF_FUEL; goto out_trap; }
    fuel -= ip->b;
    counters[ip->a]++;
    NEXT();
  }
/* A taken branch that leaves values on the stack: e->b packs the values
 * dropped (low half) and whether the top one is kept over them (high
 * half); e->a is the target. */
#define BRANCH_ADJ(e_)                                                        \
  do {                                                                        \
    uint32_t drop = (uint32_t)(e_)->b, keep = (uint32_t)((e_)->b >> 32);      \
    if (keep) sp[-1 - (int64_t)drop] = sp[-1];                                \
    sp -= drop;                                                               \
    ip = fn->code + (e_)->a;                                                  \
  } while (0)
  CASE(BR_ADJ) { BRANCH_ADJ(ip); DISPATCH(); }
  CASE(BR_IF) {
    if ((uint32_t)*--sp) { ip = fn->code + ip->a; DISPATCH(); }
    NEXT();
  }
  CASE(BR_IF_L) {
    if ((uint32_t)fp[ip->b]) { ip = fn->code + ip->a; DISPATCH(); }
    NEXT();
  }
  CASE(BR_IF_ADJ) {
    if ((uint32_t)*--sp) { BRANCH_ADJ(ip); DISPATCH(); }
    NEXT();
  }
  CASE(BR_UNLESS) {
    if (!(uint32_t)*--sp) { ip = fn->code + ip->a; DISPATCH(); }
    NEXT();
  }
  CASE(BR_TABLE) {
    uint32_t n = ip->a;
    uint32_t k = (uint32_t)*--sp;
    const scp_ins *e = ip + 1 + (k < n ? k : n);
    if (e->a == SCP_BR_RETURN) goto do_return;
    BRANCH_ADJ(e);
    DISPATCH();
  }
  CASE(RETURN_IF) {
    if (!(uint32_t)*--sp) NEXT();
    goto do_return;
  }
  CASE(RETURN) {
  do_return:;
    uint32_t nres = fn->nresults;
    if (nres) fp[0] = sp[-1];
    sp = fp + nres;
    if (--top == inst->frames) goto out_ok;
    const wasm_frame *fr = top;
    ip = fr->ret_ip; fp = fr->fp; fn = fr->func; counters = fr->counters;
    node = fr->node;
    NEXT();
  }
  CASE(CALL) {
    ENTER(ip->a, ip->b);
    DISPATCH();
  }
  CASE(CALL_IMPORT) {
    CALL_HOST(ip->a, ip->b);
    NEXT();
  }
  CASE(CALL_INDIRECT) {
    uint32_t k = (uint32_t)*--sp;
    if (k >= inst->table_len) { trap = SCP_TRAP_TABLE_OOB; goto out_trap; }
    uint32_t entry = inst->table[k];
    if (!entry) { trap = SCP_TRAP_NULL_ELEM; goto out_trap; }
    uint32_t callee = entry - 1;
    if (!same_type(inst->mod, inst->mod->func_types[callee], ip->a)) { trap = SCP_TRAP_SIG_MISMATCH; goto out_trap; }
    if (callee < inst->mod->nfunc_imports) { CALL_HOST(callee, ip->b); NEXT(); }
    ENTER(callee, ip->b);
    DISPATCH();
  }
  CASE(DROP) { sp--; NEXT(); }
  CASE(SELECT) {
    uint32_t c = (uint32_t)sp[-1];
    sp -= 2;
    if (!c) sp[-1] = sp[0];
    NEXT();
  }
  CASE(SELECT_S) {
    uint32_t c = (uint32_t)sp[-1];
    sp -= 3;
    fp[ip->a] = c ? sp[0] : sp[1];
    NEXT();
  }
  CASE(LOCAL_GET) { *sp++ = fp[ip->a]; NEXT(); }
  CASE(LOCAL_SET) { fp[ip->a] = *--sp; NEXT(); }
  CASE(LOCAL_TEE) { fp[ip->a] = sp[-1]; NEXT(); }
  CASE(LOCAL_COPY) { fp[ip->a] = fp[ip->b]; NEXT(); }
  CASE(LOCAL_SET_C) { fp[ip->a] = ip->b; NEXT(); }
  CASE(I32_SHL_ADD) {
    *sp++ = (uint32_t)(((uint32_t)fp[ip->a] << ((uint32_t)ip->b & 31)) + (uint32_t)(ip->b >> 32));
    NEXT();
  }
  CASE(GLOBAL_GET) { *sp++ = inst->globals[ip->a]; NEXT(); }
  CASE(GLOBAL_SET) { inst->globals[ip->a] = *--sp; NEXT(); }
  CASE(CONST) { *sp++ = ip->b; NEXT(); }
  CASE(MEMORY_SIZE) { *sp++ = inst->mem_pages; NEXT(); }
  CASE(MEMORY_GROW) {
    uint32_t delta = (uint32_t)sp[-1];
    if (delta > SCP_WASM_MAX_PAGES) { sp[-1] = UINT32_MAX; NEXT(); }
    CHARGE_DYNAMIC(((uint64_t)delta * 65536) / FUEL_BYTES_PER);
    uint32_t old = inst->mem_pages;
    if (delta == 0) { sp[-1] = old; NEXT(); }
    uint64_t desired = (uint64_t)old + delta;
    if (inst->env.grow) {
      inst->fuel = fuel; inst->cur_node = node; inst->cur_pc = ip->b;
      uint64_t want = (desired > SCP_WASM_MAX_PAGES ? SCP_WASM_MAX_PAGES : desired) * 65536;
      int grc = inst->env.grow(inst->env.ctx, inst, (uint64_t)old * 65536, want);
      fuel = inst->fuel;
      if (grc == SCP_ERR_LIMIT) { sp[-1] = UINT32_MAX; NEXT(); }
      if (grc) { inst->host_status = grc; trap = SCP_TRAP_HOST; goto out_trap; }
    }
    if (desired > inst->mem_max_pages) { sp[-1] = UINT32_MAX; NEXT(); }
    uint8_t *nm = realloc(inst->mem, (size_t)desired * 65536);
    if (!nm) { sp[-1] = UINT32_MAX; NEXT(); }
    memset(nm + inst->mem_len, 0, (size_t)delta * 65536);
    inst->mem = mem = nm;
    inst->mem_len = mem_len = desired * 65536;
    inst->mem_pages = (uint32_t)desired;
    sp[-1] = old;
    NEXT();
  }
  CASE(MEMORY_FILL) {
    uint64_t n = (uint64_t)(int64_t)(int32_t)(uint32_t)sp[-1];   /* wasmi: i32 as usize */
    uint8_t val = (uint8_t)sp[-2];
    uint64_t d = (uint32_t)sp[-3];
    sp -= 3;
    CHARGE_DYNAMIC(n / FUEL_BYTES_PER);
    if ((int32_t)(uint32_t)sp[2] < 0 || d + n > mem_len) { trap = SCP_TRAP_MEM_OOB; goto out_trap; }
    memset(mem + d, val, n);
    NEXT();
  }
/* memory.copy and memory.init's operands popped (d, s, n; wasmi takes n
 * as an i32 made usize, so a negative n is out of bounds) and the fuel of
 * n bytes charged. */
#define COPY_OPERANDS()                                                       \
  uint64_t n = (uint64_t)(int64_t)(int32_t)(uint32_t)sp[-1];                  \
  uint64_t s = (uint32_t)sp[-2], d = (uint32_t)sp[-3];                        \
  sp -= 3;                                                                    \
  CHARGE_DYNAMIC(n / FUEL_BYTES_PER)
  CASE(MEMORY_COPY) {
    COPY_OPERANDS();
    if ((int32_t)(uint32_t)sp[2] < 0 || s + n > mem_len || d + n > mem_len) { trap = SCP_TRAP_MEM_OOB; goto out_trap; }
    memmove(mem + d, mem + s, n);
    NEXT();
  }
  CASE(MEMORY_INIT) {
    COPY_OPERANDS();
    const wasm_segment *seg = &inst->mod->datas[ip->a];
    uint64_t seglen = inst->data_dropped[ip->a] ? 0 : seg->len;
    if ((int32_t)(uint32_t)sp[2] < 0 || s + n > seglen || d + n > mem_len) { trap = SCP_TRAP_MEM_OOB; goto out_trap; }
    if (n) memcpy(mem + d, seg->data + s, n);
    NEXT();
  }
  CASE(DATA_DROP) { inst->data_dropped[ip->a] = true; NEXT(); }
  CASE(TABLE_INIT) {
    uint64_t n = (uint32_t)sp[-1], s = (uint32_t)sp[-2], d = (uint32_t)sp[-3];
    sp -= 3;
    CHARGE_DYNAMIC(n / FUEL_ELEMS_PER);
    const wasm_segment *seg = &inst->mod->elems[ip->a];
    uint64_t seglen = inst->elem_dropped[ip->a] ? 0 : seg->len;
    if (s + n > seglen || d + n > inst->table_len) { trap = SCP_TRAP_TABLE_ACCESS; goto out_trap; }
    for (uint64_t i = 0; i < n; i++) inst->table[d + i] = seg->funcs[s + i] + 1;
    NEXT();
  }
  CASE(ELEM_DROP) { inst->elem_dropped[ip->a] = true; NEXT(); }
  CASE(TABLE_COPY) {
    uint64_t n = (uint32_t)sp[-1], s = (uint32_t)sp[-2], d = (uint32_t)sp[-3];
    sp -= 3;
    CHARGE_DYNAMIC(n / FUEL_ELEMS_PER);
    if (s + n > inst->table_len || d + n > inst->table_len) { trap = SCP_TRAP_TABLE_ACCESS; goto out_trap; }
    memmove(inst->table + d, inst->table + s, n * sizeof *inst->table);
    NEXT();
  }

/* Every load and store form traps the same way on an effective address
 * ea_ whose size_ bytes are not all in memory. */
#define EA_IN_BOUNDS(size_)                                                   \
  if (SCP_UNLIKELY(ea_ + (size_) > mem_len)) { trap = SCP_TRAP_MEM_OOB; goto out_trap; }
#define LOAD(name_, byte_, out_, size_, expr_)                                \
  CASE(name_) {                                                               \
    uint64_t ea_ = (uint64_t)(uint32_t)sp[-1] + ip->a;                        \
    EA_IN_BOUNDS(size_);                                                      \
    const uint8_t *p = mem + ea_;                                             \
    sp[-1] = (expr_);                                                         \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_L) {                                                           \
    uint64_t ea_ = (uint64_t)(uint32_t)fp[ip->b] + ip->a;                     \
    EA_IN_BOUNDS(size_);                                                      \
    const uint8_t *p = mem + ea_;                                             \
    *sp++ = (expr_);                                                          \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_T) {                                                           \
    fp[ip->b] = sp[-1];                                                       \
    uint64_t ea_ = (uint64_t)(uint32_t)sp[-1] + ip->a;                        \
    EA_IN_BOUNDS(size_);                                                      \
    const uint8_t *p = mem + ea_;                                             \
    sp[-1] = (expr_);                                                         \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_X) {                                                           \
    uint64_t ea_ = (uint32_t)(((uint32_t)fp[ip->a] << ((uint32_t)ip->b & 31)) + \
                              (uint32_t)(ip->b >> 32));                       \
    EA_IN_BOUNDS(size_);                                                      \
    const uint8_t *p = mem + ea_;                                             \
    *sp++ = (expr_);                                                          \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_LS) {                                                          \
    uint64_t ea_ = (uint64_t)(uint32_t)fp[(uint32_t)ip->b] + ip->a;           \
    EA_IN_BOUNDS(size_);                                                      \
    const uint8_t *p = mem + ea_;                                             \
    fp[ip->b >> 32] = (expr_);                                                \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_TS) {                                                          \
    uint64_t addr_ = *--sp;                                                   \
    fp[(uint32_t)ip->b] = addr_;                                              \
    uint64_t ea_ = (uint64_t)(uint32_t)addr_ + ip->a;                         \
    EA_IN_BOUNDS(size_);                                                      \
    const uint8_t *p = mem + ea_;                                             \
    fp[ip->b >> 32] = (expr_);                                                \
    NEXT();                                                                   \
  }
#define STORE(name_, byte_, in_, size_)                                       \
  CASE(name_) {                                                               \
    uint64_t v_ = sp[-1];                                                     \
    uint64_t ea_ = (uint64_t)(uint32_t)sp[-2] + ip->a;                        \
    sp -= 2;                                                                  \
    EA_IN_BOUNDS(size_);                                                      \
    memcpy(mem + ea_, &v_, size_);   /* little-endian host */                \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_L) {                                                           \
    uint64_t v_ = fp[ip->b];                                                  \
    uint64_t ea_ = (uint64_t)(uint32_t)sp[-1] + ip->a;                        \
    sp--;                                                                     \
    EA_IN_BOUNDS(size_);                                                      \
    memcpy(mem + ea_, &v_, size_);                                            \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_LL) {                                                          \
    uint64_t v_ = fp[ip->b >> 32];                                            \
    uint64_t ea_ = (uint64_t)(uint32_t)fp[(uint32_t)ip->b] + ip->a;           \
    EA_IN_BOUNDS(size_);                                                      \
    memcpy(mem + ea_, &v_, size_);                                            \
    NEXT();                                                                   \
  }
#define OPERAND_I32 uint32_t
#define OPERAND_I64 uint64_t
#define UN(name_, byte_, in_, out_, expr_)                                     \
  CASE(name_) {                                                               \
    OPERAND_##in_ x = (OPERAND_##in_)sp[-1];                                  \
    sp[-1] = (uint64_t)(OPERAND_##out_)(expr_);                               \
    NEXT();                                                                   \
  }
#define BIN(name_, byte_, in_, out_, expr_)                                   \
  CASE(name_) {                                                               \
    OPERAND_##in_ a = (OPERAND_##in_)sp[-2], b = (OPERAND_##in_)sp[-1];       \
    sp--;                                                                     \
    sp[-1] = (uint64_t)(OPERAND_##out_)(expr_);                               \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_C) {                                                           \
    OPERAND_##in_ a = (OPERAND_##in_)sp[-1], b = (OPERAND_##in_)ip->b;        \
    sp[-1] = (uint64_t)(OPERAND_##out_)(expr_);                               \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_LC) {                                                          \
    OPERAND_##in_ a = (OPERAND_##in_)fp[ip->a], b = (OPERAND_##in_)ip->b;     \
    *sp++ = (uint64_t)(OPERAND_##out_)(expr_);                                \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_LL) {                                                          \
    OPERAND_##in_ a = (OPERAND_##in_)fp[ip->a], b = (OPERAND_##in_)fp[ip->b]; \
    *sp++ = (uint64_t)(OPERAND_##out_)(expr_);                                \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_BRIF) {                                                        \
    OPERAND_##in_ a = (OPERAND_##in_)sp[-2], b = (OPERAND_##in_)sp[-1];       \
    sp -= 2;                                                                  \
    uint64_t r_ = (uint64_t)(OPERAND_##out_)(expr_);                          \
    if ((uint32_t)r_) { ip = fn->code + ip->a; DISPATCH(); }                  \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_C_BRIF) {                                                      \
    OPERAND_##in_ a = (OPERAND_##in_)sp[-1], b = (OPERAND_##in_)ip->b;        \
    sp--;                                                                     \
    uint64_t r_ = (uint64_t)(OPERAND_##out_)(expr_);                          \
    if ((uint32_t)r_) { ip = fn->code + ip->a; DISPATCH(); }                  \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_S) {                                                           \
    OPERAND_##in_ a = (OPERAND_##in_)sp[-2], b = (OPERAND_##in_)sp[-1];       \
    sp -= 2;                                                                  \
    fp[ip->a] = (uint64_t)(OPERAND_##out_)(expr_);                            \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_C_S) {                                                         \
    OPERAND_##in_ a = (OPERAND_##in_)sp[-1], b = (OPERAND_##in_)ip->b;        \
    sp--;                                                                     \
    fp[ip->a] = (uint64_t)(OPERAND_##out_)(expr_);                            \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_LC_S) {                                                        \
    OPERAND_##in_ a = (OPERAND_##in_)fp[ip->a],                               \
                  b = (OPERAND_##in_)(uint64_t)(int64_t)(int32_t)(uint32_t)ip->b; \
    fp[ip->b >> 32] = (uint64_t)(OPERAND_##out_)(expr_);                      \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_LL_S) {                                                        \
    OPERAND_##in_ a = (OPERAND_##in_)fp[ip->a], b = (OPERAND_##in_)fp[(uint32_t)ip->b]; \
    fp[ip->b >> 32] = (uint64_t)(OPERAND_##out_)(expr_);                      \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_C_T) {                                                         \
    OPERAND_##in_ a = (OPERAND_##in_)sp[-1], b = (OPERAND_##in_)ip->b;        \
    sp[-1] = fp[ip->a] = (uint64_t)(OPERAND_##out_)(expr_);                   \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_LC_T) {                                                        \
    OPERAND_##in_ a = (OPERAND_##in_)fp[ip->a],                               \
                  b = (OPERAND_##in_)(uint64_t)(int64_t)(int32_t)(uint32_t)ip->b; \
    *sp++ = fp[ip->b >> 32] = (uint64_t)(OPERAND_##out_)(expr_);              \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_LC_BRIF) {                                                     \
    OPERAND_##in_ a = (OPERAND_##in_)fp[(uint32_t)ip->b],                     \
                  b = (OPERAND_##in_)(uint64_t)(int64_t)(int32_t)(uint32_t)(ip->b >> 32); \
    uint64_t r_ = (uint64_t)(OPERAND_##out_)(expr_);                          \
    if ((uint32_t)r_) { ip = fn->code + ip->a; DISPATCH(); }                  \
    NEXT();                                                                   \
  }                                                                           \
  CASE(name_##_LL_BRIF) {                                                     \
    OPERAND_##in_ a = (OPERAND_##in_)fp[(uint32_t)ip->b], b = (OPERAND_##in_)fp[ip->b >> 32]; \
    uint64_t r_ = (uint64_t)(OPERAND_##out_)(expr_);                          \
    if ((uint32_t)r_) { ip = fn->code + ip->a; DISPATCH(); }                  \
    NEXT();                                                                   \
  }
#include "wasm/wasm_ops.def"

  CASE(I32_DIV_S) {
    int32_t a = (int32_t)(uint32_t)sp[-2], b = (int32_t)(uint32_t)sp[-1];
    if (b == 0) { trap = SCP_TRAP_DIV_ZERO; goto out_trap; }
    if (a == INT32_MIN && b == -1) { trap = SCP_TRAP_INT_OVERFLOW; goto out_trap; }
    sp--; sp[-1] = (uint32_t)(a / b); NEXT();
  }
  CASE(I32_DIV_U) {
    uint32_t a = (uint32_t)sp[-2], b = (uint32_t)sp[-1];
    if (b == 0) { trap = SCP_TRAP_DIV_ZERO; goto out_trap; }
    sp--; sp[-1] = a / b; NEXT();
  }
  CASE(I32_REM_S) {
    int32_t a = (int32_t)(uint32_t)sp[-2], b = (int32_t)(uint32_t)sp[-1];
    if (b == 0) { trap = SCP_TRAP_DIV_ZERO; goto out_trap; }
    sp--; sp[-1] = (b == -1) ? 0 : (uint32_t)(a % b); NEXT();
  }
  CASE(I32_REM_U) {
    uint32_t a = (uint32_t)sp[-2], b = (uint32_t)sp[-1];
    if (b == 0) { trap = SCP_TRAP_DIV_ZERO; goto out_trap; }
    sp--; sp[-1] = a % b; NEXT();
  }
  CASE(I64_DIV_S) {
    int64_t a = (int64_t)sp[-2], b = (int64_t)sp[-1];
    if (b == 0) { trap = SCP_TRAP_DIV_ZERO; goto out_trap; }
    if (a == INT64_MIN && b == -1) { trap = SCP_TRAP_INT_OVERFLOW; goto out_trap; }
    sp--; sp[-1] = (uint64_t)(a / b); NEXT();
  }
  CASE(I64_DIV_U) {
    uint64_t a = sp[-2], b = sp[-1];
    if (b == 0) { trap = SCP_TRAP_DIV_ZERO; goto out_trap; }
    sp--; sp[-1] = a / b; NEXT();
  }
  CASE(I64_REM_S) {
    int64_t a = (int64_t)sp[-2], b = (int64_t)sp[-1];
    if (b == 0) { trap = SCP_TRAP_DIV_ZERO; goto out_trap; }
    sp--; sp[-1] = (b == -1) ? 0 : (uint64_t)(a % b); NEXT();
  }
  CASE(I64_REM_U) {
    uint64_t a = sp[-2], b = sp[-1];
    if (b == 0) { trap = SCP_TRAP_DIV_ZERO; goto out_trap; }
    sp--; sp[-1] = a % b; NEXT();
  }
#ifdef SCP_WASM_SWITCH
  default:
    trap = SCP_TRAP_UNREACHABLE;
    goto out_trap;
  }
#endif

out_ok:
  inst->fuel = fuel;
  inst->trap = SCP_TRAP_NONE;
  return SCP_OK;

out_nomem:
  inst->fuel = fuel;
  return scp_fail(err, SCP_ERR_NOMEM, "out of memory while profiling");

out_trap:;
  uint32_t func_index = fn ? func_index_of(inst->mod, fn) : inst->trap_func;
  inst->fuel = fuel;
  inst->trap = trap;
  inst->trap_func = func_index;
  wasm_trace(inst, fn, func_index, ip, (uint32_t)(top - inst->frames), node);
  inst->cur_node = node;
  if (trap == SCP_TRAP_HOST)
    return scp_fail(err, SCP_ERR_TRAP, "%s", inst->host_err.msg);
  return scp_fail(err, SCP_ERR_TRAP, "trap: %s (in function %u)", scp_trap_text(trap), func_index);
#undef CASE
#undef DISPATCH
#undef NEXT
#undef ENTER
#undef CALL_HOST
#undef CHARGE_DYNAMIC
#undef OPERAND_I32
#undef OPERAND_I64
}
