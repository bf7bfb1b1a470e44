/*
 * sac_token.c — the Stellar Asset Contract's token functions that need
 * authorization: mint, transfer, transfer_from, burn, burn_from, set_admin.
 *
 * rs-soroban-env v28.0.2, builtin_contracts/stellar_asset_contract/:
 * contract.rs (mint, check_nonnegative_amount, check_not_issuer),
 * admin.rs (read_administrator), balance.rs (receive_balance), event.rs
 * (mint, transfer_maybe_with_issuer, is_issuer, get_amount_data_maybe_muxed);
 * builtin_contracts/base_types.rs (Address::require_auth,
 * Address::from_account, MuxedAddress).
 *
 * The admin's require_auth is the Env call (the argument's check, then the
 * authorization manager with the SAC frame's args), in either mode.
 *
 * Checked to the unit against the reference's traces (test_sac.c), for
 * accounts holding trustlines: mint in recording auth mode, whole
 * (test_recording_auth_for_stellar_asset_contract.json); transfer,
 * transfer_from, burn_from, set_admin from the frame push to require_auth
 * and from its return to the pop (test_direct_transfer,
 * test_transfer_with_allowance, test_burn, test_set_admin: enforcing mode
 * with signed entries, whose authorization we do not model); burn from
 * the issuer failing with Error(Contract, #2); transfers of the native
 * asset and to and from contract balances, and to a MuxedAddress
 * (test_sac_balances.c).  clawback and set_authorized are in
 * sac_admin.c.
 */
#include <stdio.h>
#include <string.h>

#include "soroban/fns/host_fns_private.h"
#include "soroban/sac/sac_private.h"

enum { SIZE_ACCOUNT_ID = 32, SIZE_ADDRESS = 16, ERR_OPERATION_NOT_SUPPORTED = 2, ERR_NEGATIVE_AMOUNT = 8 };

int scp_sac_amount(scp_host *h, uint64_t amount, int64_t *hi, uint64_t *lo) {
  int rc = scp_sac_val_i128(h, amount, hi, lo);
  if (rc == SCP_OK && *hi < 0)
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_NEGATIVE_AMOUNT,
                        "negative amount is not allowed");
  return rc;
}

int scp_sac_amount_event(scp_host *h, const char *name, uint64_t addr, int64_t hi, uint64_t lo) {
  uint64_t data;
  int rc = scp_sac_i128_pieces_val(h, hi, lo, &data);
  return rc == SCP_OK ? scp_sac_event(h, name, addr, 0, false, data) : rc;
}

/* Address::require_auth: the Env's require_auth (its argument check, a
 * VisitObject of the Address, then the authorization manager with the SAC
 * frame's args). */
int scp_sac_require_auth(scp_host *h, uint64_t addr) {
  uint64_t r;
  if (scp_sac_probe) scp_sac_probe(h, SCP_SAC_PROBE_AUTH);
  int rc = scp_native_env1(h, "require_auth", addr, &r);
  if (scp_sac_probe) scp_sac_probe(h, SCP_SAC_PROBE_AUTHED);
  return rc;
}

/* event.rs is_issuer: read_asset_info; for a credit asset the issuer's
 * Address (as check_not_issuer) compared with addr. */
static int is_issuer(scp_host *h, uint64_t addr, bool *yes) {
  uint32_t type = 0;
  uint64_t code, ia, ord;
  uint8_t enc[33];
  *yes = false;
  enc[0] = 0;
  int rc = scp_sac_read_issuer(h, &type, &code, enc + 1);
  if (rc != SCP_OK || type == SCP_SAC_NATIVE) return rc;
  rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
  if (rc == SCP_OK) rc = scp_native_new_obj(h, SCP_TAG_ADDRESS_OBJ, enc, 33, &ia);
  if (rc == SCP_OK) rc = scp_native_env2(h, "obj_cmp", ia, addr, &ord);
  if (rc == SCP_OK) *yes = (int64_t)ord == 0;
  return rc;
}

/* The topics [Symbol(name), a, (b,) read_name()] (one vec_new_from_slice),
 * then the data -- for a muxed recipient get_amount_data_maybe_muxed's map
 * {amount, to_muxed_id} (map_new, map_put of the small Symbol "amount" and
 * the amount, then of the Symbol object "to_muxed_id" and the id as a
 * U64Val) -- and contract_event. */
static int event_muxed(scp_host *h, const char *name, uint64_t a, uint64_t b, bool two,
                       uint64_t data, const uint64_t *mux_id) {
  uint64_t t[4], nm = 0, symbol = 0, topics, r;
  uint32_t n = 0;
  int rc = scp_native_symbol(h, name, &t[n++]);
  t[n++] = a;
  if (two) t[n++] = b;
  if (rc == SCP_OK) rc = scp_sac_read_metadata(h, &nm, &symbol);
  t[n++] = nm;
  if (rc == SCP_OK) rc = scp_native_vec(h, t, n, &topics);
  if (rc == SCP_OK && mux_id) {
    uint64_t map, k, v;
    rc = scp_native_env0(h, "map_new", &map);
    if (rc == SCP_OK) rc = scp_native_symbol(h, "amount", &k);
    if (rc == SCP_OK) rc = scp_native_env3(h, "map_put", map, k, data, &map);
    if (rc == SCP_OK) rc = scp_native_symbol(h, "to_muxed_id", &k);
    if (rc == SCP_OK) {
      if (*mux_id < (UINT64_C(1) << 56)) v = scp_val_small_u(*mux_id, SCP_TAG_U64_SMALL);
      else rc = scp_native_env1(h, "obj_from_u64", *mux_id, &v);
    }
    if (rc == SCP_OK) rc = scp_native_env3(h, "map_put", map, k, v, &map);
    data = map;
  }
  return rc == SCP_OK ? scp_native_env2(h, "contract_event", topics, data, &r) : rc;
}

/* An event: topics [Symbol(name), a, (b,) read_name()] (one
 * vec_new_from_slice), contract_event with data. */
int scp_sac_event(scp_host *h, const char *name, uint64_t a, uint64_t b, bool two,
                  uint64_t data) {
  return event_muxed(h, name, a, b, two, data, NULL);
}

/* event::transfer_maybe_with_issuer: from == to is a transfer; from the
 * issuer a mint, to the issuer a burn; else a transfer.  Each test an Env
 * compare.  The muxed id (NULL: none) goes into the transfer and mint
 * events' data. */
static int transfer_event(scp_host *h, uint64_t from, uint64_t to, uint64_t data,
                          const uint64_t *mux_id) {
  uint64_t ord;
  bool iss = false;
  int rc = scp_native_env2(h, "obj_cmp", from, to, &ord);
  if (rc != SCP_OK) return rc;
  if ((int64_t)ord == 0) return event_muxed(h, "transfer", from, to, true, data, mux_id);
  rc = is_issuer(h, from, &iss);
  if (rc != SCP_OK) return rc;
  if (iss) return event_muxed(h, "mint", to, 0, false, data, mux_id);
  rc = is_issuer(h, to, &iss);
  if (rc != SCP_OK) return rc;
  if (iss) return scp_sac_event(h, "burn", from, 0, false, data);
  return event_muxed(h, "transfer", from, to, true, data, mux_id);
}

/* check_not_issuer (contract.rs): is_issuer's test, an error for the
 * issuer. */
int scp_sac_check_not_issuer(scp_host *h, uint64_t addr) {
  bool iss = false;
  int rc = is_issuer(h, addr, &iss);
  if (rc == SCP_OK && iss)
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_OPERATION_NOT_SUPPORTED,
                        "operation invalid on issuer");
  return rc;
}

int scp_sac_mint(scp_host *h, uint64_t to, uint64_t amount) {
  int64_t hi;
  uint64_t lo, admin;
  int rc = scp_sac_amount(h, amount, &hi, &lo);
  if (rc == SCP_OK) rc = scp_sac_check_not_issuer(h, to);
  if (rc == SCP_OK) rc = scp_sac_read_admin(h, &admin);
  if (rc == SCP_OK) rc = scp_sac_require_auth(h, admin);
  if (rc == SCP_OK) rc = scp_sac_extend_instance(h);
  if (rc == SCP_OK) rc = scp_sac_receive_balance(h, to, hi, lo);
  return rc == SCP_OK ? scp_sac_amount_event(h, "mint", to, hi, lo) : rc;
}

/* check_non_native (contract.rs): read_asset_info; the native asset is
 * Error(Contract, #2). */
static int check_non_native(scp_host *h) {
  uint32_t type = 0;
  uint64_t code, issuer;
  int rc = scp_sac_read_asset_info(h, &type, &code, &issuer);
  if (rc == SCP_OK && type == SCP_SAC_NATIVE)
    return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)ERR_OPERATION_NOT_SUPPORTED,
                        "operation invalid on native asset");
  return rc;
}

/* burn(from, amount) (contract.rs): the amount's sign, check_non_native,
 * check_not_issuer, from's require_auth, the instance's TTL bump,
 * spend_balance, the burn event [burn, from, name]. */
int scp_sac_burn(scp_host *h, uint64_t from, uint64_t amount) {
  int64_t hi;
  uint64_t lo;
  int rc = scp_sac_amount(h, amount, &hi, &lo);
  if (rc == SCP_OK) rc = check_non_native(h);
  if (rc == SCP_OK) rc = scp_sac_check_not_issuer(h, from);
  if (rc == SCP_OK) rc = scp_sac_require_auth(h, from);
  if (rc == SCP_OK) rc = scp_sac_extend_instance(h);
  if (rc == SCP_OK) rc = scp_sac_spend_balance(h, from, hi, lo);
  return rc == SCP_OK ? scp_sac_amount_event(h, "burn", from, hi, lo) : rc;
}

/* set_admin(new_admin) (contract.rs): read_administrator, its
 * require_auth, the instance's TTL bump, write_administrator(new_admin's
 * clone), the event [set_admin, admin, name] with new_admin as data. */
int scp_sac_set_admin(scp_host *h, uint64_t new_admin) {
  uint64_t admin;
  int rc = scp_sac_read_admin(h, &admin);
  if (rc == SCP_OK) rc = scp_sac_require_auth(h, admin);
  if (rc == SCP_OK) rc = scp_sac_extend_instance(h);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_ADDRESS);
  if (rc == SCP_OK) rc = scp_sac_write_admin(h, new_admin);
  return rc == SCP_OK ? scp_sac_event(h, "set_admin", admin, 0, false, new_admin) : rc;
}

/* burn_from(spender, from, amount) (contract.rs): as burn, with
 * spender's require_auth and spend_allowance(from's clone) before
 * spend_balance. */
int scp_sac_burn_from(scp_host *h, uint64_t spender, uint64_t from, uint64_t amount) {
  int64_t hi;
  uint64_t lo;
  int rc = scp_sac_amount(h, amount, &hi, &lo);
  if (rc == SCP_OK) rc = check_non_native(h);
  if (rc == SCP_OK) rc = scp_sac_check_not_issuer(h, from);
  if (rc == SCP_OK) rc = scp_sac_require_auth(h, spender);
  if (rc == SCP_OK) rc = scp_sac_extend_instance(h);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_ADDRESS);
  if (rc == SCP_OK) rc = scp_sac_spend_allowance(h, from, spender, hi, lo);
  if (rc == SCP_OK) rc = scp_sac_spend_balance(h, from, hi, lo);
  return rc == SCP_OK ? scp_sac_amount_event(h, "burn", from, hi, lo) : rc;
}

/* transfer_from(spender, from, to, amount) (contract.rs): the amount's
 * sign, spender's require_auth, the instance's TTL bump,
 * spend_allowance, spend_balance, receive_balance, the event. */
int scp_sac_transfer_from(scp_host *h, uint64_t spender, uint64_t from, uint64_t to,
                          uint64_t amount) {
  int64_t hi;
  uint64_t lo;
  int rc = scp_sac_amount(h, amount, &hi, &lo);
  if (rc == SCP_OK) rc = scp_sac_require_auth(h, spender);
  if (rc == SCP_OK) rc = scp_sac_extend_instance(h);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_ADDRESS);
  if (rc == SCP_OK) rc = scp_sac_spend_allowance(h, from, spender, hi, lo);
  if (rc == SCP_OK) rc = scp_sac_spend_balance(h, from, hi, lo);
  if (rc == SCP_OK) rc = scp_sac_receive_balance(h, to, hi, lo);
  uint64_t data;
  if (rc == SCP_OK) rc = scp_sac_i128_pieces_val(h, hi, lo, &data);
  return rc == SCP_OK ? transfer_event(h, from, to, data, NULL) : rc;
}

/* transfer(from, to_mux, amount) (contract.rs): the amount's sign, the
 * recipient's Address (to_mux.address(): a plain Address costs nothing, a
 * MuxedAddress is get_address_from_muxed_address), from's require_auth,
 * the instance's TTL bump, spend_balance, receive_balance, to_mux.id()
 * (get_id_from_muxed_address, the U64Val's u64), the event. */
int scp_sac_transfer(scp_host *h, uint64_t from, uint64_t to_mux, uint64_t amount) {
  int64_t hi;
  uint64_t lo, to = to_mux, id = 0;
  bool muxed = scp_val_tag_of(to_mux) == SCP_TAG_MUXED_ADDRESS_OBJ;
  int rc = scp_sac_amount(h, amount, &hi, &lo);
  if (rc == SCP_OK && muxed) {
    rc = scp_native_env1(h, "get_address_from_muxed_address", to_mux, &to);
    if (rc == SCP_OK && scp_val_tag_of(to) != SCP_TAG_ADDRESS_OBJ)
      rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "expected an Address");
  }
  if (rc == SCP_OK) rc = scp_sac_require_auth(h, from);
  if (rc == SCP_OK) rc = scp_sac_extend_instance(h);
  if (rc == SCP_OK) rc = scp_sac_spend_balance(h, from, hi, lo);
  if (rc == SCP_OK) rc = scp_sac_receive_balance(h, to, hi, lo);
  if (rc == SCP_OK && muxed) {
    uint64_t v;
    if (scp_sac_probe) scp_sac_probe(h, SCP_SAC_PROBE_MUXED_ID);
    rc = scp_native_env1(h, "get_id_from_muxed_address", to_mux, &v);
    if (rc == SCP_OK && scp_val_tag_of(v) == SCP_TAG_U64_SMALL) id = scp_val_body(v);
    else if (rc == SCP_OK) rc = scp_native_env1(h, "obj_to_u64", v, &id);
  }
  uint64_t data;
  if (rc == SCP_OK) rc = scp_sac_i128_pieces_val(h, hi, lo, &data);
  return rc == SCP_OK ? transfer_event(h, from, to, data, muxed ? &id : NULL) : rc;
}
