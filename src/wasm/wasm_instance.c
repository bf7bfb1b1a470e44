/*
 * wasm_instance.c — instantiation, calls, fuel, and settling region
 * counters into per-pc costs.
 */
#include "wasm/wasm_private.h"
#include "wasm/wasm_iops.h"

#include <stdlib.h>
#include <string.h>


/* Room beyond the limit: the host writes a result over args[0]. */
#define STACK_SLOTS (SCP_WASM_STACK_CELLS + 16)

static const char *const trap_texts[SCP_TRAP_COUNT] = {
  [SCP_TRAP_NONE] = "no trap",
  [SCP_TRAP_UNREACHABLE] = "unreachable",
  [SCP_TRAP_MEM_OOB] = "out of bounds memory access",
  [SCP_TRAP_TABLE_OOB] = "undefined element",
  [SCP_TRAP_TABLE_ACCESS] = "out of bounds table access",
  [SCP_TRAP_NULL_ELEM] = "uninitialized element",
  [SCP_TRAP_SIG_MISMATCH] = "indirect call type mismatch",
  [SCP_TRAP_DIV_ZERO] = "integer divide by zero",
  [SCP_TRAP_INT_OVERFLOW] = "integer overflow",
  [SCP_TRAP_STACK_EXHAUSTED] = "call stack exhausted",
  [SCP_TRAP_OUT_OF_FUEL] = "all fuel consumed",
  [SCP_TRAP_HOST] = "host function error",
};

const char *scp_trap_text(scp_trap t) {
  return t < SCP_TRAP_COUNT ? trap_texts[t] : "unknown trap";
}

static int run(scp_wasm_instance *inst, uint32_t f, uint64_t *args, scp_error *err) {
  return inst->switch_dispatch ? scp_wasm_exec_switch(inst, f, args, err)
                               : scp_wasm_exec_goto(inst, f, args, err);
}

void scp_wasm_set_switch_dispatch(scp_wasm_instance *inst, bool on) {
  inst->switch_dispatch = on;
}

void scp_wasm_instance_free(scp_wasm_instance *inst) {
  if (!inst) return;
  free(inst->mem);
  free(inst->table);
  free(inst->globals);
  free(inst->data_dropped);
  free(inst->elem_dropped);
  free(inst->stack);
  free(inst->frames);
  free(inst->call_cache);
  if (inst->scratch_counters) {
    for (uint32_t i = 0; i + inst->mod->nfunc_imports < inst->mod->nfuncs; i++)
      free(inst->scratch_counters[i]);
    free(inst->scratch_counters);
  }
  free(inst);
}

static uint32_t segment_offset(const scp_wasm_instance *inst, const wasm_segment *s) {
  return s->offset_global >= 0 ? (uint32_t)inst->globals[s->offset_global]
                               : (uint32_t)s->offset_value;
}

/* No frame slot holds a node of the tree attached next: each is marked
 * empty when a call first reaches it (in the interpreter), so an attach
 * costs nothing however deep the stack may go. */
static void forget_frame_nodes(scp_wasm_instance *inst) {
  inst->frames_ready = inst->frames;
}

int scp_wasm_instantiate(const scp_wasm_module *m, const scp_wasm_env *env,
                         scp_wasm_instance **out, scp_error *err) {
  *out = NULL;
  if (m->mem_imported)
    return scp_fail(err, SCP_ERR_INVALID, "memory imports are not supported (the Soroban host provides none)");
  if (m->table_imported)
    return scp_fail(err, SCP_ERR_INVALID, "table imports are not supported (the Soroban host provides none)");
  scp_wasm_instance *inst = calloc(1, sizeof *inst);
  if (!inst) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  inst->mod = m;
  if (env) inst->env = *env;
  inst->fuel = inst->tank = SCP_FUEL_INFINITE;
  inst->fuel_scale = 1;
  inst->max_frames = SCP_WASM_MAX_CALL_DEPTH + 1;
  uint32_t ndef = m->nfuncs - m->nfunc_imports;
  inst->globals = calloc(m->nglobals + 1, sizeof *inst->globals);
  inst->data_dropped = calloc(m->ndatas + 1, 1);
  inst->elem_dropped = calloc(m->nelems + 1, 1);
  inst->stack = malloc(STACK_SLOTS * sizeof *inst->stack);
  inst->frames = malloc((size_t)(inst->max_frames + 1) * sizeof *inst->frames);
  inst->scratch_counters = calloc(ndef + 1, sizeof *inst->scratch_counters);
  int rc = SCP_OK;
  if (!inst->globals || !inst->data_dropped || !inst->elem_dropped || !inst->stack ||
      !inst->frames || !inst->scratch_counters) {
    rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    goto fail;
  }
  forget_frame_nodes(inst);
  for (uint32_t i = 0; i < ndef; i++) {
    uint32_t n = m->funcs[i].ncounters ? m->funcs[i].ncounters : 1;
    if (!(inst->scratch_counters[i] = calloc(n, sizeof(uint64_t)))) {
      rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
      goto fail;
    }
  }
  /* Globals: imports first, then constant initialisers. */
  for (uint32_t i = 0; i < m->nglobals; i++) {
    const wasm_global *g = &m->globals[i];
    uint64_t v;
    if (g->imported) {
      if (!env || !env->global_imports) {
        rc = scp_fail(err, SCP_ERR_INVALID, "unknown import: global %u is not provided", i);
        goto fail;
      }
      v = env->global_imports[g->import_index];
    } else if (g->init_global >= 0) {
      v = inst->globals[g->init_global];
    } else {
      v = g->init_value;
    }
    inst->globals[i] = g->type == SCP_WASM_I32 ? (uint32_t)v : v;
  }
  /* Memory: wasmi asks the resource limiter for the initial size
   * (MemoryEntity::new -> memory_growing(0, initial)); Soroban charges
   * MemAlloc there. */
  if (m->has_memory) {
    inst->mem_pages = m->mem_min;
    inst->mem_max_pages = m->mem_has_max ? m->mem_max : SCP_WASM_MAX_PAGES;
    inst->mem_len = (uint64_t)m->mem_min * 65536;
    if (inst->env.grow) {
      int grc = inst->env.grow(inst->env.ctx, inst, 0, inst->mem_len);
      if (grc) {
        rc = scp_fail(err, grc == SCP_ERR_LIMIT ? SCP_ERR_LIMIT : grc,
                      "initial memory of %u pages refused", m->mem_min);
        goto fail;
      }
    }
    inst->mem = calloc(inst->mem_len ? inst->mem_len : 1, 1);
    if (!inst->mem) { rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory for linear memory"); goto fail; }
  }
  if (m->has_table) {
    /* Soroban's ResourceLimiter::table_growing (wasmi Table::new asks it) */
    if (m->table_min > SCP_WASM_MAX_TABLE) {
      rc = scp_fail(err, SCP_ERR_LIMIT, "table of %u elements exceeds Soroban's limit of %u",
                    m->table_min, SCP_WASM_MAX_TABLE);
      goto fail;
    }
    inst->table_len = m->table_min;
    inst->table = calloc(m->table_min + 1, sizeof *inst->table);
    if (!inst->table) { rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory"); goto fail; }
  }
  /* Active segments in order; a failing one traps (and the earlier ones
   * stay written, per the bulk-memory semantics). */
  for (uint32_t i = 0; i < m->nelems; i++) {
    const wasm_segment *s = &m->elems[i];
    if (s->declarative) inst->elem_dropped[i] = true;
    if (!s->active) continue;
    uint64_t off = segment_offset(inst, s);
    if (off + s->len > inst->table_len) {
      inst->trap = SCP_TRAP_TABLE_ACCESS;
      rc = scp_fail(err, SCP_ERR_TRAP, "trap: out of bounds table access (element segment %u)", i);
      goto fail;
    }
    for (uint32_t j = 0; j < s->len; j++) inst->table[off + j] = s->funcs[j] + 1;
    inst->elem_dropped[i] = true;
  }
  for (uint32_t i = 0; i < m->ndatas; i++) {
    const wasm_segment *s = &m->datas[i];
    if (!s->active) continue;
    uint64_t off = segment_offset(inst, s);
    if (off + s->len > inst->mem_len) {
      inst->trap = SCP_TRAP_MEM_OOB;
      rc = scp_fail(err, SCP_ERR_TRAP, "trap: out of bounds memory access (data segment %u)", i);
      goto fail;
    }
    if (s->len) memcpy(inst->mem + off, s->data, s->len);
    inst->data_dropped[i] = true;
  }
  if (m->has_start) {
    rc = run(inst, m->start, inst->stack, err);
    if (rc) goto fail;
  }
  *out = inst;
  return SCP_OK;
fail:
  scp_wasm_instance_free(inst);
  return rc;
}

int scp_wasm_call(scp_wasm_instance *inst, uint32_t f, const uint64_t *args,
                  uint64_t *results, scp_error *err) {
  const scp_wasm_module *m = inst->mod;
  if (f >= m->nfuncs) return scp_fail(err, SCP_ERR_NOTFOUND, "no function %u", f);
  const wasm_functype *t = &m->types[m->func_types[f]];
  if (t->nparams) memcpy(inst->stack, args, t->nparams * sizeof *args);
  inst->trap = SCP_TRAP_NONE;
  inst->host_status = SCP_OK;
  inst->ntrace = 0;
  inst->trace_unsettled = false;
  int rc = run(inst, f, inst->stack, err);
  if (rc == SCP_OK && t->nresults) results[0] = inst->stack[0];
  return rc;
}

scp_trap scp_wasm_last_trap(const scp_wasm_instance *inst) { return inst->trap; }
uint32_t scp_wasm_last_trap_func(const scp_wasm_instance *inst) { return inst->trap_func; }

size_t scp_wasm_trap_trace(const scp_wasm_instance *inst, size_t i, uint32_t *func, uint64_t *pc) {
  if (i < inst->ntrace) {
    *func = inst->trace[i].func;
    *pc = inst->trace[i].pc;
  }
  return inst->ntrace;
}
int scp_wasm_host_status(const scp_wasm_instance *inst) { return inst->host_status; }

void scp_wasm_set_fuel(scp_wasm_instance *inst, uint64_t fuel) {
  inst->consumed_acc += inst->tank - inst->fuel;
  inst->tank = inst->fuel = fuel;
}

uint64_t scp_wasm_fuel(const scp_wasm_instance *inst) { return inst->fuel; }

uint64_t scp_wasm_fuel_consumed(const scp_wasm_instance *inst) {
  return inst->consumed_acc + (inst->tank - inst->fuel);
}

void scp_wasm_attach(scp_wasm_instance *inst, scp_tree *t, uint32_t at,
                     uint32_t module_id, unsigned fuel_metric_scale) {
  /* a new tree (or none) invalidates every cached node */
  free(inst->call_cache);
  forget_frame_nodes(inst);
  inst->call_cache = t ? calloc(SCP_CALL_CACHE, sizeof *inst->call_cache) : NULL;
  if (t && !inst->call_cache) t = NULL;   /* out of memory: run unprofiled */
  for (uint32_t i = 0; t && i < SCP_CALL_CACHE; i++)
    inst->call_cache[i].callee = UINT32_MAX;   /* no function has it: empty */
  inst->tree = t;
  inst->root_node = at;
  inst->cur_node = at;
  inst->module_id = module_id;
  inst->fuel_scale = fuel_metric_scale ? fuel_metric_scale : 1;
}

uint32_t scp_wasm_current_node(const scp_wasm_instance *inst) { return inst->cur_node; }
uint64_t scp_wasm_current_pc(const scp_wasm_instance *inst) { return inst->cur_pc; }

/* Where the last trap stopped node id's runs: the instruction of each of
 * its frames on the trapped stack, and the pc of the operator that
 * stopped there.  Out of fuel at a FUEL instruction stopped nothing: that
 * region was never entered (its count says so). */
static size_t trap_stops(const scp_wasm_instance *inst, uint32_t id, uint32_t *stops,
                         uint32_t *stop_pcs) {
  size_t n = 0;
  if (!inst->trace_unsettled) return 0;
  for (uint32_t i = 0; i < inst->ntrace; i++) {
    if (inst->trace[i].node != id) continue;
    const wasm_func *fn = &inst->mod->funcs[inst->trace[i].func - inst->mod->nfunc_imports];
    if (i == 0 && inst->trap == SCP_TRAP_OUT_OF_FUEL && fn->code[inst->trace[i].ins].op == IOP_FUEL)
      continue;
    stop_pcs[n] = inst->trace[i].pc;
    stops[n++] = inst->trace[i].ins;
  }
  return n;
}

/* Runs of a stopped instruction that an operator fused after the one that
 * stopped it (a local.set after a load that trapped) did not make. */
static uint64_t stopped_before(const wasm_fuel_meta *me, const uint32_t *stops,
                               const uint32_t *stop_pcs, size_t nstops) {
  uint64_t k = 0;
  for (size_t s = 0; s < nstops; s++)
    if (stops[s] == me->ins && me->pc > stop_pcs[s]) k++;
  return k;
}

static void land(const wasm_func *fn, uint32_t k, uint64_t target, uint64_t n, uint64_t *arrive) {
  if (target > k && target < fn->body_len) arrive[target] += n;
}

/* How often each instruction of fn's body ran in one node, in one forward
 * pass: a FUEL instruction ran as often as its region was entered (loop
 * back-edges land on one), a branch sends its taken count (its TAKEN
 * stub's counter; all of it for br) to its target, and the rest falls
 * through; a trap's stops (trap_stops) end one run early. */
static void ran_counts(const wasm_func *fn, const uint64_t *cnt, uint64_t *ran, uint64_t *arrive,
                       const uint32_t *stops, size_t nstops) {
  memset(arrive, 0, (size_t)fn->body_len * sizeof *arrive);
  uint64_t flow = 0;
  for (uint32_t k = 0; k < fn->body_len; k++) {
    const scp_ins *in = &fn->code[k];
    uint64_t e = in->op == IOP_FUEL ? cnt[in->a] : flow + arrive[k];
    ran[k] = flow = e;
    /* a trap stopped one run at k (the trapping operator, or a call that
     * did not come back): the rest of that region did not run */
    for (size_t i = 0; i < nstops; i++)
      if (stops[i] == k && flow) flow--;
    if (in->op == IOP_BR || in->op == IOP_BR_ADJ) {
      land(fn, k, in->a, e, arrive);
      flow = 0;
    } else if (in->op == IOP_RETURN || in->op == IOP_RETURN_IF || in->op == IOP_UNREACHABLE) {
      flow = in->op == IOP_RETURN_IF ? e : 0;   /* RETURN_IF: no longer emitted */
    } else if (in->op == IOP_BR_TABLE) {
      for (uint32_t j = k + 1; j <= k + 1 + in->a; j++) {
        const scp_ins *stub = &fn->code[fn->code[j].a];
        land(fn, k, stub->b, cnt[stub->a], arrive);
        ran[j] = 0;
      }
      k += in->a + 1;
      flow = 0;
    } else if (wasm_iop_is_cond_branch(in->op)) {
      const scp_ins *stub = &fn->code[in->a];
      uint64_t taken = cnt[stub->a];
      land(fn, k, stub->b, taken, arrive);
      flow = e > taken ? e - taken : 0;
    }
  }
}

int scp_wasm_settle(scp_wasm_instance *inst) {
  scp_tree *t = inst->tree;
  if (!t) return SCP_OK;
  const scp_wasm_module *m = inst->mod;
  uint32_t maxlen = 1;
  for (uint32_t f = 0; f + m->nfunc_imports < m->nfuncs; f++)
    if (m->funcs[f].body_len > maxlen) maxlen = m->funcs[f].body_len;
  uint64_t *ran = malloc(2 * (size_t)maxlen * sizeof *ran);
  if (!ran) return SCP_ERR_NOMEM;
  int rc = SCP_OK;
  for (size_t id = 0; id < t->n && !rc; id++) {
    scp_tree_node *n = &t->nodes[id];
    if (n->kind != SCP_KIND_GUEST || n->module != inst->module_id || !n->counters) continue;
    if (n->callee < m->nfunc_imports || n->callee >= m->nfuncs) continue;
    const wasm_func *fn = &m->funcs[n->callee - m->nfunc_imports];
    uint64_t *cnt = n->counters;
    uint64_t cost[SCP_MAX_METRICS] = {0};
    uint32_t stops[SCP_WASM_TRACE_MAX], stop_pcs[SCP_WASM_TRACE_MAX];
    size_t nstops = trap_stops(inst, (uint32_t)id, stops, stop_pcs);
    ran_counts(fn, cnt, ran, ran + maxlen, stops, nstops);
    for (uint32_t i = 0; i < fn->nmeta;) {
      /* entries of one pc are adjacent per region run; sum them per pc */
      uint32_t pc = fn->meta[i].pc, first = UINT32_MAX;
      uint64_t fuel = 0, ahead = 0, runs = 0;
      for (; i < fn->nmeta && fn->meta[i].pc == pc; i++) {
        const wasm_fuel_meta *me = &fn->meta[i];
        uint64_t entries = cnt[me->region], r = ran[me->ins];
        uint64_t short_ = stopped_before(me, stops, stop_pcs, nstops);
        r = r > short_ ? r - short_ : 0;
        fuel += entries * me->fuel;
        ahead += (entries > r ? entries - r : 0) * me->fuel;
        inst->ops_settled += entries;
        if (me->ins < first) { first = me->ins; runs = r; }
      }
      if (!fuel) continue;
      cost[0] = fuel * inst->fuel_scale;
      /* The operator's runs are its first internal instruction's: an `if`
       * is its test (the then-arm's FUEL after it counts arm entries), an
       * `else` the jump over the else-arm (or, when the then-arm never
       * reaches it, the else-arm's FUEL), a `loop` or the function entry
       * its FUEL.  Operators fused into one instruction all ran as often
       * as it did (a fused branch is always its last part), but for a
       * local.set fused after a load that trapped (stopped_before). */
      if (!scp_tree_add_pc_runs(t, (uint32_t)id, pc, cost, ahead * inst->fuel_scale, runs)) {
        rc = SCP_ERR_NOMEM;
        break;
      }
      n = &t->nodes[id];
    }
    memset(n->counters, 0, (size_t)n->ncounters * sizeof *n->counters);
  }
  free(ran);
  inst->trace_unsettled = false;
  return rc;
}

uint64_t scp_wasm_ops_settled(const scp_wasm_instance *inst) { return inst->ops_settled; }

uint8_t *scp_wasm_memory(scp_wasm_instance *inst, uint64_t *len) {
  *len = inst->mem_len;
  return inst->mem;
}

bool scp_wasm_global_get(const scp_wasm_instance *inst, uint32_t g, uint64_t *v) {
  if (g >= inst->mod->nglobals) return false;
  *v = inst->globals[g];
  return true;
}

const scp_wasm_module *scp_wasm_instance_module(const scp_wasm_instance *inst) {
  return inst->mod;
}
