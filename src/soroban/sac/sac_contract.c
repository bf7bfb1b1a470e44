/*
 * sac_contract.c — a call into a Stellar Asset Contract: the frame, the
 * dispatcher and the token functions.
 *
 * rs-soroban-env v28.0.2: host/frame.rs (call_contract_fn's
 * ContractExecutable::StellarAsset branch, with_frame_and_initial_mem_charge,
 * persist_instance_storage), host/data_helper.rs (store_contract_instance),
 * host/conversion.rs (instance_storage_map_to_scmap),
 * soroban-builtin-sdk-macros/src/derive_fn.rs (the dispatcher),
 * builtin_contracts/stellar_asset_contract/contract.rs.
 *
 * The frame: the caller (host_contract.c call_contract) has read the
 * instance and charged the args Vec<Val>; here the Frame's contract-id
 * clone, push_context (scp_host_charge_push_context: the auth manager's
 * frame, the rollback point), then StellarAssetContract.call: the function
 * name looked up with symbol_index_in_strs among the 18 functions in
 * contract.rs order, the argument count checked, the function run.  On
 * success the instance storage is written back when the frame modified it
 * (persist_instance_storage, host_instance.c), then the frame pops; a failure rolls the
 * storage map and the events back (pop_context with the rollback point).
 *
 * All 18 functions are implemented (sac_meta.c, sac_balance.c,
 * sac_cbalance.c, sac_account.c, sac_token.c, sac_allowance.c,
 * sac_admin.c) and checked to the unit against the reference's traces
 * (tests/soroban/test_sac.c, test_sac_balances.c, test_replay.c),
 * including the instance's load in a later frame (host_instance.c, shared
 * with the WASM frames).  The enforcing-mode traces are checked on both
 * sides of require_auth through test_sac.c's probe.  The frame's args are
 * set for require_auth.
 *
 * Profiles: the frame (from push_context to the pop) is reported to the
 * profiler through h->native_hook, which books it as a contract:SAC node
 * under the host call that runs it (sor_vm.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/fns/host_fns_private.h"
#include "soroban/sac/sac_private.h"
#include "soroban/core/host_instance.h"

enum { SIZE_CONTRACT_ID = 32 };

/* The contractimpl dispatcher's FNS, in contract.rs order. */
enum {
  FN_INIT_ASSET, FN_ALLOWANCE, FN_APPROVE, FN_BALANCE, FN_AUTHORIZED, FN_TRANSFER,
  FN_TRANSFER_FROM, FN_BURN, FN_BURN_FROM, FN_CLAWBACK, FN_SET_AUTHORIZED, FN_MINT,
  FN_SET_ADMIN, FN_ADMIN, FN_DECIMALS, FN_NAME, FN_SYMBOL, FN_TRUST, FN_COUNT
};
static const char *const fns[FN_COUNT] = {
  "init_asset", "allowance", "approve", "balance", "authorized", "transfer",
  "transfer_from", "burn", "burn_from", "clawback", "set_authorized", "mint",
  "set_admin", "admin", "decimals", "name", "symbol", "trust",
};
static const uint8_t fn_argc[FN_COUNT] = { 1, 2, 4, 1, 1, 3, 4, 2, 3, 2, 2, 2, 1, 0, 0, 0, 0, 1 };

void (*scp_sac_probe)(scp_host *h, int where);

/* symbol_index_in_strs(func, FNS) for the caller's func Symbol, from its
 * text: compare_symbol_to_bytes per str (a Symbol object is visited each
 * time), MemCmp(min) each; no early exit. */
static int fn_index(scp_host *h, const char *fn, uint32_t *idx) {
  uint64_t small;
  size_t len = strlen(fn);
  bool obj = !scp_val_symbol_small((const uint8_t *)fn, len, &small);
  bool found = false;
  for (uint32_t i = 0; i < FN_COUNT; i++) {
    size_t sl = strlen(fns[i]), m = sl < len ? sl : len;
    int rc = obj ? scp_host_charge(h, SCP_COST_VisitObject, -1) : SCP_OK;
    if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_MemCmp, (int64_t)m);
    if (rc != SCP_OK) return rc;
    if (!found && sl == len && !memcmp(fns[i], fn, len)) {
      found = true;
      *idx = i;
    }
  }
  if (!found)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "symbol not found in slice of strs");
  return SCP_OK;
}

static int dispatch(scp_host *h, const char *fn, const uint64_t *args, uint32_t n,
                    uint64_t *ret) {
  uint32_t idx = 0;
  int rc = fn_index(h, fn, &idx);
  if (rc != SCP_OK) return rc;
  if (n != fn_argc[idx])
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_UNEXPECTED_SIZE, "wrong number of args to func");
  *ret = SCP_VAL_VOID;
  switch (idx) {
  case FN_INIT_ASSET:
    /* BytesObject::try_from_val: a tag check, no charge */
    if (scp_val_tag_of(args[0]) != SCP_TAG_BYTES_OBJ)
      return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "init_asset takes Bytes");
    return scp_sac_init_asset(h, args[0]);
  case FN_BALANCE:
    /* Address::try_from_val: a tag check */
    if (scp_val_tag_of(args[0]) != SCP_TAG_ADDRESS_OBJ)
      return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "balance takes an Address");
    return scp_sac_balance(h, args[0], ret);
  case FN_TRUST:
    if (scp_val_tag_of(args[0]) != SCP_TAG_ADDRESS_OBJ)
      return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "trust takes an Address");
    return scp_sac_trust(h, args[0]);
  case FN_ALLOWANCE:
    if (scp_val_tag_of(args[0]) != SCP_TAG_ADDRESS_OBJ || scp_val_tag_of(args[1]) != SCP_TAG_ADDRESS_OBJ)
      return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "allowance takes two Addresses");
    return scp_sac_allowance(h, args[0], args[1], ret);
  case FN_MINT:
    /* Address::try_from_val, i128::try_from_val (a tag check here; an
     * object's halves are read in mint) */
    if (scp_val_tag_of(args[0]) != SCP_TAG_ADDRESS_OBJ ||
        (scp_val_tag_of(args[1]) != SCP_TAG_I128_SMALL && scp_val_tag_of(args[1]) != SCP_TAG_I128_OBJ))
      return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "mint takes an Address and an i128");
    return scp_sac_mint(h, args[0], args[1]);
  case FN_APPROVE:
    if (scp_val_tag_of(args[0]) != SCP_TAG_ADDRESS_OBJ || scp_val_tag_of(args[1]) != SCP_TAG_ADDRESS_OBJ ||
        (scp_val_tag_of(args[2]) != SCP_TAG_I128_SMALL && scp_val_tag_of(args[2]) != SCP_TAG_I128_OBJ) ||
        scp_val_tag_of(args[3]) != SCP_TAG_U32)
      return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE,
                          "approve takes two Addresses, an i128 and a u32");
    return scp_sac_approve(h, args[0], args[1], args[2], scp_val_major(args[3]));
  case FN_BURN_FROM:
    if (scp_val_tag_of(args[0]) != SCP_TAG_ADDRESS_OBJ || scp_val_tag_of(args[1]) != SCP_TAG_ADDRESS_OBJ ||
        (scp_val_tag_of(args[2]) != SCP_TAG_I128_SMALL && scp_val_tag_of(args[2]) != SCP_TAG_I128_OBJ))
      return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE,
                          "burn_from takes two Addresses and an i128");
    return scp_sac_burn_from(h, args[0], args[1], args[2]);
  case FN_TRANSFER_FROM:
    if (scp_val_tag_of(args[0]) != SCP_TAG_ADDRESS_OBJ || scp_val_tag_of(args[1]) != SCP_TAG_ADDRESS_OBJ ||
        scp_val_tag_of(args[2]) != SCP_TAG_ADDRESS_OBJ ||
        (scp_val_tag_of(args[3]) != SCP_TAG_I128_SMALL && scp_val_tag_of(args[3]) != SCP_TAG_I128_OBJ))
      return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE,
                          "transfer_from takes three Addresses and an i128");
    return scp_sac_transfer_from(h, args[0], args[1], args[2], args[3]);
  case FN_SET_ADMIN:
    if (scp_val_tag_of(args[0]) != SCP_TAG_ADDRESS_OBJ)
      return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "set_admin takes an Address");
    return scp_sac_set_admin(h, args[0]);
  case FN_BURN:
    if (scp_val_tag_of(args[0]) != SCP_TAG_ADDRESS_OBJ ||
        (scp_val_tag_of(args[1]) != SCP_TAG_I128_SMALL && scp_val_tag_of(args[1]) != SCP_TAG_I128_OBJ))
      return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "burn takes an Address and an i128");
    return scp_sac_burn(h, args[0], args[1]);
  case FN_TRANSFER:
    /* Address, MuxedAddress (an Address or a MuxedAddress object: a tag
     * check), i128 */
    if (scp_val_tag_of(args[0]) != SCP_TAG_ADDRESS_OBJ ||
        (scp_val_tag_of(args[1]) != SCP_TAG_ADDRESS_OBJ &&
         scp_val_tag_of(args[1]) != SCP_TAG_MUXED_ADDRESS_OBJ) ||
        (scp_val_tag_of(args[2]) != SCP_TAG_I128_SMALL && scp_val_tag_of(args[2]) != SCP_TAG_I128_OBJ))
      return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE,
                          "transfer takes an Address, a MuxedAddress and an i128");
    return scp_sac_transfer(h, args[0], args[1], args[2]);
  case FN_AUTHORIZED:
    if (scp_val_tag_of(args[0]) != SCP_TAG_ADDRESS_OBJ)
      return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "authorized takes an Address");
    return scp_sac_authorized_fn(h, args[0], ret);
  case FN_SET_AUTHORIZED:
    /* Address, bool::try_from_val (a tag check) */
    if (scp_val_tag_of(args[0]) != SCP_TAG_ADDRESS_OBJ || scp_val_tag_of(args[1]) > SCP_TAG_TRUE)
      return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE,
                          "set_authorized takes an Address and a bool");
    return scp_sac_set_authorized(h, args[0], args[1] == SCP_VAL_TRUE);
  case FN_CLAWBACK:
    if (scp_val_tag_of(args[0]) != SCP_TAG_ADDRESS_OBJ ||
        (scp_val_tag_of(args[1]) != SCP_TAG_I128_SMALL && scp_val_tag_of(args[1]) != SCP_TAG_I128_OBJ))
      return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE,
                          "clawback takes an Address and an i128");
    return scp_sac_clawback(h, args[0], args[1]);
  case FN_ADMIN:
    return scp_sac_read_admin(h, ret);
  case FN_DECIMALS:
    *ret = scp_val_u32(7);   /* metadata.rs DECIMAL */
    return SCP_OK;
  case FN_NAME:
  case FN_SYMBOL: {
    uint64_t name, symbol;
    rc = scp_sac_read_metadata(h, &name, &symbol);
    if (rc == SCP_OK) *ret = idx == FN_NAME ? name : symbol;
    return rc;
  }
  default:
    return SCP_ERR_INTERNAL;   /* every index of fns is a case */
  }
}

int scp_sac_call(scp_host *h, const uint8_t id[32], const char *fn, const uint64_t *args,
                 uint32_t n, uint64_t *ret) {
  int rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);   /* Frame's contract_id clone */
  scp_sentry *snap = NULL;
  size_t nsnap = 0, nevents = h->nevents;
  if (rc == SCP_OK) rc = scp_storage_snapshot(h, &snap, &nsnap);
  if (rc != SCP_OK) return rc;
  /* the profile's contract:SAC node: the frame and everything in it */
  if (h->native_hook) h->native_hook(h->invoker_ctx, id, true);
  rc = scp_host_charge_push_context(h, id);
  bool pushed = false;
  if (rc == SCP_OK) {
    rc = scp_host_push_contract_frame(h, id);
    pushed = rc == SCP_OK;
    if (pushed) {
      scp_host_set_frame_fn(h, fn);
      rc = scp_host_set_frame_args(h, args, n);   /* for require_auth */
      h->frames[h->nframes - 1].sac = true;
    }
  }
  SAC_TRACE(h, "push SAC");
  if (rc == SCP_OK && scp_sac_probe) scp_sac_probe(h, SCP_SAC_PROBE_PUSHED);
  if (rc == SCP_OK) rc = dispatch(h, fn, args, n, ret);
  SAC_TRACE(h, "before persist");
  if (rc == SCP_OK) rc = scp_inst_frame_end(h);   /* persist_instance_storage (host_instance.c) */
  SAC_TRACE(h, "pop SAC");
  if (pushed && scp_sac_probe) scp_sac_probe(h, SCP_SAC_PROBE_POPPING);
  if (pushed) scp_host_pop_frame(h);
  if (h->native_hook) h->native_hook(h->invoker_ctx, id, false);
  scp_storage_frame_end(h, rc != SCP_OK, snap, nsnap, nevents);
  return rc;
}
