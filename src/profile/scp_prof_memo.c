/*
 * scp_prof_memo.c — a resolver's kept instruction texts as string ids of
 * the profile being built (scp_prof_memo in scp_prof.h).
 *
 * A program's profile has a row per instruction without a source line,
 * thousands of them, and a program is profiled again on every run: what
 * a pc's text is, its length, hash and whether the text rule changes it
 * are worked out once while the memo lives, so a row costs a lookup and a
 * build interns each distinct text once, hashing nothing; and the texts
 * builds interned are kept back to back (the mirror), so that the next
 * build takes them in one copy and interns one by one only new ones.
 */
#include "profile/scp_prof_private.h"

#include <stdlib.h>
#include <string.h>

void scp_prof_memo_free(scp_prof_memo *m) {
  if (!m) return;
  free(m->keys);
  free(m->pcs);
  free(m->bytes);
  free(m->off);
  free(m->hash);
  free(m->key);
  free(m->ids);
  memset(m, 0, sizeof *m);
}

int scp_prof_memo_begin(scp_prof_memo *m, scp_strtab *strs) {
  if (++m->gen == 0) {   /* wrapped: every stamp could match again */
    for (size_t i = 0; i < m->cap; i++) m->keys[i].stamp = 0;
    m->gen = 1;
  }
  if (!scp_strtab_intern_block(strs, m->bytes, m->nbytes, m->off, m->hash, m->ntexts, m->ids))
    return SCP_ERR_NOMEM;
  for (size_t i = 0; i < m->ntexts; i++) {
    scp_prof_memo_key *k = &m->keys[m->key[i]];
    k->stamp = m->gen;
    k->id = m->ids[i];
  }
  return SCP_OK;
}

/* The text of key (its id in strs, as the profile keeps it) added to the
 * mirror; out of memory: not added (the next build interns it again). */
static void mirror(scp_prof_memo *m, uint32_t key, const scp_strtab *strs, uint32_t id) {
  const char *s = scp_strtab_get(strs, id);
  size_t len = strlen(s), need = m->nbytes + len + 1;
  if (need > UINT32_MAX || !scp_grow(&m->bytes, &m->capbytes, need, 1)) return;
  if (m->ntexts == m->captexts) {
    size_t cap = m->captexts ? m->captexts * 2 : 256;
    uint32_t **arr[4] = {&m->off, &m->hash, &m->key, &m->ids};
    for (int i = 0; i < 4; i++) {
      uint32_t *a = realloc(*arr[i], cap * sizeof **arr[i]);
      if (!a) return;   /* the ones grown stay grown: captexts says what all hold */
      *arr[i] = a;
    }
    m->captexts = cap;
  }
  memcpy(m->bytes + m->nbytes, s, len + 1);
  m->off[m->ntexts] = (uint32_t)m->nbytes;
  m->hash[m->ntexts] = strs->hash[id];
  m->key[m->ntexts++] = key;
  m->nbytes = need;
  m->keys[key].mirrored = 1;
}

static bool keys_grow(scp_prof_memo *m, size_t need) {
  size_t cap = m->cap ? m->cap : 64;
  while (cap < need) {
    if (cap > SIZE_MAX / 2 / sizeof *m->keys) return false;
    cap *= 2;
  }
  scp_prof_memo_key *k = realloc(m->keys, cap * sizeof *k);
  if (!k) return false;
  memset(k + m->cap, 0, (cap - m->cap) * sizeof *k);
  m->keys = k;
  m->cap = cap;
  return true;
}

static bool pcs_rehash(scp_prof_memo *m, size_t n) {
  scp_prof_memo_pc *s = calloc(n, sizeof *s);
  if (!s) return false;
  for (size_t i = 0; i < m->nslots; i++) {
    const scp_prof_memo_pc *e = &m->pcs[i];
    if (!e->key1) continue;
    size_t h = scp_prof_memo_slot(e->module, e->pc) & (n - 1);
    while (s[h].key1) h = (h + 1) & (n - 1);
    s[h] = *e;
  }
  free(m->pcs);
  m->pcs = s;
  m->nslots = n;
  return true;
}

/* Keep key as pc's answer (out of memory: not kept, asked again). */
static void pc_keep(scp_prof_memo *m, uint32_t module, uint64_t pc, uint32_t key) {
  if ((m->npcs + 1) * 2 > m->nslots && !pcs_rehash(m, m->nslots ? m->nslots * 2 : 1024)) return;
  size_t mask = m->nslots - 1, h = scp_prof_memo_slot(module, pc) & mask;
  while (m->pcs[h].key1) h = (h + 1) & mask;
  m->pcs[h] = (scp_prof_memo_pc){.pc = pc, .module = module, .key1 = key + 1};
  m->npcs++;
}

/* pc's key record, from the memo or asked of r and kept.  NULL with
 * *text NULL: r keeps no text at pc; NULL with *text set: the memo is
 * out of memory, and *text is the text to intern as it is. */
static scp_prof_memo_key *key_of(scp_prof_memo *m, const scp_resolver *r, uint32_t module, uint64_t pc,
                                 const char **text) {
  *text = NULL;
  uint32_t key1 = scp_prof_memo_key1(m, module, pc);
  if (key1) return &m->keys[key1 - 1];
  uint32_t key = 0;
  const char *t = r->pc_text_key(r->ctx, module, pc, &key);
  if (!t) return NULL;
  *text = t;
  size_t len = strlen(t);
  if (len > UINT32_MAX || key >= UINT32_MAX - 1 || (key >= m->cap && !keys_grow(m, (size_t)key + 1)))
    return NULL;
  scp_prof_memo_key *k = &m->keys[key];
  if (!k->text) {
    *k = (scp_prof_memo_key){.text = t, .len = (uint32_t)len, .hash = scp_murmur3_32(t, len),
                             .safe = scp_text_is_safe(t, len) ? 1 : 2};
  }
  pc_keep(m, module, pc, key);
  return k;
}

int scp_prof_memo_text(scp_prof_memo *m, const scp_resolver *r, scp_strtab *strs, uint32_t module,
                       uint64_t pc, uint32_t *id, bool *kept) {
  const char *t;
  scp_prof_memo_key *k = key_of(m, r, module, pc, &t);
  *kept = k || t;
  if (!k) {   /* no text, or no memory to keep it: interned all the same */
    if (t && (*id = scp_strtab_intern_safe(strs, t, strlen(t))) == UINT32_MAX) return SCP_ERR_NOMEM;
    return SCP_OK;
  }
  if (k->stamp == m->gen) {
    *id = k->id;
    return SCP_OK;
  }
  /* what scp_strtab_intern_safe does, its check and hash known */
  *id = k->safe == 1 ? scp_strtab_intern_h(strs, k->text, k->len, k->hash)
                     : scp_strtab_intern_safe(strs, k->text, k->len);
  if (*id == UINT32_MAX) return SCP_ERR_NOMEM;
  k->stamp = m->gen;
  k->id = *id;
  if (!k->mirrored) mirror(m, (uint32_t)(k - m->keys), strs, *id);
  return SCP_OK;
}
