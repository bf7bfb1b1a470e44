/*
 * sbpf_vm.c — one invocation: the memory map, the meter's slow paths,
 * calling-context nodes and settling block counters into per-pc CU.
 *
 * The memory map is solana-sbpf's aligned mapping (agave's choice while
 * its virtual-address-space features are off): region i covers the 4 GiB
 * at i << 32; 0 rodata (v3), 1 program (text and v0-v2 rodata), 2 stack,
 * 3 heap, 4 input.  The v0 stack is "gapped": each 4 KiB frame is followed
 * by an unmapped 4 KiB hole, and a call moves r10 two frames up.
 */
#include "sbpf/sbpf_private.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static uint8_t empty_region[1];

/* A VM whose fields up to frames are zero and whose call cache is empty:
 * with a pool, the struct of a free slot (taken, with its memory and
 * counters); without one, or when the pool is out of memory, a new one
 * with its own counters. */
static scp_sbpf_vm *vm_alloc(scp_sbpf_pool *pool, const scp_sbpf_prog *p) {
  size_t slot = pool ? sbpf_pool_take(pool, p) : SIZE_MAX;
  scp_sbpf_vm *vm = slot != SIZE_MAX ? pool->slots[slot].vm : NULL;
  if (slot != SIZE_MAX && !vm) {
    vm = pool->slots[slot].vm = calloc(1, sizeof *vm);
    if (!vm) {
      sbpf_pool_give(pool, slot, 0, 0);
      return NULL;
    }
  }
  if (!vm) {
    vm = calloc(1, sizeof *vm);
    if (!vm) return NULL;
  }
  memset(vm, 0, offsetof(scp_sbpf_vm, frames));
  if (++vm->cache_gen == 0) {
    memset(vm->cache, 0, sizeof vm->cache);
    vm->cache_gen = 1;
  }
  if (slot == SIZE_MAX) return vm;
  sbpf_mem *m = &pool->slots[slot];
  vm->pool = pool;
  vm->slot = slot;
  vm->stack = m->stack;
  vm->heap = m->heap;
  vm->scratch = m->scratch;
  return vm;
}

int scp_sbpf_vm_create(const scp_sbpf_prog *p, const scp_sbpf_vm_config *cfg,
                       scp_sbpf_vm **out, scp_error *err) {
  *out = NULL;
  if (!cfg || !cfg->meter) return scp_fail(err, SCP_ERR_ARG, "sBPF VM: no CU meter given");
  uint32_t heap = cfg->heap_size ? cfg->heap_size : SCP_SBPF_HEAP_DEFAULT;
  if (heap > SCP_SBPF_HEAP_MAX)
    return scp_fail(err, SCP_ERR_ARG, "sBPF VM: heap of %u bytes is over the %u-byte maximum", heap,
                    SCP_SBPF_HEAP_MAX);
  if (cfg->ninput > 1 || (cfg->ninput && !cfg->input))
    return scp_fail(err, SCP_ERR_ARG, "sBPF VM: the aligned memory map takes one input region");
  if (cfg->ninput &&
      (cfg->input[0].vaddr < SCP_SBPF_MM_INPUT ||
       cfg->input[0].vaddr - SCP_SBPF_MM_INPUT + cfg->input[0].len > SCP_SBPF_MM_REGION))
    return scp_fail(err, SCP_ERR_ARG, "sBPF VM: the input region must lie in [0x%llx, 0x%llx)",
                    (unsigned long long)SCP_SBPF_MM_INPUT,
                    (unsigned long long)(SCP_SBPF_MM_INPUT + SCP_SBPF_MM_REGION));
  scp_sbpf_vm *vm = vm_alloc(cfg->pool, p);
  if (!vm) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  vm->prog = p;
  vm->cfg = *cfg;
  vm->cfg.heap_size = heap;
  vm->stack_len = (uint64_t)SCP_SBPF_FRAME_SIZE * SCP_SBPF_MAX_CALL_DEPTH;
  if (!vm->pool) {
    vm->stack = calloc(1, vm->stack_len);
    vm->heap = calloc(1, heap);
    vm->scratch = calloc(p->nblocks + 1, sizeof *vm->scratch);
  }
  if (!vm->stack || !vm->heap || !vm->scratch) {
    scp_sbpf_vm_destroy(vm);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  bool v3 = p->version >= SCP_SBPF_V3;
  uint8_t *ro = p->ro_len ? p->ro : empty_region;
  vm->regions[0] = v3 ? (sbpf_region){ .host = ro, .vaddr = SCP_SBPF_MM_RODATA, .len = p->ro_len,
                                       .writable = false, .gap_shift = 0 }
                      : (sbpf_region){ .host = empty_region, .vaddr = 0, .len = 0,
                                       .writable = false, .gap_shift = 0 };
  vm->regions[1] = v3 ? (sbpf_region){ .host = empty_region, .vaddr = SCP_SBPF_MM_BYTECODE, .len = 0,
                                       .writable = false, .gap_shift = 0 }
                      : (sbpf_region){ .host = ro, .vaddr = p->ro_vaddr, .len = p->ro_len,
                                       .writable = false, .gap_shift = 0 };
  vm->regions[2] = (sbpf_region){ .host = vm->stack, .vaddr = SCP_SBPF_MM_STACK, .len = vm->stack_len,
                                  .writable = true, .gap_shift = p->version == SCP_SBPF_V0 ? 12 : 0 };
  vm->regions[3] = (sbpf_region){ .host = vm->heap, .vaddr = SCP_SBPF_MM_HEAP, .len = heap,
                                  .writable = true, .gap_shift = 0 };
  vm->nregions = 4;
  if (cfg->ninput) {
    const scp_sbpf_region *in = &cfg->input[0];
    vm->regions[4] = (sbpf_region){ .host = in->len ? in->host : empty_region, .vaddr = in->vaddr,
                                    .len = in->len, .writable = in->writable, .gap_shift = 0 };
    vm->nregions = 5;
  }
  bool manual = p->version == SCP_SBPF_V1 || p->version == SCP_SBPF_V2;
  vm->reg[10] = SCP_SBPF_MM_STACK + (manual ? vm->stack_len : SCP_SBPF_FRAME_SIZE);
  /* pooled memory: map the first frame (the stack grows up from it but
   * for v1/v2, whose r10 starts at the top: all of it) and no heap yet */
  if (vm->pool) {
    if (!manual) vm->regions[2].len = SCP_SBPF_FRAME_SIZE;
    vm->regions[3].len = 0;
  }
  vm->node = cfg->node;
  *out = vm;
  return SCP_OK;
}

void scp_sbpf_vm_destroy(scp_sbpf_vm *vm) {
  if (!vm) return;
  sbpf_unpatch(vm);
  /* a VM destroyed unsettled leaves counts in its counters */
  sbpf_ctrs_reset(sbpf_vm_ctrs(vm), true);
  free(vm->strays);
  if (vm->pool) {
    sbpf_pool_give(vm->pool, vm->slot, vm->regions[2].len, vm->regions[3].len);
    return;
  }
  free(vm->stack);
  free(vm->heap);
  free(vm->scratch);
  sbpf_ctrs_free(&vm->own);
  free(vm);
}

void scp_sbpf_vm_set_reg(scp_sbpf_vm *vm, unsigned r, uint64_t v) {
  if (r < 11) vm->reg[r] = v;
}

uint64_t scp_sbpf_vm_reg(const scp_sbpf_vm *vm, unsigned r) { return r < 11 ? vm->reg[r] : 0; }

void scp_sbpf_vm_set_switch_dispatch(scp_sbpf_vm *vm, bool on) { vm->switch_dispatch = on; }

int scp_sbpf_vm_run(scp_sbpf_vm *vm, uint64_t *r0, scp_error *err) {
  uint64_t dummy;
  if (!r0) r0 = &dummy;
  *r0 = 0;
  if (vm->ran) return scp_fail(err, SCP_ERR_INTERNAL, "sBPF VM: a VM runs once");
  vm->ran = true;
  int rc = vm->switch_dispatch ? scp_sbpf_exec_switch(vm, r0, err) : scp_sbpf_exec_goto(vm, r0, err);
  int src = scp_sbpf_vm_settle(vm);
  if (rc == SCP_OK && (src || vm->oom)) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  return rc;
}

scp_sbpf_trap scp_sbpf_vm_trap(const scp_sbpf_vm *vm) { return vm->trap; }
uint32_t scp_sbpf_vm_trap_pc(const scp_sbpf_vm *vm) { return vm->trap_pc; }
int scp_sbpf_vm_syscall_status(const scp_sbpf_vm *vm) { return vm->syscall_status; }
uint64_t scp_sbpf_vm_insns(const scp_sbpf_vm *vm) { return vm->insns; }
const scp_sbpf_prog *scp_sbpf_vm_prog(const scp_sbpf_vm *vm) { return vm->prog; }
void *scp_sbpf_vm_hooks_ctx(const scp_sbpf_vm *vm) { return vm->cfg.hooks_ctx; }
uint32_t scp_sbpf_vm_depth(const scp_sbpf_vm *vm) { return vm->depth; }
uint32_t scp_sbpf_vm_pc(const scp_sbpf_vm *vm) { return vm->pc; }
uint32_t scp_sbpf_vm_node(const scp_sbpf_vm *vm) { return vm->node; }
uint64_t scp_sbpf_vm_remaining(const scp_sbpf_vm *vm) { return *vm->cfg.meter; }

int scp_sbpf_vm_consume(scp_sbpf_vm *vm, uint64_t amount) {
  uint64_t *m = vm->cfg.meter;
  if (*m < amount) {
    *m = 0;
    return SCP_ERR_BUDGET;
  }
  *m -= amount;
  return SCP_OK;
}

/* ---- memory -------------------------------------------------------------- */

static uint8_t *map(scp_sbpf_vm *vm, uint64_t a, uint64_t len, bool write) {
  uint8_t *h = sbpf_xlate(vm->regions, vm->nregions, a, len, write);
  return h ? h : sbpf_xlate_reach(vm, a, len, write);
}

/* The full length of region i (a windowed VM maps a prefix of 2 and 3). */
static uint64_t region_len(const scp_sbpf_vm *vm, uint64_t i) {
  return !vm->pool ? vm->regions[i].len : i == 2 ? vm->stack_len : i == 3 ? vm->cfg.heap_size : vm->regions[i].len;
}

uint8_t *sbpf_xlate_reach(scp_sbpf_vm *vm, uint64_t a, uint64_t len, bool write) {
  uint64_t i = a >> 32;
  if (!vm->pool || (i != 2 && i != 3) || vm->regions[i].len == region_len(vm, i)) return NULL;
  sbpf_region full[5];
  memcpy(full, vm->regions, sizeof full);
  full[i].len = region_len(vm, i);
  uint8_t *h = sbpf_xlate(full, vm->nregions, a, len, write);
  if (!h) return NULL;
  uint64_t end = (uint64_t)(h - full[i].host) + len, page = SCP_SBPF_FRAME_SIZE;
  end = (end + page - 1) / page * page;
  vm->regions[i].len = end < full[i].len ? end : full[i].len;
  return h;
}

scp_sbpf_trap sbpf_access_violation(scp_sbpf_vm *vm, uint64_t addr, uint64_t len, bool write,
                                    scp_error *err) {
  const char *access = write ? "writing" : "reading";
  scp_sbpf_version v = vm->prog->version;
  /* (vm_addr as i64).saturating_sub(MM_STACK_START) / stack_frame_size */
  int64_t a = (int64_t)addr, rel;
  if (__builtin_sub_overflow(a, (int64_t)SCP_SBPF_MM_STACK, &rel)) rel = INT64_MIN;
  int64_t frame = rel / SCP_SBPF_FRAME_SIZE;
  if (v != SCP_SBPF_V1 && v != SCP_SBPF_V2 && frame >= -1 && frame <= SCP_SBPF_MAX_CALL_DEPTH) {
    scp_fail(err, SCP_ERR_TRAP, "Access violation in stack frame %" PRId64 " at address 0x%" PRIx64
             " of size %" PRIu64, frame, addr, len);
    return SCP_SBPF_TRAP_STACK_ACCESS_VIOLATION;
  }
  uint64_t i = addr >> 32;
  const char *name = "unallocated";
  if (i < vm->nregions) {
    const sbpf_region *r = &vm->regions[i];
    uint64_t span = r->gap_shift ? region_len(vm, i) * 2 : region_len(vm, i);
    if (addr >= r->vaddr && addr - r->vaddr < span) {
      static const char *const names[] = { "allocated", "program", "stack", "heap", "input" };
      name = names[i];
    }
  }
  scp_fail(err, SCP_ERR_TRAP, "Access violation %s %" PRIu64 " bytes at address 0x%" PRIx64
           " (in %s region)", access, len, addr, name);
  return SCP_SBPF_TRAP_ACCESS_VIOLATION;
}

int scp_sbpf_vm_translate(scp_sbpf_vm *vm, uint64_t vaddr, uint64_t len, bool write,
                          uint8_t **host, scp_error *err) {
  *host = map(vm, vaddr, len, write);
  if (*host) return SCP_OK;
  sbpf_access_violation(vm, vaddr, len, write, err);
  return SCP_ERR_TRAP;
}

/* ---- meter ---------------------------------------------------------------- */

void sbpf_meter_short(scp_sbpf_vm *vm, uint32_t pc, uint64_t m) {
  const scp_sbpf_prog *p = vm->prog;
  uint32_t q = pc;
  for (uint64_t i = 0; i < m; i++) q += p->code[q].op == OP_LDDW ? 2 : 1;
  /* The decoded form is the program's; the patch lives only until this
   * run ends, and no other VM runs meanwhile (no call sits before q in
   * the block). */
  sbpf_insn *code = (sbpf_insn *)p->code;
  vm->patch_pc = q;
  vm->patch_op = code[q].xop;
  vm->patched = true;
  code[q].xop = OP_METER_OUT;
  /* A pair fused at q - 1 runs q's body without dispatching on q: the
   * slot before runs unfused while the patch lasts. */
  if (q > 0) {
    vm->patch_head = code[q - 1].xop;
    code[q - 1].xop = code[q - 1].op;
  }
}

void sbpf_unpatch(scp_sbpf_vm *vm) {
  if (!vm->patched) return;
  sbpf_insn *code = (sbpf_insn *)vm->prog->code;
  code[vm->patch_pc].xop = vm->patch_op;
  if (vm->patch_pc > 0) code[vm->patch_pc - 1].xop = vm->patch_head;
  vm->patched = false;
}

/* ---- calling-context nodes and block counters --------------------------- */

static void fallback(scp_sbpf_vm *vm, sbpf_frame *cur, uint32_t node) {
  cur->node = node;
  cur->ctr = vm->scratch;
  cur->fb = 0;
  cur->fnb = vm->prog->nblocks;
}

void sbpf_enter_call(scp_sbpf_vm *vm, sbpf_frame *cur, uint32_t parent, uint64_t callsite,
                     uint32_t target) {
  scp_tree *t = vm->cfg.tree;
  if (!t || vm->oom) {
    fallback(vm, cur, parent);
    return;
  }
  if (sbpf_call_cached(vm, cur, parent, callsite, target)) return;
  const scp_sbpf_prog *p = vm->prog;
  uint32_t fi = scp_sbpf_prog_func_at(p, target);
  if (fi == UINT32_MAX) fi = 0;
  cur->fb = p->func_block[fi];
  cur->fnb = p->func_block[fi + 1] - cur->fb;
  uint32_t id = scp_tree_enter(t, parent, callsite, SCP_KIND_GUEST, vm->cfg.module, target);
  uint64_t *ctr = id == SCP_NODE_NONE ? NULL : sbpf_ctrs_get(sbpf_vm_ctrs(vm), id, cur->fb, cur->fnb);
  if (!ctr) {
    vm->oom = true;
    fallback(vm, cur, parent);
    return;
  }
  *sbpf_call_slot(vm, parent, callsite, target) = (sbpf_call_cache){
      .node = parent, .pc = (uint32_t)callsite, .target = target, .child = id,
      .fb = cur->fb, .fnb = cur->fnb, .ctr = ctr, .gen = vm->cache_gen };
  cur->node = id;
  cur->ctr = ctr;
}

static sbpf_stray_entry *stray_find(scp_sbpf_vm *vm, uint32_t node, uint32_t pc, bool add) {
  for (size_t i = vm->nstrays; i-- > 0;)
    if (vm->strays[i].node == node && vm->strays[i].pc == pc) return &vm->strays[i];
  if (!add) return NULL;
  if (!scp_grow(&vm->strays, &vm->capstrays, vm->nstrays + 1, sizeof *vm->strays)) {
    vm->oom = true;
    return NULL;
  }
  sbpf_stray_entry *s = &vm->strays[vm->nstrays++];
  *s = (sbpf_stray_entry){ .node = node, .pc = pc, .count = 0 };
  return s;
}

void sbpf_stray(scp_sbpf_vm *vm, uint32_t node, uint32_t pc) {
  if (!vm->cfg.tree || node == SCP_NODE_NONE) return;
  sbpf_stray_entry *s = stray_find(vm, node, pc, true);
  if (s) s->count++;
}

/* Add `times` CU to each of n instructions from pc on, in node. */
static void add_run(scp_sbpf_vm *vm, uint32_t node, uint32_t pc, uint64_t n, uint64_t times) {
  const scp_sbpf_prog *p = vm->prog;
  uint64_t cost[SCP_MAX_METRICS] = { 0 };
  cost[vm->cfg.cu_metric] = times;
  for (uint64_t i = 0; i < n && pc <= p->ninsns; i++) {
    if (!scp_tree_add_pc(vm->cfg.tree, node, p->text_addr + 8ull * pc, cost)) vm->oom = true;
    pc += p->code[pc].op == OP_LDDW ? 2 : 1;
  }
}

void sbpf_trap(scp_sbpf_vm *vm, scp_sbpf_trap t, uint32_t pc, uint32_t bpc, uint64_t executed,
               const sbpf_frame *cur, scp_error *err) {
  static const char *const texts[] = {
#define X(id, variant, text) text,
#include "sbpf/sbpf_traps.def"
#undef X
  };
  if (err) scp_fail(err, SCP_ERR_TRAP, "%s", texts[t]);
  (void)pc;
  const scp_sbpf_prog *p = vm->prog;
  if (!vm->cfg.tree || cur->node == SCP_NODE_NONE || executed >= p->cnt[bpc]) return;
  /* The block's entry counted all of it: take the entry back and book the
   * executed prefix one instruction at a time. */
  uint32_t b = p->blk[bpc] - cur->fb;
  if (b < cur->fnb && cur->ctr != vm->scratch) cur->ctr[b]--;
  else {
    sbpf_stray_entry *s = stray_find(vm, cur->node, bpc, false);
    if (s) s->count--;
  }
  add_run(vm, cur->node, bpc, executed, 1);
}

/* The first of counters i..n-1 that is not zero (n when none is): most
 * blocks of a function did not run, so eight at a time. */
static uint32_t next_counted(const uint64_t *ctr, uint32_t i, uint32_t n) {
#ifdef __SSE2__
  const __m128i zero = _mm_setzero_si128();
  for (; i + 8 <= n; i += 8) {
    const __m128i *v = (const __m128i *)(ctr + i);
    __m128i x = _mm_or_si128(_mm_or_si128(_mm_loadu_si128(v), _mm_loadu_si128(v + 1)),
                             _mm_or_si128(_mm_loadu_si128(v + 2), _mm_loadu_si128(v + 3)));
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(x, zero)) != 0xffff) break;
  }
#else
  while (i + 8 <= n && !(ctr[i] | ctr[i + 1] | ctr[i + 2] | ctr[i + 3] | ctr[i + 4] | ctr[i + 5] |
                         ctr[i + 6] | ctr[i + 7]))
    i += 8;
#endif
  while (i < n && !ctr[i]) i++;
  return i;
}

/* The per-pc CU of one node's block counters (fb, fnb: its function's
 * blocks), in pc order into pcs/amount; returns how many, clearing the
 * counters.  An entry at a leader runs its straight-line run to the end
 * (cnt), through later leaders and, without a call, past the function:
 * what reaches pc is carried on to the slot after it (q + 1, or q + 2
 * past an lddw) while cnt[q] > 1, so each slot is visited once, in order,
 * from a counted leader until nothing is carried.  Inside a block only
 * its first slot leads and only its last can end a run or be an lddw
 * (sbpf_verify.c's find_blocks), so the slots between take what reaches
 * them as it is. */
static uint32_t expand(const scp_sbpf_prog *p, uint64_t *ctr, uint32_t fb, uint32_t fnb, uint64_t *pcs,
                       uint64_t *amount) {
  /* locals: the stores below could otherwise alias the program's tables */
  const uint64_t *const cntblk = p->cntblk;
  const uint32_t *const block_pc = p->block_pc;
  const sbpf_insn *const code = p->code;
  const uint64_t text = p->text_addr;
  const uint32_t nblocks = p->nblocks, last = p->ninsns;
  uint64_t *pp = pcs, *ap = amount;
  for (uint32_t b = next_counted(ctr, 0, fnb); b < fnb; b = next_counted(ctr, b + 1, fnb)) {
    uint64_t in0 = 0, in1 = 0;           /* carried into q and into q + 1 */
    for (uint32_t g = fb + b;; g++) {
      uint32_t q = block_pc[g], end = g + 1 < nblocks ? block_pc[g + 1] : last + 1;
      for (;;) {
        uint64_t cb = cntblk[q];
        uint32_t k = (uint32_t)(cb >> 32) - fb;   /* UINT32_MAX - fb when q leads no block */
        uint64_t sum = in0;
        if (k < fnb) {
          sum += ctr[k];
          ctr[k] = 0;
          b = k;
        }
        if (sum) {
          *pp++ = text + 8ull * q;
          *ap++ = sum;
        }
        uint64_t on = (uint32_t)cb > 1 ? sum : 0;
        if (code[q].op == OP_LDDW) {
          in0 = in1;
          in1 = on;
        } else {
          in0 = in1 + on;
          in1 = 0;
        }
        if (!(in0 | in1)) goto carried;
        if (++q >= end) break;
        if (!in1)
          for (uint64_t at = text + 8ull * q; q + 1 < end; q++, at += 8) {
            *pp++ = at;
            *ap++ = in0;
          }
      }
    }
  carried:;
  }
  return (uint32_t)(pp - pcs);
}

int scp_sbpf_vm_settle(scp_sbpf_vm *vm) {
  scp_tree *t = vm->cfg.tree;
  if (!t) return SCP_OK;
  const scp_sbpf_prog *p = vm->prog;
  sbpf_mem own = { 0 }, *m = vm->pool ? &vm->pool->slots[vm->slot] : &own;
  if (!vm->pool) {
    own.pcs = malloc((p->ninsns + 1) * sizeof *own.pcs);
    own.amount = malloc((p->ninsns + 1) * sizeof *own.amount);
  }
  if (!m->pcs || !m->amount) {
    free(own.pcs);
    free(own.amount);
    return SCP_ERR_NOMEM;
  }
  const sbpf_ctrs *cs = sbpf_vm_ctrs(vm);
  for (size_t e = 0; e < cs->n; e++) {
    const sbpf_ctr_node *en = &cs->entries[e];
    uint32_t n = expand(p, en->ctr, en->fb, en->fnb, m->pcs, m->amount);
    if (!scp_tree_add_pcs(t, en->node, m->pcs, m->amount, n, vm->cfg.cu_metric)) vm->oom = true;
  }
  sbpf_ctrs_reset(sbpf_vm_ctrs(vm), false);
  free(own.pcs);
  free(own.amount);
  for (size_t i = 0; i < vm->nstrays; i++) {
    sbpf_stray_entry *s = &vm->strays[i];
    if (s->count) add_run(vm, s->node, s->pc, p->cnt[s->pc], s->count);
    s->count = 0;
  }
  return vm->oom ? SCP_ERR_NOMEM : SCP_OK;
}
