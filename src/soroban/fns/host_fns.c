/*
 * host_fns.c — host function bodies, with the reference's checks and
 * charges in the reference's order (rs-soroban-env v28 soroban-env-host/src/
 * host.rs VmCallerEnv impl unless noted).  host.c has already checked and
 * converted the arguments (all object handles here are absolute) and checks
 * the result after the body returns.
 *
 * This file holds the helpers the host_fns_*.c files share, the context,
 * int, obj_cmp and XDR host functions.  The
 * other bodies live by module: host_fns_vec.c (vec), host_fns_map.c (map,
 * maps and linear memory, instance storage), host_fns_buf.c (buf,
 * addresses and strkeys), host_fns_crypto.c (crypto, 256-bit integers,
 * PRNG, scalar fields); contract lifecycle, calls and
 * instance/code TTLs in host_contract.c, authorization in host_auth.c,
 * temporary/persistent storage in host_storage.c.  Each body is
 * scp_hf_<name>, declared for every function of env.json by
 * host_fns_private.h.
 *
 * Every body is registered in run/host_links.c's table.
 * create_asset_contract (host_sac.c) stops with SCP_ERR_UNSUPPORTED where
 * the Stellar Asset Contract's init_asset would run.  Poseidon:
 * host_fns_poseidon.c; BN254 G1: host_fns_curve.c; BLS12-381 curves:
 * host_fns_bls.c; pairing checks: host_fns_pairing.c; lifecycle:
 * host_lifecycle.c.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/fns/host_fns_private.h"

/* Declared sizes (host/declared_size.rs). */
enum {
  SIZE_U64 = 8, SIZE_CONTRACT_ID = 32,
  SIZE_EVENT_SLOT = 40 + 1 + 8   /* (InternalEvent, EventError) tuple */
};

/* ---- helpers shared by the host_fns*.c files ------------------------------ */

/* A new object holding a copy of p[0..len) (no charge here). */
int scp_hf_add_bytes_obj(scp_host *h, unsigned tag, const uint8_t *p,
                         uint32_t len, uint64_t *out) {
  scp_hobj o = { .tag = (uint8_t)tag, .len = len };
  o.u.bytes = malloc(len ? len : 1);
  if (!o.u.bytes) return SCP_ERR_NOMEM;
  if (len) memcpy(o.u.bytes, p, len);
  return scp_host_add_obj(h, &o, out);
}

/* Error(Object, IndexBounds): validate_index_lt_bound / VEC_OOB. */
int scp_hf_err_index(scp_host *h, uint32_t i) {
  return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INDEX_BOUNDS,
                      "object index out of bounds: %u", i);
}

/* ---- context ------------------------------------------------------------ */

/* The whole body runs in debug mode under the shadow budget
 * (with_debug_mode), so it never charges the real budget.  We keep nothing:
 * diagnostic events are not part of the profile. */
HOSTFN(log_from_linear_memory) {
  *ret = SCP_VAL_VOID;
  return SCP_OK;
}

HOSTFN(get_ledger_version) {
  *ret = scp_val_u32(h->opts.protocol);
  return SCP_OK;
}

HOSTFN(get_ledger_sequence) {
  *ret = scp_val_u32(h->opts.ledger_sequence);
  return SCP_OK;
}

/* U64Val::try_from_val: small when it fits, else Env::obj_from_u64 -- the
 * checked Env method, whose result check visits the new object. */
int scp_hf_u64_val(scp_host *h, uint64_t x, uint64_t *ret) {
  if (scp_val_u64_fits_small(x)) {
    *ret = scp_val_small_u(x, SCP_TAG_U64_SMALL);
    return SCP_OK;
  }
  scp_hobj o = { .tag = SCP_TAG_U64_OBJ };
  o.u.u64 = x;
  int rc = scp_host_add_obj(h, &o, ret);
  if (rc == SCP_OK) rc = scp_host_check_val(h, *ret);
  return rc;
}

HOSTFN(get_ledger_timestamp) {
  return scp_hf_u64_val(h, h->opts.ledger_timestamp, ret);
}

/* get_ledger_network_id: scbytes_from_slice (Vec<u8> bulk init of 32)
 * and a new Bytes object. */
HOSTFN(get_ledger_network_id) {
  int rc = scp_host_charge_bulk_init(h, 32, 1);
  if (rc != SCP_OK) return rc;
  return scp_hf_add_bytes_obj(h, SCP_TAG_BYTES_OBJ, h->opts.network_id, 32, ret);
}

/* Addresses are stored as their ScAddress kind byte (0 account, 1
 * contract, 2 muxed account) then the payload, which orders like the XDR
 * enum. */
static int add_contract_address(scp_host *h, const uint8_t id[32], uint64_t *ret) {
  uint8_t enc[33];
  enc[0] = 1;
  memcpy(enc + 1, id, 32);
  return scp_hf_add_bytes_obj(h, SCP_TAG_ADDRESS_OBJ, enc, sizeof enc, ret);
}

/* get_current_contract_address: the frame's contract id cloned
 * (MemCpy(32)), then add_host_object(ScAddress::Contract). */
HOSTFN(get_current_contract_address) {
  if (!scp_host_in_vm(h))
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR,
                        "Current context has no contract ID");
  uint8_t id[32];
  memcpy(id, h->frames[h->nframes - 1].contract_id, 32);
  int rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc != SCP_OK) return rc;
  return add_contract_address(h, id, ret);
}

/* ledger_info.rs max_live_until_ledger_checked: sequence + max_entry_ttl - 1. */
HOSTFN(get_max_live_until_ledger) {
  uint64_t v = (uint64_t)h->opts.ledger_sequence + h->opts.max_entry_ttl - 1;
  if (v > UINT32_MAX)
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR, "max live-until overflows");
  *ret = scp_val_u32((uint32_t)v);
  return SCP_OK;
}

/* events/mod.rs record_contract_event: in a contract frame the contract id
 * is cloned (MemCpy(32)) and turned into a Bytes object (bytes_new_from_slice:
 * Vec<u8> bulk init of 32 + add_host_object); then the event buffer push
 * (events/internal.rs: Vec<(InternalEvent, EventError)> bulk init of 1). */
HOSTFN(contract_event) {
  int rc = SCP_OK;
  uint64_t idobj = 0;
  if (scp_host_in_vm(h)) {
    uint8_t contract_id[SIZE_CONTRACT_ID];
    memcpy(contract_id, h->frames[h->nframes - 1].contract_id, sizeof contract_id);
    rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
    if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, SIZE_CONTRACT_ID, 1);
    if (rc == SCP_OK)
      rc = scp_hf_add_bytes_obj(h, SCP_TAG_BYTES_OBJ, contract_id, SIZE_CONTRACT_ID, &idobj);
    if (rc != SCP_OK) return rc;
  }
  rc = scp_host_charge_bulk_init(h, 1, SIZE_EVENT_SLOT);
  if (rc != SCP_OK) return rc;
  if (!scp_grow(&h->events, &h->capevents, h->nevents + 1, sizeof *h->events))
    return SCP_ERR_NOMEM;
  h->events[h->nevents++] = (scp_event){.topics = a[0], .data = a[1], .id = idobj};
  if (h->fee_hook) h->fee_hook(h->invoker_ctx, SCP_FEE_HOOK_EVENT, NULL, h->nevents - 1);
  *ret = SCP_VAL_VOID;
  return SCP_OK;
}

/* A contract error fails with itself; any other type is
 * Error(Context, UnexpectedType). */
HOSTFN(fail_with_error) {
  if (scp_val_minor(a[0]) == SCP_ET_CONTRACT) {
    h->errval = a[0];
    snprintf(h->errmsg, sizeof h->errmsg, "failing with contract error %u",
             scp_val_major(a[0]));
    return SCP_ERR_HOST;
  }
  return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_UNEXPECTED_TYPE,
                      "contract attempted to fail with non-ContractError error code");
}

/* ---- int (host/num.rs impl_wrapping_obj_from_num / _to_num) ------------- */

static int obj_from_word(scp_host *h, unsigned tag, uint64_t x, uint64_t *ret) {
  scp_hobj o = { .tag = (uint8_t)tag };
  o.u.u64 = x;
  return scp_host_add_obj(h, &o, ret);
}

/* visit_obj, then metered_clone of the 8-byte number: MemCpy(8). */
int scp_hf_obj_to_word(scp_host *h, uint64_t v, uint64_t *ret) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, v, &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_U64);
  if (rc == SCP_OK) *ret = o->u.u64;
  return rc;
}

HOSTFN(obj_from_u64) { return obj_from_word(h, SCP_TAG_U64_OBJ, a[0], ret); }
HOSTFN(obj_to_u64) { return scp_hf_obj_to_word(h, a[0], ret); }
HOSTFN(obj_from_i64) { return obj_from_word(h, SCP_TAG_I64_OBJ, a[0], ret); }
HOSTFN(obj_to_i64) { return scp_hf_obj_to_word(h, a[0], ret); }
HOSTFN(timepoint_obj_from_u64) { return obj_from_word(h, SCP_TAG_TIMEPOINT_OBJ, a[0], ret); }
HOSTFN(timepoint_obj_to_u64) { return scp_hf_obj_to_word(h, a[0], ret); }
HOSTFN(duration_obj_from_u64) { return obj_from_word(h, SCP_TAG_DURATION_OBJ, a[0], ret); }
HOSTFN(duration_obj_to_u64) { return scp_hf_obj_to_word(h, a[0], ret); }

static int obj_from_pieces(scp_host *h, unsigned tag, uint64_t hi, uint64_t lo,
                           uint64_t *ret) {
  scp_hobj o = { .tag = (uint8_t)tag };
  o.u.i128.hi = hi;
  o.u.i128.lo = lo;
  return scp_host_add_obj(h, &o, ret);
}

/* obj_to_u128_lo64 etc.: visit only, no clone charge. */
static int obj_piece(scp_host *h, uint64_t v, bool hi, uint64_t *ret) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, v, &o);
  if (rc == SCP_OK) *ret = hi ? o->u.i128.hi : o->u.i128.lo;
  return rc;
}

HOSTFN(obj_from_u128_pieces) { return obj_from_pieces(h, SCP_TAG_U128_OBJ, a[0], a[1], ret); }
HOSTFN(obj_to_u128_lo64) { return obj_piece(h, a[0], false, ret); }
HOSTFN(obj_to_u128_hi64) { return obj_piece(h, a[0], true, ret); }
HOSTFN(obj_from_i128_pieces) { return obj_from_pieces(h, SCP_TAG_I128_OBJ, a[0], a[1], ret); }
HOSTFN(obj_to_i128_lo64) { return obj_piece(h, a[0], false, ret); }
HOSTFN(obj_to_i128_hi64) { return obj_piece(h, a[0], true, ret); }

/* ---- obj_cmp ---------------------------------------------------------------- */

HOSTFN(obj_cmp) {
  int ord;
  int rc = scp_host_obj_cmp(h, a[0], a[1], &ord);
  if (rc == SCP_OK) *ret = (uint64_t)(int64_t)ord;
  return rc;
}

/* ---- XDR (host.rs serialize_to_bytes / deserialize_from_bytes) ------------- */

HOSTFN(serialize_to_bytes) {
  uint8_t *buf;
  size_t len;
  int rc = scp_host_val_to_xdr(h, a[0], &buf, &len);
  if (rc != SCP_OK) return rc;
  if (len > UINT32_MAX) {
    free(buf);
    return scp_host_err(h, SCP_ET_BUDGET, SCP_EC_EXCEEDED_LIMIT, "XDR too long");
  }
  scp_hobj o = { .tag = SCP_TAG_BYTES_OBJ, .len = (uint32_t)len };
  o.u.bytes = buf;
  return scp_host_add_obj(h, &o, ret);
}

HOSTFN(deserialize_from_bytes) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  /* the objects table may grow while converting: copy the input first */
  uint8_t *copy = malloc(o->len ? o->len : 1);
  if (!copy) return SCP_ERR_NOMEM;
  if (o->len) memcpy(copy, o->u.bytes, o->len);
  rc = scp_host_val_from_xdr(h, copy, o->len, ret);
  free(copy);
  return rc;
}

/* ---- test (env.json module "t") ------------------------------------------- */

HOSTFN(dummy0) {
  *ret = SCP_VAL_VOID;
  return SCP_OK;
}

HOSTFN(protocol_gated_dummy) {
  *ret = SCP_VAL_VOID;
  return SCP_OK;
}
