/*
 * host_storage.c — temporary and persistent ledger storage as the reference
 * host keeps it in recording-footprint mode (what simulation runs): the
 * StorageMap and the Footprint, both MeteredOrdMaps keyed by Rc<LedgerKey>,
 * with the reference's charges (rs-soroban-env v28 storage.rs,
 * host/metered_map.rs, host/comparison.rs, host/metered_clone.rs,
 * host/declared_size.rs).
 *
 * MeteredOrdMap charges, with ENTRY = the declared size of (K, V):
 *   find      MemCpy(ENTRY * (bits(n) + 1)), then one charged key compare per
 *             probe of the pre-1.82 std binary search
 *   get       find, and MemCpy(ENTRY) when found
 *   insert    MemCpy(ENTRY), find, then from_exact_iter of the n' entries:
 *             MemCpy(24) + MemAlloc(ENTRY n') + MemCpy(ENTRY n') (the Vec's
 *             deep clone), MemCpy(ENTRY n') (from_map's scan) and n'-1
 *             adjacent key compares
 * Footprint entry (Rc<LedgerKey>, AccessType): 16 + 1 + 8 = 25 bytes.
 * StorageMap entry (Rc<LedgerKey>, Option<(Rc<LazyLedgerEntry>,
 * Option<u32>)>): 16 + ((16 + (4 + 8) + 8) + 8) + 8 = 68 bytes.
 *
 * Budget compare of two LedgerKeys: different kinds compare free by
 * discriminant; ContractCode: MemCmp(36); ContractData: (contract, key,
 * durability) in order, stopping at the first difference: MemCmp(48) for
 * the ScAddress, the ScVal compare (below), MemCmp(4) for the durability.
 * The ScVal compare works on the XDR images directly (XDR is big-endian, so
 * byte order is value order once the sign bit of signed types is flipped).
 *
 * An entry read through from the snapshot source is stored encoded and
 * decoded, with charges, by its first get (with opts.lazy_read_through):
 * the rules in host_lazy.c.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/core/host_lifecycle.h"

enum {
  FOOT_ENTRY = 25, STORE_ENTRY = 68, RESTORED_ENTRY = 24, SIZE_LEDGER_KEY = 152, SIZE_LEDGER_ENTRY = 288,
  SIZE_LAZY_ENTRY = 32, SIZE_CONTRACT_ID = 32, SIZE_SCADDRESS = 48, SIZE_SCVAL = 96,
  SIZE_SCMAP_ENTRY = 192
};

/* ScValType */
enum {
  SCV_BOOL = 0, SCV_VOID, SCV_ERROR, SCV_U32, SCV_I32, SCV_U64, SCV_I64, SCV_TIMEPOINT,
  SCV_DURATION, SCV_U128, SCV_I128, SCV_U256, SCV_I256, SCV_BYTES, SCV_STRING, SCV_SYMBOL,
  SCV_VEC, SCV_MAP, SCV_ADDRESS, SCV_CONTRACT_INSTANCE, SCV_LEDGER_KEY_CONTRACT_INSTANCE,
  SCV_LEDGER_KEY_NONCE, SCV_EXECUTABLE_TAG
};

static int charge(scp_host *h, scp_cost_type t, uint64_t input) {
  return scp_host_charge(h, t, (int64_t)input);
}

/* Size of the fixed part of an ScVal body, or -1 for variable ones. */
static int fixed_size(uint32_t type, const uint8_t *body) {
  switch (type) {
  case SCV_VOID: case SCV_LEDGER_KEY_CONTRACT_INSTANCE: return 0;
  case SCV_BOOL: case SCV_U32: case SCV_I32: return 4;
  case SCV_ERROR: case SCV_U64: case SCV_I64: case SCV_TIMEPOINT: case SCV_DURATION:
  case SCV_LEDGER_KEY_NONCE: return 8;
  case SCV_U128: case SCV_I128: return 16;
  case SCV_U256: case SCV_I256: return 32;
  case SCV_ADDRESS:
    switch (scp_be32(body)) {
    case 0: case 3: return 4 + 4 + 32;   /* account / claimable balance: inner union */
    case 2: return 4 + 8 + 32;           /* muxed account */
    default: return 4 + 32;              /* contract / liquidity pool */
    }
  default: return -1;
  }
}

/* Length of one ScVal's XDR image at p (well-formed: we wrote it). */
static size_t scval_len(const uint8_t *p) {
  uint32_t type = scp_be32(p);
  int f = fixed_size(type, p + 4);
  if (f >= 0) return 4 + (size_t)f;
  switch (type) {
  case SCV_BYTES: case SCV_STRING: case SCV_SYMBOL: case SCV_EXECUTABLE_TAG: {
    uint32_t n = scp_be32(p + 4);
    return 8 + n + (4 - n % 4) % 4;
  }
  case SCV_VEC: case SCV_MAP: {
    if (!scp_be32(p + 4)) return 8;
    uint32_t n = scp_be32(p + 8) * (type == SCV_MAP ? 2u : 1u);
    size_t at = 12;
    for (uint32_t i = 0; i < n; i++) at += scval_len(p + at);
    return at;
  }
  default:
    return 4;
  }
}

static int cmp_bytes(const uint8_t *a, const uint8_t *b, size_t n, bool sign) {
  if (!n) return 0;
  if (sign && (a[0] ^ b[0]) & 0x80) return (a[0] & 0x80) ? -1 : 1;
  int c = memcmp(a, b, n);
  return c < 0 ? -1 : c > 0;
}

/* A fixed-size ScVal body: MemCmp(charged), the size comparison.rs
 * charges for the type (not always the bytes compared), then the n-byte
 * compare; *ord is set whatever the charge says. */
static int charged_cmp(scp_host *h, uint64_t charged, const uint8_t *a, const uint8_t *b,
                       size_t n, bool sign, int *ord) {
  int rc = charge(h, SCP_COST_MemCmp, charged);
  *ord = cmp_bytes(a, b, n, sign);
  return rc;
}

/* Compare<ScVal> for Budget (comparison.rs) over two XDR images. */
static int scval_cmp(scp_host *h, const uint8_t *a, const uint8_t *b, int *ord) {
  uint32_t ta = scp_be32(a), tb = scp_be32(b);
  if (ta != tb) {
    *ord = ta < tb ? -1 : 1;
    return SCP_OK;
  }
  a += 4;
  b += 4;
  int rc;
  switch (ta) {
  case SCV_VOID: case SCV_LEDGER_KEY_CONTRACT_INSTANCE:
    *ord = 0;
    return SCP_OK;
  case SCV_BOOL: return charged_cmp(h, 1, a, b, 4, false, ord);
  case SCV_ERROR: return charged_cmp(h, 8, a, b, 8, false, ord);
  case SCV_U32: case SCV_I32: return charged_cmp(h, 4, a, b, 4, ta == SCV_I32, ord);
  case SCV_U64: case SCV_I64: case SCV_TIMEPOINT: case SCV_DURATION:
    return charged_cmp(h, 8, a, b, 8, ta == SCV_I64, ord);
  case SCV_LEDGER_KEY_NONCE: return charged_cmp(h, 33, a, b, 8, true, ord);
  case SCV_U128: case SCV_I128: return charged_cmp(h, 16, a, b, 16, ta == SCV_I128, ord);
  case SCV_U256: case SCV_I256: return charged_cmp(h, 32, a, b, 32, ta == SCV_I256, ord);
  case SCV_ADDRESS: {
    rc = charge(h, SCP_COST_MemCmp, SIZE_SCADDRESS);
    uint32_t ka = scp_be32(a), kb = scp_be32(b);
    if (ka != kb) *ord = ka < kb ? -1 : 1;
    else *ord = cmp_bytes(a, b, (size_t)fixed_size(SCV_ADDRESS, a), false);
    return rc;
  }
  case SCV_BYTES: case SCV_STRING: case SCV_SYMBOL: case SCV_EXECUTABLE_TAG: {
    uint32_t na = scp_be32(a), nb = scp_be32(b), n = na < nb ? na : nb;
    rc = charge(h, SCP_COST_MemCmp, n);
    int c = n ? memcmp(a + 4, b + 4, n) : 0;
    *ord = c < 0 ? -1 : c > 0 ? 1 : na < nb ? -1 : na > nb;
    return rc;
  }
  case SCV_VEC: case SCV_MAP: {
    if (!scp_be32(a) || !scp_be32(b))
      return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "ScVal vec/map without a body");
    uint32_t na = scp_be32(a + 4), nb = scp_be32(b + 4), n = na < nb ? na : nb;
    bool map = ta == SCV_MAP;
    rc = charge(h, SCP_COST_MemCpy, (uint64_t)(map ? SIZE_SCMAP_ENTRY : SIZE_SCVAL) * n);
    a += 8;
    b += 8;
    for (uint32_t i = 0; rc == SCP_OK && i < n * (map ? 2u : 1u); i++) {
      rc = scval_cmp(h, a, b, ord);
      if (rc != SCP_OK || *ord) return rc;
      size_t l = scval_len(a);   /* equal values have equal images */
      a += l;
      b += l;
    }
    if (rc == SCP_OK) *ord = na < nb ? -1 : na > nb;
    return rc;
  }
  default:
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INTERNAL_ERROR, "ScVal type not comparable here");
  }
}

int scp_storage_scval_cmp(scp_host *h, const uint8_t *a, const uint8_t *b, int *ord) {
  return scval_cmp(h, a, b, ord);
}

/* Compare<LedgerKey> for Budget. */
static int lkey_cmp(scp_host *h, const scp_lkey *a, const scp_lkey *b, int *ord) {
  if (a->type != b->type) {
    *ord = a->type < b->type ? -1 : 1;
    return SCP_OK;
  }
  if (a->type == SCP_LK_CONTRACT_CODE) {
    *ord = cmp_bytes(a->id, b->id, 32, false);
    return charge(h, SCP_COST_MemCmp, 36);
  }
  if (a->type == SCP_LK_ACCOUNT) {   /* LedgerKeyAccount: fixed size 32 */
    *ord = cmp_bytes(a->id, b->id, 32, false);
    return charge(h, SCP_COST_MemCmp, 32);
  }
  if (a->type == SCP_LK_TRUSTLINE) {   /* LedgerKeyTrustLine: fixed size 77 */
    *ord = cmp_bytes(a->id, b->id, 32, false);
    if (!*ord) {
      uint32_t m = a->keylen < b->keylen ? a->keylen : b->keylen;
      *ord = cmp_bytes(a->key, b->key, m, false);
      if (!*ord) *ord = a->keylen < b->keylen ? -1 : a->keylen > b->keylen;
    }
    return charge(h, SCP_COST_MemCmp, 77);
  }
  int rc = charge(h, SCP_COST_MemCmp, SIZE_SCADDRESS);
  if (rc != SCP_OK) return rc;
  /* ScAddress order: the discriminant first (Account 0 < Contract 1) */
  if (a->account != b->account) {
    *ord = a->account ? -1 : 1;
    return SCP_OK;
  }
  *ord = cmp_bytes(a->id, b->id, 32, false);
  if (*ord) return SCP_OK;
  rc = scval_cmp(h, a->key, b->key, ord);
  if (rc != SCP_OK || *ord) return rc;
  rc = charge(h, SCP_COST_MemCmp, 4);
  *ord = a->dur < b->dur ? -1 : a->dur > b->dur;
  return rc;
}

static int scval_substructure(scp_host *h, const uint8_t *p);

size_t scp_storage_scval_len(const uint8_t *p) { return scval_len(p); }

/* The storage map of a ContractInstance image (Option<ScMap>, after the
 * executable), or NULL: an instance carries the map its frames persisted
 * (host_instance.c). */
static const uint8_t *instance_storage(const uint8_t *p, const scp_executable *e) {
  size_t at = scp_lc_instance_storage_at(e);
  return scp_be32(p + at) ? p + at + 4 : NULL;
}

/* Vec<ScMapEntry> clone of n entries at p (the count, then the entries). */
static int map_body_substructure(scp_host *h, const uint8_t *p) {
  uint32_t n = scp_be32(p);
  uint64_t size = (uint64_t)SIZE_SCMAP_ENTRY * n;
  int rc = charge(h, SCP_COST_MemAlloc, size);
  if (rc == SCP_OK) rc = charge(h, SCP_COST_MemCpy, size);
  size_t at = 4;
  for (uint32_t i = 0; rc == SCP_OK && i < 2 * n; i++) {
    rc = scval_substructure(h, p + at);
    at += scval_len(p + at);
  }
  return rc;
}

int scp_storage_instance_substructure(scp_host *h, const uint8_t *img, uint32_t len) {
  scp_executable e;
  if (!scp_lc_parse_instance(img, len, &e)) return SCP_OK;
  const uint8_t *m = instance_storage(img, &e);
  return m ? map_body_substructure(h, m) : SCP_OK;
}

/* ScVal::charge_for_substructure (metered_clone.rs) over an XDR image. */
static int scval_substructure(scp_host *h, const uint8_t *p) {
  uint32_t type = scp_be32(p);
  switch (type) {
  case SCV_CONTRACT_INSTANCE: {
    /* ScContractInstance: an external reference's tag string, then the
     * storage map if any */
    scp_executable e;
    if (!scp_lc_parse_instance(p, UINT32_MAX, &e)) return SCP_OK;
    int rc = SCP_OK;
    if (e.kind == SCP_EXEC_EXTERNAL_REF) {
      rc = charge(h, SCP_COST_MemAlloc, e.taglen);
      if (rc == SCP_OK) rc = charge(h, SCP_COST_MemCpy, e.taglen);
    }
    const uint8_t *m = instance_storage(p, &e);
    return rc == SCP_OK && m ? map_body_substructure(h, m) : rc;
  }
  case SCV_BYTES: case SCV_STRING: case SCV_SYMBOL: case SCV_EXECUTABLE_TAG: {
    uint32_t n = scp_be32(p + 4);
    int rc = charge(h, SCP_COST_MemAlloc, n);
    return rc == SCP_OK ? charge(h, SCP_COST_MemCpy, n) : rc;
  }
  case SCV_VEC: case SCV_MAP: {
    if (!scp_be32(p + 4)) return SCP_OK;
    bool map = type == SCV_MAP;
    uint32_t n = scp_be32(p + 8);
    uint64_t size = (uint64_t)(map ? SIZE_SCMAP_ENTRY : SIZE_SCVAL) * n;
    int rc = charge(h, SCP_COST_MemAlloc, size);
    if (rc == SCP_OK) rc = charge(h, SCP_COST_MemCpy, size);
    size_t at = 12;
    for (uint32_t i = 0; rc == SCP_OK && i < n * (map ? 2u : 1u); i++) {
      rc = scval_substructure(h, p + at);
      at += scval_len(p + at);
    }
    return rc;
  }
  default:
    return SCP_OK;
  }
}

/* ---- keys ----------------------------------------------------------------- */

void scp_lkey_free(scp_lkey *k) {
  free(k->key);
  k->key = NULL;
}

static int lkey_copy(const scp_lkey *src, scp_lkey *dst) {
  *dst = *src;
  dst->key = NULL;
  if (src->type != SCP_LK_CONTRACT_DATA && src->type != SCP_LK_TRUSTLINE) return SCP_OK;
  dst->key = malloc(src->keylen ? src->keylen : 1);
  if (!dst->key) return SCP_ERR_NOMEM;
  memcpy(dst->key, src->key, src->keylen);
  return SCP_OK;
}

/* conversion.rs storage_key_from_val: from_host_val_for_storage(k), the
 * current contract id (MemCpy(32)), Rc::metered_new(LedgerKey) (MemAlloc(152)). */
int scp_storage_key(scp_host *h, uint64_t k, unsigned dur, scp_lkey *out) {
  memset(out, 0, sizeof *out);
  int rc = scp_host_from_host_val_charges(h, k);
  if (rc != SCP_OK) return rc;
  if (!scp_host_in_vm(h))
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR, "Current context has no contract ID");
  rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  if (rc != SCP_OK) return rc;
  size_t len;
  rc = scp_host_val_to_xdr_raw(h, k, &out->key, &len);
  if (rc != SCP_OK) return rc;
  out->keylen = (uint32_t)len;
  out->type = SCP_LK_CONTRACT_DATA;
  out->dur = (uint8_t)dur;
  memcpy(out->id, h->frames[h->nframes - 1].contract_id, 32);
  return SCP_OK;
}

/* ---- MeteredOrdMap over the two arrays ---------------------------------------- */

typedef struct kmap {
  void *arr;
  size_t *n, *cap;
  size_t elem;          /* sizeof one C entry */
  uint64_t entry_size;  /* declared size of (K, V) */
} kmap;

static const scp_lkey *kmap_key(const kmap *m, size_t i) {
  return (const scp_lkey *)((const uint8_t *)m->arr + i * m->elem);   /* key first */
}

static uint64_t magnitude(uint64_t n) { return n ? 64 - (uint64_t)__builtin_clzll(n) : 0; }

static int kmap_find(scp_host *h, const kmap *m, const scp_lkey *key, bool *found, size_t *pos) {
  size_t n = *m->n;
  int rc = charge(h, SCP_COST_MemCpy, m->entry_size * (magnitude(n) + 1));
  size_t size = n, left = 0, right = n;
  *found = false;
  while (rc == SCP_OK && left < right) {
    size_t mid = left + size / 2;
    int ord;
    rc = lkey_cmp(h, kmap_key(m, mid), key, &ord);
    if (rc != SCP_OK) break;
    if (ord < 0) left = mid + 1;
    else if (ord > 0) right = mid;
    else {
      *found = true;
      *pos = mid;
      return SCP_OK;
    }
    size = right - left;
  }
  *pos = left;
  return rc;
}

static int kmap_get(scp_host *h, const kmap *m, const scp_lkey *key, bool *found, size_t *pos) {
  int rc = kmap_find(h, m, key, found, pos);
  if (rc == SCP_OK && *found) rc = charge(h, SCP_COST_MemCpy, m->entry_size);
  return rc;
}

/* insert's charges and the structural change; *pos = the entry's index
 * (a new entry is zeroed apart from its copied key). */
static int kmap_insert(scp_host *h, kmap *m, const scp_lkey *key, size_t *pos) {
  bool found;
  int rc = charge(h, SCP_COST_MemCpy, m->entry_size);
  if (rc == SCP_OK) rc = kmap_find(h, m, key, &found, pos);
  if (rc != SCP_OK) return rc;
  size_t n = *m->n + (found ? 0 : 1);
  rc = scp_host_charge_bulk_init(h, n, m->entry_size);
  if (rc == SCP_OK) rc = charge(h, SCP_COST_MemCpy, m->entry_size * n);
  if (rc != SCP_OK) return rc;
  if (!found) {
    if (!scp_grow(&m->arr, m->cap, n, m->elem)) return SCP_ERR_NOMEM;
    uint8_t *base = m->arr;
    memmove(base + (*pos + 1) * m->elem, base + *pos * m->elem, (*m->n - *pos) * m->elem);
    memset(base + *pos * m->elem, 0, m->elem);
    rc = lkey_copy(key, (scp_lkey *)(void *)(base + *pos * m->elem));
    if (rc != SCP_OK) {
      memmove(base + *pos * m->elem, base + (*pos + 1) * m->elem, (*m->n - *pos) * m->elem);
      return rc;
    }
    (*m->n)++;
  }
  /* from_map's adjacent compares */
  for (size_t i = 1; rc == SCP_OK && i < n; i++) {
    int ord;
    rc = lkey_cmp(h, kmap_key(m, i - 1), kmap_key(m, i), &ord);
  }
  return rc;
}

static kmap store_map(scp_host *h) {
  return (kmap){ .arr = h->store, .n = &h->nstore, .cap = &h->capstore,
                 .elem = sizeof(scp_sentry), .entry_size = STORE_ENTRY };
}
static kmap foot_map(scp_host *h) {
  return (kmap){ .arr = h->foot, .n = &h->nfoot, .cap = &h->capfoot,
                 .elem = sizeof(scp_fentry), .entry_size = FOOT_ENTRY };
}
/* e2e_invoke's RestoredKeySet: MeteredOrdMap<Rc<LedgerKey>, ()>, entry
 * 16 + 0 + 8 = 24 bytes */
static kmap restored_map(scp_host *h) {
  return (kmap){ .arr = h->restored, .n = &h->nrestored, .cap = &h->caprestored,
                 .elem = sizeof(scp_fentry), .entry_size = RESTORED_ENTRY };
}

static kmap which_map(scp_host *h, scp_smap which) {
  switch (which) {
  case SCP_SMAP_STORE: return store_map(h);
  case SCP_SMAP_FOOTPRINT: return foot_map(h);
  case SCP_SMAP_DECLARED:
    return (kmap){ .arr = h->declared, .n = &h->ndeclared, .cap = &h->capdeclared,
                   .elem = sizeof(scp_fentry), .entry_size = FOOT_ENTRY };
  default: return restored_map(h);
  }
}

static void which_set(scp_host *h, scp_smap which, void *arr) {
  if (which == SCP_SMAP_STORE) h->store = arr;
  else if (which == SCP_SMAP_FOOTPRINT) h->foot = arr;
  else if (which == SCP_SMAP_DECLARED) h->declared = arr;
  else h->restored = arr;
}

int scp_storage_map_insert(scp_host *h, scp_smap which, const scp_lkey *key, size_t *pos) {
  kmap m = which_map(h, which);
  int rc = kmap_insert(h, &m, key, pos);
  which_set(h, which, m.arr);
  return rc;
}

int scp_storage_map_get(scp_host *h, scp_smap which, const scp_lkey *key, bool *found, size_t *pos) {
  kmap m = which_map(h, which);
  return kmap_get(h, &m, key, found, pos);
}

int scp_storage_map_find(scp_host *h, scp_smap which, const scp_lkey *key, bool *found, size_t *pos) {
  kmap m = which_map(h, which);
  return kmap_find(h, &m, key, found, pos);
}

int scp_storage_lkey_cmp(scp_host *h, const scp_lkey *a, const scp_lkey *b, int *ord) {
  return lkey_cmp(h, a, b, ord);
}

static int store_insert(scp_host *h, const scp_lkey *key, size_t *pos) {
  kmap m = store_map(h);
  int rc = kmap_insert(h, &m, key, pos);
  h->store = m.arr;
  return rc;
}

/* Footprint::record_access */
static int record_footprint(scp_host *h, const scp_lkey *key, bool rw) {
  kmap m = foot_map(h);
  bool found;
  size_t pos;
  int rc = kmap_get(h, &m, key, &found, &pos);
  if (rc != SCP_OK) return rc;
  if (found && (h->foot[pos].rw || !rw)) return SCP_OK;
  rc = kmap_insert(h, &m, key, &pos);
  h->foot = m.arr;
  if (rc == SCP_OK) h->foot[pos].rw = rw;
  if (rc == SCP_OK && h->fee_hook) h->fee_hook(h->invoker_ctx, SCP_FEE_HOOK_FOOTPRINT, key, 0);
  return rc;
}

/* Recording mode records the access; enforcing mode enforces it
 * (charged) and records it uncharged: the fee and the reports read the
 * footprint the run used. */
static int record_access(scp_host *h, const scp_lkey *key, bool rw) {
  if (!h->enforcing) return record_footprint(h, key, rw);
  int rc = scp_storage_enforce_access(h, key, rw);
  if (rc != SCP_OK) return rc;
  scp_budget *b = h->budget, shadow;
  scp_budget_init(&shadow, UINT64_MAX, UINT64_MAX);
  h->budget = &shadow;
  rc = record_footprint(h, key, rw);
  h->budget = b;
  return rc;
}

/* ledger_info min_live_until_ledger_checked */
static uint32_t min_live_until(const scp_host *h, unsigned dur) {
  uint32_t ttl = dur == SCP_DUR_TEMPORARY ? h->opts.min_temp_entry_ttl : h->opts.min_persistent_entry_ttl;
  return h->opts.ledger_sequence + (ttl ? ttl - 1 : 0);
}

static unsigned key_durability(const scp_lkey *k) {
  return k->type == SCP_LK_CONTRACT_CODE ? SCP_DUR_PERSISTENT : k->dur;
}

/* Storage::handle_maybe_expired_entry (recording mode only) */
static int handle_maybe_expired(scp_host *h, const scp_lkey *key) {
  if (h->enforcing) return SCP_OK;
  kmap m = store_map(h);
  bool found;
  size_t pos;
  int rc = kmap_get(h, &m, key, &found, &pos);
  if (rc != SCP_OK || !found || !h->store[pos].present) return rc;
  if (key->type == SCP_LK_ACCOUNT || key->type == SCP_LK_TRUSTLINE) return SCP_OK;   /* no TTL */
  if (h->store[pos].live_until >= h->opts.ledger_sequence) return SCP_OK;
  if (key_durability(key) == SCP_DUR_TEMPORARY) {
    rc = store_insert(h, key, &pos);
    if (rc == SCP_OK) {
      free(h->store[pos].val);
      h->store[pos].val = NULL;
      h->store[pos].vallen = 0;
      h->store[pos].present = false;
    }
    return rc;
  }
  rc = record_access(h, key, true);
  if (rc == SCP_OK) rc = store_insert(h, key, &pos);
  if (rc == SCP_OK) h->store[pos].live_until = min_live_until(h, SCP_DUR_PERSISTENT);
  return rc;
}

bool scp_lkey_same(const scp_lkey *a, const scp_lkey *b) {
  return a->type == b->type && a->account == b->account && !memcmp(a->id, b->id, 32) &&
         ((a->type != SCP_LK_CONTRACT_DATA && a->type != SCP_LK_TRUSTLINE) ||
          (a->dur == b->dur && a->keylen == b->keylen && !memcmp(a->key, b->key, a->keylen)));
}

static const scp_sentry *snapshot_get(const scp_host *h, const scp_lkey *k) {
  for (size_t i = 0; i < h->nsnap; i++)
    if (scp_lkey_same(&h->snap[i].k, k)) return &h->snap[i];
  return NULL;
}

const scp_sentry *scp_storage_snapshot_entry(const scp_host *h, const scp_lkey *k) {
  return snapshot_get(h, k);
}

bool scp_storage_live_in_snapshot(const scp_host *h, const scp_lkey *k) {
  const scp_sentry *e = snapshot_get(h, k);
  return e && e->live_until >= h->opts.ledger_sequence;
}

/* prepare_read_only_access (recording mode), then the map lookup:
 * try_get_host_ledger_entry.  *pos is the entry's index. */
static int get_host_entry(scp_host *h, const scp_lkey *key, size_t *pos) {
  int rc = record_access(h, key, false);
  bool found;
  kmap m = store_map(h);
  if (h->enforcing) {
    /* every footprint key is in the map from the start */
    if (rc == SCP_OK) rc = kmap_get(h, &m, key, &found, pos);
    if (rc == SCP_OK && !found) rc = scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "storage key missing");
    return rc;
  }
  if (rc == SCP_OK) rc = kmap_find(h, &m, key, &found, pos);
  if (rc != SCP_OK) return rc;
  if (!found) {
    /* read-through to the snapshot source (unmetered), then the insert */
    const scp_sentry *src = snapshot_get(h, key);
    rc = store_insert(h, key, pos);
    if (rc != SCP_OK) return rc;
    if (src) {
      scp_sentry *e = &h->store[*pos];
      e->val = malloc(src->vallen ? src->vallen : 1);
      if (!e->val) return SCP_ERR_NOMEM;
      memcpy(e->val, src->val, src->vallen);
      e->vallen = src->vallen;
      e->present = true;
      e->live_until = src->live_until;
      if (h->opts.lazy_read_through) rc = scp_storage_lazy_read_through(h, e, src);   /* host_lazy.c */
      if (rc != SCP_OK) return rc;
    }
  }
  rc = record_access(h, key, false);
  if (rc == SCP_OK) rc = handle_maybe_expired(h, key);
  m = store_map(h);
  if (rc == SCP_OK) rc = kmap_get(h, &m, key, &found, pos);
  if (rc == SCP_OK && !found)
    rc = scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "storage key missing after read-through");
  return rc;
}

/* Only the contract-data host functions count (h->io, set by the
 * wrappers below and cleared by the one access that counts). */
static void count_read(scp_host *h, const scp_lkey *k, const scp_sentry *e) {
  if (!h->io) return;
  h->io = false;
  h->stats.reads++;
  h->stats.bytes_read += k->keylen + (e && e->present ? e->vallen : 0);
}

int scp_storage_has(scp_host *h, const scp_lkey *k, bool *found) {
  size_t pos;
  int rc = get_host_entry(h, k, &pos);
  if (rc != SCP_OK) return rc;
  *found = h->store[pos].present;
  count_read(h, k, &h->store[pos]);
  return SCP_OK;
}

int scp_storage_get(scp_host *h, const scp_lkey *k, const scp_sentry **ent) {
  size_t pos;
  int rc = get_host_entry(h, k, &pos);
  if (rc == SCP_OK && h->store[pos].present && h->store[pos].enc_len) rc = scp_storage_lazy_decode(h, pos, true);
  if (rc != SCP_OK) return rc;
  count_read(h, k, &h->store[pos]);
  if (!h->store[pos].present)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_MISSING_VALUE,
                        "trying to get non-existing value for contract storage key");
  *ent = &h->store[pos];
  return SCP_OK;
}

int scp_storage_try_get(scp_host *h, const scp_lkey *k, const scp_sentry **ent) {
  size_t pos;
  int rc = get_host_entry(h, k, &pos);
  if (rc == SCP_OK && h->store[pos].present && h->store[pos].enc_len) rc = scp_storage_lazy_decode(h, pos, true);
  if (rc != SCP_OK) return rc;
  count_read(h, k, &h->store[pos]);
  *ent = h->store[pos].present ? &h->store[pos] : NULL;
  return SCP_OK;
}

/* Storage::put_opt_helper */
static int put_opt(scp_host *h, const scp_lkey *k, const uint8_t *val, uint32_t len,
                   bool present, uint32_t live_until) {
  int rc = handle_maybe_expired(h, k);
  if (rc == SCP_OK) rc = record_access(h, k, true);
  if (rc == SCP_OK && present) rc = scp_host_charge_alloc(h, 1, SIZE_LAZY_ENTRY);
  size_t pos;
  if (rc == SCP_OK) rc = store_insert(h, k, &pos);
  if (rc != SCP_OK) return rc;
  uint8_t *copy = NULL;
  if (present) {
    copy = malloc(len ? len : 1);
    if (!copy) return SCP_ERR_NOMEM;
    if (len) memcpy(copy, val, len);
  }
  scp_sentry *e = &h->store[pos];
  free(e->val);
  e->val = copy;
  e->vallen = present ? len : 0;
  e->present = present;
  e->live_until = present ? live_until : 0;
  e->enc_len = e->lazy = 0;   /* LazyLedgerEntry::from_decoded */
  if (h->fee_hook) h->fee_hook(h->invoker_ctx, SCP_FEE_HOOK_WRITE, k, 0);
  if (h->io) {
    h->io = false;
    h->stats.writes++;
    h->stats.bytes_written += k->keylen + e->vallen;
  }
  return SCP_OK;
}

int scp_storage_put(scp_host *h, const scp_lkey *k, const uint8_t *val, uint32_t len,
                    uint32_t live_until) {
  return put_opt(h, k, val, len, true, live_until);
}

int scp_storage_del(scp_host *h, const scp_lkey *k) {
  return put_opt(h, k, NULL, 0, false, 0);
}

/* Storage::prepare_extend_ttl; *pos = the entry, *old, *cur_ttl, *max_lu. */
static int prepare_extend(scp_host *h, const scp_lkey *k, uint32_t extend_to, size_t *pos,
                          uint32_t *old, uint32_t *cur_ttl, uint32_t *max_lu) {
  int rc = handle_maybe_expired(h, k);
  if (rc == SCP_OK) rc = get_host_entry(h, k, pos);
  if (rc != SCP_OK) return rc;
  count_read(h, k, &h->store[*pos]);
  if (!h->store[*pos].present)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_MISSING_VALUE,
                        "trying to extend TTL of a missing entry");
  uint32_t seq = h->opts.ledger_sequence;
  *old = h->store[*pos].live_until;
  if (*old < seq)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "accessing no-longer-live entry");
  uint64_t mlu = (uint64_t)seq + (h->opts.max_entry_ttl ? h->opts.max_entry_ttl - 1 : 0);
  *max_lu = mlu > UINT32_MAX ? UINT32_MAX : (uint32_t)mlu;
  uint32_t max_ttl = *max_lu - seq;
  if (key_durability(k) == SCP_DUR_TEMPORARY && extend_to > max_ttl)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INVALID_ACTION,
                        "trying to extend temporary entry past max TTL allowed by network: %u > %u",
                        extend_to, max_ttl);
  *cur_ttl = *old - seq;
  return SCP_OK;
}

static int apply_extension(scp_host *h, const scp_lkey *k, uint32_t old, uint32_t new_lu) {
  if (new_lu <= old) return SCP_OK;
  size_t pos;
  int rc = store_insert(h, k, &pos);
  if (rc == SCP_OK) h->store[pos].live_until = new_lu;
  if (rc == SCP_OK && h->fee_hook) h->fee_hook(h->invoker_ctx, SCP_FEE_HOOK_EXTEND, k, 0);
  return rc;
}

int scp_storage_extend_ttl(scp_host *h, const scp_lkey *k, uint32_t threshold, uint32_t extend_to) {
  if (threshold > extend_to)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INVALID_INPUT,
                        "threshold must be <= extend_to: %u > %u", threshold, extend_to);
  size_t pos;
  uint32_t old, cur, max_lu;
  int rc = prepare_extend(h, k, extend_to, &pos, &old, &cur, &max_lu);
  if (rc != SCP_OK) return rc;
  uint64_t nl = (uint64_t)h->opts.ledger_sequence + extend_to;
  if (nl > UINT32_MAX)
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR, "live-until overflows");
  uint32_t new_lu = (uint32_t)nl < max_lu ? (uint32_t)nl : max_lu;
  if (cur <= threshold) rc = apply_extension(h, k, old, new_lu);
  return rc;
}

int scp_storage_extend_ttl_v2(scp_host *h, const scp_lkey *k, uint32_t extend_to,
                              uint32_t min_ext, uint32_t max_ext) {
  if (max_ext < min_ext)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INVALID_INPUT,
                        "max_extension must be >= min_extension: %u < %u", max_ext, min_ext);
  size_t pos;
  uint32_t old, cur, max_lu;
  int rc = prepare_extend(h, k, extend_to, &pos, &old, &cur, &max_lu);
  if (rc != SCP_OK) return rc;
  uint32_t ext = extend_to > cur ? extend_to - cur : 0;
  if (ext > max_ext) ext = max_ext;
  uint32_t net = max_lu > old ? max_lu - old : 0;
  if (ext > net) ext = net;
  if (ext < min_ext) return SCP_OK;
  if ((uint64_t)old + ext > UINT32_MAX)
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR, "live-until overflows");
  return apply_extension(h, k, old, old + ext);
}

int scp_storage_seed(scp_host *h, const scp_lkey *k, const uint8_t *val, uint32_t len,
                     uint32_t live_until, bool in_map) {
  scp_sentry *e;
  if (in_map) {
    /* uncharged: swap the budget out for the structural inserts */
    scp_budget *b = h->budget, shadow;
    scp_budget_init(&shadow, UINT64_MAX, UINT64_MAX);
    h->budget = &shadow;
    size_t pos;
    int rc = record_access(h, k, true);
    if (rc == SCP_OK) rc = store_insert(h, k, &pos);
    h->budget = b;
    if (rc != SCP_OK) return rc;
    e = &h->store[pos];
    free(e->val);
  } else {
    if (!scp_grow(&h->snap, &h->capsnap, h->nsnap + 1, sizeof *h->snap)) return SCP_ERR_NOMEM;
    e = &h->snap[h->nsnap];
    memset(e, 0, sizeof *e);
    if (lkey_copy(k, &e->k) != SCP_OK) return SCP_ERR_NOMEM;
    h->nsnap++;
  }
  e->val = malloc(len ? len : 1);
  if (!e->val) return SCP_ERR_NOMEM;
  if (len) memcpy(e->val, val, len);
  e->vallen = len;
  e->present = true;
  e->live_until = live_until;
  return SCP_OK;
}

/* An entry put in the storage map alone (no footprint), uncharged: what
 * a soroban-sdk test's earlier invocations left in its long-lived map;
 * val NULL is a None entry (a key read and found missing, or deleted). */
int scp_storage_seed_map(scp_host *h, const scp_lkey *k, const uint8_t *val, uint32_t len,
                         uint32_t live_until) {
  scp_budget *b = h->budget, shadow;
  scp_budget_init(&shadow, UINT64_MAX, UINT64_MAX);
  h->budget = &shadow;
  size_t pos;
  int rc = store_insert(h, k, &pos);
  h->budget = b;
  if (rc != SCP_OK) return rc;
  scp_sentry *e = &h->store[pos];
  free(e->val);
  e->val = NULL;
  e->vallen = 0;
  e->present = val != NULL;
  e->live_until = val ? live_until : 0;
  e->enc_len = e->lazy = 0;   /* put in-host: decoded */
  if (!val) return SCP_OK;
  if (!(e->val = malloc(len ? len : 1))) return SCP_ERR_NOMEM;
  if (len) memcpy(e->val, val, len);
  e->vallen = len;
  return SCP_OK;
}

void scp_storage_footprint_clear(scp_host *h) {
  for (size_t i = 0; i < h->nfoot; i++) scp_lkey_free(&h->foot[i].k);
  h->nfoot = 0;
}

void scp_storage_free(scp_host *h) {
  for (size_t i = 0; i < h->nstore; i++) {
    scp_lkey_free(&h->store[i].k);
    free(h->store[i].val);
  }
  for (size_t i = 0; i < h->nfoot; i++) scp_lkey_free(&h->foot[i].k);
  for (size_t i = 0; i < h->nrestored; i++) scp_lkey_free(&h->restored[i].k);
  free(h->restored);
  h->restored = NULL;
  h->nrestored = h->caprestored = 0;
  for (size_t i = 0; i < h->nsnap; i++) {
    scp_lkey_free(&h->snap[i].k);
    free(h->snap[i].val);
  }
  free(h->snap);
  h->snap = NULL;
  h->nsnap = h->capsnap = 0;
  free(h->store);
  free(h->foot);
  h->store = NULL;
  h->foot = NULL;
  h->nstore = h->nfoot = h->capstore = h->capfoot = 0;
  free(h->lazy_decoded);
  h->lazy_decoded = NULL;
  h->nlazy = h->caplazy = 0;
  scp_storage_declared_free(h);
}

int scp_storage_snapshot(const scp_host *h, scp_sentry **out, size_t *n) {
  *out = NULL;
  *n = 0;
  scp_sentry *c = calloc(h->nstore + 1, sizeof *c);
  if (!c) return SCP_ERR_NOMEM;
  for (size_t i = 0; i < h->nstore; i++) {
    c[i] = h->store[i];
    c[i].val = NULL;
    if (lkey_copy(&h->store[i].k, &c[i].k) != SCP_OK) goto oom;
    if (h->store[i].val) {
      if (!(c[i].val = malloc(h->store[i].vallen ? h->store[i].vallen : 1))) {
        scp_lkey_free(&c[i].k);
        goto oom;
      }
      memcpy(c[i].val, h->store[i].val, h->store[i].vallen);
    }
    *n = i + 1;
  }
  *out = c;
  *n = h->nstore;
  return SCP_OK;
oom:
  scp_storage_snapshot_free(c, *n);
  *n = 0;
  return SCP_ERR_NOMEM;
}

void scp_storage_snapshot_free(scp_sentry *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    scp_lkey_free(&s[i].k);
    free(s[i].val);
  }
  free(s);
}

void scp_storage_rollback(scp_host *h, scp_sentry *snap, size_t n) {
  for (size_t i = 0; i < h->nstore; i++) {
    scp_lkey_free(&h->store[i].k);
    free(h->store[i].val);
  }
  free(h->store);
  h->store = snap;
  h->nstore = n;
  h->capstore = n + 1;
}

void scp_storage_frame_end(scp_host *h, bool roll_back, scp_sentry *snap, size_t nsnap,
                           size_t nevents) {
  if (!roll_back) {
    scp_storage_snapshot_free(snap, nsnap);
    return;
  }
  scp_storage_rollback(h, snap, nsnap);
  scp_host_events_rollback(h, nevents);
}

void scp_host_storage_stats(const scp_host *h, scp_storage_stats *out) {
  *out = h->stats;
}

/* ---- the host functions' storage parts (host.rs, data_helper.rs) ------------- */

/* LedgerEntry::metered_clone: MemCpy(288), then the value's and the key's
 * substructure. */
int scp_storage_clone_entry_charges(scp_host *h, const scp_sentry *e) {
  int rc = scp_host_charge_copy(h, 1, SIZE_LEDGER_ENTRY);
  if (rc == SCP_OK && e->k.type == SCP_LK_CONTRACT_DATA) {
    rc = scp_storage_value_substructure(h, e->val);
    if (rc == SCP_OK) rc = scval_substructure(h, e->k.key);
  }
  return rc;
}

int scp_storage_value_substructure(scp_host *h, const uint8_t *scval) {
  return scval_substructure(h, scval);
}

/* put_contract_data_into_ledger (data_helper.rs) */
int scp_storage_put_contract_data(scp_host *h, uint64_t k, uint64_t v, unsigned dur) {
  scp_lkey key;
  uint8_t *val = NULL;
  size_t vlen = 0;
  bool has;
  h->io = false;
  int rc = scp_storage_key(h, k, dur, &key);
  if (rc == SCP_OK) rc = scp_storage_has(h, &key, &has);
  if (rc != SCP_OK) goto out;
  uint32_t live_until;
  if (has) {
    const scp_sentry *e;
    rc = scp_storage_get(h, &key, &e);
    if (rc == SCP_OK) rc = scp_storage_clone_entry_charges(h, e);
    if (rc != SCP_OK) goto out;
    live_until = e->live_until;
    rc = scp_host_from_host_val_charges(h, v);
    if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_ENTRY);   /* Rc::metered_new */
  } else {
    rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);          /* ScAddress::Contract(id) */
    if (rc == SCP_OK) rc = scp_host_from_host_val_charges(h, k);
    if (rc == SCP_OK) rc = scp_host_from_host_val_charges(h, v);
    if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_ENTRY);   /* new_contract_data */
    live_until = min_live_until(h, dur);
  }
  if (rc == SCP_OK) rc = scp_host_val_to_xdr_raw(h, v, &val, &vlen);
  h->io = true;
  if (rc == SCP_OK) rc = scp_storage_put(h, &key, val, (uint32_t)vlen, live_until);
  h->io = false;
out:
  free(val);
  scp_lkey_free(&key);
  return rc;
}

int scp_storage_has_contract_data(scp_host *h, uint64_t k, unsigned dur, bool *found) {
  scp_lkey key;
  int rc = scp_storage_key(h, k, dur, &key);
  h->io = true;
  if (rc == SCP_OK) rc = scp_storage_has(h, &key, found);
  h->io = false;
  scp_lkey_free(&key);
  return rc;
}

int scp_storage_get_contract_data(scp_host *h, uint64_t k, unsigned dur, uint64_t *out) {
  scp_lkey key;
  const scp_sentry *e;
  int rc = scp_storage_key(h, k, dur, &key);
  h->io = true;
  if (rc == SCP_OK) rc = scp_storage_get(h, &key, &e);
  h->io = false;
  if (rc == SCP_OK) rc = scp_host_scval_to_val(h, e->val, e->vallen, out);
  scp_lkey_free(&key);
  return rc;
}

int scp_storage_del_contract_data(scp_host *h, uint64_t k, unsigned dur) {
  scp_lkey key;
  int rc = scp_storage_key(h, k, dur, &key);
  h->io = true;
  if (rc == SCP_OK) rc = scp_storage_del(h, &key);
  h->io = false;
  scp_lkey_free(&key);
  return rc;
}

int scp_storage_extend_contract_data(scp_host *h, uint64_t k, unsigned dur, bool v2,
                                     const uint32_t *p) {
  scp_lkey key;
  int rc = scp_storage_key(h, k, dur, &key);
  h->io = true;
  if (rc == SCP_OK)
    rc = v2 ? scp_storage_extend_ttl_v2(h, &key, p[0], p[1], p[2])
            : scp_storage_extend_ttl(h, &key, p[0], p[1]);
  h->io = false;
  scp_lkey_free(&key);
  return rc;
}
