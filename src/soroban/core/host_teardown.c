/*
 * host_teardown.c — what the network's invocation charges after the call
 * (rs-soroban-env v28.0.2 e2e_invoke.rs invoke_host_function, from
 * Host::invoke_function's return on), for a transaction run in enforcing
 * mode (host_enforce.c lists the set-up and the storage).  In order:
 *
 *   T0 only when the call succeeded: Host::invoke_function's last step,
 *      from_host_val of the returned Val (frame.rs; conversion.rs: a
 *      container's metered_collect, a U64/I64/timepoint/duration's
 *      MemCpy(8), a 128-bit's MemCpy(16), a 256-bit's 2 x MemCpy(16), a
 *      Bytes/String/Symbol's MemCpy(24), MemAlloc(n), MemCpy(n), an
 *      Address's MemCpy(48); nothing for a small value)
 *   T1 Host::try_finish, InternalEventsBuffer::externalize (events/
 *      internal.rs), per contract event, those of failed frames too
 *      (rollback only marks them FromFailedCall): the topics VecObject
 *      visited (VisitObject), vals_to_scval_vec's metered_collect
 *      (MemCpy(40), MemAlloc(112 n), MemCpy(112 n) for n topics: the
 *      Result<Vec<ScVal>, HostError> and its Result<ScVal, HostError>
 *      items) then from_host_val of each topic, from_host_val of the data,
 *      with a contract id its BytesObject visited and the 32 bytes copied
 *      (hash_from_bytesobj_input: VisitObject, MemCpy(32)), then
 *      Vec<HostEvent>::charge_bulk_init_cpy(1): MemCpy(24), MemAlloc(168),
 *      MemCpy(168).  Diagnostic events go to the shadow budget, and
 *      stellar-core's invocation records none without diagnostics on: no
 *      charge.  scprof keeps the failed frames' events after the
 *      succeeded ones, not interleaved: the charges are the same, in
 *      another order, so the totals are, and (every charge being
 *      non-negative) whether the budget runs out in T1 is too.
 *   then, only when the call succeeded:
 *   T2 the return value's metered_write_xdr: ValSer(n) per write of
 *      stellar-xdr's writer (xdr/xdr_writes.c lists them)
 *   T3 get_ledger_changes, per footprint key, read-only then read-write
 *      (each key is in the map: enforcing mode's map holds the footprint):
 *      the StorageMap get; the key's metered_write_xdr; for a contract data
 *      or code key sha256_hash_from_bytes of the key's XDR
 *      (Vec<u8>::charge_bulk_init_cpy(32): MemCpy(24), MemAlloc(32),
 *      MemCpy(32); then ComputeSha256Hash(its length)); the initial map's
 *      get (get_live_until_ledger: the same keys, so the same search); for
 *      a read-write key whose entry exists: LazyLedgerEntry::decoded when
 *      the entry is the ledger's and the call did not decode it
 *      (ValDeser(L), MemAlloc(288)), the entry's metered_write_xdr,
 *      entry_size_for_rent (wasm_module_memory_cost for code reads the
 *      cost model: get_memory_cost charges nothing), and with restored
 *      entries the RestoredKeySet's contains_key (its search)
 *   T4 encode_contract_events: each contract event of a succeeded frame,
 *      its ContractEvent's metered_write_xdr, then
 *      Vec<Vec<u8>>::charge_bulk_init_cpy(e): MemCpy(24), MemAlloc(24 e),
 *      MemCpy(24 e) for e events
 * Any failure (the budget's) fails the transaction, as invoke_host_
 * function's Err or its Err result does.
 *
 * The entries are written as scprof holds them (host_entry_xdr.c: last
 * modified 0, ext v0): the write sizes depend on the shape only, and an
 * entry the call did not replace is the ledger's, whose encoded length
 * the set-up knew: when ours differs (an extension scprof does not keep)
 * the writes cannot be reproduced and the run is refused.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/core/host_enforce.h"
#include "soroban/core/host_lifecycle.h"

enum {
  SIZE_RESULT_VEC = 24 + 16,     /* Result<Vec<ScVal>, HostError> */
  SIZE_RESULT_SCVAL = 96 + 16,   /* Result<ScVal, HostError> */
  SIZE_HOST_EVENT = 168, SIZE_VEC_U8 = 24, SIZE_HASH = 32,
  CONTRACT_EVENT_CONTRACT = 1    /* ContractEventType::Contract */
};

static int charge_write(void *ctx, size_t n) {
  return scp_host_charge((scp_host *)ctx, SCP_COST_ValSer, (int64_t)n);
}

int scp_host_charge_write_xdr(scp_host *h, const char *type, const uint8_t *p, size_t len) {
  scp_error err = {0};
  int rc = scp_xdr_writes(scp_xdr_find(type), p, len, charge_write, h, &err);
  if (rc == SCP_ERR_MALFORMED || rc == SCP_ERR_UNSUPPORTED)
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR, "writing a %s: %s", type, err.msg);
  return rc;
}

void scp_host_events_rollback(scp_host *h, size_t nevents) {
  if (h->nevents <= nevents) return;
  size_t n = h->nevents - nevents;
  /* on failure to keep them only --tx's teardown is short of them, and
   * it refuses the run (failed_events_lost) */
  if (scp_grow(&h->failed_events, &h->capfailed_events, h->nfailed_events + n, sizeof *h->failed_events)) {
    memcpy(h->failed_events + h->nfailed_events, h->events + nevents, n * sizeof *h->events);
    h->nfailed_events += n;
  } else {
    h->failed_events_lost = true;
  }
  h->nevents = nevents;
}

/* T1, one contract event */
static int externalize(scp_host *h, const scp_event *ev) {
  const scp_hobj *o = NULL;
  int rc = scp_host_visit(h, ev->topics, &o);
  if (rc != SCP_OK) return rc;
  uint32_t n = o->len;
  const uint64_t *topics = o->u.vals;
  rc = scp_host_charge_copy(h, 1, SIZE_RESULT_VEC);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, n, SIZE_RESULT_SCVAL);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, n, SIZE_RESULT_SCVAL);
  for (uint32_t i = 0; rc == SCP_OK && i < n; i++) rc = scp_host_from_host_val_charges(h, topics[i]);
  if (rc == SCP_OK) rc = scp_host_from_host_val_charges(h, ev->data);
  if (rc == SCP_OK && ev->id) rc = scp_host_visit(h, ev->id, &o);
  if (rc == SCP_OK && ev->id) rc = scp_host_charge_copy(h, 1, SIZE_HASH);
  return rc == SCP_OK ? scp_host_charge_bulk_init(h, 1, SIZE_HOST_EVENT) : rc;
}

static int buf_rc(const scp_buf *b) { return b->oom ? SCP_ERR_NOMEM : SCP_OK; }

/* A Val's ScVal binary appended to b, uncharged. */
static int put_val(scp_host *h, uint64_t v, scp_buf *b) {
  uint8_t *img;
  size_t len;
  int rc = scp_host_val_to_xdr_raw(h, v, &img, &len);
  if (rc != SCP_OK) return rc;
  scp_buf_put(b, img, len);
  free(img);
  return buf_rc(b);
}

/* T4, one event: its ContractEvent written (ext, contract id, type, body
 * v0: topics, data) */
static int encode_event(scp_host *h, const scp_event *ev) {
  scp_buf b = {0};
  const scp_hobj *o = scp_host_obj(h, ev->topics), *id = ev->id ? scp_host_obj(h, ev->id) : NULL;
  if (!o || (ev->id && !id)) return scp_host_err(h, SCP_ET_EVENTS, SCP_EC_INTERNAL_ERROR, "an event's object is gone");
  int rc = SCP_OK;
  uint32_t n = o->len;
  const uint64_t *topics = o->u.vals;
  scp_buf_put_be32(&b, 0);
  scp_buf_put_be32(&b, id ? 1 : 0);
  if (id) scp_buf_put(&b, id->u.bytes, SIZE_HASH);
  scp_buf_put_be32(&b, CONTRACT_EVENT_CONTRACT);
  scp_buf_put_be32(&b, 0);
  scp_buf_put_be32(&b, n);
  for (uint32_t i = 0; rc == SCP_OK && i < n; i++) rc = put_val(h, topics[i], &b);
  if (rc == SCP_OK) rc = put_val(h, ev->data, &b);
  if (rc == SCP_OK) rc = buf_rc(&b);
  if (rc == SCP_OK) rc = scp_host_charge_write_xdr(h, "ContractEvent", (const uint8_t *)b.data, b.len);
  scp_buf_free(&b);
  return rc;
}

/* T3, read-write: the entry's decoding when due, its write */
static int entry_change(scp_host *h, size_t pos) {
  const scp_sentry *e = &h->store[pos];
  if (e->enc_len) {
    int rc = scp_storage_lazy_decode(h, pos, false);
    if (rc != SCP_OK) return rc;
  }
  scp_buf b = {0};
  scp_error err = {0};
  int rc = scp_storage_entry_xdr(e, e->k.type == SCP_LK_CONTRACT_CODE && scp_host_code_v0(h, e->k.id), NULL,
                                 &b, &err);
  if (rc == SCP_ERR_NOMEM || b.oom) rc = SCP_ERR_NOMEM;
  else if (rc != SCP_OK) rc = scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR, "%s", err.msg);
  else if (e->enc_len && e->enc_len != b.len)
    rc = scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR,
                      "a read-write entry the ledger holds in %u bytes re-encodes in %zu (an extension scprof "
                      "does not keep): its teardown write cannot be charged exactly",
                      e->enc_len, b.len);
  if (rc == SCP_OK) rc = scp_host_charge_write_xdr(h, "LedgerEntry", (const uint8_t *)b.data, b.len);
  scp_buf_free(&b);
  return rc;
}

/* T3, one footprint key */
static int ledger_change(scp_host *h, const scp_e2e_setup *s, size_t i) {
  const scp_lkey *k = &s->foot[i].k;
  bool found = false;
  size_t pos = 0;
  int rc = scp_storage_map_get(h, SCP_SMAP_STORE, k, &found, &pos);
  if (rc != SCP_OK || !found) return rc;
  scp_buf kb = {0};
  scp_storage_key_xdr(k, &kb);
  rc = buf_rc(&kb);
  if (rc == SCP_OK) rc = scp_host_charge_write_xdr(h, "LedgerKey", (const uint8_t *)kb.data, kb.len);
  if (rc == SCP_OK && (k->type == SCP_LK_CONTRACT_DATA || k->type == SCP_LK_CONTRACT_CODE)) {
    rc = scp_host_charge_bulk_init(h, SIZE_HASH, 1);
    if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_ComputeSha256Hash, (int64_t)kb.len);
  }
  scp_buf_free(&kb);
  size_t ipos = 0;
  if (rc == SCP_OK) rc = scp_storage_map_get(h, SCP_SMAP_STORE, k, &found, &ipos);
  if (rc != SCP_OK || i < s->nro || !h->store[pos].present) return rc;
  rc = entry_change(h, pos);
  if (rc == SCP_OK && s->nrestored) rc = scp_storage_map_find(h, SCP_SMAP_RESTORED, k, &found, &ipos);
  return rc;
}

int scp_storage_enforce_teardown(scp_host *h, const scp_e2e_setup *s, bool call_ok, uint64_t result) {
  if (h->failed_events_lost) return SCP_ERR_NOMEM;
  /* T0's failure is invoke_function's Err: T1 still runs */
  int rc0 = call_ok ? scp_host_from_host_val_charges(h, result) : SCP_OK;
  if (rc0 == SCP_ERR_NOMEM) return rc0;
  int rc = SCP_OK;
  for (size_t i = 0; rc == SCP_OK && i < h->nevents; i++) rc = externalize(h, &h->events[i]);
  for (size_t i = 0; rc == SCP_OK && i < h->nfailed_events; i++) rc = externalize(h, &h->failed_events[i]);
  if (rc != SCP_OK || rc0 != SCP_OK || !call_ok) return rc != SCP_OK ? rc : rc0;
  uint8_t *img = NULL;
  size_t len = 0;
  rc = scp_host_val_to_xdr_raw(h, result, &img, &len);
  if (rc == SCP_OK) rc = scp_host_charge_write_xdr(h, "ScVal", img, len);
  free(img);
  for (size_t i = 0; rc == SCP_OK && i < s->nro + s->nrw; i++) rc = ledger_change(h, s, i);
  for (size_t i = 0; rc == SCP_OK && i < h->nevents; i++) rc = encode_event(h, &h->events[i]);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, h->nevents, SIZE_VEC_U8);
  return rc;
}
