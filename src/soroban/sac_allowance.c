/*
 * sac_allowance.c — the Stellar Asset Contract's allowances: allowance().
 *
 * rs-soroban-env v28.0.2, builtin_contracts/stellar_asset_contract/:
 * contract.rs (allowance), allowance.rs (read_allowance), storage_types.rs
 * (DataKey::Allowance(AllowanceDataKey {from, spender}), AllowanceValue
 * {amount, live_until_ledger}); soroban-builtin-sdk-macros derive_type.rs
 * (a struct is the map of its fields in name order, an enum case with a
 * field the Vec [Symbol(case), field]).
 *
 * An allowance is a Temporary contract-data entry:
 *   [Symbol(Allowance), {from: Address, spender: Address}]
 *     -> {amount: i128, live_until_ledger: u32}
 * read as 0 when missing or when live_until_ledger is below the ledger
 * sequence.
 *
 * Checked to the unit against the reference's traces (test_sac.c): a
 * missing allowance (test_burn.json).  approve, transfer_from and
 * burn_from (write_allowance, spend_allowance) need require_auth and are
 * not implemented yet.
 */
#include <string.h>

#include "soroban/host_fns_private.h"
#include "soroban/sac_private.h"

enum { STORAGE_TEMPORARY = 0 };

static const char *const key_fields[2] = { "from", "spender" };
static const char *const value_fields[2] = { "amount", "live_until_ledger" };

/* DataKey::Allowance(..).try_into_val: the AllowanceDataKey map
 * (map_new_from_slices), then the Vec [Symbol(Allowance), map]. */
static int allowance_key(scp_host *h, uint64_t from, uint64_t spender, uint64_t *out) {
  uint64_t fields[2] = { from, spender }, v[2];
  int rc = scp_sac_symbol(h, "Allowance", &v[0]);
  if (rc == SCP_OK) rc = scp_sac_map_new(h, key_fields, fields, 2, &v[1]);
  return rc == SCP_OK ? scp_sac_vec(h, v, 2, out) : rc;
}

/* read_allowance: try_get_contract_data (has, then get), the
 * AllowanceValue's unpack, the ledger sequence compared. */
static int read_allowance(scp_host *h, uint64_t from, uint64_t spender, int64_t *hi,
                          uint64_t *lo) {
  uint64_t key, has, raw, vals[2], seq;
  *hi = 0;
  *lo = 0;
  int rc = allowance_key(h, from, spender, &key);
  if (rc == SCP_OK) rc = scp_sac_env2(h, "has_contract_data", key, STORAGE_TEMPORARY, &has);
  if (rc != SCP_OK || has != SCP_VAL_TRUE) return rc;
  rc = scp_sac_env2(h, "get_contract_data", key, STORAGE_TEMPORARY, &raw);
  if (rc == SCP_OK && scp_val_tag_of(raw) != SCP_TAG_MAP_OBJ)
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "allowance is not a Map");
  if (rc == SCP_OK) rc = scp_sac_map_unpack(h, raw, value_fields, 2, vals);
  int64_t ahi = 0;
  uint64_t alo = 0;
  if (rc == SCP_OK) rc = scp_sac_val_i128(h, vals[0], &ahi, &alo);
  if (rc == SCP_OK && scp_val_tag_of(vals[1]) != SCP_TAG_U32)
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "live_until_ledger is not a u32");
  if (rc == SCP_OK) rc = scp_sac_env0(h, "get_ledger_sequence", &seq);
  if (rc != SCP_OK) return rc;
  if (scp_val_major(vals[1]) >= scp_val_major(seq)) {
    *hi = ahi;
    *lo = alo;
  }
  return SCP_OK;
}

/* allowance(from, spender) (contract.rs): the instance's TTL extension,
 * then read_allowance. */
int scp_sac_allowance(scp_host *h, uint64_t from, uint64_t spender, uint64_t *ret) {
  int64_t hi;
  uint64_t lo;
  int rc = scp_sac_extend_instance(h);
  if (rc == SCP_OK) rc = read_allowance(h, from, spender, &hi, &lo);
  return rc == SCP_OK ? scp_sac_i128_pieces_val(h, hi, lo, ret) : rc;
}
