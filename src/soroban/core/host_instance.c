/*
 * host_instance.c — a contract frame's instance storage, for WASM frames
 * and the Stellar Asset Contract's native frames alike.  Each frame holds
 * the instance it was called with (the image the call read, copied at the
 * push) and, from its first instance access on, its own map; a frame that
 * succeeded and modified its map writes it back at its end, and the
 * frames of the same contract below it reload.  Reference: rs-soroban-env
 * v28.0.2 host/frame.rs (with_frame, persist_instance_storage) and
 * storage.rs (InstanceStorageMap); each function names its part.  The
 * asset contract's frames were checked against the reference's traces
 * (tests/soroban/test_sac.c), the WASM frames by hand
 * (tests/soroban/test_instance.c).
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/core/host_instance.h"
#include "soroban/core/host_lifecycle.h"
#include "util/scp_util.h"

/* Declared sizes (host/declared_size.rs). */
enum {
  SIZE_CONTRACT_ID = 32, SIZE_LEDGER_KEY = 152, SIZE_LEDGER_ENTRY = 288,
  SIZE_SCMAP_ENTRY = 192, SIZE_MAP_ENTRY = 8 + 8 + 8,
  SIZE_RESULT_VEC = 24 + 16,   /* Result<Vec<(Val, Val)>, HostError> */
  SIZE_RESULT_PAIR = 24 + 16   /* Result<(Val, Val), HostError> */
};

static bool is_instance_key(const scp_lkey *k, const uint8_t id[32]) {
  return k->type == SCP_LK_CONTRACT_DATA && !k->account && k->dur == SCP_DUR_PERSISTENT &&
         k->keylen == 4 && scp_be32(k->key) == 20 && !memcmp(k->id, id, 32);
}

/* The instance entry as the storage map holds it (the snapshot source when
 * the map has not read it), found without charge. */
const scp_sentry *scp_inst_entry(const scp_host *h, const uint8_t id[32]) {
  for (size_t i = 0; i < h->nstore; i++)
    if (is_instance_key(&h->store[i].k, id)) return h->store[i].present ? &h->store[i] : NULL;
  for (size_t i = 0; i < h->nsnap; i++)
    if (is_instance_key(&h->snap[i].k, id)) return h->snap[i].present ? &h->snap[i] : NULL;
  return NULL;
}

int scp_inst_capture(scp_host *h, scp_frame *f) {
  const scp_sentry *e = scp_inst_entry(h, f->contract_id);
  if (!e) return SCP_OK;
  uint8_t *c = malloc(e->vallen ? e->vallen : 1);
  if (!c) return SCP_ERR_NOMEM;
  memcpy(c, e->val, e->vallen);
  f->instance = c;
  f->instance_len = e->vallen;
  return SCP_OK;
}

void scp_inst_frame_free(scp_frame *f) {
  free(f->instance);
  free(f->storage.kv);
  f->instance = NULL;
  f->storage = (scp_instance){ .kv = NULL, .n = 0 };
}

static int bad_instance(scp_host *h) {
  return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR,
                      "ledger entry for contract instance does not contain contract instance");
}

/* InstanceStorageMap::from_instance_xdr of an instance image (NULL: none,
 * read as storage None), at a frame's first instance access.  Storage
 * None: from_map of an empty Vec (MemCpy(0)).  Some(ScMap of n): the
 * Result<Vec<(Val, Val)>> collect (MemCpy(40), MemAlloc(40n),
 * MemCpy(40n)), each key and value to_valid_host_val in entry order,
 * from_map's scan (MemCpy(24n)) and adjacent key compares.  *out gets the
 * map when every charge went through; otherwise it is left as it was. */
static int from_instance_xdr(scp_host *h, const uint8_t *img, uint32_t len, scp_instance *out) {
  bool some = false;
  uint32_t n = 0;
  const uint8_t *p = NULL, *end = NULL;   /* no instance: no offset from NULL (UB) */
  if (img) {
    end = img + len;
    scp_executable ex;
    if (!scp_lc_parse_instance(img, len, &ex)) return bad_instance(h);
    uint32_t at = scp_lc_instance_storage_at(&ex);
    if ((uint64_t)at + 4 > len) return bad_instance(h);
    some = scp_be32(img + at) != 0;
    if (some && (uint64_t)at + 8 > len) return bad_instance(h);
    if (some) n = scp_be32(img + at + 4);
    p = img + at + (some ? 8 : 4);
  }
  /* storage None: from_map of an empty Vec, no collect */
  int rc = SCP_OK;
  if (some) rc = scp_host_charge_copy(h, 1, SIZE_RESULT_VEC);
  if (rc == SCP_OK && some) rc = scp_host_charge_alloc(h, n, SIZE_RESULT_PAIR);
  if (rc == SCP_OK && some) rc = scp_host_charge_copy(h, n, SIZE_RESULT_PAIR);
  if (rc != SCP_OK) return rc;
  if (n > (uint32_t)(end - p) / 8) return bad_instance(h);   /* at least 4 + 4 per entry */
  uint64_t *kv = n ? malloc(2 * (size_t)n * sizeof *kv) : NULL;
  if (n && !kv) return SCP_ERR_NOMEM;
  for (uint32_t i = 0; rc == SCP_OK && i < 2 * n; i++) {
    size_t l = scp_storage_scval_len(p);
    if (l > (size_t)(end - p)) {
      rc = bad_instance(h);
      break;
    }
    /* to_valid_host_val: anything but a budget failure is an internal
     * error (the ledger's values are valid by construction) */
    rc = scp_host_scval_to_val(h, p, l, &kv[i]);
    if (rc == SCP_ERR_HOST && scp_val_minor(h->errval) != SCP_ET_BUDGET)
      rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_INTERNAL_ERROR,
                        "unexpected non-Val-representable ScVal in internal conversion");
    p += l;
  }
  /* from_map: the scan, then each adjacent pair in order */
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, n, SIZE_MAP_ENTRY);
  if (rc == SCP_OK) rc = scp_host_check_keys_sorted(h, kv, n, "instance storage keys");
  if (rc != SCP_OK) {
    free(kv);
    return rc;
  }
  free(out->kv);
  out->kv = kv;
  out->n = n;
  return SCP_OK;
}

int scp_inst_storage(scp_host *h, scp_instance **out) {
  if (!scp_host_in_vm(h))
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR,
                        "access to instance in frame without instance");
  scp_frame *f = &h->frames[h->nframes - 1];
  if (!f->instance_loaded) {
    int rc = from_instance_xdr(h, f->instance, f->instance_len, &f->storage);
    if (rc != SCP_OK) return rc;
    f->instance_loaded = true;
  }
  *out = &f->storage;
  return SCP_OK;
}

/* The instance image old with its storage replaced by Some(in's map): the
 * keys and values' ScVal XDR, uncharged (the charges are the conversion's
 * and the storage's). */
static int image_with_map(scp_host *h, const uint8_t *old, uint32_t oldlen, const scp_instance *in,
                          uint8_t **out, uint32_t *len) {
  scp_executable ex;
  if (!scp_lc_parse_instance(old, oldlen, &ex)) return bad_instance(h);
  size_t head = scp_lc_instance_storage_at(&ex), n = head + 8;
  uint8_t *img = malloc(n);
  if (!img) return SCP_ERR_NOMEM;
  memcpy(img, old, head);
  scp_put_be32(img + head, 1);   /* Some */
  scp_put_be32(img + head + 4, in->n);
  for (uint32_t i = 0; i < 2 * in->n; i++) {
    uint8_t *x;
    size_t xl;
    int rc = scp_host_val_to_xdr_raw(h, in->kv[i], &x, &xl);
    uint8_t *g = rc == SCP_OK ? realloc(img, n + xl) : NULL;
    if (!g) {
      if (rc == SCP_OK) free(x);
      free(img);
      return rc == SCP_OK ? SCP_ERR_NOMEM : rc;
    }
    img = g;
    memcpy(img + n, x, xl);
    n += xl;
    free(x);
  }
  *out = img;
  *len = (uint32_t)n;
  return SCP_OK;
}

/* persist_instance_storage for the top frame (modified):
 * instance_storage_map_to_scmap (Vec<ScMapEntry> with_metered_capacity,
 * the map's scan, each key converted for storage and each value
 * converted), get_current_contract_id_internal (MemCpy(32)),
 * contract_instance_ledger_key (MemCpy(32), MemAlloc(152)), then
 * store_contract_instance(None, Some(map)) over the existing entry: has,
 * get, the LedgerEntry's deep clone (its old map included),
 * Rc::metered_new (MemAlloc(288)), put with the same live-until. */
static int persist(scp_host *h) {
  scp_frame *f = &h->frames[h->nframes - 1];
  const scp_instance *in = &f->storage;
  /* instance_storage_map_to_scmap */
  int rc = scp_host_charge_bulk_init(h, in->n, SIZE_SCMAP_ENTRY);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, in->n, SIZE_MAP_ENTRY);
  for (uint32_t i = 0; rc == SCP_OK && i < 2 * in->n; i++)
    rc = scp_host_from_host_val_charges(h, in->kv[i]);
  /* get_current_contract_id_internal, contract_instance_ledger_key */
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  if (rc != SCP_OK) return rc;
  uint8_t kb[4];
  scp_lkey ik;
  scp_lc_instance_key(f->contract_id, &ik, kb);
  /* store_contract_instance(None, Some(map)) */
  bool has = false;
  const scp_sentry *e;
  rc = scp_storage_has(h, &ik, &has);
  if (rc == SCP_OK && !has) {
    /* the new-entry branch: the id's clone, then no executable to make
     * an instance of */
    rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
    return rc == SCP_OK ? scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR,
                                       "can't initialize contract without executable")
                        : rc;
  }
  if (rc == SCP_OK) rc = scp_storage_get(h, &ik, &e);
  if (rc == SCP_OK) rc = scp_storage_clone_entry_charges(h, e);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_ENTRY);
  if (rc != SCP_OK) return rc;
  uint8_t *img = NULL;
  uint32_t len = 0, live_until = e->live_until;
  rc = image_with_map(h, e->val, e->vallen, in, &img, &len);
  if (rc != SCP_OK) return rc;
  h->io = true;   /* the entry written counts in the storage statistics */
  rc = scp_storage_put(h, &ik, img, len, live_until);
  h->io = false;
  free(img);
  return rc;
}

/* maybe_reload_instance_storage_on_frame_pop: every frame below the top
 * one that runs the same contract, bottom first (reload_instance_storage:
 * the key, the entry read, the ScContractInstance clone, from_instance_xdr). */
static int reload_parents(scp_host *h) {
  size_t top = h->nframes - 1;
  uint8_t id[32], kb[4];
  memcpy(id, h->frames[top].contract_id, 32);
  scp_lkey ik;
  scp_lc_instance_key(id, &ik, kb);
  for (size_t i = 0; i < top; i++) {
    if (memcmp(h->frames[i].contract_id, id, 32)) continue;
    const scp_sentry *e;
    scp_executable ex;
    int rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
    if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
    if (rc == SCP_OK) rc = scp_storage_get(h, &ik, &e);
    if (rc == SCP_OK) rc = scp_lc_instance_from_entry(h, e, &ex);
    if (rc == SCP_OK) rc = from_instance_xdr(h, e->val, e->vallen, &h->frames[i].storage);
    if (rc != SCP_OK) return rc;
    h->frames[i].instance_loaded = true;
    h->frames[i].instance_modified = false;
  }
  return SCP_OK;
}

int scp_inst_persist_top(scp_host *h) {
  if (!h->nframes) return SCP_OK;
  scp_frame *f = &h->frames[h->nframes - 1];
  if (!f->instance_loaded || !f->instance_modified) return SCP_OK;
  return persist(h);   /* is_modified stays set, as in the reference */
}

int scp_inst_frame_end(scp_host *h) {
  if (!h->nframes) return SCP_OK;
  scp_frame *f = &h->frames[h->nframes - 1];
  if (!f->instance_loaded || !f->instance_modified) return SCP_OK;
  int rc = persist(h);
  return rc == SCP_OK ? reload_parents(h) : rc;
}
