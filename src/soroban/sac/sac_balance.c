/*
 * sac_balance.c — the Stellar Asset Contract's balances: read_balance,
 * is_authorized, receive_balance, spend_balance(_no_authorization_check)
 * for classic accounts (the AccountEntry for the native asset, the
 * TrustLineEntry of a credit asset, the issuer's unlimited balance), the
 * contract-address arms handed to sac_cbalance.c; trust
 * (create_trustline_if_needed); the trustline flags set_authorized and
 * clawback use (sac_admin.c).
 *
 * rs-soroban-env v28.0.2, builtin_contracts/stellar_asset_contract/:
 * contract.rs (balance, trust), balance.rs (read_balance,
 * get_classic_balance, get_trustline_balance, read_trustline_entry,
 * get_min_max_trustline_balance, transfer_classic_balance,
 * transfer_trustline_balance, is_account_authorized, get_trustline_flags,
 * set_trustline_authorization, create_trustline_if_needed),
 * asset_info.rs (read_asset), public_types.rs (AssetInfo -> Asset);
 * host/conversion.rs (account_id_from_bytesobj, scaddress_from_address),
 * host/data_helper.rs (to_trustline_key, modify_ledger_entry_data).
 *
 * Classic entries are ledger entries of our storage (host_storage.c):
 * LedgerKey::Trustline with the account's key as id and the TrustLineAsset
 * XDR as key; the value is the TrustLineEntry XDR (accountID, asset,
 * balance, limit, flags, ext).  They come from the caller's setup (the
 * replay's seeded entries), as the reference's tests write them.  Native
 * balances (transfer_account_balance) are in sac_account.c.
 *
 * Checked to the unit against the reference's traces (test_sac.c,
 * test_sac_balances.c, test_replay.c): a trustline balance
 * (test_asset*_init), the native balance of an account
 * (test_account_balance), trust and balance of a contract address
 * without a balance entry (cap_73__test_trust_noop_for_contract_address);
 * balance changes of trustlines through mint, transfer, burn, burn_from,
 * clawback; trust creating a trustline and its #14 / #15 errors (cap_73).
 * Built from the same Env calls but not covered by a replayable trace:
 * the issuer's i64::MAX (an i128 object), trust's existing-trustline
 * path, set_authorized on a trustline.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/fns/host_fns_private.h"
#include "soroban/core/host_lifecycle.h"
#include "soroban/sac/sac_private.h"

enum {
  SIZE_SCADDRESS = 48, SIZE_ACCOUNT_ID = 32, SIZE_LEDGER_KEY = 152, SIZE_TRUSTLINE_ENTRY = 128,
  SIZE_ASSET = 45,
  INSTANCE_EXTEND_AMOUNT = 7 * 17280, INSTANCE_TTL_THRESHOLD = 6 * 17280,
  ERR_TRUSTLINE_MISSING = 13   /* contract_error.rs TrustlineMissingError */
};

/* i128 -> Val (I128Val::try_from_val): small when it fits, else the Env's
 * obj_from_i128_pieces. */
static int i128_val(scp_host *h, int64_t v, uint64_t *out) {
  if (v >= -(INT64_C(1) << 55) && v < (INT64_C(1) << 55)) {
    *out = scp_val_small_i(v, SCP_TAG_I128_SMALL);
    return SCP_OK;
  }
  return scp_native_env2(h, "obj_from_i128_pieces", v < 0 ? UINT64_MAX : 0, (uint64_t)v, out);
}

/* read_asset: read_asset_info, then AssetInfo -> Asset:
 * account_id_from_bytesobj(issuer) (VisitObject, the 32 bytes' copy) and
 * the code's String::to_array. */
int scp_sac_read_issuer(scp_host *h, uint32_t *type, uint64_t *code, uint8_t key[32]) {
  uint64_t issuer;
  *type = 0;
  int rc = scp_sac_read_asset_info(h, type, code, &issuer);
  if (rc != SCP_OK || *type == SCP_SAC_NATIVE) return rc;
  const scp_hobj *o;
  rc = scp_host_visit(h, issuer, &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
  if (rc == SCP_OK) memcpy(key, o->u.bytes, 32);
  return rc;
}

int scp_sac_read_asset_full(scp_host *h, scp_sac_asset *a) {
  uint32_t type = 0;
  uint64_t code;
  memset(a, 0, sizeof *a);
  int rc = scp_sac_read_issuer(h, &type, &code, a->issuer);
  if (rc != SCP_OK) return rc;
  a->type = type;
  if (type == SCP_SAC_NATIVE) return SCP_OK;
  return scp_native_string_to_array(h, code, a->code, type == SCP_SAC_ALPHANUM4 ? 4 : 12);
}

/* The missing-trustline error: account_address_from_key (the AccountId
 * clone and an Address object) for the error's message, then
 * Error(Contract, TrustlineMissing). */
static int trustline_missing(scp_host *h, const uint8_t acct[32]) {
  uint8_t enc[33];
  uint64_t addr;
  enc[0] = 0;
  memcpy(enc + 1, acct, 32);
  int rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
  if (rc == SCP_OK) rc = scp_native_new_obj(h, SCP_TAG_ADDRESS_OBJ, enc, 33, &addr);
  if (rc != SCP_OK) return rc;
  return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_TRUSTLINE_MISSING,
                      "trustline entry is missing for account");
}

/* get_trustline_balance: the key (Rc::metered_new), Storage::try_get, the
 * entry's clone, the balance within [0, limit]. */
static int trustline_balance(scp_host *h, const uint8_t acct[32], const scp_sac_asset *a,
                             int64_t *bal) {
  uint8_t img[52];
  uint32_t len[4];
  unsigned n;
  size_t alen = scp_sac_asset_pieces(a, img, len, &n);
  scp_lkey k = { .type = SCP_LK_TRUSTLINE, .key = img, .keylen = (uint32_t)alen };
  memcpy(k.id, acct, 32);
  const scp_sentry *e = NULL;
  int rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  if (rc == SCP_OK) rc = scp_storage_try_get(h, &k, &e);
  if (rc != SCP_OK) return rc;
  if (!e) return trustline_missing(h, acct);
  rc = scp_host_charge_copy(h, 1, SIZE_TRUSTLINE_ENTRY);
  if (rc != SCP_OK) return rc;
  /* accountID (36), asset, balance, limit */
  size_t at = 36 + alen;
  if (e->vallen < at + 16)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "unexpected entry found");
  int64_t b = (int64_t)scp_be64(e->val + at), limit = (int64_t)scp_be64(e->val + at + 8);
  if (b < 0 || b > limit)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR,
                        b < 0 ? "trustline has balance < minimum" : "trustline has balance > maximum");
  *bal = b;
  return SCP_OK;
}

enum {
  ERR_OPERATION_NOT_SUPPORTED = 2, ERR_ACCOUNT_MISSING = 6
};

/* i128::try_from_val(Val): a small I128, else the object's halves through
 * Env (obj_to_i128_lo64, obj_to_i128_hi64). */
int scp_sac_val_i128(scp_host *h, uint64_t v, int64_t *hi, uint64_t *lo) {
  if (scp_val_tag_of(v) == SCP_TAG_I128_SMALL) {
    int64_t x = scp_val_signed_body(v);
    *hi = x < 0 ? -1 : 0;
    *lo = (uint64_t)x;
    return SCP_OK;
  }
  if (scp_val_tag_of(v) != SCP_TAG_I128_OBJ)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "amount is not an i128");
  uint64_t l = 0, hh = 0;
  int rc = scp_native_env1(h, "obj_to_i128_lo64", v, &l);
  if (rc == SCP_OK) rc = scp_native_env1(h, "obj_to_i128_hi64", v, &hh);
  *hi = (int64_t)hh;
  *lo = l;
  return rc;
}

int scp_sac_i128_pieces_val(scp_host *h, int64_t hi, uint64_t lo, uint64_t *out) {
  if ((hi == 0 && lo < (UINT64_C(1) << 55)) || (hi == -1 && (int64_t)lo >= -(INT64_C(1) << 55))) {
    *out = scp_val_small_i((int64_t)lo, SCP_TAG_I128_SMALL);
    return SCP_OK;
  }
  return scp_native_env2(h, "obj_from_i128_pieces", (uint64_t)hi, lo, out);
}

/* addr.to_sc_address(): VisitObject and the ScAddress clone; *kind 0 for
 * an account, 1 for a contract. */
int scp_sac_sc_address(scp_host *h, uint64_t addr, uint8_t *kind, uint8_t key[32]) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, addr, &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_SCADDRESS);
  if (rc != SCP_OK) return rc;
  *kind = o->u.bytes[0];
  memcpy(key, o->u.bytes + 1, 32);
  return SCP_OK;
}

int scp_sac_extend_instance(scp_host *h) {
  uint64_t r;
  return scp_native_env2(h, "extend_current_contract_instance_and_code_ttl",
                      scp_val_u32(INSTANCE_TTL_THRESHOLD), scp_val_u32(INSTANCE_EXTEND_AMOUNT), &r);
}

/* get_account_balance: the key (to_account_key: Rc::metered_new),
 * Storage::try_get (a missing account is Error(Contract, #6)), the
 * AccountEntry's balance read in place (no clone).  The entry is taken as
 * consistent: the reference's minimum/maximum checks (reserves,
 * liabilities) fail only for a corrupt ledger and charge nothing. */
static int account_balance(scp_host *h, uint64_t addr, const uint8_t acct[32], int64_t *bal) {
  scp_lkey k = { .type = SCP_LK_ACCOUNT };
  memcpy(k.id, acct, 32);
  const scp_sentry *e = NULL;
  int rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  if (rc == SCP_OK) rc = scp_storage_try_get(h, &k, &e);
  if (rc != SCP_OK) return rc;
  (void)addr;
  if (!e)
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_ACCOUNT_MISSING,
                        "account entry is missing");
  /* AccountEntry: accountID (36), balance */
  if (e->vallen < 44)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "unexpected entry found");
  *bal = (int64_t)scp_be64(e->val + 36);
  if (*bal < 0)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "initial balance is negative");
  return SCP_OK;
}

enum {
  MAX_ACCOUNT_SUBENTRIES = 1000, ERR_INSUFFICIENT_RESERVE = 14, ERR_TOO_MANY_SUBENTRIES = 15,
  SIZE_LEDGER_ENTRY_T = 288, SIZE_LEDGER_ENTRY_EXT_T = 33
};

/* create_trustline_if_needed after the address's require_auth: the
 * issuer's account (load_account: AUTH_REQUIRED leaves the new trustline
 * unauthorized, AUTH_CLAWBACK_ENABLED makes it clawbackable), the
 * account's key (account_id.metered_clone(), Rc::metered_new) and entry
 * (Storage::try_get: missing is Error(Contract, #6)) and its clone; 1000
 * sub-entries already is #15; a balance below the current minimum plus
 * one base reserve is #14; the TrustLineEntry {0, i64::MAX, flags, V0}
 * (Rc::metered_new), the account's numSubEntries + 1
 * (modify_ledger_entry_data), both put. */
static int create_trustline(scp_host *h, const uint8_t acct[32], const scp_sac_asset *a,
                            const scp_lkey *tk) {
  scp_host_account issuer, ae;
  int rc = scp_host_load_account(h, a->issuer, &issuer, NULL);
  if (rc != SCP_OK) return rc;
  uint32_t flags = 0;
  if (!(issuer.flags & SCP_ACCT_AUTH_REQUIRED)) flags |= SCP_TL_AUTHORIZED;
  if (issuer.flags & SCP_ACCT_CLAWBACK_ENABLED) flags |= SCP_TL_CLAWBACK_ENABLED;
  scp_lkey ak = { .type = SCP_LK_ACCOUNT };
  memcpy(ak.id, acct, 32);
  const scp_sentry *e = NULL;
  rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  if (rc == SCP_OK) rc = scp_storage_try_get(h, &ak, &e);
  if (rc != SCP_OK) return rc;
  if (!e)
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_ACCOUNT_MISSING,
                        "account entry is missing");
  if (scp_host_account_parse(e->val, e->vallen, &ae))
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR,
                        "unexpected entry found for account");
  rc = scp_host_account_clone_charges(h, e->val, e->vallen);
  if (rc != SCP_OK) return rc;
  if (ae.num_sub >= MAX_ACCOUNT_SUBENTRIES)
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_TOO_MANY_SUBENTRIES,
                        "account has reached maximum number of sub-entries");
  int64_t min = 0, max = 0;
  rc = scp_sac_account_min_max(h, &ae, &min, &max);
  if (rc != SCP_OK) return rc;
  if (ae.balance < min + scp_sac_base_reserve(h))
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_INSUFFICIENT_RESERVE,
                        "account has insufficient reserve for new trustline");
  /* TrustLineEntry: accountID, asset, balance, limit, flags, ext V0 */
  uint8_t tl[36 + 52 + 24];
  size_t n = 0;
  memset(tl, 0, sizeof tl);
  memcpy(tl + 4, acct, 32);
  memcpy(tl + 36, tk->key, tk->keylen);
  n = 36 + tk->keylen;
  scp_put_be64(tl + n + 8, (uint64_t)INT64_MAX);
  for (int i = 0; i < 4; i++) tl[n + 16 + (size_t)i] = (uint8_t)(flags >> (24 - 8 * i));
  n += 24;
  rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_ENTRY_T);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_LEDGER_ENTRY_EXT_T);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_ENTRY_T);
  if (rc != SCP_OK) return rc;
  uint8_t *v = malloc(e->vallen);
  if (!v) return SCP_ERR_NOMEM;
  memcpy(v, e->val, e->vallen);
  uint32_t ns = ae.num_sub + 1, vlen = e->vallen, live = e->live_until;
  for (int i = 0; i < 4; i++) v[52 + i] = (uint8_t)(ns >> (24 - 8 * i));
  rc = scp_storage_put(h, tk, tl, (uint32_t)n, 0);
  if (rc == SCP_OK) rc = scp_storage_put(h, &ak, v, vlen, live);
  free(v);
  return rc;
}

/* trust(addr) (contract.rs, balance.rs create_trustline_if_needed): the
 * instance's TTL bump; a contract address is a no-op; for an account the
 * asset (not native, not its issuer: Error(Contract, #2)), the trustline
 * key (the AccountId and TrustLineAsset clones, Rc::metered_new) and
 * Storage::try_get: an existing trustline is a no-op; else the address's
 * require_auth and create_trustline. */
int scp_sac_trust(scp_host *h, uint64_t addr) {
  uint8_t kind, acct[32];
  int rc = scp_sac_extend_instance(h);
  if (rc == SCP_OK) rc = scp_sac_sc_address(h, addr, &kind, acct);
  if (rc != SCP_OK || kind != 0) return rc;
  scp_sac_asset a;
  rc = scp_sac_read_asset_full(h, &a);
  if (rc != SCP_OK) return rc;
  if (a.type == SCP_SAC_NATIVE)
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_OPERATION_NOT_SUPPORTED,
                        "trust operation is not supported for native asset");
  rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);   /* the issuer's clone */
  if (rc != SCP_OK) return rc;
  if (!memcmp(a.issuer, acct, 32))
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_OPERATION_NOT_SUPPORTED,
                        "cannot create trustline for issuer");
  uint8_t img[52];
  uint32_t len[4];
  unsigned n;
  size_t alen = scp_sac_asset_pieces(&a, img, len, &n);
  scp_lkey k = { .type = SCP_LK_TRUSTLINE, .key = img, .keylen = (uint32_t)alen };
  memcpy(k.id, acct, 32);
  const scp_sentry *e = NULL;
  rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_ASSET);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  if (rc == SCP_OK) rc = scp_storage_try_get(h, &k, &e);
  if (rc != SCP_OK || e) return rc;
  rc = scp_sac_require_auth(h, addr);
  return rc == SCP_OK ? create_trustline(h, acct, &a, &k) : rc;
}

/* balance(addr) (contract.rs): the instance's TTL extension, then
 * read_balance. */
int scp_sac_balance(scp_host *h, uint64_t addr, uint64_t *ret) {
  uint8_t kind, acct[32];
  int rc = scp_sac_extend_instance(h);
  if (rc == SCP_OK) rc = scp_sac_sc_address(h, addr, &kind, acct);
  if (rc != SCP_OK) return rc;
  if (kind == 1) return scp_sac_contract_balance(h, addr, ret);
  if (kind != 0)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INTERNAL_ERROR, "Unexpected ScAddress type");
  scp_sac_asset a;
  rc = scp_sac_read_asset_full(h, &a);
  if (rc != SCP_OK) return rc;
  if (a.type == SCP_SAC_NATIVE) {
    int64_t bal = 0;
    rc = account_balance(h, addr, acct, &bal);
    return rc == SCP_OK ? i128_val(h, bal, ret) : rc;
  }
  /* asset.issuer.metered_clone(); the issuer holds i64::MAX */
  rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
  if (rc != SCP_OK) return rc;
  int64_t bal = INT64_MAX;
  if (memcmp(a.issuer, acct, 32)) rc = trustline_balance(h, acct, &a, &bal);
  return rc == SCP_OK ? i128_val(h, bal, ret) : rc;
}

enum {
  SIZE_ADDRESS = 16, SIZE_LEDGER_ENTRY = 288, SIZE_LEDGER_ENTRY_EXT = 33,
  TRUSTLINE_AUTHORIZED_FLAG = 1, ERR_BALANCE = 10, ERR_BALANCE_DEAUTHORIZED = 11,
  ERR_OVERFLOW = 12
};

/* to_trustline_key (Rc::metered_new) and read_trustline_entry
 * (Storage::try_get; a missing trustline is Error(Contract, #13) after
 * account_address_from_key's Address). */
static int trustline_entry(scp_host *h, const uint8_t acct[32], const scp_sac_asset *a,
                           uint8_t img[52], scp_lkey *k, const scp_sentry **e) {
  uint32_t len[4];
  unsigned n;
  size_t alen = scp_sac_asset_pieces(a, img, len, &n);
  memset(k, 0, sizeof *k);
  k->type = SCP_LK_TRUSTLINE;
  k->key = img;
  k->keylen = (uint32_t)alen;
  memcpy(k->id, acct, 32);
  *e = NULL;
  int rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  if (rc == SCP_OK) rc = scp_storage_try_get(h, k, e);
  return rc != SCP_OK || *e ? rc : trustline_missing(h, acct);
}

/* A trustline read for one of its fields: the key's image, the key, the
 * entry, and at, the field's offset in the entry's value. */
typedef struct tl_field {
  uint8_t img[52];
  scp_lkey k;
  const scp_sentry *e;
  size_t at;
} tl_field;

/* trustline_entry, then the TrustLineEntry's clone when clone; the field
 * off bytes past the key (accountID, asset) must hold need bytes. */
static int trustline_field(scp_host *h, const uint8_t acct[32], const scp_sac_asset *a, bool clone,
                           size_t off, size_t need, tl_field *t) {
  int rc = trustline_entry(h, acct, a, t->img, &t->k, &t->e);
  if (rc == SCP_OK && clone) rc = scp_host_charge_copy(h, 1, SIZE_TRUSTLINE_ENTRY);
  if (rc != SCP_OK) return rc;
  t->at = 36 + t->k.keylen + off;
  if (t->e->vallen < t->at + need)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "unexpected entry found");
  return SCP_OK;
}

/* is_account_authorized: read_asset, the issuer's clone; the issuer is
 * authorized; else get_trustline_flags' AUTHORIZED_FLAG (the entry read in
 * place).  The native asset's accounts are always authorized. */
static int account_authorized(scp_host *h, const uint8_t acct[32], bool *ok) {
  scp_sac_asset a;
  int rc = scp_sac_read_asset_full(h, &a);
  if (rc != SCP_OK) return rc;
  *ok = true;
  if (a.type == SCP_SAC_NATIVE) return SCP_OK;
  rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
  if (rc != SCP_OK || !memcmp(a.issuer, acct, 32)) return rc;
  uint32_t flags;
  rc = scp_sac_trustline_flags(h, acct, &a, &flags);
  if (rc == SCP_OK) *ok = (flags & TRUSTLINE_AUTHORIZED_FLAG) != 0;
  return rc;
}

int scp_sac_new_balance(scp_host *h, int64_t bal, int64_t amount, int64_t lo, int64_t hi,
                        int64_t *out) {
  if (__builtin_add_overflow(bal, amount, out))
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_BALANCE, "resulting balance overflow");
  if (*out < lo || *out > hi)
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_BALANCE,
                        "resulting balance is not within the allowed range");
  return SCP_OK;
}

int scp_sac_put_patched(scp_host *h, const scp_lkey *k, const scp_sentry *e, size_t at,
                        const uint8_t *patch, size_t len) {
  int rc = scp_host_charge_copy(h, 1, SIZE_LEDGER_ENTRY_EXT);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_ENTRY);
  if (rc != SCP_OK) return rc;
  if (at + len > e->vallen) return SCP_ERR_INTERNAL;
  uint8_t *v = malloc(e->vallen);
  if (!v) return SCP_ERR_NOMEM;
  memcpy(v, e->val, e->vallen);
  memcpy(v + at, patch, len);
  uint32_t vlen = e->vallen, live = e->live_until;
  rc = scp_storage_put(h, k, v, vlen, live);
  free(v);
  return rc;
}

/* transfer_trustline_balance: the key, the entry, the TrustLineEntry's
 * clone, get_min_max_trustline_balance (liabilities of the V1 ext), the
 * new balance within [min, max], modify_ledger_entry_data (the
 * LedgerEntryExt's clone, Rc::metered_new) and Storage::put. */
static int trustline_transfer(scp_host *h, const uint8_t acct[32], const scp_sac_asset *a,
                              int64_t amount) {
  tl_field t;
  int rc = trustline_field(h, acct, a, true, 0, 24, &t);   /* balance, limit, flags */
  if (rc != SCP_OK) return rc;
  const scp_sentry *e = t.e;
  size_t at = t.at;
  int64_t bal = (int64_t)scp_be64(e->val + at), limit = (int64_t)scp_be64(e->val + at + 8);
  int64_t lo = 0, hi = limit;
  if (bal < 0)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "initial balance is negative");
  if (e->vallen >= at + 24 + 20 && scp_be32(e->val + at + 20) == 1) {
    /* TrustLineEntryExt::V1: liabilities {buying, selling} */
    int64_t buying = (int64_t)scp_be64(e->val + at + 24);
    int64_t selling = (int64_t)scp_be64(e->val + at + 32);
    if (limit < buying)
      return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "limit is lower than liabilities");
    lo = selling;
    hi = limit - buying;
  }
  int64_t nb;
  uint8_t b[8];
  if ((rc = scp_sac_new_balance(h, bal, amount, lo, hi, &nb)) != SCP_OK) return rc;
  scp_put_be64(b, (uint64_t)nb);
  return scp_sac_put_patched(h, &t.k, e, at, b, 8);
}

/* transfer_classic_balance: read_asset; the native asset's account
 * balance (transfer_account_balance, sac_account.c); for a credit asset
 * the issuer's clone, nothing for the issuer, else the trustline's
 * balance. */
static int classic_transfer(scp_host *h, const uint8_t acct[32], int64_t amount) {
  scp_sac_asset a;
  int rc = scp_sac_read_asset_full(h, &a);
  if (rc != SCP_OK) return rc;
  if (a.type == SCP_SAC_NATIVE) return scp_sac_native_transfer(h, acct, amount);
  rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
  if (rc != SCP_OK || !memcmp(a.issuer, acct, 32)) return rc;
  return trustline_transfer(h, acct, &a, amount);
}

/* is_authorized(addr): the ScAddress; an account's trustline flag (the
 * issuer and the native asset's accounts are authorized), a contract's
 * balance entry (sac_cbalance.c). */
static int is_authorized(scp_host *h, uint64_t addr, bool *ok) {
  uint8_t kind, acct[32];
  int rc = scp_sac_sc_address(h, addr, &kind, acct);
  if (rc != SCP_OK) return rc;
  if (kind == 1) return scp_sac_contract_authorized(h, addr, ok);
  if (kind != 0)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INTERNAL_ERROR, "Unexpected ScAddress type");
  return account_authorized(h, acct, ok);
}

int scp_sac_authorized(scp_host *h, uint64_t addr, bool *ok) {
  return is_authorized(h, addr, ok);
}

/* i64::try_from(amount): Error(Contract, #12) beyond an i64. */
static int i64_amount(scp_host *h, int64_t hi, uint64_t lo, bool spend) {
  if (!((hi == 0 && (int64_t)lo >= 0) || (hi == -1 && (int64_t)lo < 0)))
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_OVERFLOW,
                        "%s amount is too large for an i64", spend ? "spent" : "received");
  return SCP_OK;
}

/* spend_balance_no_authorization_check: the ScAddress again; an
 * account's classic balance lowered (i64::try_from, then
 * transfer_classic_balance with -amount), a contract's balance entry
 * (sac_cbalance.c). */
int scp_sac_spend_noauth(scp_host *h, uint64_t addr, int64_t hi, uint64_t lo) {
  uint8_t kind, acct[32];
  int rc = scp_sac_sc_address(h, addr, &kind, acct);
  if (rc != SCP_OK) return rc;
  if (kind == 1) return scp_sac_contract_spend(h, addr, hi, lo);
  if (kind != 0)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INTERNAL_ERROR, "Unexpected ScAddress type");
  rc = i64_amount(h, hi, lo, true);
  return rc == SCP_OK ? classic_transfer(h, acct, -(int64_t)lo) : rc;
}

/* receive_balance / spend_balance: addr's two clones (the caller's
 * addr.metered_clone(), is_authorized(addr.metered_clone())),
 * is_authorized (Error(Contract, #11) when not), then the balance
 * moved: receive_balance's own arms (the i64 amount and
 * transfer_classic_balance for an account, the balance entry for a
 * contract), or spend_balance_no_authorization_check. */
static int change_balance(scp_host *h, uint64_t addr, int64_t hi, uint64_t lo, bool spend) {
  uint8_t kind, acct[32];
  bool ok = false;
  int rc = scp_host_charge_copy(h, 1, SIZE_ADDRESS);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_ADDRESS);
  if (rc == SCP_OK) rc = is_authorized(h, addr, &ok);
  if (rc != SCP_OK) return rc;
  if (!ok)
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_BALANCE_DEAUTHORIZED,
                        "balance is deauthorized");
  if (spend) return scp_sac_spend_noauth(h, addr, hi, lo);
  rc = scp_sac_sc_address(h, addr, &kind, acct);
  if (rc != SCP_OK) return rc;
  if (kind == 1) return scp_sac_contract_receive(h, addr, hi, lo);
  rc = i64_amount(h, hi, lo, false);
  return rc == SCP_OK ? classic_transfer(h, acct, (int64_t)lo) : rc;
}

int scp_sac_receive_balance(scp_host *h, uint64_t addr, int64_t hi, uint64_t lo) {
  return change_balance(h, addr, hi, lo, false);
}

int scp_sac_spend_balance(scp_host *h, uint64_t addr, int64_t hi, uint64_t lo) {
  return change_balance(h, addr, hi, lo, true);
}

/* get_trustline_flags: to_trustline_key, read_trustline_entry (a missing
 * trustline is Error(Contract, #13)), the flags read in place. */
int scp_sac_trustline_flags(scp_host *h, const uint8_t acct[32], const scp_sac_asset *a,
                            uint32_t *flags) {
  tl_field t;
  int rc = trustline_field(h, acct, a, false, 16, 4, &t);   /* past balance, limit: flags */
  if (rc == SCP_OK) *flags = scp_be32(t.e->val + t.at);
  return rc;
}

/* set_trustline_authorization: the key, the entry, the TrustLineEntry's
 * clone; no change is a no-op; else AUTHORIZED set (and
 * AUTHORIZED_TO_MAINTAIN_LIABILITIES cleared) or the reverse,
 * modify_ledger_entry_data and Storage::put. */
int scp_sac_trustline_authorize(scp_host *h, const uint8_t acct[32], const scp_sac_asset *a,
                                bool authorize) {
  tl_field t;
  int rc = trustline_field(h, acct, a, true, 16, 4, &t);   /* past balance, limit: flags */
  if (rc != SCP_OK) return rc;
  uint32_t flags = scp_be32(t.e->val + t.at);
  if (((flags & SCP_TL_AUTHORIZED) != 0) == authorize) return SCP_OK;
  if (authorize)
    flags = (flags & ~(uint32_t)SCP_TL_AUTHORIZED_TO_MAINTAIN_LIABILITIES) | SCP_TL_AUTHORIZED;
  else
    flags = (flags & ~(uint32_t)SCP_TL_AUTHORIZED) | SCP_TL_AUTHORIZED_TO_MAINTAIN_LIABILITIES;
  uint8_t b[4];
  scp_put_be32(b, flags);
  return scp_sac_put_patched(h, &t.k, t.e, t.at, b, 4);
}
