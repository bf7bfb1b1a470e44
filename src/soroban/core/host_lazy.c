/*
 * host_lazy.c — the storage map's lazy ledger entries in recording mode
 * (rs-soroban-env v28.0.0-v28.0.2, soroban-env-host/src/storage.rs and
 * host/ledger_entry.rs; the decoding's charges are scp_storage_lazy_decode
 * in host_enforce.c, shared with enforcing mode).
 *
 * The rules, as the v28.0.2 source has them:
 *   - read-through: prepare_read_only_access (storage.rs 752-806), in
 *     Recording mode, on a key the map does not hold, re-encodes the
 *     snapshot source's entry (entry.to_xdr, unmetered) and inserts
 *     Rc::new(LazyLedgerEntry::from_encoded(..)) (storage.rs 774-795);
 *     has, get, try_get and extend_ttl all come through it
 *     (try_get_host_ledger_entry, storage.rs 260-274)
 *   - decoding: get, try_get, try_get_full and get_with_live_until_ledger
 *     funnel into try_get_full_helper (storage.rs 277-305): when the entry
 *     is not decoded yet, LazyLedgerEntry::decoded (ledger_entry.rs 76-87:
 *     metered_from_xdr_with_budget = ValDeser(L), Rc::metered_new =
 *     MemAlloc(288)), then ledger_entry_to_ledger_key (ledger_entry.rs
 *     113-138, metered clones) and Budget compare of the two keys
 *   - no decoding: has (storage.rs 466-479) and prepare_extend_ttl
 *     (storage.rs 481-555) use try_get_host_ledger_entry only
 *   - the memo: the decoded entry lives in the LazyLedgerEntry, in the Rc
 *     the map's versions share (ledger_entry.rs 17-27): a frame's rollback
 *     to a map that held the Rc keeps it decoded; a rollback to a map
 *     without the key drops the Rc, and the next access reads through
 *     again, a new encoded entry.  apply_ttl_extension (storage.rs 566)
 *     and handle_maybe_expired_entry's persistent restore (storage.rs 845)
 *     re-insert the same Rc.
 *   - put and del (put_opt_helper, storage.rs 371-403) replace the entry
 *     with LazyLedgerEntry::from_decoded (or None), nothing decoded
 *   - what reads: a contract's instance (data_helper.rs 120-137, get), an
 *     account (load_account, data_helper.rs 469, get), the SAC's balances,
 *     trustlines and accounts (balance.rs 443, 556, 570, 996, 1019,
 *     try_get), contract data (host.rs 2127 get; has at 2107), and the
 *     code: instantiate_vm (frame.rs 981-1090) with a module cache checks
 *     has() only; in recording mode without one, code live in the
 *     snapshot is read (retrieve_wasm_from_storage, a get) inside
 *     with_observable_shadow_mode, so its decoding goes to the shadow
 *     budget (and sets the memo); expired code, or code not in the
 *     snapshot, is read with charges
 *   - which entries are lazy: every read-through of recording mode (the
 *     profile's default context over its ledger, --auth enforce,
 *     scenarios, --snapshot, a soroban-sdk test Env made from a snapshot);
 *     not the entries a soroban-sdk test Env's register left in its map
 *     (put in-host, decoded); enforcing mode's (--tx) all lazy
 *     (host_enforce.c)
 *
 * scprof does this with scp_host_opts.lazy_read_through, which every
 * profile's context sets (scp_sor_host_opts, the sdk-test options); a bare
 * host leaves it off, its entries decoded as the reference's test hosts
 * put them (the golden traces' hosts).  Enforcing mode's entries are
 * always lazy.
 *
 * The encoded length is the snapshot file's entry's when the ledger came
 * from one, else the length of the LedgerEntry our encoder writes for the
 * entry (ext v0 throughout, lastModifiedLedgerSeq 4 bytes).
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/core/host_lifecycle.h"

static uint32_t pad4(uint32_t n) { return n + (4 - n % 4) % 4; }

/* lastModifiedLedgerSeq, the LedgerEntryData arm, LedgerEntryExt v0 */
enum { ENTRY_FRAME = 4 + 4 + 4 };

uint32_t scp_storage_code_xdr_len(uint32_t len, bool v0) {
  /* ext (v1: ExtensionPoint and the cost inputs' 40 bytes), hash, code */
  return ENTRY_FRAME + (v0 ? 4 : 48) + 32 + 4 + pad4(len);
}

uint32_t scp_storage_entry_xdr_len(const scp_host *h, const scp_lkey *k, uint32_t vallen) {
  switch (k->type) {
  case SCP_LK_CONTRACT_DATA:
    /* ext, ScAddress (account: its arm and key type), key, durability, value */
    return ENTRY_FRAME + 4 + (k->account ? 40 : 36) + k->keylen + 4 + vallen;
  case SCP_LK_CONTRACT_CODE:
    return scp_storage_code_xdr_len(vallen, scp_host_code_v0(h, k->id));
  case SCP_LK_ACCOUNT:
    /* an image shorter than a whole AccountEntry (80 bytes without signers
     * or extensions) stands for one */
    return ENTRY_FRAME + (vallen < 80 ? 80 : vallen);
  default:
    return ENTRY_FRAME + vallen;   /* the TrustLineEntry's image */
  }
}

int scp_storage_lazy_read_through(scp_host *h, scp_sentry *e, const scp_sentry *src) {
  if (!scp_grow(&h->lazy_decoded, &h->caplazy, h->nlazy + 1, 1)) return SCP_ERR_NOMEM;
  h->lazy_decoded[h->nlazy++] = 0;
  e->lazy = (uint32_t)h->nlazy;
  e->enc_len = src->enc_len ? src->enc_len : scp_storage_entry_xdr_len(h, &src->k, src->vallen);
  return SCP_OK;
}

uint8_t *scp_storage_lazy_memo(scp_host *h, const scp_sentry *e) {
  if (e->lazy) return e->lazy <= h->nlazy ? &h->lazy_decoded[e->lazy - 1] : NULL;
  /* enforcing mode: one LazyLedgerEntry per declared key for the whole
   * run, whatever rolls back */
  for (size_t i = 0; i < h->ndeclared; i++)
    if (scp_lkey_same(&h->declared[i].k, &e->k)) return &h->declared[i].decoded;
  return NULL;
}

int scp_storage_seed_entry(scp_host *h, const scp_sentry *src) {
  int rc = scp_storage_seed(h, &src->k, src->val, src->vallen, src->live_until, false);
  if (rc == SCP_OK) h->snap[h->nsnap - 1].enc_len = src->enc_len;
  return rc;
}
