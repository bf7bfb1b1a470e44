/*
 * sac_account.c — classic AccountEntry images as the Stellar Asset
 * Contract reads them: the XDR parsed, AccountEntry::metered_clone's
 * charges, Host::load_account, and the issuer flags the SAC consults.
 *
 * rs-soroban-env v28.0.2: host/data_helper.rs (load_account,
 * to_account_key), host/conversion.rs (account_id_from_bytesobj,
 * fixed_length_bytes_from_slice), host/metered_clone.rs (AccountEntry's
 * clone: the struct, then its heap parts), builtin_contracts/
 * stellar_asset_contract/balance.rs (is_asset_auth_required,
 * is_asset_clawback_enabled, is_asset_auth_revocable,
 * is_asset_issuer_flag_set, is_issuer_flag_set).
 *
 * AccountEntry XDR: accountID (36), balance (8), seqNum (8),
 * numSubEntries (4), inflationDest (optional AccountID), flags (4),
 * homeDomain (string32), thresholds (4), signers (<20> of SignerKey +
 * weight), ext (0 | 1: liabilities {buying, selling}, ext (0 | 2:
 * numSponsored, numSponsoring, signerSponsoringIDs, ext)).  A short image
 * (the 56-byte entries tests seed) ends the fields it lacks: no
 * inflation destination, no flags, no home domain, no signers, ext V0.
 *
 * host_auth_emul.c's signature checks (emulated and enforcing) load the
 * account through scp_sac_load_account too: one set of clone charges.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/fns/host_fns_private.h"
#include "soroban/core/host_lifecycle.h"
#include "soroban/sac/sac_private.h"

enum {
  SIZE_ACCOUNT_ENTRY = 216, SIZE_SIGNER = 72, SIZE_SPONSORSHIP_DESCRIPTOR = 33,
  SIZE_LEDGER_KEY = 152, SIZE_ACCOUNT_ID = 32
};

int scp_sac_account_parse(const uint8_t *p, size_t len, scp_sac_account *a) {
  memset(a, 0, sizeof *a);
  if (len < 56) return -1;
  a->balance = (int64_t)scp_be64(p + 36);
  a->num_sub = scp_be32(p + 52);
  size_t off = 56;
  if (len >= off + 4) off += scp_be32(p + off) ? 40 : 4;   /* inflationDest */
  if (len >= off + 4) a->flags = scp_be32(p + off);
  off += 4;
  if (len >= off + 4) {
    a->home_len = scp_be32(p + off);
    off += 4 + ((a->home_len + 3) & ~3u);
  }
  off += 4;   /* thresholds */
  if (len >= off + 4) {
    a->nsigners = scp_be32(p + off);
    off += 4;
  }
  if (a->nsigners > 20) return -1;
  for (uint32_t i = 0; i < a->nsigners && len >= off + 40; i++) {
    a->signers_at[i] = off;
    a->nsig_img = i + 1;
    uint32_t kind = scp_be32(p + off);
    off += 4 + 32;
    if (kind == 3 && len >= off + 4) {   /* SIGNER_KEY_TYPE_ED25519_SIGNED_PAYLOAD */
      uint32_t pl = scp_be32(p + off);
      off += 4 + ((pl + 3) & ~3u);
    }
    off += 4;   /* weight */
  }
  if (len >= off + 4 && scp_be32(p + off) == 1) {
    a->v1 = true;
    if (len < off + 20) return -1;
    a->buying = (int64_t)scp_be64(p + off + 4);
    a->selling = (int64_t)scp_be64(p + off + 12);
    off += 4 + 16;
    if (len >= off + 4 && scp_be32(p + off) == 2) {
      a->v2 = true;
      if (len < off + 16) return -1;
      a->sponsored = scp_be32(p + off + 4);
      a->sponsoring = scp_be32(p + off + 8);
      a->nspons_ids = scp_be32(p + off + 12);
    }
  }
  return 0;
}

/* AccountEntry::metered_clone: the struct, home_domain's bytes, the
 * signers' Vec (each signed payload's bytes as its signer is cloned),
 * with ext V1 -> V2 the signer sponsoring ids' Vec. */
int scp_sac_account_clone_charges(scp_host *h, const uint8_t *p, size_t len) {
  scp_sac_account a;
  if (scp_sac_account_parse(p, len, &a))
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "ledger entry is not account");
  int rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ENTRY);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, a.home_len, 1);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, a.home_len, 1);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, a.nsigners, SIZE_SIGNER);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, a.nsigners, SIZE_SIGNER);
  for (uint32_t i = 0; rc == SCP_OK && i < a.nsig_img; i++) {
    size_t off = a.signers_at[i];
    if (scp_be32(p + off) == 3 && len >= off + 40) {   /* ED25519_SIGNED_PAYLOAD */
      uint32_t pl = scp_be32(p + off + 36);
      rc = scp_host_charge_alloc(h, pl, 1);
      if (rc == SCP_OK) rc = scp_host_charge_copy(h, pl, 1);
    }
  }
  if (rc == SCP_OK && a.v2) {
    rc = scp_host_charge_alloc(h, a.nspons_ids, SIZE_SPONSORSHIP_DESCRIPTOR);
    if (rc == SCP_OK) rc = scp_host_charge_copy(h, a.nspons_ids, SIZE_SPONSORSHIP_DESCRIPTOR);
  }
  return rc;
}

int scp_sac_load_account(scp_host *h, const uint8_t key[32], scp_sac_account *a,
                         const scp_sentry **ent) {
  scp_lkey ak = { .type = SCP_LK_ACCOUNT };
  memcpy(ak.id, key, 32);
  const scp_sentry *e = NULL;
  int rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);   /* to_account_key: Rc::metered_new */
  if (rc == SCP_OK) rc = scp_storage_get(h, &ak, &e);
  if (rc != SCP_OK) return rc;
  if (scp_sac_account_parse(e->val, e->vallen, a))
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "ledger entry is not account");
  if (ent) *ent = e;
  return scp_sac_account_clone_charges(h, e->val, e->vallen);
}

/* is_asset_issuer_flag_set: read_asset_info (the native asset has no
 * issuer: false), account_id_from_bytesobj (VisitObject, MemCpy(32)),
 * load_account, the flag. */
int scp_sac_issuer_flag(scp_host *h, uint32_t flag, bool *set) {
  uint32_t type = 0;
  uint64_t code;
  uint8_t key[32];
  *set = false;
  int rc = scp_sac_read_issuer(h, &type, &code, key);
  if (rc != SCP_OK || type == SCP_SAC_NATIVE) return rc;
  scp_sac_account a;
  rc = scp_sac_load_account(h, key, &a, NULL);
  if (rc == SCP_OK) *set = (a.flags & flag) != 0;
  return rc;
}

enum {
  SIZE_LEDGER_ENTRY = 288, DEFAULT_BASE_RESERVE = 5000000,
  ERR_ACCOUNT_MISSING = 6, ERR_INSUFFICIENT_RESERVE = 14
};

int64_t scp_sac_base_reserve(const scp_host *h) {
  return h->opts.base_reserve ? (int64_t)h->opts.base_reserve : DEFAULT_BASE_RESERVE;
}

int scp_sac_account_min_max(scp_host *h, const scp_sac_account *a, int64_t *min, int64_t *max) {
  int64_t reserve = scp_sac_base_reserve(h), net = 2 + (int64_t)a->num_sub;
  if (a->balance < 0)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "initial balance is negative");
  if (a->v2) net = net + (int64_t)a->sponsoring - (int64_t)a->sponsored;
  *max = INT64_MAX;
  if (__builtin_mul_overflow(net, reserve, min) ||
      (a->v1 && (__builtin_add_overflow(*min, a->selling, min) ||
                 __builtin_sub_overflow(INT64_MAX, a->buying, max))))
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN, "arithmetic overflow");
  return SCP_OK;
}

/* transfer_account_balance (balance.rs): the account's key
 * (account_id.metered_clone(), Rc::metered_new), Storage::try_get.  An
 * existing account: the AccountEntry's clone, get_min_max_account_balance
 * (reserves of 2 + sub-entries (+ sponsoring - sponsored) base reserves,
 * plus selling liabilities; i64::MAX minus buying liabilities), the new
 * balance within them (Error(Contract, #10)), modify_ledger_entry_data
 * (the LedgerEntryExt's clone, Rc::metered_new), Storage::put.  A missing
 * one: spending is Error(Contract, #6); receiving creates the account when
 * the amount reaches 2 base reserves (else #14): seqNum = ledger << 32,
 * thresholds [1, 0, 0, 0], no signers (Rc::metered_new, Storage::put). */
int scp_sac_native_transfer(scp_host *h, const uint8_t acct[32], int64_t amount) {
  scp_lkey k = { .type = SCP_LK_ACCOUNT };
  memcpy(k.id, acct, 32);
  const scp_sentry *e = NULL;
  int rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  if (rc == SCP_OK) rc = scp_storage_try_get(h, &k, &e);
  if (rc != SCP_OK) return rc;
  if (!e) {
    if (amount <= 0)
      return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_ACCOUNT_MISSING,
                          "account entry is missing");
    int64_t reserve = scp_sac_base_reserve(h);
    if (amount < 2 * reserve)
      return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_INSUFFICIENT_RESERVE,
                          "transfer amount is below minimum balance for new account");
    uint32_t seq = h->opts.ledger_sequence;
    if (seq > INT32_MAX)
      return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR,
                          "ledger sequence number overflow in starting sequence calculation");
    uint8_t img[80] = { 0 };
    memcpy(img + 4, acct, 32);
    scp_put_be64(img + 36, (uint64_t)amount);
    scp_put_be64(img + 44, (uint64_t)seq << 32);   /* seq <= INT32_MAX: positive */
    img[68] = 1;   /* thresholds: master weight 1 */
    rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_ENTRY);
    return rc == SCP_OK ? scp_storage_put(h, &k, img, sizeof img, 0) : rc;
  }
  scp_sac_account a;
  if (scp_sac_account_parse(e->val, e->vallen, &a))
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "unexpected entry found");
  rc = scp_sac_account_clone_charges(h, e->val, e->vallen);
  int64_t min = 0, max = 0, nb;
  uint8_t b[8];
  if (rc == SCP_OK) rc = scp_sac_account_min_max(h, &a, &min, &max);
  if (rc == SCP_OK) rc = scp_sac_new_balance(h, a.balance, amount, min, max, &nb);
  if (rc != SCP_OK) return rc;
  scp_put_be64(b, (uint64_t)nb);
  rc = scp_sac_put_patched(h, &k, e, 36, b, 8);
  return rc;
}
