/*
 * sbpf_ctrs.c — the block counters of a VM's guest nodes, out of chunks
 * reused from one VM to the next (sbpf_ctrs in sbpf_private.h).  A
 * profiled transaction enters some hundred function nodes per
 * instruction; allocating and freeing a zeroed array for each was a
 * tenth of what running it cost.  Settling clears what it reads, so the
 * chunks come back zero and are never cleared as a whole.
 */
#include "sbpf/sbpf_private.h"

#include <stdlib.h>
#include <string.h>

/* n zero entries at the cursor: from the chunk handing out, the next
 * one that has room, or a new one. */
static uint64_t *take(sbpf_ctrs *c, uint32_t n) {
  for (; c->cur < c->nchunk; c->cur++, c->used = 0)
    if (c->chunk[c->cur].n - c->used >= n) {
      uint64_t *p = c->chunk[c->cur].p + c->used;
      c->used += n;
      return p;
    }
  if (!scp_grow(&c->chunk, &c->capchunk, c->nchunk + 1, sizeof *c->chunk)) return NULL;
  size_t size = n > SBPF_CTR_CHUNK ? n : SBPF_CTR_CHUNK;
  uint64_t *p = calloc(size, sizeof *p);
  if (!p) return NULL;
  c->chunk[c->nchunk] = (sbpf_ctr_chunk){.p = p, .n = size};
  c->cur = c->nchunk++;
  c->used = n;
  return p;
}

uint64_t *sbpf_ctrs_get(sbpf_ctrs *c, uint32_t id, uint32_t fb, uint32_t n) {
  if (id < c->capof && c->of[id]) {
    const sbpf_ctr_node *e = &c->entries[c->of[id] - 1];
    return e->fnb == n ? e->ctr : NULL;
  }
  if (id >= c->capof) {
    size_t old = c->capof;
    if (!scp_grow(&c->of, &c->capof, (size_t)id + 1, sizeof *c->of)) return NULL;
    memset(c->of + old, 0, (c->capof - old) * sizeof *c->of);
  }
  if (!scp_grow(&c->entries, &c->cap, c->n + 1, sizeof *c->entries)) return NULL;
  /* a function without blocks still gets an address of its own */
  uint64_t *ctr = take(c, n ? n : 1);
  if (!ctr) return NULL;
  c->entries[c->n++] = (sbpf_ctr_node){.node = id, .fb = fb, .fnb = n, .ctr = ctr};
  c->of[id] = (uint32_t)c->n;
  return ctr;
}

void sbpf_ctrs_reset(sbpf_ctrs *c, bool clear) {
  for (size_t i = 0; i < c->n; i++) {
    if (clear) memset(c->entries[i].ctr, 0, c->entries[i].fnb * sizeof *c->entries[i].ctr);
    c->of[c->entries[i].node] = 0;
  }
  c->n = 0;
  c->cur = 0;
  c->used = 0;
}

void sbpf_ctrs_free(sbpf_ctrs *c) {
  for (size_t i = 0; i < c->nchunk; i++) free(c->chunk[i].p);
  free(c->chunk);
  free(c->of);
  free(c->entries);
  *c = (sbpf_ctrs){0};
}
