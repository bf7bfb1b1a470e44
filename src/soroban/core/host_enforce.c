/*
 * host_enforce.c — a transaction's storage as the network builds and
 * charges it: rs-soroban-env v28 e2e_invoke.rs invoke_host_function (what
 * stellar-core calls) over Storage::with_enforcing_footprint_and_map.
 *
 * What the network's invocation charges that scprof's recording-mode run
 * (simulation's invocation, the profile's default context) does not, in
 * order, and the other way round (cost type(input); n = entries of the
 * map at that point, ENTRY = the map's declared entry size):
 *
 * Set-up, before Host::set_authorization_entries (scp_storage_enforce_setup):
 *   1. SorobanResources decoded: ValDeser(its XDR length)
 *   2. only with restored entries, build_restored_key_set, per restored
 *      index: LedgerKey::metered_clone = MemCpy(152) + the key ScVal's
 *      substructure (contract data), then RestoredKeySet insert (ENTRY 24)
 *   3. build_storage_footprint_from_xdr: the read-write keys, then the
 *      read-only keys, each: metered_clone (MemCpy(152) + substructure),
 *      Rc::metered_new MemAlloc(152), Footprint insert (ENTRY 25)
 *   4. build_storage_map_from_xdr_ledger_entries: the read-only keys, then
 *      the read-write keys, each: metered_clone and Rc as in 3; when the
 *      ledger has the entry (an expired temporary one it has not, a
 *      restored one it has): MemAlloc(L), MemCpy(L) with L the encoded
 *      LedgerEntry's length, Rc<LazyLedgerEntry> MemAlloc(32); StorageMap
 *      insert (ENTRY 68), the missing ones as None
 *   5. init_storage_map = metered_clone: MemCpy(24), MemAlloc(68 n),
 *      MemCpy(68 n)
 *   6. build_auth_entries_from_xdr: metered_collect's bulk charge first,
 *      MemCpy(40) (Result<Vec<_>, HostError>), MemAlloc(400 k), MemCpy(400 k)
 *      for k entries, then each entry's ValDeser(its length)
 *   7. the HostFunction decoded: ValDeser(its length); the source
 *      AccountId: ValDeser(36)
 *   (Host::with_storage_and_budget, set_source_account, set_ledger_info
 *   charge nothing; set_authorization_entries and set_base_prng_seed are
 *   charged as in the recording run.)
 *
 * Storage accesses during the call (host_storage.c with h->enforcing):
 *   recording: get/has = record_access (Footprint get, an insert the first
 *     time or on a read-write upgrade), StorageMap find, on a miss the
 *     read-through insert, record_access again, handle_maybe_expired
 *     (StorageMap get, an insert for an expired entry), StorageMap get;
 *     put/del = handle_maybe_expired, record_access, MemAlloc(32) for a
 *     value, StorageMap insert; extend = handle_maybe_expired, then as get
 *   enforcing: get/has = enforce_access (Footprint get over the declared
 *     footprint: find + MemCpy(25)), StorageMap get; put/del =
 *     enforce_access, MemAlloc(32) for a value, StorageMap insert; extend
 *     = as get; the maps hold every footprint entry from the start, so
 *     their searches and inserts are over the whole footprint
 *   both: the first get / try_get of an entry the ledger passed decodes it
 *     (LazyLedgerEntry::decoded): ValDeser(L), MemAlloc(288), then
 *     ledger_entry_to_ledger_key (contract data: MemCpy(48) the address,
 *     MemCpy(96) + substructure the key; code: MemCpy(32); account:
 *     MemCpy(32); trustline: MemCpy(32), MemCpy(45)) and the key compare
 *     (Compare<LedgerKey>).  has and extend do not decode.  Recording
 *     mode's read-through stores the entry re-encoded, so its first get
 *     decodes too (host_lazy.c)
 *   every frame push's rollback point clones the StorageMap: MemCpy(24),
 *     MemAlloc(68 n), MemCpy(68 n), n the whole footprint in enforcing
 *     mode, the entries touched so far in recording mode
 *   the code of a call: stellar-core passes its module cache, so a live
 *     contract's code is found there (has(), no decode, no parse), as
 *     scp_host_opts.module_cache runs it
 *
 * Teardown, after the call: charged, for --tx, by host_teardown.c
 * (scp_storage_enforce_teardown, booked as tx:encode), whose top comment
 * lists it: T0 the returned Val's from_host_val (Host::invoke_function's
 * last step), T1 Events::externalize (always), then only when the call
 * succeeded T2 the return value's metered_write_xdr, T3
 * get_ledger_changes per footprint key, T4 encode_contract_events.
 * scprof's recording-mode run charges none of these (its context ends at
 * the call's last frame), though simulation's invocation makes them too.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/core/host_enforce.h"
#include "soroban/core/host_lifecycle.h"

enum {
  SIZE_LEDGER_KEY = 152, SIZE_LEDGER_ENTRY = 288, SIZE_LAZY_ENTRY = 32, SIZE_SCADDRESS = 48,
  SIZE_SCVAL = 96, SIZE_HASH = 32, SIZE_ACCOUNT_ID = 32, SIZE_TRUSTLINE_ASSET = 45,
  SIZE_STORE_ENTRY = 68, SIZE_VEC = 24,
  /* Result<Vec<SorobanAuthorizationEntry>, HostError>: 24 + 16; its item
   * Result<SorobanAuthorizationEntry, HostError>: 384 + 16 */
  SIZE_AUTH_RESULT_VEC = 40, SIZE_AUTH_RESULT = 400,
  SIZE_ACCOUNT_ID_XDR = 36
};

static int charge(scp_host *h, scp_cost_type t, uint64_t input) {
  return scp_host_charge(h, t, (int64_t)input);
}

/* LedgerKey::metered_clone */
static int clone_key(scp_host *h, const scp_lkey *k) {
  int rc = scp_host_charge_copy(h, 1, SIZE_LEDGER_KEY);
  if (rc == SCP_OK && k->type == SCP_LK_CONTRACT_DATA) rc = scp_storage_value_substructure(h, k->key);
  return rc;
}

/* The entry of k the ledger passes: a live one from the snapshot source;
 * a restored one live again from the minimum persistent TTL. */
static const scp_sentry *ledger_entry(scp_host *h, const scp_lkey *k, bool restored, uint32_t *live_until) {
  const scp_sentry *e = scp_storage_snapshot_entry(h, k);
  if (!e || !e->present) return NULL;
  *live_until = e->live_until;
  bool ttl = k->type == SCP_LK_CONTRACT_DATA || k->type == SCP_LK_CONTRACT_CODE;
  if (!ttl || e->live_until >= h->opts.ledger_sequence) return e;
  if (!restored) return NULL;
  uint32_t ttl_min = h->opts.min_persistent_entry_ttl;
  *live_until = h->opts.ledger_sequence + (ttl_min ? ttl_min - 1 : 0);
  return e;
}

static bool is_restored(const scp_e2e_setup *s, size_t i) {
  for (size_t j = 0; i >= s->nro && j < s->nrestored; j++)
    if (s->restored[j] == i - s->nro) return true;
  return false;
}

/* 2-3: the RestoredKeySet and the Footprint. */
static int build_footprint(scp_host *h, const scp_e2e_setup *s) {
  size_t pos;
  int rc = SCP_OK;
  for (size_t j = 0; rc == SCP_OK && j < s->nrestored; j++) {
    const scp_lkey *k = &s->foot[s->nro + s->restored[j]].k;
    rc = clone_key(h, k);
    if (rc == SCP_OK) rc = scp_storage_map_insert(h, SCP_SMAP_RESTORED, k, &pos);
  }
  size_t n = s->nro + s->nrw;
  for (size_t r = 0; rc == SCP_OK && r < n; r++) {
    size_t i = r < s->nrw ? s->nro + r : r - s->nrw;   /* read-write first */
    rc = clone_key(h, &s->foot[i].k);
    if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
    if (rc == SCP_OK) rc = scp_storage_map_insert(h, SCP_SMAP_DECLARED, &s->foot[i].k, &pos);
    if (rc == SCP_OK) h->declared[pos].rw = i >= s->nro;
  }
  return rc;
}

/* 4: the storage map, read-only keys first. */
static int build_map(scp_host *h, const scp_e2e_setup *s) {
  int rc = SCP_OK;
  for (size_t i = 0; rc == SCP_OK && i < s->nro + s->nrw; i++) {
    const scp_lkey *k = &s->foot[i].k;
    uint32_t live_until = 0;
    const scp_sentry *src = s->entry_lens[i] ? ledger_entry(h, k, is_restored(s, i), &live_until) : NULL;
    rc = clone_key(h, k);
    if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
    if (rc == SCP_OK && src) rc = charge(h, SCP_COST_MemAlloc, s->entry_lens[i]);
    if (rc == SCP_OK && src) rc = charge(h, SCP_COST_MemCpy, s->entry_lens[i]);
    if (rc == SCP_OK && src) rc = scp_host_charge_alloc(h, 1, SIZE_LAZY_ENTRY);
    size_t pos;
    if (rc == SCP_OK) rc = scp_storage_map_insert(h, SCP_SMAP_STORE, k, &pos);
    if (rc != SCP_OK || !src) continue;
    scp_sentry *e = &h->store[pos];
    free(e->val);
    if (!(e->val = malloc(src->vallen ? src->vallen : 1))) return SCP_ERR_NOMEM;
    memcpy(e->val, src->val, src->vallen);
    e->vallen = src->vallen;
    e->present = true;
    e->live_until = live_until;
    e->enc_len = s->entry_lens[i];
  }
  return rc;
}

int scp_storage_enforce_setup(scp_host *h, const scp_e2e_setup *s) {
  scp_storage_declared_free(h);
  int rc = charge(h, SCP_COST_ValDeser, s->resources_len);
  if (rc == SCP_OK) rc = build_footprint(h, s);
  if (rc == SCP_OK) rc = build_map(h, s);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, h->nstore, SIZE_STORE_ENTRY);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_AUTH_RESULT_VEC);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, s->nauth, SIZE_AUTH_RESULT);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, s->nauth, SIZE_AUTH_RESULT);
  for (size_t i = 0; rc == SCP_OK && i < s->nauth; i++) rc = charge(h, SCP_COST_ValDeser, s->auth_lens[i]);
  if (rc == SCP_OK) rc = charge(h, SCP_COST_ValDeser, s->host_fn_len);
  if (rc == SCP_OK) rc = charge(h, SCP_COST_ValDeser, SIZE_ACCOUNT_ID_XDR);
  h->enforcing = true;
  return rc;
}

int scp_storage_enforce_access(scp_host *h, const scp_lkey *k, bool rw) {
  bool found;
  size_t pos;
  int rc = scp_storage_map_get(h, SCP_SMAP_DECLARED, k, &found, &pos);
  if (rc != SCP_OK) return rc;
  if (!found || (rw && !h->declared[pos].rw)) return scp_storage_footprint_error(h, k);
  return SCP_OK;
}

/* ledger_entry_to_ledger_key's clones */
static int key_of_entry(scp_host *h, const scp_lkey *k) {
  switch (k->type) {
  case SCP_LK_CONTRACT_DATA: {
    int rc = scp_host_charge_copy(h, 1, SIZE_SCADDRESS);
    if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_SCVAL);
    return rc == SCP_OK ? scp_storage_value_substructure(h, k->key) : rc;
  }
  case SCP_LK_TRUSTLINE: {
    int rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
    return rc == SCP_OK ? scp_host_charge_copy(h, 1, SIZE_TRUSTLINE_ASSET) : rc;
  }
  case SCP_LK_ACCOUNT: return scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
  default: return scp_host_charge_copy(h, 1, SIZE_HASH);
  }
}

int scp_storage_lazy_decode(scp_host *h, size_t pos, bool key_check) {
  const scp_sentry *e = &h->store[pos];
  /* the memo lives in the LazyLedgerEntry the map's rollback copies share */
  uint8_t *decoded = scp_storage_lazy_memo(h, e);
  if (!decoded || *decoded) return SCP_OK;
  *decoded = 1;
  int rc = charge(h, SCP_COST_ValDeser, e->enc_len);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_ENTRY);
  if (rc != SCP_OK || !key_check) return rc;
  rc = key_of_entry(h, &e->k);
  int ord;
  if (rc == SCP_OK) rc = scp_storage_lkey_cmp(h, &e->k, &e->k, &ord);
  return rc;
}
