/*
 * scp_bmap.c — byte-string maps (scp_util.h): open addressing over an
 * array of entries whose keys live back to back in one buffer, so a map of
 * many small keys costs a few allocations, not one per key.  A slot keeps
 * 32 bits of its key's hash next to the entry number, so a probe that
 * misses does not touch the entry or its key.
 */
#include <stdlib.h>
#include <string.h>

#include "util/scp_util.h"

/* FNV-1a mixed once more: probing uses the low bits, which FNV alone
 * leaves too alike for keys that differ only at the end ("c1", "c2"). */
static uint64_t key_hash(const void *key, size_t len) {
  return scp_hash64(scp_hash_bytes(key, len));
}

static bool same(const scp_bmap *m, const scp_bmap_ent *e, uint64_t hash, const void *key,
                 size_t len) {
  return e->hash == hash && e->len == len && (!len || !memcmp(m->keys + e->off, key, len));
}

static uint32_t tag(uint64_t hash) { return (uint32_t)(hash >> 32); }

static bool rehash(scp_bmap *m, size_t nslots) {
  scp_bmap_slot *slots = calloc(nslots, sizeof *slots);
  if (!slots) return false;
  for (size_t i = 0; i < m->n; i++) {
    size_t h = m->ents[i].hash & (nslots - 1);
    while (slots[h].ent) h = (h + 1) & (nslots - 1);
    slots[h] = (scp_bmap_slot){.ent = (uint32_t)i + 1, .tag = tag(m->ents[i].hash)};
  }
  free(m->slots);
  m->slots = slots;
  m->nslots = nslots;
  return true;
}

size_t *scp_bmap_get(const scp_bmap *m, const void *key, size_t len) {
  if (!m->nslots) return NULL;
  uint64_t hash = key_hash(key, len);
  size_t mask = m->nslots - 1;
  for (size_t h = hash & mask; m->slots[h].ent; h = (h + 1) & mask) {
    if (m->slots[h].tag != tag(hash)) continue;
    scp_bmap_ent *e = &m->ents[m->slots[h].ent - 1];
    if (same(m, e, hash, key, len)) return &e->val;
  }
  return NULL;
}

size_t *scp_bmap_put(scp_bmap *m, const void *key, size_t len, bool *added) {
  *added = false;
  /* at most half full, so probes stay short and an empty slot exists */
  if ((m->n + 1) * 2 > m->nslots && !rehash(m, m->nslots ? m->nslots * 2 : 64)) return NULL;
  uint64_t hash = key_hash(key, len);
  size_t mask = m->nslots - 1, h = hash & mask;
  for (; m->slots[h].ent; h = (h + 1) & mask) {
    if (m->slots[h].tag != tag(hash)) continue;
    scp_bmap_ent *e = &m->ents[m->slots[h].ent - 1];
    if (same(m, e, hash, key, len)) return &e->val;
  }
  if (m->n >= UINT32_MAX - 1 || len > SIZE_MAX - m->nkeys ||
      !scp_grow(&m->ents, &m->cap, m->n + 1, sizeof *m->ents) ||
      !scp_grow(&m->keys, &m->capkeys, m->nkeys + len, 1))
    return NULL;
  if (len) memcpy(m->keys + m->nkeys, key, len);
  m->ents[m->n] = (scp_bmap_ent){.hash = hash, .off = m->nkeys, .len = len, .val = 0};
  m->nkeys += len;
  m->slots[h] = (scp_bmap_slot){.ent = (uint32_t)++m->n, .tag = tag(hash)};
  *added = true;
  return &m->ents[m->n - 1].val;
}

void scp_bmap_free(scp_bmap *m) {
  free(m->ents);
  free(m->keys);
  free(m->slots);
  memset(m, 0, sizeof *m);
}
