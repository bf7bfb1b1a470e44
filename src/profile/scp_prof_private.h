/*
 * scp_prof_private.h — internals of the profile builder shared by its .c
 * files (scp_prof.c: the build; scp_prof_memo.c: a resolver's kept
 * instruction texts across builds).  Not part of any public interface.
 */
#ifndef SCP_PROF_PRIVATE_H
#define SCP_PROF_PRIVATE_H

#include "profile/scp_prof.h"

/* A new build's generation of m (nothing cleared: stamps of older ones
 * no longer match), the mirror's texts interned into strs, the new
 * profile's table, at once.  SCP_OK or SCP_ERR_NOMEM. */
int scp_prof_memo_begin(scp_prof_memo *m, scp_strtab *strs);

/* Where (module, pc) starts in the memo's pc table (a Fibonacci hash:
 * pcs a fixed step apart spread evenly). */
static inline size_t scp_prof_memo_slot(uint32_t module, uint64_t pc) {
  return (size_t)(((pc + ((uint64_t)module << 48)) * 0x9e3779b97f4a7c15ULL) >> 32);
}

/* The key record the memo keeps for (module, pc): 1 + its index in
 * keys, or 0 when the memo has none. */
static inline uint32_t scp_prof_memo_key1(const scp_prof_memo *m, uint32_t module, uint64_t pc) {
  size_t mask = m->nslots - 1;
  if (!m->nslots) return 0;
  for (size_t h = scp_prof_memo_slot(module, pc) & mask; m->pcs[h].key1; h = (h + 1) & mask)
    if (m->pcs[h].pc == pc && m->pcs[h].module == module) return m->pcs[h].key1;
  return 0;
}

/* The memo's answer for (module, pc) when this build has interned its
 * text already: a row's usual case, inline.  false: ask
 * scp_prof_memo_text. */
static inline bool scp_prof_memo_hit(const scp_prof_memo *m, uint32_t module, uint64_t pc, uint32_t *id) {
  uint32_t key1 = scp_prof_memo_key1(m, module, pc);
  if (!key1 || m->keys[key1 - 1].stamp != m->gen) return false;
  *id = m->keys[key1 - 1].id;
  return true;
}

/* The string id in strs of the text r keeps for (module, pc), interned
 * once per build.  *kept false: r keeps no text there (the caller asks
 * pc_text).  SCP_OK or SCP_ERR_NOMEM. */
int scp_prof_memo_text(scp_prof_memo *m, const scp_resolver *r, scp_strtab *strs, uint32_t module,
                       uint64_t pc, uint32_t *id, bool *kept);

/* The string id in p of the instruction at pc: a kept text's through
 * r's memo, any other's by asking r's pc_text.  SCP_OK, SCP_ERR_NOMEM. */
int scp_prof_pc_text_id(scp_profile *p, const scp_resolver *r, uint32_t module, uint64_t pc, uint32_t *id);

/* Append the row of raw per-pc entry e (its cost given: cost, every
 * metric) on node.  SCP_OK, SCP_ERR_NOMEM. */
int scp_prof_row_add(scp_profile *p, const scp_resolver *r, uint32_t node, uint32_t module, const scp_pc_cost *e,
                     const uint64_t *cost);

/* A raw node of a module without lines whose rows (one per pc, all on
 * profile node `node`) are made later than its costs are booked. */
typedef struct scp_prof_defer {
  uint32_t raw, node;
} scp_prof_defer;

/* The rows of d[0, n), appended in that order, each raw node's in the
 * order of its pcs, on the nodes as numbered before scp_prof_preorder.
 * SCP_OK, SCP_ERR_NOMEM. */
int scp_prof_rows_append(scp_profile *p, const scp_tree *t, const scp_resolver *r, const scp_prof_defer *d,
                         size_t n);

/* The same for a profile without rows, after scp_prof_preorder (newid):
 * the rows made in their final order and laid out, as appending them and
 * scp_prof_rows_lay_out would leave them, each copied once.  SCP_OK,
 * SCP_ERR_NOMEM. */
int scp_prof_rows_place(scp_profile *p, const scp_tree *t, const scp_resolver *r, const scp_prof_defer *d,
                        size_t n, const uint32_t *newid);

/* p's instruction rows (scp_profile.pcs, each on a node as numbered
 * before scp_prof_preorder) renumbered through newid, sorted by (node,
 * pc), rows of one node and pc merged (a node may gather several raw
 * ones: their costs and runs summed, the first one's text kept), and
 * each node pointed at its rows. */
void scp_prof_rows_lay_out(scp_profile *p, const uint32_t *newid);

#endif
