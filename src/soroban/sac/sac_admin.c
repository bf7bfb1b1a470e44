/*
 * sac_admin.c — the Stellar Asset Contract's authorization and clawback
 * functions: authorized, set_authorized, clawback.
 *
 * rs-soroban-env v28.0.2, builtin_contracts/stellar_asset_contract/:
 * contract.rs (authorized, set_authorized, clawback), balance.rs
 * (is_authorized, write_authorization, set_authorization,
 * set_trustline_authorization, check_clawbackable,
 * spend_balance_no_authorization_check, is_asset_auth_revocable,
 * is_asset_clawback_enabled), event.rs (set_authorized, clawback).
 *
 * An account's authorization is its trustline's AUTHORIZED flag
 * (deauthorizing sets AUTHORIZED_TO_MAINTAIN_LIABILITIES instead); a
 * contract's is its balance entry's authorized field, set_authorized
 * creating a zero balance when there is none.  Deauthorizing needs the
 * issuer's AUTH_REVOCABLE flag (Error(Contract, #2)).  Clawback needs
 * the trustline's TRUSTLINE_CLAWBACK_ENABLED flag or the balance entry's
 * clawback field (Error(Contract, #10)), never the issuer nor the native
 * asset (#2), and spends without the authorization check.
 *
 * Checked to the unit against the reference's traces (test_sac_balances.c):
 * test_clawback_on_contract, test_auth_revocable_on_contract,
 * test_clawback_on_account.
 */
#include <string.h>

#include "soroban/fns/host_fns_private.h"
#include "soroban/sac/sac_private.h"

enum { SIZE_ADDRESS = 16, SIZE_ACCOUNT_ID = 32, ERR_OPERATION_NOT_SUPPORTED = 2, ERR_BALANCE = 10 };

static int unexpected_address(scp_host *h) {
  return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INTERNAL_ERROR, "Unexpected ScAddress type");
}

/* authorized(addr) (contract.rs): the instance's TTL bump, is_authorized. */
int scp_sac_authorized_fn(scp_host *h, uint64_t addr, uint64_t *ret) {
  bool ok = false;
  int rc = scp_sac_extend_instance(h);
  if (rc == SCP_OK) rc = scp_sac_authorized(h, addr, &ok);
  if (rc == SCP_OK) *ret = scp_val_bool(ok);
  return rc;
}

/* set_authorization (balance.rs) for an account: read_asset (native:
 * Error(Contract, #2)), the issuer's clone, the issuer has no trustline
 * (#2), set_trustline_authorization. */
static int account_authorize(scp_host *h, const uint8_t acct[32], bool authorize) {
  scp_sac_asset a;
  int rc = scp_sac_read_asset_full(h, &a);
  if (rc != SCP_OK) return rc;
  if (a.type == SCP_SAC_NATIVE)
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_OPERATION_NOT_SUPPORTED,
                        "expected trustline asset");
  rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
  if (rc != SCP_OK) return rc;
  if (!memcmp(a.issuer, acct, 32))
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_OPERATION_NOT_SUPPORTED,
                        "issuer doesn't have a trustline");
  return scp_sac_trustline_authorize(h, acct, &a, authorize);
}

/* write_authorization (balance.rs), addr already cloned: deauthorizing
 * needs AUTH_REVOCABLE; an account's trustline, or a contract's balance
 * entry (DataKey::Balance(addr.metered_clone())): its authorized field
 * replaced, or a new {0, authorize, the issuer's clawback flag}. */
static int write_authorization(scp_host *h, uint64_t addr, bool authorize) {
  uint8_t kind, key[32];
  int rc;
  if (!authorize) {
    bool revocable = false;
    rc = scp_sac_issuer_flag(h, SCP_ACCT_AUTH_REVOCABLE, &revocable);
    if (rc != SCP_OK) return rc;
    if (!revocable)
      return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_OPERATION_NOT_SUPPORTED,
                          "issuer does not have AUTH_REVOCABLE set");
  }
  rc = scp_sac_sc_address(h, addr, &kind, key);
  if (rc != SCP_OK) return rc;
  if (kind == 0) return account_authorize(h, key, authorize);
  if (kind != 1) return unexpected_address(h);
  bool has;
  scp_sac_bv bv;
  rc = scp_host_charge_copy(h, 1, SIZE_ADDRESS);
  if (rc == SCP_OK) rc = scp_sac_balance_get(h, addr, &has, &bv);
  if (rc == SCP_OK && !has) rc = scp_sac_issuer_flag(h, SCP_ACCT_CLAWBACK_ENABLED, &bv.clawback);
  if (rc != SCP_OK) return rc;
  bv.authorized = authorize;
  return scp_sac_balance_put(h, addr, &bv);
}

/* set_authorized(addr, authorize) (contract.rs): read_administrator, its
 * require_auth, the instance's TTL bump, write_authorization(addr's
 * clone), the event [set_authorized, addr, name] with the bool. */
int scp_sac_set_authorized(scp_host *h, uint64_t addr, bool authorize) {
  uint64_t admin;
  int rc = scp_sac_read_admin(h, &admin);
  if (rc == SCP_OK) rc = scp_sac_require_auth(h, admin);
  if (rc == SCP_OK) rc = scp_sac_extend_instance(h);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_ADDRESS);
  if (rc == SCP_OK) rc = write_authorization(h, addr, authorize);
  return rc == SCP_OK ? scp_sac_event(h, "set_authorized", addr, 0, false, scp_val_bool(authorize))
                      : rc;
}

/* check_clawbackable (balance.rs), addr already cloned: an account needs
 * a credit asset (#2), not the issuer (#2), and a trustline with
 * TRUSTLINE_CLAWBACK_ENABLED (#10); a contract a balance entry with
 * clawback set (#10, a missing entry too). */
static int check_clawbackable(scp_host *h, uint64_t addr) {
  uint8_t kind, key[32];
  int rc = scp_sac_sc_address(h, addr, &kind, key);
  if (rc != SCP_OK) return rc;
  if (kind == 0) {
    scp_sac_asset a;
    uint32_t flags = 0;
    rc = scp_sac_read_asset_full(h, &a);
    if (rc != SCP_OK) return rc;
    if (a.type == SCP_SAC_NATIVE)
      return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_OPERATION_NOT_SUPPORTED,
                          "cannot clawback native asset");
    rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
    if (rc != SCP_OK) return rc;
    if (!memcmp(a.issuer, key, 32))
      return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_OPERATION_NOT_SUPPORTED,
                          "cannot clawback from issuer");
    rc = scp_sac_trustline_flags(h, key, &a, &flags);
    if (rc == SCP_OK && !(flags & SCP_TL_CLAWBACK_ENABLED))
      rc = scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_BALANCE, "trustline isn't clawbackable");
    return rc;
  }
  if (kind != 1) return unexpected_address(h);
  bool has;
  scp_sac_bv bv;
  rc = scp_sac_balance_get(h, addr, &has, &bv);
  if (rc != SCP_OK) return rc;
  if (!has)
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_BALANCE, "no balance to clawback");
  if (!bv.clawback)
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_BALANCE, "balance isn't clawbackable");
  return SCP_OK;
}

/* clawback(from, amount) (contract.rs): the amount's sign,
 * check_clawbackable(from's clone), check_not_issuer, read_administrator
 * and its require_auth, the instance's TTL bump,
 * spend_balance_no_authorization_check(from's clone), the event
 * [clawback, from, name] with the amount. */
int scp_sac_clawback(scp_host *h, uint64_t from, uint64_t amount) {
  int64_t hi;
  uint64_t lo, admin;
  int rc = scp_sac_amount(h, amount, &hi, &lo);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_ADDRESS);
  if (rc == SCP_OK) rc = check_clawbackable(h, from);
  if (rc == SCP_OK) rc = scp_sac_check_not_issuer(h, from);
  if (rc == SCP_OK) rc = scp_sac_read_admin(h, &admin);
  if (rc == SCP_OK) rc = scp_sac_require_auth(h, admin);
  if (rc == SCP_OK) rc = scp_sac_extend_instance(h);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_ADDRESS);
  if (rc == SCP_OK) rc = scp_sac_spend_noauth(h, from, hi, lo);
  return rc == SCP_OK ? scp_sac_amount_event(h, "clawback", from, hi, lo) : rc;
}
