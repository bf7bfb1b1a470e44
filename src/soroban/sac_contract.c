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
 * (persist_instance_storage), then the frame pops; a failure rolls the
 * storage map and the events back (pop_context with the rollback point).
 *
 * All 18 functions are implemented (sac_meta.c, sac_balance.c,
 * sac_cbalance.c, sac_account.c, sac_token.c, sac_allowance.c,
 * sac_admin.c) and checked to the unit against the reference's traces
 * (tests/soroban/test_sac.c, test_sac_balances.c, test_replay.c),
 * including the instance's reload in a later frame
 * (scp_sac_instance_load).  The enforcing-mode traces are checked on both
 * sides of require_auth (their signed-entry authorization is not
 * modelled; see test_sac.c's probe).  The frame's args are set for
 * require_auth.
 *
 * Profiles: the frame (from push_context to the pop) is reported to the
 * profiler through h->native_hook, which books it as a contract:SAC node
 * under the host call that runs it (sor_vm.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/host_fns_private.h"
#include "soroban/sac_private.h"

enum {
  SIZE_CONTRACT_ID = 32, SIZE_LEDGER_KEY = 152, SIZE_LEDGER_ENTRY = 288,
  SIZE_SCMAP_ENTRY = 192, SIZE_MAP_ENTRY = 8 + 8 + 8,
  SCV_MAP = 17, SCV_CONTRACT_INSTANCE = 19
};

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

/* The instance entry's value image with a new storage map: the
 * ContractInstance ScVal with the executable kept and storage
 * Some(ScMap); each key and value's ScVal XDR (uncharged: the charges
 * are the conversion's and the storage's). */
static int instance_image(scp_host *h, const scp_sentry *e, const scp_instance *in,
                          uint8_t **out, uint32_t *len) {
  /* the executable: StellarAsset (4 bytes) or Wasm (4 + 32) */
  if (e->vallen < 12 || scp_be32(e->val) != SCV_CONTRACT_INSTANCE) return SCP_ERR_INTERNAL;
  uint32_t exlen = scp_be32(e->val + 4) == 0 ? 36 : 4;
  size_t cap = 4 + exlen + 8, n = 0;
  uint8_t *img = malloc(cap);
  if (!img) return SCP_ERR_NOMEM;
  memcpy(img, e->val, 4 + exlen);
  n = 4 + exlen;
  scp_put_be32(img + n, 1);   /* Some */
  scp_put_be32(img + n + 4, in->n);
  n += 8;
  for (uint32_t i = 0; i < 2 * in->n; i++) {
    uint8_t *x;
    size_t xl;
    int rc = scp_host_val_to_xdr_raw(h, in->kv[i], &x, &xl);
    if (rc != SCP_OK) {
      free(img);
      return rc;
    }
    uint8_t *g = realloc(img, n + xl);
    if (!g) {
      free(x);
      free(img);
      return SCP_ERR_NOMEM;
    }
    img = g;
    memcpy(img + n, x, xl);
    n += xl;
    free(x);
  }
  *out = img;
  *len = (uint32_t)n;
  return SCP_OK;
}

static const scp_instance *find_instance(const scp_host *h, const uint8_t id[32]) {
  for (size_t i = 0; i < h->ninstances; i++)
    if (!memcmp(h->instances[i].contract_id, id, 32)) return &h->instances[i];
  return NULL;
}

/* persist_instance_storage: instance_storage_map_to_scmap (the
 * Vec<ScMapEntry> (with_metered_capacity: a bulk init), the map's scan, each key converted for storage and each
 * value converted), get_current_contract_id_internal, the instance key,
 * then store_contract_instance on an existing entry: has, get, the
 * entry's deep clone, Rc::metered_new, put (same live-until). */
static int persist(scp_host *h, const uint8_t id[32]) {
  const scp_instance *in = find_instance(h, id);
  if (!in) return SCP_ERR_INTERNAL;
  int rc = scp_host_charge_bulk_init(h, in->n, SIZE_SCMAP_ENTRY);   /* with_metered_capacity */
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, in->n, SIZE_MAP_ENTRY);
  for (uint32_t i = 0; rc == SCP_OK && i < 2 * in->n; i++)
    rc = scp_host_from_host_val_charges(h, in->kv[i]);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  if (rc != SCP_OK) return rc;
  static const uint8_t lkci[4] = { 0, 0, 0, 20 };   /* ScVal::LedgerKeyContractInstance */
  uint8_t kb[4];
  memcpy(kb, lkci, 4);
  scp_lkey ik = { .type = SCP_LK_CONTRACT_DATA, .dur = SCP_DUR_PERSISTENT, .key = kb, .keylen = 4 };
  memcpy(ik.id, id, 32);
  bool has = false;
  const scp_sentry *e;
  rc = scp_storage_has(h, &ik, &has);
  if (rc == SCP_OK && !has)
    rc = scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "instance entry missing");
  if (rc == SCP_OK) rc = scp_storage_get(h, &ik, &e);
  if (rc == SCP_OK) rc = scp_storage_clone_entry_charges(h, e);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_ENTRY);
  if (rc != SCP_OK) return rc;
  uint8_t *img;
  uint32_t len, live_until = e->live_until;
  rc = instance_image(h, e, in, &img, &len);
  if (rc != SCP_OK) return rc;
  rc = scp_storage_put(h, &ik, img, len, live_until);
  free(img);
  return rc;
}

/* The instance entry's value image, found without charge (the frame's
 * instance was read and cloned by the caller). */
static const scp_sentry *instance_entry(const scp_host *h, const uint8_t id[32]) {
  for (size_t i = 0; i < h->nstore; i++) {
    const scp_sentry *e = &h->store[i];
    if (e->present && e->k.type == SCP_LK_CONTRACT_DATA && e->k.keylen == 4 &&
        scp_be32(e->k.key) == 20 && !memcmp(e->k.id, id, 32))
      return e;
  }
  return NULL;
}

int scp_sac_instance_load(scp_host *h, scp_instance *in) {
  enum { SIZE_RESULT_VEC = 24 + 16, SIZE_RESULT_PAIR = 24 + 16 };
  const scp_sentry *e = instance_entry(h, in->contract_id);
  if (!e || e->vallen < 12) return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "instance entry missing");
  /* StellarAsset executable, then Option<ScMap> */
  const uint8_t *p = e->val + 8, *end = e->val + e->vallen;
  bool some = scp_be32(p) != 0;
  uint32_t n = some ? scp_be32(p + 4) : 0;
  p += some ? 8 : 4;
  /* storage None: from_map of an empty Vec, no collect */
  int rc = SCP_OK;
  if (some) rc = scp_host_charge_copy(h, 1, SIZE_RESULT_VEC);
  if (rc == SCP_OK && some) rc = scp_host_charge_alloc(h, n, SIZE_RESULT_PAIR);
  if (rc == SCP_OK && some) rc = scp_host_charge_copy(h, n, SIZE_RESULT_PAIR);
  uint64_t *kv = n ? malloc(2 * (size_t)n * sizeof *kv) : NULL;
  if (n && !kv) return SCP_ERR_NOMEM;
  for (uint32_t i = 0; rc == SCP_OK && i < 2 * n; i++) {
    size_t l = scp_storage_scval_len(p);
    if (p + l > end) {
      rc = scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "bad instance entry");
      break;
    }
    rc = scp_host_scval_to_val(h, p, l, &kv[i]);
    p += l;
  }
  /* from_map: the scan, then each adjacent pair in order */
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, n, SIZE_MAP_ENTRY);
  if (rc == SCP_OK) rc = scp_host_check_keys_sorted(h, kv, n, "instance storage keys");
  if (rc != SCP_OK) {
    free(kv);
    return rc;
  }
  free(in->kv);
  in->kv = kv;
  in->n = n;
  return SCP_OK;
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
  if (rc == SCP_OK && h->frames[h->nframes - 1].instance_modified) rc = persist(h, id);
  SAC_TRACE(h, "pop SAC");
  if (pushed && scp_sac_probe) scp_sac_probe(h, SCP_SAC_PROBE_POPPING);
  if (pushed) scp_host_pop_frame(h);
  if (h->native_hook) h->native_hook(h->invoker_ctx, id, false);
  if (rc != SCP_OK) {
    scp_storage_rollback(h, snap, nsnap);
    if (h->nevents > nevents) h->nevents = nevents;
  } else {
    scp_storage_snapshot_free(snap, nsnap);
  }
  return rc;
}
