/*
 * sac_balance.c — the Stellar Asset Contract's balances: read_balance for
 * classic accounts (the TrustLineEntry of a credit asset, the issuer's
 * unlimited balance).
 *
 * rs-soroban-env v28.0.2, builtin_contracts/stellar_asset_contract/:
 * contract.rs (balance), balance.rs (read_balance, get_classic_balance,
 * get_trustline_balance, read_trustline_entry,
 * get_min_max_trustline_balance), asset_info.rs (read_asset),
 * public_types.rs (AssetInfo -> Asset); host/conversion.rs
 * (account_id_from_bytesobj, scaddress_from_address), host/data_helper.rs
 * (to_trustline_key).
 *
 * Classic entries are ledger entries of our storage (host_storage.c):
 * LedgerKey::Trustline with the account's key as id and the TrustLineAsset
 * XDR as key; the value is the TrustLineEntry XDR (accountID, asset,
 * balance, limit, flags, ext).  They come from the caller's setup (the
 * replay's seeded entries), as the reference's tests write them.
 *
 * Not implemented (SCP_ERR_UNSUPPORTED): contract-address balances, the
 * native asset's account balance (AccountEntry reserves), and every
 * balance-changing function.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/host_fns_private.h"
#include "soroban/host_lifecycle.h"
#include "soroban/sac_private.h"

enum {
  SIZE_SCADDRESS = 48, SIZE_ACCOUNT_ID = 32, SIZE_LEDGER_KEY = 152, SIZE_TRUSTLINE_ENTRY = 128,
  INSTANCE_EXTEND_AMOUNT = 7 * 17280, INSTANCE_TTL_THRESHOLD = 6 * 17280,
  ERR_TRUSTLINE_MISSING = 13   /* contract_error.rs TrustlineMissingError */
};

static uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int64_t be64s(const uint8_t *p) {
  return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4));
}

/* i128 -> Val (I128Val::try_from_val): small when it fits, else the Env's
 * obj_from_i128_pieces. */
static int i128_val(scp_host *h, int64_t v, uint64_t *out) {
  if (v >= -(INT64_C(1) << 55) && v < (INT64_C(1) << 55)) {
    *out = scp_val_small_i(v, SCP_TAG_I128_SMALL);
    return SCP_OK;
  }
  return scp_sac_env2(h, "obj_from_i128_pieces", v < 0 ? UINT64_MAX : 0, (uint64_t)v, out);
}

/* read_asset: read_asset_info, then AssetInfo -> Asset:
 * account_id_from_bytesobj(issuer) (VisitObject, the 32 bytes' copy) and
 * the code's String::to_array. */
static int read_asset(scp_host *h, scp_sac_asset *a) {
  uint32_t type = 0;
  uint64_t code, issuer;
  memset(a, 0, sizeof *a);
  int rc = scp_sac_read_asset_info(h, &type, &code, &issuer);
  if (rc != SCP_OK) return rc;
  a->type = type;
  if (type == SCP_SAC_NATIVE) return SCP_OK;
  const scp_hobj *o;
  rc = scp_host_visit(h, issuer, &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
  if (rc != SCP_OK) return rc;
  memcpy(a->issuer, o->u.bytes, 32);
  return scp_sac_string_to_array(h, code, a->code, type == SCP_SAC_ALPHANUM4 ? 4 : 12);
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
  if (!e) {
    /* account_address_from_key: the AccountId clone and an Address object */
    uint8_t enc[33];
    uint64_t addr;
    enc[0] = 0;
    memcpy(enc + 1, acct, 32);
    rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
    if (rc == SCP_OK) rc = scp_sac_new_obj(h, SCP_TAG_ADDRESS_OBJ, enc, 33, &addr);
    if (rc != SCP_OK) return rc;
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_TRUSTLINE_MISSING,
                        "trustline entry is missing for account");
  }
  rc = scp_host_charge_copy(h, 1, SIZE_TRUSTLINE_ENTRY);
  if (rc != SCP_OK) return rc;
  /* accountID (36), asset, balance, limit */
  size_t at = 36 + alen;
  if (e->vallen < at + 16)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "unexpected entry found");
  int64_t b = be64s(e->val + at), limit = be64s(e->val + at + 8);
  if (b < 0 || b > limit)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR,
                        b < 0 ? "trustline has balance < minimum" : "trustline has balance > maximum");
  *bal = b;
  return SCP_OK;
}

/* balance(addr) (contract.rs): the instance's TTL extension, then
 * read_balance. */
int scp_sac_balance(scp_host *h, uint64_t addr, uint64_t *ret) {
  uint64_t r;
  int rc = scp_sac_env2(h, "extend_current_contract_instance_and_code_ttl",
                        scp_val_u32(INSTANCE_TTL_THRESHOLD), scp_val_u32(INSTANCE_EXTEND_AMOUNT), &r);
  /* addr.to_sc_address(): VisitObject and the ScAddress clone */
  const scp_hobj *o;
  if (rc == SCP_OK) rc = scp_host_visit(h, addr, &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_SCADDRESS);
  if (rc != SCP_OK) return rc;
  uint8_t kind = o->u.bytes[0], acct[32];
  memcpy(acct, o->u.bytes + 1, 32);
  if (kind != 0) {
    snprintf(h->errmsg, sizeof h->errmsg,
             "Stellar Asset Contract: balances of contract addresses are not implemented yet");
    return SCP_ERR_UNSUPPORTED;
  }
  scp_sac_asset a;
  rc = read_asset(h, &a);
  if (rc != SCP_OK) return rc;
  if (a.type == SCP_SAC_NATIVE) {
    snprintf(h->errmsg, sizeof h->errmsg,
             "Stellar Asset Contract: native (account entry) balances are not implemented yet");
    return SCP_ERR_UNSUPPORTED;
  }
  /* asset.issuer.metered_clone(); the issuer holds i64::MAX */
  rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
  if (rc != SCP_OK) return rc;
  int64_t bal = INT64_MAX;
  if (memcmp(a.issuer, acct, 32)) rc = trustline_balance(h, acct, &a, &bal);
  return rc == SCP_OK ? i128_val(h, bal, ret) : rc;
}
