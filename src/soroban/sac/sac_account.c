/*
 * sac_account.c — the account facts the Stellar Asset Contract consults:
 * the issuer's flags, the base reserve, an account's minimum and maximum
 * native balance, native (XLM) transfers.
 *
 * rs-soroban-env v28.0.2: builtin_contracts/stellar_asset_contract/
 * balance.rs (is_asset_auth_required, is_asset_clawback_enabled,
 * is_asset_auth_revocable, is_asset_issuer_flag_set, is_issuer_flag_set,
 * get_min_max_account_balance, transfer_account_balance).
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
  scp_host_account a;
  rc = scp_host_load_account(h, key, &a, NULL);
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

int scp_sac_account_min_max(scp_host *h, const scp_host_account *a, int64_t *min, int64_t *max) {
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
  scp_host_account a;
  if (scp_host_account_parse(e->val, e->vallen, &a))
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "unexpected entry found");
  rc = scp_host_account_clone_charges(h, e->val, e->vallen);
  int64_t min = 0, max = 0, nb;
  uint8_t b[8];
  if (rc == SCP_OK) rc = scp_sac_account_min_max(h, &a, &min, &max);
  if (rc == SCP_OK) rc = scp_sac_new_balance(h, a.balance, amount, min, max, &nb);
  if (rc != SCP_OK) return rc;
  scp_put_be64(b, (uint64_t)nb);
  rc = scp_sac_put_patched(h, &k, e, 36, b, 8);
  return rc;
}
