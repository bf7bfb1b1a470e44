/*
 * sbpf_pool.c — VM memory reused from one invocation to the next
 * (scp_sbpf_pool in scp_sbpf.h).  A fresh VM of the runtime has a zeroed
 * 256 KiB stack and a zeroed heap; allocating and clearing them for every
 * invocation was half of what an unprofiled transaction cost.  A slot's
 * memory is zero whenever it is free: a windowed VM (sbpf_vm.c) maps only
 * the prefix of its stack and heap it has reached, so that prefix is all
 * there is to zero when the slot comes back.  Slots are taken last-in
 * first-out, one per live VM (a CPI's callee takes the next).
 */
#include "sbpf/sbpf_private.h"

#include <stdlib.h>
#include <string.h>

scp_sbpf_pool *scp_sbpf_pool_new(void) { return calloc(1, sizeof(scp_sbpf_pool)); }

void scp_sbpf_pool_free(scp_sbpf_pool *pool) {
  if (!pool) return;
  for (size_t i = 0; i < pool->n; i++) {
    sbpf_mem *m = &pool->slots[i];
    free(m->stack);
    free(m->heap);
    free(m->scratch);
    free(m->pcs);
    free(m->amount);
    sbpf_ctrs_free(&m->ctrs);
    free(m->vm);
  }
  free(pool->slots);
  free(pool);
}

/* Room for n entries of size bytes in *buf (*cap entries so far); what
 * it holds is not kept. */
static bool fit(void *buf, size_t *cap, size_t n, size_t size) {
  void **b = buf;
  if (n <= *cap && *b) return true;
  void *nb = malloc(n * size);
  if (!nb) return false;
  free(*b);
  *b = nb;
  *cap = n;
  return true;
}

size_t sbpf_pool_take(scp_sbpf_pool *pool, const scp_sbpf_prog *p) {
  size_t i = 0;
  while (i < pool->n && pool->slots[i].busy) i++;
  if (i == pool->n) {
    if (!scp_grow(&pool->slots, &pool->cap, pool->n + 1, sizeof *pool->slots)) return SIZE_MAX;
    sbpf_mem *m = &pool->slots[pool->n];
    *m = (sbpf_mem){.stack = calloc(1, (size_t)SCP_SBPF_FRAME_SIZE * SCP_SBPF_MAX_CALL_DEPTH),
                    .heap = calloc(1, SCP_SBPF_HEAP_MAX)};
    if (!m->stack || !m->heap) {
      free(m->stack);
      free(m->heap);
      return SIZE_MAX;
    }
    pool->n++;
  }
  sbpf_mem *m = &pool->slots[i];
  /* the settling tables share one capacity: each grows to it */
  size_t need = (size_t)p->ninsns + 1, n1 = m->nacc, n2 = m->nacc;
  if (!fit(&m->scratch, &m->nscratch, (size_t)p->nblocks + 1, sizeof *m->scratch) ||
      !fit(&m->pcs, &n1, need, sizeof *m->pcs) || !fit(&m->amount, &n2, need, sizeof *m->amount))
    return SIZE_MAX;
  m->nacc = n1 < n2 ? n1 : n2;
  m->busy = true;
  return i;
}

void sbpf_pool_give(scp_sbpf_pool *pool, size_t slot, uint64_t stack_used, uint64_t heap_used) {
  sbpf_mem *m = &pool->slots[slot];
  memset(m->stack, 0, stack_used);
  memset(m->heap, 0, heap_used);
  m->busy = false;
}
