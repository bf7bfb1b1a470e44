/*
 * sac_allowance.c — the Stellar Asset Contract's allowances: allowance(),
 * approve().
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
 * missing allowance, approve of a new allowance (test_burn.json).
 * spend_allowance serves transfer_from and burn_from (sac_token.c).
 */
#include <string.h>

#include "soroban/fns/host_fns_private.h"
#include "soroban/sac/sac_private.h"

enum { STORAGE_TEMPORARY = 0 };

static const char *const key_fields[2] = { "from", "spender" };
static const char *const value_fields[2] = { "amount", "live_until_ledger" };

/* DataKey::Allowance(..).try_into_val: the AllowanceDataKey map
 * (map_new_from_slices), then the Vec [Symbol(Allowance), map]. */
static int allowance_key(scp_host *h, uint64_t from, uint64_t spender, uint64_t *out) {
  uint64_t fields[2] = { from, spender }, v[2];
  int rc = scp_native_symbol(h, "Allowance", &v[0]);
  if (rc == SCP_OK) rc = scp_native_map_new(h, key_fields, fields, 2, &v[1]);
  return rc == SCP_OK ? scp_native_vec(h, v, 2, out) : rc;
}

/* read_allowance: try_get_contract_data (has, then get), the
 * AllowanceValue's unpack, the ledger sequence compared. */
static int read_allowance(scp_host *h, uint64_t from, uint64_t spender, int64_t *hi,
                          uint64_t *lo) {
  uint64_t key, has, raw, vals[2], seq;
  *hi = 0;
  *lo = 0;
  int rc = allowance_key(h, from, spender, &key);
  if (rc == SCP_OK) rc = scp_native_env2(h, "has_contract_data", key, STORAGE_TEMPORARY, &has);
  if (rc != SCP_OK || has != SCP_VAL_TRUE) return rc;
  rc = scp_native_env2(h, "get_contract_data", key, STORAGE_TEMPORARY, &raw);
  if (rc == SCP_OK && scp_val_tag_of(raw) != SCP_TAG_MAP_OBJ)
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "allowance is not a Map");
  if (rc == SCP_OK) rc = scp_native_map_unpack(h, raw, value_fields, 2, vals);
  int64_t ahi = 0;
  uint64_t alo = 0;
  if (rc == SCP_OK) rc = scp_sac_val_i128(h, vals[0], &ahi, &alo);
  if (rc == SCP_OK && scp_val_tag_of(vals[1]) != SCP_TAG_U32)
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "live_until_ledger is not a u32");
  if (rc == SCP_OK) rc = scp_native_env0(h, "get_ledger_sequence", &seq);
  if (rc != SCP_OK) return rc;
  if (scp_val_major(vals[1]) >= scp_val_major(seq)) {
    *hi = ahi;
    *lo = alo;
  }
  return SCP_OK;
}

enum { SIZE_ADDRESS = 16, ERR_ALLOWANCE = 9, ERR_NEGATIVE_AMOUNT = 8 };

static int allowance_value(scp_host *h, int64_t hi, uint64_t lo, uint32_t live_until,
                           uint64_t *out) {
  uint64_t v[2];
  int rc = scp_sac_i128_pieces_val(h, hi, lo, &v[0]);
  v[1] = scp_val_u32(live_until);
  return rc == SCP_OK ? scp_native_map_new(h, value_fields, v, 2, out) : rc;
}

/* write_allowance (allowance.rs): live_until against the ledger (no
 * charge), try_get of the key; an existing allowance takes the new amount
 * and live_until, a missing one is written only for amount > 0; the put
 * (the key and the AllowanceValue built again), then for amount > 0 and a
 * later live_until the TTL extension to live_until (the key once more). */
static int write_allowance(scp_host *h, uint64_t from, uint64_t spender, int64_t hi,
                           uint64_t lo, uint32_t live_until) {
  uint32_t seq = h->opts.ledger_sequence;
  uint64_t max_lu = (uint64_t)seq + h->opts.max_entry_ttl - 1;
  bool positive = hi > 0 || (hi == 0 && lo > 0);
  if (live_until > max_lu)
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_ALLOWANCE,
                        "live_until is greater than max");
  if (positive && live_until < seq)
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_ALLOWANCE,
                        "live_until must be >= ledger sequence");
  uint64_t key, has, raw, vals[2], val, r;
  bool write = false;
  uint32_t old_lu = 0;
  int rc = allowance_key(h, from, spender, &key);
  if (rc == SCP_OK) rc = scp_native_env2(h, "has_contract_data", key, STORAGE_TEMPORARY, &has);
  if (rc != SCP_OK) return rc;
  if (has == SCP_VAL_TRUE) {
    int64_t ohi;
    uint64_t olo;
    rc = scp_native_env2(h, "get_contract_data", key, STORAGE_TEMPORARY, &raw);
    if (rc == SCP_OK && scp_val_tag_of(raw) != SCP_TAG_MAP_OBJ)
      rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "allowance is not a Map");
    if (rc == SCP_OK) rc = scp_native_map_unpack(h, raw, value_fields, 2, vals);
    if (rc == SCP_OK) rc = scp_sac_val_i128(h, vals[0], &ohi, &olo);
    if (rc == SCP_OK && scp_val_tag_of(vals[1]) != SCP_TAG_U32)
      rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "live_until_ledger is not a u32");
    if (rc != SCP_OK) return rc;
    old_lu = scp_val_major(vals[1]);
    write = true;
  } else {
    write = positive;
  }
  if (!write) return SCP_OK;
  rc = allowance_key(h, from, spender, &key);
  if (rc == SCP_OK) rc = allowance_value(h, hi, lo, live_until, &val);
  if (rc == SCP_OK) rc = scp_native_env3(h, "put_contract_data", key, val, STORAGE_TEMPORARY, &r);
  if (rc != SCP_OK || !positive || old_lu >= live_until) return rc;
  uint32_t live_for = live_until > seq ? live_until - seq : 0;
  rc = allowance_key(h, from, spender, &key);
  if (rc != SCP_OK) return rc;
  uint64_t a[4] = { key, STORAGE_TEMPORARY, scp_val_u32(live_for), scp_val_u32(live_for) };
  return scp_native_env(h, "extend_contract_data_ttl", a, &r);
}

/* approve(from, spender, amount, live_until_ledger) (contract.rs): the
 * amount's sign, from's require_auth, the instance's TTL bump,
 * write_allowance (from's and spender's clones), the approve event
 * [approve, from, spender, name] with data [amount, live_until_ledger]. */
int scp_sac_approve(scp_host *h, uint64_t from, uint64_t spender, uint64_t amount,
                    uint32_t live_until) {
  int64_t hi;
  uint64_t lo, r;
  int rc = scp_sac_val_i128(h, amount, &hi, &lo);
  if (rc == SCP_OK && hi < 0)
    rc = scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_NEGATIVE_AMOUNT,
                      "negative amount is not allowed");
  if (rc == SCP_OK) rc = scp_sac_require_auth(h, from);
  if (rc == SCP_OK) rc = scp_sac_extend_instance(h);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_ADDRESS);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_ADDRESS);
  if (rc == SCP_OK) rc = write_allowance(h, from, spender, hi, lo, live_until);
  if (rc != SCP_OK) return rc;
  uint64_t t[4], name = 0, symbol = 0, topics, d[2], data;
  rc = scp_native_symbol(h, "approve", &t[0]);
  t[1] = from;
  t[2] = spender;
  if (rc == SCP_OK) rc = scp_sac_read_metadata(h, &name, &symbol);
  t[3] = name;
  if (rc == SCP_OK) rc = scp_native_vec(h, t, 4, &topics);
  if (rc == SCP_OK) rc = scp_sac_i128_pieces_val(h, hi, lo, &d[0]);
  d[1] = scp_val_u32(live_until);
  if (rc == SCP_OK) rc = scp_native_vec(h, d, 2, &data);
  return rc == SCP_OK ? scp_native_env2(h, "contract_event", topics, data, &r) : rc;
}

/* spend_allowance (allowance.rs), from already cloned by the caller:
 * read_allowance (from's and spender's clones), not enough is
 * Error(Contract, #9); for amount > 0 write_allowance_amount (the clones,
 * the key, the existing entry's get and unpack for its live_until) and
 * write_allowance with the rest. */
int scp_sac_spend_allowance(scp_host *h, uint64_t from, uint64_t spender, int64_t hi,
                            uint64_t lo) {
  int64_t ahi;
  uint64_t alo;
  int rc = scp_host_charge_copy(h, 1, SIZE_ADDRESS);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_ADDRESS);
  if (rc == SCP_OK) rc = read_allowance(h, from, spender, &ahi, &alo);
  if (rc != SCP_OK) return rc;
  __int128 have = (__int128)((unsigned __int128)(uint64_t)ahi << 64 | alo);
  __int128 want = (__int128)((unsigned __int128)(uint64_t)hi << 64 | lo);
  if (have < want)
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_ALLOWANCE,
                        "not enough allowance to spend");
  if (want <= 0) return SCP_OK;
  __int128 rest = have - want;
  uint64_t key, raw, vals[2];
  rc = scp_host_charge_copy(h, 1, SIZE_ADDRESS);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_ADDRESS);
  if (rc == SCP_OK) rc = allowance_key(h, from, spender, &key);
  if (rc == SCP_OK) rc = scp_native_env2(h, "get_contract_data", key, STORAGE_TEMPORARY, &raw);
  if (rc == SCP_OK && scp_val_tag_of(raw) != SCP_TAG_MAP_OBJ)
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "allowance is not a Map");
  if (rc == SCP_OK) rc = scp_native_map_unpack(h, raw, value_fields, 2, vals);
  int64_t ohi;
  uint64_t olo;
  if (rc == SCP_OK) rc = scp_sac_val_i128(h, vals[0], &ohi, &olo);
  if (rc == SCP_OK && scp_val_tag_of(vals[1]) != SCP_TAG_U32)
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "live_until_ledger is not a u32");
  if (rc != SCP_OK) return rc;
  return write_allowance(h, from, spender, (int64_t)(rest >> 64), (uint64_t)rest,
                         scp_val_major(vals[1]));
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
