/*
 * sac_cbalance.c — the Stellar Asset Contract's balances of contract
 * addresses: DataKey::Balance(addr) persistent entries holding
 * BalanceValue {amount: i128, authorized: bool, clawback: bool}.
 *
 * rs-soroban-env v28.0.2, builtin_contracts/stellar_asset_contract/:
 * balance.rs (read_balance, write_contract_balance, receive_balance,
 * spend_balance_no_authorization_check, is_authorized, the
 * ScAddress::Contract arms), storage_types.rs (DataKey, BalanceValue,
 * BALANCE_TTL_THRESHOLD = 29 days, BALANCE_EXTEND_AMOUNT = 30 days);
 * builtin_contracts/storage_utils.rs (try_get_contract_data: has, then
 * get); soroban-builtin-sdk-macros derive_type.rs (a struct is the map of
 * its fields in name order).
 *
 *   [Symbol(Balance), Address(C...)] -> {amount, authorized, clawback}
 *
 * A balance entry is created by its first receipt (authorized: it passed
 * is_authorized; clawback: the issuer's AUTH_CLAWBACK_ENABLED flag at
 * that time) or by set_authorized (sac_admin.c).  Every write extends the
 * entry's TTL (threshold 29 days, to 30 days); reads by balance() do
 * too, reads by the changing functions do not.
 *
 * Checked to the unit against test_clawback_on_contract.json and
 * test_auth_revocable_on_contract.json (test_sac_balances.c): mint to a
 * new contract balance, balance() of it, clawback, set_authorized.
 */
#include <string.h>

#include "soroban/fns/host_fns_private.h"
#include "soroban/sac/sac_private.h"

enum {
  STORAGE_PERSISTENT = 1, BALANCE_EXTEND_AMOUNT = 30 * 17280,
  BALANCE_TTL_THRESHOLD = 29 * 17280, SIZE_ADDRESS = 16,
  ERR_BALANCE = 10, ERR_OVERFLOW = 12
};

static const char *const balance_fields[3] = { "amount", "authorized", "clawback" };

int scp_sac_balance_key(scp_host *h, uint64_t addr, uint64_t *out) {
  uint64_t v[2];
  int rc = scp_native_symbol(h, "Balance", &v[0]);
  v[1] = addr;
  return rc == SCP_OK ? scp_native_vec(h, v, 2, out) : rc;
}

int scp_sac_balance_value(scp_host *h, uint64_t raw, scp_sac_bv *bv) {
  uint64_t vals[3];
  int rc = SCP_OK;
  if (scp_val_tag_of(raw) != SCP_TAG_MAP_OBJ)
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "balance is not a Map");
  if (rc == SCP_OK) rc = scp_native_map_unpack(h, raw, balance_fields, 3, vals);
  if (rc == SCP_OK) rc = scp_sac_val_i128(h, vals[0], &bv->hi, &bv->lo);
  if (rc == SCP_OK && (scp_val_tag_of(vals[1]) > SCP_TAG_TRUE || scp_val_tag_of(vals[2]) > SCP_TAG_TRUE))
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "authorized/clawback are not bools");
  if (rc == SCP_OK) {
    bv->authorized = vals[1] == SCP_VAL_TRUE;
    bv->clawback = vals[2] == SCP_VAL_TRUE;
  }
  return rc;
}

int scp_sac_balance_get(scp_host *h, uint64_t addr, bool *has, scp_sac_bv *bv) {
  uint64_t key, r, raw;
  memset(bv, 0, sizeof *bv);
  int rc = scp_sac_balance_key(h, addr, &key);
  if (rc == SCP_OK) rc = scp_native_env2(h, "has_contract_data", key, STORAGE_PERSISTENT, &r);
  if (rc != SCP_OK) return rc;
  *has = r == SCP_VAL_TRUE;
  if (!*has) return SCP_OK;
  rc = scp_native_env2(h, "get_contract_data", key, STORAGE_PERSISTENT, &raw);
  return rc == SCP_OK ? scp_sac_balance_value(h, raw, bv) : rc;
}

int scp_sac_balance_extend(scp_host *h, uint64_t addr) {
  uint64_t key, r;
  int rc = scp_sac_balance_key(h, addr, &key);
  if (rc != SCP_OK) return rc;
  uint64_t a[4] = { key, STORAGE_PERSISTENT, scp_val_u32(BALANCE_TTL_THRESHOLD),
                    scp_val_u32(BALANCE_EXTEND_AMOUNT) };
  return scp_native_env(h, "extend_contract_data_ttl", a, &r);
}

/* write_contract_balance: put_contract_data(key, BalanceValue) (the key's
 * Vec first, then the value's map), then the TTL extension with the key
 * built again. */
int scp_sac_balance_put(scp_host *h, uint64_t addr, const scp_sac_bv *bv) {
  uint64_t key, vals[3], val, r;
  int rc = scp_sac_balance_key(h, addr, &key);
  if (rc == SCP_OK) rc = scp_sac_i128_pieces_val(h, bv->hi, bv->lo, &vals[0]);
  vals[1] = scp_val_bool(bv->authorized);
  vals[2] = scp_val_bool(bv->clawback);
  if (rc == SCP_OK) rc = scp_native_map_new(h, balance_fields, vals, 3, &val);
  if (rc == SCP_OK) rc = scp_native_env3(h, "put_contract_data", key, val, STORAGE_PERSISTENT, &r);
  return rc == SCP_OK ? scp_sac_balance_extend(h, addr) : rc;
}

static __int128 i128_of(int64_t hi, uint64_t lo) {
  return (__int128)((unsigned __int128)(uint64_t)hi << 64 | lo);
}

static void i128_split(__int128 v, int64_t *hi, uint64_t *lo) {
  *hi = (int64_t)(v >> 64);
  *lo = (uint64_t)v;
}

/* read_balance's contract arm: try_get_contract_data, then (for an
 * existing entry) the key again and the TTL extension, then the
 * BalanceValue's conversion; a missing entry is 0. */
int scp_sac_contract_balance(scp_host *h, uint64_t addr, uint64_t *ret) {
  uint64_t key, has, raw;
  int rc = scp_sac_balance_key(h, addr, &key);
  if (rc == SCP_OK) rc = scp_native_env2(h, "has_contract_data", key, STORAGE_PERSISTENT, &has);
  if (rc != SCP_OK) return rc;
  if (has != SCP_VAL_TRUE) {
    *ret = scp_val_small_i(0, SCP_TAG_I128_SMALL);
    return SCP_OK;
  }
  scp_sac_bv bv;
  rc = scp_native_env2(h, "get_contract_data", key, STORAGE_PERSISTENT, &raw);
  if (rc == SCP_OK) rc = scp_sac_balance_extend(h, addr);
  if (rc == SCP_OK) rc = scp_sac_balance_value(h, raw, &bv);
  return rc == SCP_OK ? scp_sac_i128_pieces_val(h, bv.hi, bv.lo, ret) : rc;
}

/* is_authorized's contract arm: the entry's authorized field, else (no
 * entry) !is_asset_auth_required. */
int scp_sac_contract_authorized(scp_host *h, uint64_t addr, bool *ok) {
  bool has, req;
  scp_sac_bv bv;
  int rc = scp_sac_balance_get(h, addr, &has, &bv);
  if (rc != SCP_OK) return rc;
  if (has) {
    *ok = bv.authorized;
    return SCP_OK;
  }
  rc = scp_sac_issuer_flag(h, SCP_ACCT_AUTH_REQUIRED, &req);
  *ok = !req;
  return rc;
}

/* receive_balance's contract arm: DataKey::Balance(addr.metered_clone()),
 * the entry or a new one {0, authorized, the issuer's clawback flag},
 * checked_add (Error(Contract, #12)), write_contract_balance. */
int scp_sac_contract_receive(scp_host *h, uint64_t addr, int64_t hi, uint64_t lo) {
  bool has;
  scp_sac_bv bv;
  int rc = scp_host_charge_copy(h, 1, SIZE_ADDRESS);
  if (rc == SCP_OK) rc = scp_sac_balance_get(h, addr, &has, &bv);
  if (rc == SCP_OK && !has) {
    bv.authorized = true;
    rc = scp_sac_issuer_flag(h, SCP_ACCT_CLAWBACK_ENABLED, &bv.clawback);
  }
  if (rc != SCP_OK) return rc;
  __int128 sum;
  if (__builtin_add_overflow(i128_of(bv.hi, bv.lo), i128_of(hi, lo), &sum))
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_OVERFLOW,
                        "balance overflow in receive_balance");
  i128_split(sum, &bv.hi, &bv.lo);
  return scp_sac_balance_put(h, addr, &bv);
}

/* spend_balance_no_authorization_check's contract arm: the entry; less
 * than the amount is Error(Contract, #10); the rest written with its
 * authorized state as is.  No entry: an amount > 0 is Error(Contract,
 * #10), 0 is a no-op. */
int scp_sac_contract_spend(scp_host *h, uint64_t addr, int64_t hi, uint64_t lo) {
  bool has;
  scp_sac_bv bv;
  int rc = scp_host_charge_copy(h, 1, SIZE_ADDRESS);
  if (rc == SCP_OK) rc = scp_sac_balance_get(h, addr, &has, &bv);
  if (rc != SCP_OK) return rc;
  __int128 amount = i128_of(hi, lo), have = i128_of(bv.hi, bv.lo), rest;
  if (!has) {
    if (amount > 0)
      return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_BALANCE,
                          "zero balance is not sufficient to spend");
    return SCP_OK;
  }
  if (have < amount)
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_BALANCE,
                        "balance is not sufficient to spend");
  if (__builtin_sub_overflow(have, amount, &rest))
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_OVERFLOW,
                        "balance overflow in spend_balance_no_authorization_check");
  i128_split(rest, &bv.hi, &bv.lo);
  return scp_sac_balance_put(h, addr, &bv);
}
