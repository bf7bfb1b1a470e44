/*
 * host_fns.c — host function bodies, with the reference's checks and
 * charges in the reference's order (rs-soroban-env v28 soroban-env-host/src/
 * host.rs VmCallerEnv impl unless noted).  host.c has already checked and
 * converted the arguments (all object handles here are absolute) and checks
 * the result after the body returns.
 *
 * Registered at the end in one designated-initializer table; a function
 * registered twice is a compile error (-Woverride-init under -Wextra).
 * Contract lifecycle, calls, auth and instance/code TTLs live in
 * host_contract.c, temporary/persistent storage in host_storage.c.
 * Not implemented yet (dispatch returns SCP_ERR_UNSUPPORTED):
 * update_current_contract_wasm / _executable_ref, get_contract_id,
 * get_asset_contract_id, create_asset_contract, create_executable_tag,
 * create_external_ref_contract, extend_contract_instance_and_code_ttl_v2,
 * authorize_as_curr_contract, delegation, BLS12-381 and BN254 curve
 * operations, Poseidon, get_address_executable.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/sha.h>

#include "soroban/host_private.h"

/* Declared sizes (host/declared_size.rs). */
enum {
  SIZE_VAL = 8, SIZE_U64 = 8, SIZE_CONTRACT_ID = 32,
  SIZE_EVENT_SLOT = 40 + 1 + 8   /* (InternalEvent, EventError) tuple */
};

#define HOSTFN(name) static int hf_##name(scp_host *h, const uint64_t *a, uint64_t *ret)

/* ---- helpers ----------------------------------------------------------- */

static uint32_t u32_arg(uint64_t v) { return scp_val_major(v); }

/* Visit an object the dispatcher already type-checked. */
static int visit(scp_host *h, uint64_t v, const scp_hobj **o) {
  return scp_host_visit(h, v, o);
}

/* A new object holding a copy of p[0..len) (no charge here). */
static int add_bytes_obj(scp_host *h, unsigned tag, const uint8_t *p,
                         uint32_t len, uint64_t *out) {
  scp_hobj o = { .tag = (uint8_t)tag, .len = len };
  o.u.bytes = malloc(len ? len : 1);
  if (!o.u.bytes) return SCP_ERR_NOMEM;
  if (len) memcpy(o.u.bytes, p, len);
  return scp_host_add_obj(h, &o, out);
}

/* A new Vec object taking over vals (no charge here). */
static int add_vec_obj(scp_host *h, uint64_t *vals, uint32_t len, uint64_t *out) {
  scp_hobj o = { .tag = SCP_TAG_VEC_OBJ, .len = len };
  o.u.vals = vals;
  return scp_host_add_obj(h, &o, out);
}

static uint64_t *vals_alloc(size_t n) { return malloc((n ? n : 1) * sizeof(uint64_t)); }

/* MeteredVector::from_exact_iter -> Vec<Val>::charge_deep_clone
 * (metered_vector.rs, metered_clone.rs): MemCpy(24) for the Vec itself,
 * then MemAlloc(8n) and MemCpy(8n) for its elements. */
static int charge_vec_new(scp_host *h, uint64_t n) {
  return scp_host_charge_bulk_init(h, n, SIZE_VAL);
}

/* Error(Object, IndexBounds): validate_index_lt_bound / VEC_OOB. */
static int err_index(scp_host *h, uint32_t i) {
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
static int u64_val(scp_host *h, uint64_t x, uint64_t *ret) {
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
  return u64_val(h, h->opts.ledger_timestamp, ret);
}

/* get_ledger_network_id: scbytes_from_slice (Vec<u8> bulk init of 32)
 * and a new Bytes object. */
HOSTFN(get_ledger_network_id) {
  int rc = scp_host_charge_bulk_init(h, 32, 1);
  if (rc != SCP_OK) return rc;
  return add_bytes_obj(h, SCP_TAG_BYTES_OBJ, h->opts.network_id, 32, ret);
}

/* Addresses are stored as their ScAddress kind byte (0 account, 1
 * contract, 2 muxed account) then the payload, which orders like the XDR
 * enum. */
static int add_contract_address(scp_host *h, const uint8_t id[32], uint64_t *ret) {
  uint8_t enc[33];
  enc[0] = 1;
  memcpy(enc + 1, id, 32);
  return add_bytes_obj(h, SCP_TAG_ADDRESS_OBJ, enc, sizeof enc, ret);
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
  if (scp_host_in_vm(h)) {
    uint8_t contract_id[SIZE_CONTRACT_ID];
    uint64_t idobj;
    memcpy(contract_id, h->frames[h->nframes - 1].contract_id, sizeof contract_id);
    rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
    if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, SIZE_CONTRACT_ID, 1);
    if (rc == SCP_OK)
      rc = add_bytes_obj(h, SCP_TAG_BYTES_OBJ, contract_id, SIZE_CONTRACT_ID, &idobj);
    if (rc != SCP_OK) return rc;
  }
  rc = scp_host_charge_bulk_init(h, 1, SIZE_EVENT_SLOT);
  if (rc != SCP_OK) return rc;
  if (!scp_grow(&h->events, &h->capevents, h->nevents + 1, sizeof *h->events))
    return SCP_ERR_NOMEM;
  h->events[h->nevents++] = (scp_event){ a[0], a[1] };
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
static int obj_to_word(scp_host *h, uint64_t v, uint64_t *ret) {
  const scp_hobj *o;
  int rc = visit(h, v, &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_U64);
  if (rc == SCP_OK) *ret = o->u.u64;
  return rc;
}

HOSTFN(obj_from_u64) { return obj_from_word(h, SCP_TAG_U64_OBJ, a[0], ret); }
HOSTFN(obj_to_u64) { return obj_to_word(h, a[0], ret); }
HOSTFN(obj_from_i64) { return obj_from_word(h, SCP_TAG_I64_OBJ, a[0], ret); }
HOSTFN(obj_to_i64) { return obj_to_word(h, a[0], ret); }
HOSTFN(timepoint_obj_from_u64) { return obj_from_word(h, SCP_TAG_TIMEPOINT_OBJ, a[0], ret); }
HOSTFN(timepoint_obj_to_u64) { return obj_to_word(h, a[0], ret); }
HOSTFN(duration_obj_from_u64) { return obj_from_word(h, SCP_TAG_DURATION_OBJ, a[0], ret); }
HOSTFN(duration_obj_to_u64) { return obj_to_word(h, a[0], ret); }

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
  int rc = visit(h, v, &o);
  if (rc == SCP_OK) *ret = hi ? o->u.i128.hi : o->u.i128.lo;
  return rc;
}

HOSTFN(obj_from_u128_pieces) { return obj_from_pieces(h, SCP_TAG_U128_OBJ, a[0], a[1], ret); }
HOSTFN(obj_to_u128_lo64) { return obj_piece(h, a[0], false, ret); }
HOSTFN(obj_to_u128_hi64) { return obj_piece(h, a[0], true, ret); }
HOSTFN(obj_from_i128_pieces) { return obj_from_pieces(h, SCP_TAG_I128_OBJ, a[0], a[1], ret); }
HOSTFN(obj_to_i128_lo64) { return obj_piece(h, a[0], false, ret); }
HOSTFN(obj_to_i128_hi64) { return obj_piece(h, a[0], true, ret); }

/* ---- vec (host.rs vec_*, host/metered_vector.rs) ------------------------- */

HOSTFN(vec_new) {
  return add_vec_obj(h, NULL, 0, ret);
}

HOSTFN(vec_len) {
  const scp_hobj *o;
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) *ret = scp_val_u32(o->len);
  return rc;
}

/* get: index check, then charge_access(1) = MemCpy(8). */
HOSTFN(vec_get) {
  const scp_hobj *o;
  uint32_t i = u32_arg(a[1]);
  int rc = visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (i >= o->len) return err_index(h, i);
  rc = scp_host_charge_copy(h, 1, SIZE_VAL);
  if (rc == SCP_OK) *ret = o->u.vals[i];
  return rc;
}

static int vec_end(scp_host *h, uint64_t v, bool back, uint64_t *ret) {
  const scp_hobj *o;
  int rc = visit(h, v, &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_VAL);
  if (rc != SCP_OK) return rc;
  if (!o->len) return err_index(h, 0);
  *ret = o->u.vals[back ? o->len - 1 : 0];
  return SCP_OK;
}

HOSTFN(vec_front) { return vec_end(h, a[0], false, ret); }
HOSTFN(vec_back) { return vec_end(h, a[0], true, ret); }

/* Build a new vec from src with `del` elements removed at `at` and the
 * `nins` values of ins inserted there; charges from_exact_iter. */
static int vec_splice(scp_host *h, const scp_hobj *src, uint32_t at, uint32_t del,
                      const uint64_t *ins, uint32_t nins, uint64_t *ret) {
  uint64_t n = (uint64_t)src->len - del + nins;
  if (n > UINT32_MAX) return err_index(h, src->len);
  int rc = charge_vec_new(h, n);
  if (rc != SCP_OK) return rc;
  uint64_t *vals = vals_alloc(n);
  if (!vals) return SCP_ERR_NOMEM;
  if (at) memcpy(vals, src->u.vals, (size_t)at * sizeof *vals);
  if (nins) memcpy(vals + at, ins, (size_t)nins * sizeof *vals);
  if (src->len > at + del)
    memcpy(vals + at + nins, src->u.vals + at + del,
           (size_t)(src->len - at - del) * sizeof *vals);
  return add_vec_obj(h, vals, (uint32_t)n, ret);
}

HOSTFN(vec_push_back) {
  const scp_hobj *o;
  int rc = visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (o->len == UINT32_MAX) return err_index(h, o->len);
  return vec_splice(h, o, o->len, 0, &a[1], 1, ret);
}

HOSTFN(vec_push_front) {
  const scp_hobj *o;
  int rc = visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (o->len == UINT32_MAX) return err_index(h, o->len);
  return vec_splice(h, o, 0, 0, &a[1], 1, ret);
}

HOSTFN(vec_pop_back) {
  const scp_hobj *o;
  int rc = visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (!o->len) return err_index(h, 0);
  return vec_splice(h, o, o->len - 1, 1, NULL, 0, ret);
}

HOSTFN(vec_pop_front) {
  const scp_hobj *o;
  int rc = visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (!o->len) return err_index(h, 0);
  return vec_splice(h, o, 0, 1, NULL, 0, ret);
}

HOSTFN(vec_del) {
  const scp_hobj *o;
  uint32_t i = u32_arg(a[1]);
  int rc = visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (i >= o->len) return err_index(h, i);
  return vec_splice(h, o, i, 1, NULL, 0, ret);
}

/* set: metered_clone of the vector (MemCpy(24), MemAlloc(8n), MemCpy(8n)),
 * then charge_access(1) = MemCpy(8). */
HOSTFN(vec_put) {
  const scp_hobj *o;
  uint32_t i = u32_arg(a[1]);
  int rc = visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (i >= o->len) return err_index(h, i);
  rc = charge_vec_new(h, o->len);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_VAL);
  if (rc != SCP_OK) return rc;
  uint64_t *vals = vals_alloc(o->len);
  if (!vals) return SCP_ERR_NOMEM;
  memcpy(vals, o->u.vals, (size_t)o->len * sizeof *vals);
  vals[i] = a[2];
  return add_vec_obj(h, vals, o->len, ret);
}


/* insert: validate_index_le_bound, then MeteredVector::insert (a push
 * at either end, or a splice: all from_exact_iter of len+1). */
HOSTFN(vec_insert) {
  const scp_hobj *o;
  uint32_t i = u32_arg(a[1]);
  int rc = visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (i > o->len) return err_index(h, i);
  if (o->len == UINT32_MAX) return err_index(h, o->len);
  return vec_splice(h, o, i, 0, &a[2], 1, ret);
}

HOSTFN(vec_append) {
  const scp_hobj *x, *y;
  int rc = visit(h, a[0], &x);
  if (rc == SCP_OK) rc = visit(h, a[1], &y);
  if (rc != SCP_OK) return rc;
  if (x->len > UINT32_MAX - y->len)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN, "arithmetic overflow");
  uint64_t n = (uint64_t)x->len + y->len;
  rc = charge_vec_new(h, n);
  if (rc != SCP_OK) return rc;
  uint64_t *vals = vals_alloc(n);
  if (!vals) return SCP_ERR_NOMEM;
  if (x->len) memcpy(vals, x->u.vals, (size_t)x->len * sizeof *vals);
  if (y->len) memcpy(vals + x->len, y->u.vals, (size_t)y->len * sizeof *vals);
  return add_vec_obj(h, vals, (uint32_t)n, ret);
}

/* valid_range_from_start_end_bound (validity.rs): each end <= len
 * (Object/IndexBounds), then start <= end (Object/InvalidInput). */
static int valid_range(scp_host *h, uint32_t start, uint32_t end, uint32_t len) {
  if (start > len) return err_index(h, start);
  if (end > len) return err_index(h, end);
  if (start > end)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INVALID_INPUT,
                        "start index greater than end index");
  return SCP_OK;
}

HOSTFN(vec_slice) {
  const scp_hobj *o;
  uint32_t start = u32_arg(a[1]), end = u32_arg(a[2]);
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = valid_range(h, start, end, o->len);
  if (rc != SCP_OK) return rc;
  uint32_t n = end - start;
  rc = charge_vec_new(h, n);
  if (rc != SCP_OK) return rc;
  uint64_t *vals = vals_alloc(n);
  if (!vals) return SCP_ERR_NOMEM;
  if (n) memcpy(vals, o->u.vals + start, (size_t)n * sizeof *vals);
  return add_vec_obj(h, vals, n, ret);
}

/* first/last_index_of: charge_scan = MemCpy(8*len), then Compare<Val>
 * of x against each element until equal. */
static int vec_index_of(scp_host *h, const uint64_t *a, bool last, uint64_t *ret) {
  const scp_hobj *o;
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, o->len, SIZE_VAL);
  if (rc != SCP_OK) return rc;
  uint32_t n = o->len;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = last ? n - 1 - k : k;
    int ord;
    rc = scp_host_compare(h, a[1], h->objs[(scp_val_handle(a[0]) >> 1)].u.vals[i], &ord);
    if (rc != SCP_OK) return rc;
    if (!ord) {
      *ret = scp_val_u32(i);
      return SCP_OK;
    }
  }
  *ret = SCP_VAL_VOID;
  return SCP_OK;
}

HOSTFN(vec_first_index_of) { return vec_index_of(h, a, false, ret); }
HOSTFN(vec_last_index_of) { return vec_index_of(h, a, true, ret); }

/* Bits needed for n (64 - leading zeros), as charge_binsearch. */
static uint64_t magnitude(uint64_t n) { return n ? 64 - (uint64_t)__builtin_clzll(n) : 0; }

/* binary_search_by_pre_rust_182 (metered_vector.rs) over entries of
 * `stride` words (1 for vecs, 2 for maps), comparing probe to key.
 * *found / *pos as Result<usize, usize>. */
static int binary_search(scp_host *h, uint64_t obj, uint32_t stride, uint64_t key, bool *found,
                         uint32_t *pos) {
  uint32_t size = h->objs[scp_val_handle(obj) >> 1].len, left = 0, right = size;
  while (left < right) {
    uint32_t mid = left + size / 2;
    int ord;
    int rc = scp_host_compare(h, h->objs[scp_val_handle(obj) >> 1].u.vals[(size_t)mid * stride],
                              key, &ord);
    if (rc != SCP_OK) return rc;
    if (ord < 0) left = mid + 1;
    if (ord > 0) right = mid;
    if (!ord) {
      *found = true;
      *pos = mid;
      return SCP_OK;
    }
    size = right - left;
  }
  *found = false;
  *pos = left;
  return SCP_OK;
}

HOSTFN(vec_binary_search) {
  const scp_hobj *o;
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1 + magnitude(o->len), SIZE_VAL);
  if (rc != SCP_OK) return rc;
  bool found;
  uint32_t pos;
  rc = binary_search(h, a[0], 1, a[1], &found, &pos);
  if (rc == SCP_OK) *ret = (found ? (uint64_t)1 << 32 : 0) | pos;
  return rc;
}

/* vec_new_from_linear_memory: Vec<Val> bulk init, MemCpy(16*len) for the
 * byte->Val and relative->absolute conversions, the read (bounds check,
 * MemCpy(8*len)), each element to absolute and checked, then the object. */
HOSTFN(vec_new_from_linear_memory) {
  uint32_t pos = u32_arg(a[0]), len = u32_arg(a[1]);
  if (!scp_host_in_vm(h))
    return scp_host_err(h, SCP_ET_WASM_VM, SCP_EC_INTERNAL_ERROR,
                        "attempt to access guest bytes in non-VM frame");
  int rc = charge_vec_new(h, len);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 2 * (uint64_t)len, SIZE_VAL);
  if (rc != SCP_OK) return rc;
  if (len > UINT32_MAX / 8 || (uint64_t)pos + 8ull * len > UINT32_MAX)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN, "arithmetic overflow");
  if (!h->mem || (uint64_t)pos + 8ull * len > h->mem->len)
    return scp_host_err(h, SCP_ET_WASM_VM, SCP_EC_INDEX_BOUNDS,
                        "out-of-bounds access to WASM linear memory");
  rc = scp_host_charge_copy(h, len, SIZE_VAL);
  if (rc != SCP_OK) return rc;
  uint64_t *vals = vals_alloc(len);
  if (!vals) return SCP_ERR_NOMEM;
  for (uint32_t i = 0; rc == SCP_OK && i < len; i++) {
    uint64_t w;
    memcpy(&w, h->mem->base + pos + 8ull * i, 8);
    rc = scp_host_to_absolute(h, w, &vals[i]);
  }
  for (uint32_t i = 0; rc == SCP_OK && i < len; i++) rc = scp_host_check_val(h, vals[i]);
  if (rc != SCP_OK) {
    free(vals);
    return rc;
  }
  return add_vec_obj(h, vals, len, ret);
}

/* vec_unpack_to_linear_memory: length must match (Object/UnexpectedSize),
 * MemCpy(8*len), then the write: bounds, MemCpy(8*len), and each element
 * made relative (MemAlloc(8) per object). */
HOSTFN(vec_unpack_to_linear_memory) {
  uint32_t pos = u32_arg(a[1]), len = u32_arg(a[2]);
  if (!scp_host_in_vm(h))
    return scp_host_err(h, SCP_ET_WASM_VM, SCP_EC_INTERNAL_ERROR,
                        "attempt to access guest bytes in non-VM frame");
  const scp_hobj *o;
  int rc = visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (o->len != len)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_UNEXPECTED_SIZE,
                        "differing host vector and output vector lengths");
  rc = scp_host_charge_copy(h, len, SIZE_VAL);
  if (rc != SCP_OK) return rc;
  if (len > UINT32_MAX / 8 || (uint64_t)pos + 8ull * len > UINT32_MAX)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN, "arithmetic overflow");
  if (!h->mem || (uint64_t)pos + 8ull * len > h->mem->len)
    return scp_host_err(h, SCP_ET_WASM_VM, SCP_EC_INDEX_BOUNDS,
                        "out-of-bounds access to WASM linear memory");
  rc = scp_host_charge_copy(h, len, SIZE_VAL);
  for (uint32_t i = 0; rc == SCP_OK && i < len; i++) {
    uint64_t rel;
    rc = scp_host_to_relative(h, h->objs[scp_val_handle(a[0]) >> 1].u.vals[i], &rel);
    if (rc == SCP_OK) memcpy(h->mem->base + pos + 8ull * i, &rel, 8);
  }
  if (rc == SCP_OK) *ret = SCP_VAL_VOID;
  return rc;
}

/* ---- map (host.rs map_*, host/metered_map.rs) ----------------------------- */

enum { SIZE_MAP_ENTRY = 8 + 8 + 8 };   /* (Val, Val) */

static const scp_hobj *objp(scp_host *h, uint64_t v) { return &h->objs[scp_val_handle(v) >> 1]; }

HOSTFN(map_new) {
  scp_hobj o = { .tag = SCP_TAG_MAP_OBJ, .len = 0 };
  o.u.vals = NULL;
  return scp_host_add_obj(h, &o, ret);
}

/* MeteredOrdMap::find: charge_binsearch then the search on keys. */
static int map_find(scp_host *h, uint64_t m, uint64_t key, bool *found, uint32_t *pos) {
  int rc = scp_host_charge_copy(h, 1 + magnitude(objp(h, m)->len), SIZE_MAP_ENTRY);
  if (rc != SCP_OK) return rc;
  return binary_search(h, m, 2, key, found, pos);
}

/* MeteredOrdMap::from_exact_iter of n entries: deep clone of the
 * Vec<(Val, Val)> (MemCpy(24), MemAlloc(24n), MemCpy(24n)), then from_map:
 * charge_scan MemCpy(24n) and every adjacent pair of keys compared (each
 * must be Less, else Error(Object, InvalidInput)).  Takes over kv. */
/* The tail both map constructors share: every adjacent pair of keys must
 * compare Less (charged comparisons), then the map object adopts kv (freed
 * on failure). */
static int map_adopt_sorted(scp_host *h, uint64_t *kv, uint32_t n, uint64_t *ret) {
  int rc = SCP_OK;
  for (uint32_t i = 1; rc == SCP_OK && i < n; i++) {
    int ord;
    rc = scp_host_compare(h, kv[2 * (i - 1)], kv[2 * i], &ord);
    if (rc == SCP_OK && ord >= 0)
      rc = scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INVALID_INPUT, "map keys not in order");
  }
  if (rc != SCP_OK) {
    free(kv);
    return rc;
  }
  scp_hobj o = { .tag = SCP_TAG_MAP_OBJ, .len = n };
  o.u.vals = kv;
  return scp_host_add_obj(h, &o, ret);
}

static int map_build(scp_host *h, uint64_t *kv, uint32_t n, uint64_t *ret) {
  int rc = scp_host_charge_bulk_init(h, n, SIZE_MAP_ENTRY);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, n, SIZE_MAP_ENTRY);
  if (rc != SCP_OK) {
    free(kv);
    return rc;
  }
  return map_adopt_sorted(h, kv, n, ret);
}

HOSTFN(map_put) {
  const scp_hobj *o;
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_MAP_ENTRY);   /* insert's access */
  bool found;
  uint32_t pos;
  if (rc == SCP_OK) rc = map_find(h, a[0], a[1], &found, &pos);
  if (rc != SCP_OK) return rc;
  o = objp(h, a[0]);
  if (!found && o->len == UINT32_MAX) return err_index(h, o->len);
  uint32_t n = o->len + (found ? 0 : 1);
  uint64_t *kv = vals_alloc(2 * (size_t)n);
  if (!kv) return SCP_ERR_NOMEM;
  memcpy(kv, o->u.vals, 2 * (size_t)pos * sizeof *kv);
  kv[2 * pos] = a[1];
  kv[2 * pos + 1] = a[2];
  uint32_t rest = o->len - pos - (found ? 1 : 0);
  memcpy(kv + 2 * (pos + 1), o->u.vals + 2 * (pos + (found ? 1 : 0)), 2 * (size_t)rest * sizeof *kv);
  return map_build(h, kv, n, ret);
}

HOSTFN(map_get) {
  const scp_hobj *o;
  bool found;
  uint32_t pos;
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = map_find(h, a[0], a[1], &found, &pos);
  if (rc != SCP_OK) return rc;
  if (!found)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_MISSING_VALUE, "map key not found in map_get");
  rc = scp_host_charge_copy(h, 1, SIZE_MAP_ENTRY);
  if (rc == SCP_OK) *ret = objp(h, a[0])->u.vals[2 * pos + 1];
  return rc;
}

/* remove: the new map, then metered_clone of the removed value (MemCpy(8)). */
HOSTFN(map_del) {
  const scp_hobj *o;
  bool found;
  uint32_t pos;
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = map_find(h, a[0], a[1], &found, &pos);
  if (rc != SCP_OK) return rc;
  if (!found)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_MISSING_VALUE, "map key not found in map_del");
  o = objp(h, a[0]);
  uint32_t n = o->len - 1;
  uint64_t *kv = vals_alloc(2 * (size_t)n);
  if (!kv) return SCP_ERR_NOMEM;
  memcpy(kv, o->u.vals, 2 * (size_t)pos * sizeof *kv);
  memcpy(kv + 2 * pos, o->u.vals + 2 * (pos + 1), 2 * (size_t)(n - pos) * sizeof *kv);
  /* from_exact_iter (with its from_map checks) comes before the clone of
   * the value and before add_host_object */
  rc = scp_host_charge_bulk_init(h, n, SIZE_MAP_ENTRY);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, n, SIZE_MAP_ENTRY);
  for (uint32_t i = 1; rc == SCP_OK && i < n; i++) {
    int ord;
    rc = scp_host_compare(h, kv[2 * (i - 1)], kv[2 * i], &ord);
    if (rc == SCP_OK && ord >= 0)
      rc = scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INVALID_INPUT, "map keys not in order");
  }
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_VAL);
  if (rc != SCP_OK) {
    free(kv);
    return rc;
  }
  scp_hobj no = { .tag = SCP_TAG_MAP_OBJ, .len = n };
  no.u.vals = kv;
  return scp_host_add_obj(h, &no, ret);
}

HOSTFN(map_len) {
  const scp_hobj *o;
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) *ret = scp_val_u32(o->len);
  return rc;
}

HOSTFN(map_has) {
  const scp_hobj *o;
  bool found;
  uint32_t pos;
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = map_find(h, a[0], a[1], &found, &pos);
  if (rc == SCP_OK) *ret = scp_val_bool(found);
  return rc;
}

/* get_at_index: MemCpy(24), then the bounds check. */
static int map_at(scp_host *h, const uint64_t *a, unsigned which, uint64_t *ret) {
  const scp_hobj *o;
  uint32_t i = u32_arg(a[1]);
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_MAP_ENTRY);
  if (rc != SCP_OK) return rc;
  if (i >= o->len) return err_index(h, i);
  *ret = o->u.vals[2 * (size_t)i + which];
  return SCP_OK;
}

HOSTFN(map_key_by_pos) { return map_at(h, a, 0, ret); }
HOSTFN(map_val_by_pos) { return map_at(h, a, 1, ret); }

/* keys / values: charge_scan MemCpy(24n), then HostVec::from_exact_iter. */
static int map_column(scp_host *h, uint64_t m, unsigned which, uint64_t *ret) {
  const scp_hobj *o;
  int rc = visit(h, m, &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, o->len, SIZE_MAP_ENTRY);
  if (rc == SCP_OK) rc = charge_vec_new(h, o->len);
  if (rc != SCP_OK) return rc;
  uint32_t n = o->len;
  uint64_t *vals = vals_alloc(n);
  if (!vals) return SCP_ERR_NOMEM;
  for (uint32_t i = 0; i < n; i++) vals[i] = o->u.vals[2 * (size_t)i + which];
  return add_vec_obj(h, vals, n, ret);
}

HOSTFN(map_keys) { return map_column(h, a[0], 0, ret); }
HOSTFN(map_values) { return map_column(h, a[0], 1, ret); }


/* ---- maps and linear memory (host/data_helper.rs) ---------------------------- */

static int need_vm(scp_host *h) {
  if (!scp_host_in_vm(h))
    return scp_host_err(h, SCP_ET_WASM_VM, SCP_EC_INTERNAL_ERROR,
                        "attempt to access guest bytes in non-VM frame");
  return SCP_OK;
}

static int err_lm_oob(scp_host *h) {
  return scp_host_err(h, SCP_ET_WASM_VM, SCP_EC_INDEX_BOUNDS,
                      "out-of-bounds access to WASM linear memory");
}

/* scan_linear_memory_slice (mem_helper.rs): the (ptr, len) pair at
 * pos + 8*i, then the slice it names, both bounds-checked. */
static int lm_slice(scp_host *h, uint32_t pos, uint32_t i, const uint8_t **p, uint32_t *len) {
  uint64_t at = (uint64_t)pos + 8ull * i;
  if (at + 8 > h->mem->len) return err_lm_oob(h);
  uint32_t ptr, n;
  memcpy(&ptr, h->mem->base + at, 4);
  memcpy(&n, h->mem->base + at + 4, 4);
  if (ptr > UINT32_MAX - n)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN, "arithmetic overflow");
  if ((uint64_t)ptr + n > h->mem->len) return err_lm_oob(h);
  *p = h->mem->base + ptr;
  *len = n;
  return SCP_OK;
}

/* Symbol::try_from_val(&[u8]) (symbol.rs): small when it fits, else
 * Env::symbol_new_from_slice. */
static int symbol_from_slice(scp_host *h, const uint8_t *p, uint32_t n, uint64_t *out) {
  if (scp_val_symbol_small(p, n, out)) return SCP_OK;
  return scp_host_memobj_new_from_slice(h, SCP_TAG_SYMBOL_OBJ, p, n, out);
}

/* map_new_from_slices_impl: sizes, Vec<(Val, Val)> bulk init, keys in
 * order (sparse only; dense is checked by from_map), values checked,
 * void values dropped when sparse, then HostMap::from_map and the object. */
static int map_from_slices(scp_host *h, const uint64_t *keys, const uint64_t *vals, uint32_t n,
                           bool sparse, uint64_t *ret) {
  int rc = scp_host_charge_bulk_init(h, n, SIZE_MAP_ENTRY);
  if (rc != SCP_OK) return rc;
  uint64_t *kv = vals_alloc(2 * (size_t)n);
  if (!kv) return SCP_ERR_NOMEM;
  uint32_t m = 0;
  for (uint32_t i = 0; rc == SCP_OK && i < n; i++) {
    if (sparse && i) {
      int ord;
      rc = scp_host_compare(h, keys[i - 1], keys[i], &ord);
      if (rc == SCP_OK && ord >= 0)
        rc = scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INVALID_INPUT,
                          "keys not in ascending order when creating map from slices");
      if (rc != SCP_OK) break;
    }
    rc = scp_host_check_val(h, vals[i]);
    if (rc == SCP_OK && (!sparse || vals[i] != SCP_VAL_VOID)) {
      kv[2 * m] = keys[i];
      kv[2 * m + 1] = vals[i];
      m++;
    }
  }
  if (rc == SCP_OK) rc = scp_host_map_from_pairs_nocap(h, kv, m, ret);
  free(kv);
  return rc;
}

static int map_new_from_lm(scp_host *h, const uint64_t *a, bool sparse, uint64_t *ret) {
  uint32_t kpos = u32_arg(a[0]), vpos = u32_arg(a[1]), len = u32_arg(a[2]);
  int rc = need_vm(h);
  if (rc == SCP_OK) rc = charge_vec_new(h, len);   /* Vec<Symbol> with capacity */
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, len, 8);   /* the slice scan */
  if (rc != SCP_OK) return rc;
  uint64_t *keys = vals_alloc(len), *vals = vals_alloc(len);
  if (!keys || !vals) {
    free(keys);
    free(vals);
    return SCP_ERR_NOMEM;
  }
  for (uint32_t i = 0; rc == SCP_OK && i < len; i++) {
    const uint8_t *p;
    uint32_t n;
    rc = lm_slice(h, kpos, i, &p, &n);
    if (rc == SCP_OK) rc = symbol_from_slice(h, p, n, &keys[i]);
  }
  if (rc == SCP_OK) rc = charge_vec_new(h, len);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 2 * (uint64_t)len, SIZE_VAL);
  if (rc == SCP_OK && (uint64_t)vpos + 8ull * len > h->mem->len) rc = err_lm_oob(h);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, len, SIZE_VAL);
  for (uint32_t i = 0; rc == SCP_OK && i < len; i++) {
    uint64_t w;
    memcpy(&w, h->mem->base + vpos + 8ull * i, 8);
    rc = scp_host_to_absolute(h, w, &vals[i]);
  }
  if (rc == SCP_OK) rc = map_from_slices(h, keys, vals, len, sparse, ret);
  free(keys);
  free(vals);
  return rc;
}

HOSTFN(map_new_from_linear_memory) { return map_new_from_lm(h, a, false, ret); }
HOSTFN(sparse_map_new_from_linear_memory) { return map_new_from_lm(h, a, true, ret); }

/* compare_symbol_to_bytes (mem_helper.rs): a map key (which must be a
 * Symbol: Error(Value, UnexpectedType)) against key bytes, MemCmp(min). */
static int symbol_vs_bytes(scp_host *h, uint64_t sym, const uint8_t *p, uint32_t n, int *ord) {
  unsigned tag = scp_val_tag_of(sym);
  if (tag == SCP_TAG_SYMBOL_SMALL) {
    char s[16];
    size_t sl = scp_val_symbol_small_str(sym, s);
    uint32_t m = (uint32_t)sl < n ? (uint32_t)sl : n;
    int rc = scp_host_charge(h, SCP_COST_MemCmp, m);
    if (rc != SCP_OK) return rc;
    int c = m ? memcmp(s, p, m) : 0;
    *ord = c ? (c < 0 ? -1 : 1) : (sl < n ? -1 : sl > n);
    return SCP_OK;
  }
  if (tag != SCP_TAG_SYMBOL_OBJ)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "map key is not a Symbol");
  const scp_hobj *o;
  int rc = visit(h, sym, &o);
  if (rc != SCP_OK) return rc;
  uint32_t m = o->len < n ? o->len : n;
  rc = scp_host_charge(h, SCP_COST_MemCmp, m);
  if (rc != SCP_OK) return rc;
  int c = m ? memcmp(o->u.bytes, p, m) : 0;
  *ord = c ? (c < 0 ? -1 : 1) : (o->len < n ? -1 : o->len > n);
  return SCP_OK;
}

/* map_unpack_impl over keys read from linear memory. */
static int map_unpack_lm(scp_host *h, const uint64_t *a, bool sparse, uint64_t *ret) {
  uint32_t kpos = u32_arg(a[1]), vpos = u32_arg(a[2]), len = u32_arg(a[3]);
  int rc = need_vm(h);
  if (rc == SCP_OK) rc = charge_vec_new(h, len);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, len, 8);
  const scp_hobj *m;
  if (rc == SCP_OK) rc = visit(h, a[0], &m);
  if (rc != SCP_OK) return rc;
  if (!sparse && m->len != len)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_UNEXPECTED_SIZE,
                        "differing map and output slice lengths when unpacking map");
  rc = scp_host_charge_copy(h, len, SIZE_VAL);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, m->len, SIZE_MAP_ENTRY);   /* iter */
  if (rc != SCP_OK) return rc;
  uint64_t *out = vals_alloc(len);
  if (!out) return SCP_ERR_NOMEM;
  uint32_t mi = 0, mlen = m->len;
  const uint64_t *kv = m->u.vals;
  const uint8_t *prev = NULL;
  uint32_t prevn = 0;
  for (uint32_t i = 0; rc == SCP_OK && i < len; i++) {
    const uint8_t *p;
    uint32_t n;
    rc = lm_slice(h, kpos, i, &p, &n);
    if (rc == SCP_OK && prev) {
      uint32_t mm = prevn < n ? prevn : n;
      rc = scp_host_charge(h, SCP_COST_MemCmp, mm);
      int c = mm ? memcmp(prev, p, mm) : 0;
      if (rc == SCP_OK && (c > 0 || (!c && prevn >= n)))
        rc = scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INVALID_INPUT,
                          "keys are not in ascending order when unpacking map");
    }
    if (rc != SCP_OK) break;
    prev = p;
    prevn = n;
    out[i] = SCP_VAL_VOID;
    while (rc == SCP_OK && mi < mlen) {
      int ord;
      rc = symbol_vs_bytes(h, kv[2 * mi], p, n, &ord);
      if (rc != SCP_OK) break;
      if (sparse && ord < 0) {
        mi++;
        continue;
      }
      if (sparse && ord > 0) break;
      if (!sparse && ord)
        rc = scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INVALID_INPUT,
                          "key not found in map when unpacking map");
      else out[i] = kv[2 * mi + 1];
      mi++;
      break;
    }
  }
  /* the rest of the map's keys must be Symbols too */
  for (; rc == SCP_OK && mi < mlen; mi++) {
    unsigned tag = scp_val_tag_of(kv[2 * mi]);
    if (tag != SCP_TAG_SYMBOL_SMALL && tag != SCP_TAG_SYMBOL_OBJ)
      rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "map key is not a Symbol");
  }
  /* metered_vm_write_vals_to_linear_memory: bounds, MemCpy, relative */
  if (rc == SCP_OK && (uint64_t)vpos + 8ull * len > h->mem->len) rc = err_lm_oob(h);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, len, SIZE_VAL);
  for (uint32_t i = 0; rc == SCP_OK && i < len; i++) {
    uint64_t rel;
    rc = scp_host_to_relative(h, out[i], &rel);
    if (rc == SCP_OK) memcpy(h->mem->base + vpos + 8ull * i, &rel, 8);
  }
  free(out);
  if (rc == SCP_OK) *ret = SCP_VAL_VOID;
  return rc;
}

HOSTFN(map_unpack_to_linear_memory) { return map_unpack_lm(h, a, false, ret); }
HOSTFN(sparse_map_unpack_to_linear_memory) { return map_unpack_lm(h, a, true, ret); }

/* symbol_index_in_linear_memory: every slice is scanned (MemCpy(8*len))
 * and compared to the symbol (compare_symbol_to_bytes, no early exit); the
 * first match's index, else Error(Value, MissingValue). */
HOSTFN(symbol_index_in_linear_memory) {
  uint32_t pos = u32_arg(a[1]), len = u32_arg(a[2]);
  int rc = need_vm(h);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, len, 8);
  bool found = false;
  uint32_t at = 0;
  for (uint32_t i = 0; rc == SCP_OK && i < len; i++) {
    const uint8_t *p;
    uint32_t n;
    int ord;
    rc = lm_slice(h, pos, i, &p, &n);
    if (rc == SCP_OK) rc = symbol_vs_bytes(h, a[0], p, n, &ord);
    if (rc == SCP_OK && !ord && !found) {
      found = true;
      at = i;
    }
  }
  if (rc != SCP_OK) return rc;
  if (!found)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_MISSING_VALUE,
                        "symbol not found in linear memory slices");
  *ret = scp_val_u32(at);
  return SCP_OK;
}


/* ---- instance storage (host.rs *_contract_data, host/data_helper.rs,
 * storage.rs InstanceStorageMap, host/metered_map.rs) --------------------------
 * Temporary and persistent storage go to the ledger storage of
 * host_storage.c; executable-reference keys (CAP-85) are not supported. */

enum { STORAGE_TEMPORARY = 0, STORAGE_PERSISTENT = 1, STORAGE_INSTANCE = 2 };

static int storage_unsupported(scp_host *h) {
  snprintf(h->errmsg, sizeof h->errmsg,
           "executable-reference storage keys are not implemented yet");
  return SCP_ERR_UNSUPPORTED;
}

/* with_instance_storage: the current contract's map, initialised lazily on
 * the frame's first access (maybe_init_instance_storage: from_instance_xdr
 * of a fresh instance = from_map of no entries = MemCpy(0)). */
static int instance_map(scp_host *h, scp_instance **out) {
  if (!scp_host_in_vm(h))
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR,
                        "access to instance in frame without instance");
  scp_frame *f = &h->frames[h->nframes - 1];
  scp_instance *in = NULL;
  for (size_t i = 0; i < h->ninstances && !in; i++)
    if (!memcmp(h->instances[i].contract_id, f->contract_id, 32)) in = &h->instances[i];
  if (!in) {
    if (!scp_grow(&h->instances, &h->capinstances, h->ninstances + 1, sizeof *h->instances))
      return SCP_ERR_NOMEM;
    in = &h->instances[h->ninstances++];
    *in = (scp_instance){ .kv = NULL, .n = 0 };
    memcpy(in->contract_id, f->contract_id, 32);
  }
  if (!f->instance_loaded) {
    /* A map written by an earlier frame of the same contract would be
     * re-read from its ledger entry (ScVal conversions); only the fresh,
     * never-written case is charged exactly. */
    int rc = scp_host_charge_copy(h, in->n, SIZE_MAP_ENTRY);
    if (rc != SCP_OK) return rc;
    f->instance_loaded = true;
  }
  *out = in;
  return SCP_OK;
}

/* MeteredOrdMap::find over a raw (key, value) array. */
static int kv_find(scp_host *h, const uint64_t *kv, uint32_t n, uint64_t key, bool *found,
                   uint32_t *pos) {
  int rc = scp_host_charge_copy(h, 1 + magnitude(n), SIZE_MAP_ENTRY);
  uint32_t size = n, left = 0, right = n;
  while (rc == SCP_OK && left < right) {
    uint32_t mid = left + size / 2;
    int ord;
    rc = scp_host_compare(h, kv[2 * (size_t)mid], key, &ord);
    if (rc != SCP_OK) break;
    if (ord < 0) left = mid + 1;
    if (ord > 0) right = mid;
    if (!ord) {
      *found = true;
      *pos = mid;
      return SCP_OK;
    }
    size = right - left;
  }
  *found = false;
  *pos = left;
  return rc;
}

/* from_exact_iter of n entries: deep clone, then from_map's scan and
 * adjacent compares. */
static int kv_rebuild_charges(scp_host *h, const uint64_t *kv, uint32_t n) {
  int rc = scp_host_charge_bulk_init(h, n, SIZE_MAP_ENTRY);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, n, SIZE_MAP_ENTRY);
  for (uint32_t i = 1; rc == SCP_OK && i < n; i++) {
    int ord;
    rc = scp_host_compare(h, kv[2 * (i - 1)], kv[2 * i], &ord);
    if (rc == SCP_OK && ord >= 0)
      rc = scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INVALID_INPUT, "map keys not in order");
  }
  return rc;
}

HOSTFN(put_contract_data) {
  *ret = SCP_VAL_VOID;
  if (scp_val_tag_of(a[0]) == SCP_TAG_EXECUTABLE_TAG_OBJ)
    return a[2] != STORAGE_PERSISTENT
               ? scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INVALID_INPUT,
                              "executable reference entries may only use persistent storage")
               : storage_unsupported(h);
  if (a[2] != STORAGE_INSTANCE) return scp_storage_put_contract_data(h, a[0], a[1], (unsigned)a[2]);
  scp_instance *in;
  bool found;
  uint32_t pos;
  int rc = instance_map(h, &in);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_MAP_ENTRY);   /* insert's access */
  if (rc == SCP_OK) rc = kv_find(h, in->kv, in->n, a[0], &found, &pos);
  if (rc != SCP_OK) return rc;
  uint32_t n = in->n + (found ? 0 : 1);
  uint64_t *kv = vals_alloc(2 * (size_t)n);
  if (!kv) return SCP_ERR_NOMEM;
  if (pos) memcpy(kv, in->kv, 2 * (size_t)pos * sizeof *kv);
  kv[2 * pos] = a[0];
  kv[2 * pos + 1] = a[1];
  uint32_t skip = pos + (found ? 1 : 0);
  if (in->n > skip) memcpy(kv + 2 * (pos + 1), in->kv + 2 * skip, 2 * (size_t)(in->n - skip) * sizeof *kv);
  rc = kv_rebuild_charges(h, kv, n);
  if (rc != SCP_OK) {
    free(kv);
    return rc;
  }
  free(in->kv);
  in->kv = kv;
  in->n = n;
  *ret = SCP_VAL_VOID;
  return SCP_OK;
}

HOSTFN(get_contract_data) {
  if (a[1] != STORAGE_INSTANCE) return scp_storage_get_contract_data(h, a[0], (unsigned)a[1], ret);
  scp_instance *in;
  bool found;
  uint32_t pos;
  int rc = instance_map(h, &in);
  if (rc == SCP_OK) rc = kv_find(h, in->kv, in->n, a[0], &found, &pos);
  if (rc != SCP_OK) return rc;
  if (!found)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_MISSING_VALUE,
                        "key is missing from instance storage");
  rc = scp_host_charge_copy(h, 1, SIZE_MAP_ENTRY);
  if (rc == SCP_OK) *ret = in->kv[2 * (size_t)pos + 1];
  return rc;
}

HOSTFN(has_contract_data) {
  if (a[1] != STORAGE_INSTANCE) {
    bool found = false;
    int rc = scp_storage_has_contract_data(h, a[0], (unsigned)a[1], &found);
    *ret = scp_val_bool(found);
    return rc;
  }
  scp_instance *in;
  bool found;
  uint32_t pos;
  int rc = instance_map(h, &in);
  if (rc == SCP_OK) rc = kv_find(h, in->kv, in->n, a[0], &found, &pos);
  if (rc == SCP_OK) *ret = scp_val_bool(found);
  return rc;
}

HOSTFN(del_contract_data) {
  if (scp_val_tag_of(a[0]) == SCP_TAG_EXECUTABLE_TAG_OBJ)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INVALID_ACTION,
                        "executable reference entries cannot be deleted");
  *ret = SCP_VAL_VOID;
  if (a[1] != STORAGE_INSTANCE) return scp_storage_del_contract_data(h, a[0], (unsigned)a[1]);
  scp_instance *in;
  bool found;
  uint32_t pos;
  int rc = instance_map(h, &in);
  if (rc == SCP_OK) rc = kv_find(h, in->kv, in->n, a[0], &found, &pos);
  if (rc != SCP_OK) return rc;
  if (!found) return SCP_OK;
  uint32_t n = in->n - 1;
  uint64_t *kv = vals_alloc(2 * (size_t)n);
  if (!kv) return SCP_ERR_NOMEM;
  if (pos) memcpy(kv, in->kv, 2 * (size_t)pos * sizeof *kv);
  if (n > pos) memcpy(kv + 2 * pos, in->kv + 2 * (pos + 1), 2 * (size_t)(n - pos) * sizeof *kv);
  rc = kv_rebuild_charges(h, kv, n);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_VAL);   /* the removed value */
  if (rc != SCP_OK) {
    free(kv);
    return rc;
  }
  free(in->kv);
  in->kv = kv;
  in->n = n;
  return SCP_OK;
}

/* extend_contract_data_ttl(_v2) (host.rs): instance storage is refused,
 * then the key and Storage::extend_ttl(_v2). */
HOSTFN(extend_contract_data_ttl) {
  *ret = SCP_VAL_VOID;
  if (a[1] == STORAGE_INSTANCE)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INVALID_ACTION,
                        "instance storage should be extended via `extend_current_contract_instance_and_code_ttl` function only");
  uint32_t p[2] = { u32_arg(a[2]), u32_arg(a[3]) };
  return scp_storage_extend_contract_data(h, a[0], (unsigned)a[1], false, p);
}

HOSTFN(extend_contract_data_ttl_v2) {
  *ret = SCP_VAL_VOID;
  if (a[1] == STORAGE_INSTANCE)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INVALID_ACTION,
                        "instance storage should be extended via `extend_contract_instance_and_code_ttl_v2` function only");
  uint32_t p[3] = { u32_arg(a[2]), u32_arg(a[3]), u32_arg(a[4]) };
  return scp_storage_extend_contract_data(h, a[0], (unsigned)a[1], true, p);
}

/* ---- obj_cmp ---------------------------------------------------------------- */

HOSTFN(obj_cmp) {
  int ord;
  int rc = scp_host_obj_cmp(h, a[0], a[1], &ord);
  if (rc == SCP_OK) *ret = (uint64_t)(int64_t)ord;
  return rc;
}

/* ---- buf (host/mem_helper.rs memobj_new_from_linear_memory) ------------- */

static int memobj_new_from_lm(scp_host *h, unsigned tag, uint64_t pos_v,
                              uint64_t len_v, uint64_t *ret) {
  uint32_t pos = u32_arg(pos_v), len = u32_arg(len_v);
  if (!scp_host_in_vm(h))
    return scp_host_err(h, SCP_ET_WASM_VM, SCP_EC_INTERNAL_ERROR,
                        "attempt to access guest bytes in non-VM frame");
  int rc = scp_host_charge(h, SCP_COST_MemAlloc, len);
  if (rc != SCP_OK) return rc;
  uint8_t *buf = malloc(len ? len : 1);
  if (!buf) return SCP_ERR_NOMEM;
  rc = scp_host_mem_read(h, pos, len, buf);
  if (rc == SCP_OK && tag == SCP_TAG_SYMBOL_OBJ) {
    /* ScSymbol::try_from_bytes (host_object.rs): length, then characters. */
    if (len > SCP_SYMBOL_MAX)
      rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT,
                        "slice is too long to be represented as Symbol");
    for (uint32_t i = 0; rc == SCP_OK && i < len; i++)
      if (scp_val_symbol_code(buf[i]) < 0)
        rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT,
                          "byte is not allowed in Symbol");
  }
  if (rc != SCP_OK) {
    free(buf);
    return rc;
  }
  scp_hobj o = { .tag = (uint8_t)tag, .len = len };
  o.u.bytes = buf;
  return scp_host_add_obj(h, &o, ret);
}

HOSTFN(bytes_new_from_linear_memory) {
  return memobj_new_from_lm(h, SCP_TAG_BYTES_OBJ, a[0], a[1], ret);
}
HOSTFN(string_new_from_linear_memory) {
  return memobj_new_from_lm(h, SCP_TAG_STRING_OBJ, a[0], a[1], ret);
}
HOSTFN(symbol_new_from_linear_memory) {
  return memobj_new_from_lm(h, SCP_TAG_SYMBOL_OBJ, a[0], a[1], ret);
}

/* bytes_len / string_len / symbol_len: visit only ("len is free"). */
static int memobj_len(scp_host *h, uint64_t v, uint64_t *ret) {
  const scp_hobj *o;
  int rc = visit(h, v, &o);
  if (rc == SCP_OK) *ret = scp_val_u32(o->len);
  return rc;
}

HOSTFN(bytes_len) { return memobj_len(h, a[0], ret); }
HOSTFN(string_len) { return memobj_len(h, a[0], ret); }
HOSTFN(symbol_len) { return memobj_len(h, a[0], ret); }

HOSTFN(bytes_new) { return add_bytes_obj(h, SCP_TAG_BYTES_OBJ, NULL, 0, ret); }

/* u8_from_u32val_input: Error(Value, ArithDomain) past 255. */
static int u8_arg(scp_host *h, uint64_t v, uint8_t *out) {
  uint32_t u = u32_arg(v);
  if (u > 255)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN, "expecting U32Val less than 256");
  *out = (uint8_t)u;
  return SCP_OK;
}

/* A new byte-object from parts: prefix src[0..cut), optional byte, then
 * src[skip..len), plus tail; no charge here. */
static int add_bytes_edit(scp_host *h, unsigned tag, const scp_hobj *src, uint32_t cut,
                          const uint8_t *ins, uint32_t nins, uint32_t skip,
                          const uint8_t *tail, uint32_t ntail, uint64_t *ret) {
  uint64_t n = (uint64_t)cut + nins + (src->len - skip) + ntail;
  uint8_t *buf = malloc(n ? n : 1);
  if (!buf) return SCP_ERR_NOMEM;
  if (cut) memcpy(buf, src->u.bytes, cut);
  if (nins) memcpy(buf + cut, ins, nins);
  if (src->len > skip) memcpy(buf + cut + nins, src->u.bytes + skip, src->len - skip);
  if (ntail) memcpy(buf + cut + nins + (src->len - skip), tail, ntail);
  scp_hobj o = { .tag = (uint8_t)tag, .len = (uint32_t)n };
  o.u.bytes = buf;
  return scp_host_add_obj(h, &o, ret);
}

/* bytes_put: the u8 check, visit, metered_clone of the bytes (Vec<u8> of
 * len), then the index check. */
HOSTFN(bytes_put) {
  uint8_t u;
  const scp_hobj *o;
  uint32_t i = u32_arg(a[1]);
  int rc = u8_arg(h, a[2], &u);
  if (rc == SCP_OK) rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, o->len, 1);
  if (rc != SCP_OK) return rc;
  if (i >= o->len)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INDEX_BOUNDS, "bytes_put out of bounds");
  return add_bytes_edit(h, SCP_TAG_BYTES_OBJ, o, i, &u, 1, i + 1, NULL, 0, ret);
}

HOSTFN(bytes_get) {
  const scp_hobj *o;
  uint32_t i = u32_arg(a[1]);
  int rc = visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (i >= o->len)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INDEX_BOUNDS, "bytes_get out of bounds");
  *ret = scp_val_u32(o->u.bytes[i]);
  return SCP_OK;
}

/* bytes_del: index check, clone (len), then MemCpy(len - i) for the move. */
HOSTFN(bytes_del) {
  const scp_hobj *o;
  uint32_t i = u32_arg(a[1]);
  int rc = visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (i >= o->len) return err_index(h, i);
  rc = scp_host_charge_bulk_init(h, o->len, 1);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, o->len - i, 1);
  if (rc != SCP_OK) return rc;
  return add_bytes_edit(h, SCP_TAG_BYTES_OBJ, o, i, NULL, 0, i + 1, NULL, 0, ret);
}

static int sum_fits(scp_host *h, uint32_t x, uint32_t y) {
  if (x > UINT32_MAX - y)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN, "arithmetic overflow");
  return SCP_OK;
}

/* bytes_push: u8 check, visit, sum check, Vec<u8> with capacity len+1. */
HOSTFN(bytes_push) {
  uint8_t u;
  const scp_hobj *o;
  int rc = u8_arg(h, a[1], &u);
  if (rc == SCP_OK) rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = sum_fits(h, o->len, 1);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, (uint64_t)o->len + 1, 1);
  if (rc != SCP_OK) return rc;
  return add_bytes_edit(h, SCP_TAG_BYTES_OBJ, o, o->len, &u, 1, o->len, NULL, 0, ret);
}

/* bytes_pop: clone (len) first, then the emptiness check. */
HOSTFN(bytes_pop) {
  const scp_hobj *o;
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, o->len, 1);
  if (rc != SCP_OK) return rc;
  if (!o->len)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INDEX_BOUNDS, "bytes_pop out of bounds");
  return add_bytes_edit(h, SCP_TAG_BYTES_OBJ, o, o->len - 1, NULL, 0, o->len, NULL, 0, ret);
}

static int bytes_end(scp_host *h, uint64_t v, bool back, uint64_t *ret) {
  const scp_hobj *o;
  int rc = visit(h, v, &o);
  if (rc != SCP_OK) return rc;
  if (!o->len)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INDEX_BOUNDS, "bytes_front out of bounds");
  *ret = scp_val_u32(o->u.bytes[back ? o->len - 1 : 0]);
  return SCP_OK;
}

HOSTFN(bytes_front) { return bytes_end(h, a[0], false, ret); }
HOSTFN(bytes_back) { return bytes_end(h, a[0], true, ret); }

HOSTFN(bytes_insert) {
  uint8_t u;
  const scp_hobj *o;
  uint32_t i = u32_arg(a[1]);
  int rc = u8_arg(h, a[2], &u);
  if (rc == SCP_OK) rc = visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (i > o->len) return err_index(h, i);
  rc = sum_fits(h, o->len, 1);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, (uint64_t)o->len + 1, 1);
  if (rc != SCP_OK) return rc;
  return add_bytes_edit(h, SCP_TAG_BYTES_OBJ, o, i, &u, 1, i, NULL, 0, ret);
}

HOSTFN(bytes_append) {
  const scp_hobj *x, *y;
  int rc = visit(h, a[0], &x);
  if (rc == SCP_OK) rc = visit(h, a[1], &y);
  if (rc == SCP_OK) rc = sum_fits(h, x->len, y->len);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, (uint64_t)x->len + y->len, 1);
  if (rc != SCP_OK) return rc;
  if (x == y) {   /* appending an object to itself: copy before adding */
    uint8_t *tmp = malloc(y->len ? y->len : 1);
    if (!tmp) return SCP_ERR_NOMEM;
    if (y->len) memcpy(tmp, y->u.bytes, y->len);
    rc = add_bytes_edit(h, SCP_TAG_BYTES_OBJ, x, x->len, NULL, 0, x->len, tmp, x->len, ret);
    free(tmp);
    return rc;
  }
  return add_bytes_edit(h, SCP_TAG_BYTES_OBJ, x, x->len, NULL, 0, x->len, y->u.bytes, y->len,
                        ret);
}

/* bytes_slice: range check, metered_slice_to_vec (Vec<u8> bulk init). */
HOSTFN(bytes_slice) {
  const scp_hobj *o;
  uint32_t start = u32_arg(a[1]), end = u32_arg(a[2]);
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = valid_range(h, start, end, o->len);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, end - start, 1);
  if (rc != SCP_OK) return rc;
  return add_bytes_obj(h, SCP_TAG_BYTES_OBJ, o->u.bytes + start, end - start, ret);
}

/* string_to_bytes / bytes_to_string / create_executable_tag: visit, a
 * metered copy of the bytes (Vec<u8> bulk init of len), add. */
static int memobj_convert(scp_host *h, uint64_t v, unsigned tag, uint64_t *ret) {
  const scp_hobj *o;
  int rc = visit(h, v, &o);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, o->len, 1);
  if (rc != SCP_OK) return rc;
  return add_bytes_obj(h, tag, o->u.bytes, o->len, ret);
}

HOSTFN(string_to_bytes) { return memobj_convert(h, a[0], SCP_TAG_BYTES_OBJ, ret); }
HOSTFN(bytes_to_string) { return memobj_convert(h, a[0], SCP_TAG_STRING_OBJ, ret); }
HOSTFN(create_executable_tag) { return memobj_convert(h, a[0], SCP_TAG_EXECUTABLE_TAG_OBJ, ret); }

/* memobj_visit_and_copy_bytes_out: visit, range in the object
 * (Value/ArithDomain on overflow, Object/IndexBounds out of it). */
static int memobj_range(scp_host *h, uint64_t v, uint32_t opos, uint32_t len,
                        const scp_hobj **o) {
  int rc = visit(h, v, o);
  if (rc != SCP_OK) return rc;
  if (opos > UINT32_MAX - len)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN, "arithmetic overflow");
  if (opos + len > (*o)->len)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INDEX_BOUNDS,
                        "out-of-bounds read from memory-like host object");
  return SCP_OK;
}

static int memobj_copy_to_lm(scp_host *h, const uint64_t *a, uint64_t *ret) {
  uint32_t opos = u32_arg(a[1]), lm = u32_arg(a[2]), len = u32_arg(a[3]);
  if (!scp_host_in_vm(h))
    return scp_host_err(h, SCP_ET_WASM_VM, SCP_EC_INTERNAL_ERROR,
                        "attempt to access guest bytes in non-VM frame");
  const scp_hobj *o;
  int rc = memobj_range(h, a[0], opos, len, &o);
  if (rc == SCP_OK) rc = scp_host_mem_write(h, lm, o->u.bytes + opos, len);
  if (rc == SCP_OK) *ret = SCP_VAL_VOID;
  return rc;
}

HOSTFN(bytes_copy_to_linear_memory) { return memobj_copy_to_lm(h, a, ret); }
HOSTFN(string_copy_to_linear_memory) { return memobj_copy_to_lm(h, a, ret); }
HOSTFN(symbol_copy_to_linear_memory) { return memobj_copy_to_lm(h, a, ret); }

/* memobj_clone_resize_and_copy_bytes_in: clone (Vec<u8> of len), overflow
 * check, MemAlloc of the growth, range, then the copy in; a new object. */
static int memobj_copy_in(scp_host *h, uint64_t v, uint32_t opos, uint32_t len,
                          const uint8_t *src_or_null, uint32_t lm, uint64_t *ret) {
  const scp_hobj *o;
  int rc = visit(h, v, &o);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, o->len, 1);
  if (rc != SCP_OK) return rc;
  if (opos > UINT32_MAX - len)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN, "arithmetic overflow");
  uint32_t end = opos + len, newlen = end > o->len ? end : o->len;
  if (end > o->len) {
    rc = scp_host_charge(h, SCP_COST_MemAlloc, end - o->len);
    if (rc != SCP_OK) return rc;
  }
  uint8_t *buf = calloc(newlen ? newlen : 1, 1);
  if (!buf) return SCP_ERR_NOMEM;
  if (o->len) memcpy(buf, o->u.bytes, o->len);
  if (src_or_null) {
    rc = scp_host_charge(h, SCP_COST_MemCpy, len);
    if (rc == SCP_OK && len) memcpy(buf + opos, src_or_null, len);
  } else {
    rc = scp_host_mem_read(h, lm, len, buf + opos);
  }
  if (rc != SCP_OK) {
    free(buf);
    return rc;
  }
  scp_hobj n = { .tag = o->tag, .len = newlen };
  n.u.bytes = buf;
  return scp_host_add_obj(h, &n, ret);
}

HOSTFN(bytes_copy_from_linear_memory) {
  if (!scp_host_in_vm(h))
    return scp_host_err(h, SCP_ET_WASM_VM, SCP_EC_INTERNAL_ERROR,
                        "attempt to access guest bytes in non-VM frame");
  return memobj_copy_in(h, a[0], u32_arg(a[1]), u32_arg(a[3]), NULL, u32_arg(a[2]), ret);
}


/* ---- crypto (crypto/mod.rs) ------------------------------------------------ */

/* sha256_hash_from_bytesobj_input: visit, Vec<u8> bulk init of 32,
 * ComputeSha256Hash(len); then add_host_object of the digest. */
HOSTFN(compute_hash_sha256) {
  const scp_hobj *o;
  uint8_t digest[SHA256_DIGEST_LENGTH];
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, 32, 1);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_ComputeSha256Hash, o->len);
  if (rc != SCP_OK) return rc;
  SHA256(o->u.bytes, o->len, digest);
  return add_bytes_obj(h, SCP_TAG_BYTES_OBJ, digest, sizeof digest, ret);
}


/* keccak256_hash_from_bytesobj_input: as sha256 with ComputeKeccak256Hash. */
HOSTFN(compute_hash_keccak256) {
  const scp_hobj *o;
  uint8_t digest[32];
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, 32, 1);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_ComputeKeccak256Hash, o->len);
  if (rc != SCP_OK) return rc;
  scp_host_keccak256(o->u.bytes, o->len, digest);
  return add_bytes_obj(h, SCP_TAG_BYTES_OBJ, digest, sizeof digest, ret);
}

static int err_crypto(scp_host *h, const char *what) {
  return scp_host_err(h, SCP_ET_CRYPTO, SCP_EC_INVALID_INPUT, "%s", what);
}

/* fixed_length_bytes_from_bytesobj_input (conversion.rs): visit, then
 * MemCpy(n) or Error(Object, UnexpectedSize). */
static int fixed_bytes(scp_host *h, uint64_t v, uint32_t n, uint8_t *out) {
  const scp_hobj *o;
  int rc = visit(h, v, &o);
  if (rc != SCP_OK) return rc;
  if (o->len != n)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_UNEXPECTED_SIZE,
                        "expected fixed-length bytes slice, got slice with different size");
  rc = scp_host_charge(h, SCP_COST_MemCpy, n);
  if (rc == SCP_OK) memcpy(out, o->u.bytes, n);
  return rc;
}

/* verify_sig_ed25519 (host.rs, crypto/mod.rs): key (visit,
 * ComputeEd25519PubKey, length and point checks), signature (64 fixed
 * bytes), then visit the message, VerifyEd25519Sig(len), verify_strict. */
HOSTFN(verify_sig_ed25519) {
  const scp_hobj *o;
  uint8_t key[32], sig[64];
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_ComputeEd25519PubKey, -1);
  if (rc != SCP_OK) return rc;
  if (o->len != 32) return err_crypto(h, "invalid length of ed25519 public key");
  memcpy(key, o->u.bytes, 32);
  if (!scp_host_ed25519_key_ok(key)) return err_crypto(h, "invalid ed25519 public key");
  rc = fixed_bytes(h, a[2], 64, sig);
  if (rc == SCP_OK) rc = visit(h, a[1], &o);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_VerifyEd25519Sig, o->len);
  if (rc != SCP_OK) return rc;
  if (!scp_host_ed25519_verify(key, o->u.bytes, o->len, sig))
    return err_crypto(h, "failed ED25519 verification");
  *ret = SCP_VAL_VOID;
  return SCP_OK;
}

/* ecdsa_signature_from_bytesobj_input: visit, DecodeEcdsaCurve256Sig,
 * parse, low-s. */
static int ecdsa_sig(scp_host *h, uint64_t v, bool k1, uint8_t sig[64]) {
  const scp_hobj *o;
  int rc = visit(h, v, &o);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_DecodeEcdsaCurve256Sig, -1);
  if (rc != SCP_OK) return rc;
  int c = scp_host_ecdsa_sig_check(o->u.bytes, o->len, k1);
  if (c == 1) return err_crypto(h, "invalid ECDSA signature");
  if (c == 2) return err_crypto(h, "ECDSA signature 's' part is not normalized to low form");
  memcpy(sig, o->u.bytes, 64);
  return SCP_OK;
}

HOSTFN(recover_key_ecdsa_secp256k1) {
  uint8_t sig[64], hash[32], key[65];
  int rc = ecdsa_sig(h, a[1], true, sig);
  if (rc != SCP_OK) return rc;
  uint32_t rid = u32_arg(a[2]);
  if (rid > 3) return err_crypto(h, "invalid ECDSA-secp256k1 recovery ID");
  rc = fixed_bytes(h, a[0], 32, hash);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_RecoverEcdsaSecp256k1Key, -1);
  if (rc != SCP_OK) return rc;
  if (!scp_host_secp256k1_recover(hash, sig, (int)rid, key))
    return err_crypto(h, "ECDSA-secp256k1 signature recovery failed");
  return add_bytes_obj(h, SCP_TAG_BYTES_OBJ, key, sizeof key, ret);
}

HOSTFN(verify_sig_ecdsa_secp256r1) {
  const scp_hobj *o;
  uint8_t key[65], sig[64], hash[32];
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_Sec1DecodePointUncompressed, -1);
  if (rc != SCP_OK) return rc;
  if (scp_host_p256_key_check(o->u.bytes, o->len)) return err_crypto(h, "invalid ECDSA public key");
  memcpy(key, o->u.bytes, 65);
  rc = ecdsa_sig(h, a[2], false, sig);
  if (rc == SCP_OK) rc = fixed_bytes(h, a[1], 32, hash);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_VerifyEcdsaSecp256r1Sig, -1);
  if (rc != SCP_OK) return rc;
  if (!scp_host_p256_verify(key, hash, sig)) return err_crypto(h, "failed secp256r1 verification");
  *ret = SCP_VAL_VOID;
  return SCP_OK;
}


/* ---- 256-bit integers (host.rs, host/num.rs, common convert.rs) ------------ */

static int obj_from_words(scp_host *h, unsigned tag, const uint64_t *w, uint64_t *ret) {
  scp_hobj o = { .tag = (uint8_t)tag };
  memcpy(o.u.w, w, sizeof o.u.w);
  return scp_host_add_obj(h, &o, ret);
}

HOSTFN(obj_from_u256_pieces) { return obj_from_words(h, SCP_TAG_U256_OBJ, a, ret); }
HOSTFN(obj_from_i256_pieces) { return obj_from_words(h, SCP_TAG_I256_OBJ, a, ret); }

static int obj_word(scp_host *h, uint64_t v, unsigned k, uint64_t *ret) {
  const scp_hobj *o;
  int rc = visit(h, v, &o);
  if (rc == SCP_OK) *ret = o->u.w[k];
  return rc;
}

HOSTFN(obj_to_u256_hi_hi) { return obj_word(h, a[0], 0, ret); }
HOSTFN(obj_to_u256_hi_lo) { return obj_word(h, a[0], 1, ret); }
HOSTFN(obj_to_u256_lo_hi) { return obj_word(h, a[0], 2, ret); }
HOSTFN(obj_to_u256_lo_lo) { return obj_word(h, a[0], 3, ret); }
HOSTFN(obj_to_i256_hi_hi) { return obj_word(h, a[0], 0, ret); }
HOSTFN(obj_to_i256_hi_lo) { return obj_word(h, a[0], 1, ret); }
HOSTFN(obj_to_i256_lo_hi) { return obj_word(h, a[0], 2, ret); }
HOSTFN(obj_to_i256_lo_lo) { return obj_word(h, a[0], 3, ret); }

/* TryFromVal<Val> for U256 / I256: a small value is free; an object is
 * read through four checked Env calls (obj_to_u256_hi_hi ...), each
 * visiting it twice (argument check, then the body). */
static int int256_from_val(scp_host *h, uint64_t v, bool sign, uint64_t *w) {
  if (!scp_val_is_object(v)) {
    scp_int256_from_small(v, sign, w);
    return SCP_OK;
  }
  for (unsigned k = 0; k < 4; k++) {
    int rc = scp_host_check_val(h, v);
    if (rc == SCP_OK) rc = obj_word(h, v, k, &w[k]);
    if (rc != SCP_OK) return rc;
  }
  return SCP_OK;
}

/* TryFromVal<U256> for U256Val: small when it fits, else the checked Env
 * obj_from_u256_pieces (a new object, then its result check). */
static int int256_to_val(scp_host *h, const uint64_t *w, bool sign, uint64_t *ret) {
  if (scp_int256_fits_small(w, sign)) {
    *ret = sign ? scp_val_small_i((int64_t)w[3], SCP_TAG_I256_SMALL)
                : scp_val_small_u(w[3], SCP_TAG_U256_SMALL);
    return SCP_OK;
  }
  int rc = obj_from_words(h, sign ? SCP_TAG_I256_OBJ : SCP_TAG_U256_OBJ, w, ret);
  if (rc == SCP_OK) rc = scp_host_check_val(h, *ret);
  return rc;
}

/* impl_bignum_host_fns (host/num.rs): the cost type first, then both
 * operands, the operation; None is Error(Object, ArithDomain), or Void for
 * the checked_ variants. */
static int bignum(scp_host *h, const uint64_t *a, scp_int256_opcode op, bool sign,
                  scp_cost_type cost, bool checked, uint64_t *ret) {
  uint64_t x[4], y[4] = { 0 }, r[4];
  uint32_t n = 0;
  bool u32_rhs = op == SCP_I256_POW || op == SCP_I256_SHL || op == SCP_I256_SHR;
  int rc = scp_host_charge(h, cost, -1);
  if (rc == SCP_OK) rc = int256_from_val(h, a[0], sign, x);
  if (rc == SCP_OK && !u32_rhs) rc = int256_from_val(h, a[1], sign, y);
  if (rc != SCP_OK) return rc;
  if (u32_rhs) n = u32_arg(a[1]);
  if (!scp_int256_op(op, sign, x, y, n, r)) {
    if (checked) {
      *ret = SCP_VAL_VOID;
      return SCP_OK;
    }
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_ARITH_DOMAIN, "overflow has occurred");
  }
  return int256_to_val(h, r, sign, ret);
}

#define BIGNUM(name, op, sign, cost, checked) \
  HOSTFN(name) { return bignum(h, a, op, sign, SCP_COST_##cost, checked, ret); }
BIGNUM(u256_add, SCP_I256_ADD, false, Int256AddSub, false)
BIGNUM(u256_sub, SCP_I256_SUB, false, Int256AddSub, false)
BIGNUM(u256_mul, SCP_I256_MUL, false, Int256Mul, false)
BIGNUM(u256_div, SCP_I256_DIV, false, Int256Div, false)
BIGNUM(u256_rem_euclid, SCP_I256_REM_EUCLID, false, Int256Div, false)
BIGNUM(u256_pow, SCP_I256_POW, false, Int256Pow, false)
BIGNUM(u256_shl, SCP_I256_SHL, false, Int256Shift, false)
BIGNUM(u256_shr, SCP_I256_SHR, false, Int256Shift, false)
BIGNUM(i256_add, SCP_I256_ADD, true, Int256AddSub, false)
BIGNUM(i256_sub, SCP_I256_SUB, true, Int256AddSub, false)
BIGNUM(i256_mul, SCP_I256_MUL, true, Int256Mul, false)
BIGNUM(i256_div, SCP_I256_DIV, true, Int256Div, false)
BIGNUM(i256_rem_euclid, SCP_I256_REM_EUCLID, true, Int256Div, false)
BIGNUM(i256_pow, SCP_I256_POW, true, Int256Pow, false)
BIGNUM(i256_shl, SCP_I256_SHL, true, Int256Shift, false)
BIGNUM(i256_shr, SCP_I256_SHR, true, Int256Shift, false)
BIGNUM(u256_checked_add, SCP_I256_ADD, false, Int256AddSub, true)
BIGNUM(u256_checked_sub, SCP_I256_SUB, false, Int256AddSub, true)
BIGNUM(u256_checked_mul, SCP_I256_MUL, false, Int256Mul, true)
BIGNUM(u256_checked_pow, SCP_I256_POW, false, Int256Pow, true)
BIGNUM(i256_checked_add, SCP_I256_ADD, true, Int256AddSub, true)
BIGNUM(i256_checked_sub, SCP_I256_SUB, true, Int256AddSub, true)
BIGNUM(i256_checked_mul, SCP_I256_MUL, true, Int256Mul, true)
BIGNUM(i256_checked_pow, SCP_I256_POW, true, Int256Pow, true)
#undef BIGNUM

/* u256_val_from_be_bytes: visit, fixed 32 bytes (MemCpy(32)), then
 * U256Val::try_from_val. */
static int int256_from_be(scp_host *h, uint64_t v, bool sign, uint64_t *ret) {
  uint8_t b[32];
  int rc = fixed_bytes(h, v, 32, b);
  if (rc != SCP_OK) return rc;
  uint64_t w[4];
  for (int k = 0; k < 4; k++) {
    w[k] = 0;
    for (int j = 0; j < 8; j++) w[k] = (w[k] << 8) | b[8 * k + j];
  }
  return int256_to_val(h, w, sign, ret);
}

/* u256_val_to_be_bytes: (visit for an object,) scbytes_from_slice of 32
 * bytes (Vec<u8> bulk init), add. */
static int int256_to_be(scp_host *h, uint64_t v, bool sign, uint64_t *ret) {
  uint64_t w[4];
  if (scp_val_is_object(v)) {
    const scp_hobj *o;
    int rc = visit(h, v, &o);
    if (rc != SCP_OK) return rc;
    memcpy(w, o->u.w, sizeof w);
  } else {
    scp_int256_from_small(v, sign, w);
  }
  int rc = scp_host_charge_bulk_init(h, 32, 1);
  if (rc != SCP_OK) return rc;
  uint8_t b[32];
  for (int k = 0; k < 32; k++) b[k] = (uint8_t)(w[k / 8] >> (8 * (7 - k % 8)));
  return add_bytes_obj(h, SCP_TAG_BYTES_OBJ, b, 32, ret);
}

HOSTFN(u256_val_from_be_bytes) { return int256_from_be(h, a[0], false, ret); }
HOSTFN(i256_val_from_be_bytes) { return int256_from_be(h, a[0], true, ret); }
HOSTFN(u256_val_to_be_bytes) { return int256_to_be(h, a[0], false, ret); }
HOSTFN(i256_val_to_be_bytes) { return int256_to_be(h, a[0], true, ret); }


/* ---- addresses and strkeys (host.rs, host/conversion.rs, the stellar-strkey
 * format: version byte, payload, CRC16-XModem little-endian, base32) ------- */

enum {
  STRKEY_ACCOUNT = 6 << 3, STRKEY_CONTRACT = 2 << 3, STRKEY_MUXED = 12 << 3,
  PAYLOAD_LEN = 32 + 3, MUXED_PAYLOAD_LEN = 32 + 8 + 3,
  KEY_LEN = (PAYLOAD_LEN * 8 + 4) / 5, MUXED_KEY_LEN = (MUXED_PAYLOAD_LEN * 8 + 4) / 5
};

static uint16_t crc16_xmodem(const uint8_t *p, size_t n) {
  uint16_t crc = 0;
  for (size_t i = 0; i < n; i++) {
    crc ^= (uint16_t)(p[i] << 8);
    for (int b = 0; b < 8; b++) crc = crc & 0x8000 ? (uint16_t)(crc << 1 ^ 0x1021) : (uint16_t)(crc << 1);
  }
  return crc;
}

static const char b32[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

static size_t base32_encode(const uint8_t *p, size_t n, char *out) {
  size_t o = 0;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n; i++) {
    acc = acc << 8 | p[i];
    bits += 8;
    while (bits >= 5) {
      out[o++] = b32[(acc >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits) out[o++] = b32[(acc << (5 - bits)) & 31];
  return o;
}

/* Strict base32 (no padding; unused trailing bits must be zero). */
static bool base32_decode(const uint8_t *s, size_t n, uint8_t *out, size_t *outn) {
  size_t o = 0;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n; i++) {
    const char *c = s[i] ? strchr(b32, s[i]) : NULL;
    if (!c) return false;
    acc = acc << 5 | (uint32_t)(c - b32);
    bits += 5;
    if (bits >= 8) {
      out[o++] = (uint8_t)(acc >> (bits - 8));
      bits -= 8;
    }
  }
  if (bits >= 5 || (acc & ((1u << bits) - 1))) return false;
  *outn = o;
  return true;
}

static size_t strkey_encode(uint8_t version, const uint8_t *payload, size_t n, char *out) {
  uint8_t raw[64];
  raw[0] = version;
  memcpy(raw + 1, payload, n);
  uint16_t crc = crc16_xmodem(raw, n + 1);
  raw[n + 1] = (uint8_t)crc;
  raw[n + 2] = (uint8_t)(crc >> 8);
  return base32_encode(raw, n + 3, out);
}

void scp_host_contract_strkey(const uint8_t id[32], char out[57]) {
  size_t n = strkey_encode(STRKEY_CONTRACT, id, 32, out);
  out[n] = 0;
}

void scp_host_address_strkey(const uint8_t *addr, char out[57]) {
  size_t n = strkey_encode(addr[0] == 0 ? STRKEY_ACCOUNT : STRKEY_CONTRACT, addr + 1, 32, out);
  out[n] = 0;
}

/* non_muxed_sc_address_to_strkey / muxed_sc_address_to_strkey: the
 * String's Vec<u8> bulk init (payload + its base32 length), the 32-byte
 * key cloned (MemCpy(32)), then the String object. */
static int address_to_strkey(scp_host *h, const scp_hobj *o, uint64_t *ret) {
  uint8_t kind = o->u.bytes[0], payload[40];
  bool muxed = kind == 2;
  size_t plen = muxed ? MUXED_PAYLOAD_LEN : PAYLOAD_LEN;
  int rc = scp_host_charge_bulk_init(h, plen + (plen * 8 + 4) / 5, 1);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, 32);
  if (rc != SCP_OK) return rc;
  char text[80];
  size_t n;
  if (muxed) {
    memcpy(payload, o->u.bytes + 9, 32);   /* key, then the id big-endian */
    memcpy(payload + 32, o->u.bytes + 1, 8);
    n = strkey_encode(STRKEY_MUXED, payload, 40, text);
  } else {
    n = strkey_encode(kind == 0 ? STRKEY_ACCOUNT : STRKEY_CONTRACT, o->u.bytes + 1, 32, text);
  }
  return add_bytes_obj(h, SCP_TAG_STRING_OBJ, (const uint8_t *)text, (uint32_t)n, ret);
}

HOSTFN(address_to_strkey) {
  const scp_hobj *o;
  int rc = visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (o->u.bytes[0] > 1)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INTERNAL_ERROR,
                        "Unexpected ScAddress type for strkey encoding");
  return address_to_strkey(h, o, ret);
}

HOSTFN(muxed_address_to_strkey) {
  if (!scp_val_is_object(a[0]))
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "address is not an object");
  const scp_hobj *o;
  int rc = visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (o->tag != SCP_TAG_ADDRESS_OBJ && o->tag != SCP_TAG_MUXED_ADDRESS_OBJ)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE,
                        "value is not an AddressObject or MuxedAddressObject");
  return address_to_strkey(h, o, ret);
}

/* strkey_to_scaddress: a String or Bytes object of the right length
 * (Value/InvalidInput), two Vec<u8> bulk inits (the text, then twice the
 * payload), the decode (Value/InvalidInput), then the Address object. */
static int strkey_to_address(scp_host *h, uint64_t v, bool allow_muxed, uint64_t *ret) {
  if (!scp_val_is_object(v))
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "strkey is not an object");
  const scp_hobj *o;
  int rc = visit(h, v, &o);
  if (rc != SCP_OK) return rc;
  if (o->tag != SCP_TAG_BYTES_OBJ && o->tag != SCP_TAG_STRING_OBJ)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE,
                        "strkey is not a string or bytes object");
  size_t plen;
  if (o->len == KEY_LEN) plen = PAYLOAD_LEN;
  else if (allow_muxed && o->len == MUXED_KEY_LEN) plen = MUXED_PAYLOAD_LEN;
  else return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "unexpected strkey length");
  rc = scp_host_charge_bulk_init(h, o->len, 1);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, 2 * plen, 1);
  if (rc != SCP_OK) return rc;
  uint8_t raw[64];
  size_t n;
  bool ok = base32_decode(o->u.bytes, o->len, raw, &n) && n >= 3 &&
            crc16_xmodem(raw, n - 2) == (uint16_t)(raw[n - 2] | raw[n - 1] << 8);
  uint8_t enc[41];
  uint32_t elen = 33;
  unsigned tag = SCP_TAG_ADDRESS_OBJ;
  if (ok && raw[0] == STRKEY_ACCOUNT && n == PAYLOAD_LEN) {
    enc[0] = 0;
    memcpy(enc + 1, raw + 1, 32);
  } else if (ok && raw[0] == STRKEY_CONTRACT && n == PAYLOAD_LEN) {
    enc[0] = 1;
    memcpy(enc + 1, raw + 1, 32);
  } else if (ok && allow_muxed && raw[0] == STRKEY_MUXED && n == MUXED_PAYLOAD_LEN) {
    enc[0] = 2;
    memcpy(enc + 1, raw + 33, 8);
    memcpy(enc + 9, raw + 1, 32);
    elen = 41;
    tag = SCP_TAG_MUXED_ADDRESS_OBJ;
  } else {
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT,
                        "couldn't process the string as strkey");
  }
  return add_bytes_obj(h, tag, enc, elen, ret);
}

HOSTFN(strkey_to_address) { return strkey_to_address(h, a[0], false, ret); }
HOSTFN(strkey_to_muxed_address) { return strkey_to_address(h, a[0], true, ret); }

/* get_address_from_muxed_address: visit, the key cloned (MemCpy(32)), a
 * new account Address. */
HOSTFN(get_address_from_muxed_address) {
  const scp_hobj *o;
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, 32);
  if (rc != SCP_OK) return rc;
  uint8_t enc[33];
  enc[0] = 0;
  memcpy(enc + 1, o->u.bytes + 9, 32);
  return add_bytes_obj(h, SCP_TAG_ADDRESS_OBJ, enc, sizeof enc, ret);
}

HOSTFN(get_id_from_muxed_address) {
  const scp_hobj *o;
  int rc = visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  uint64_t id = 0;
  for (int i = 0; i < 8; i++) id = id << 8 | o->u.bytes[1 + i];
  return u64_val(h, id, ret);
}


/* ---- PRNG (host.rs prng_*, host/prng.rs, host/frame.rs with_current_prng) - */

/* with_current_prng: the frame's PRNG, drawn on first use from the base
 * (sub_prng: ChaCha20DrawBytes(32), MemCpy(32)). */
static int current_prng(scp_host *h, scp_prng **out) {
  if (!scp_host_in_vm(h))
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR, "no contract frame");
  scp_frame *f = &h->frames[h->nframes - 1];
  if (!f->has_prng) {
    if (!h->has_base_prng)
      return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR,
                          "host base PRNG was not seeded");
    uint8_t seed[32];
    int rc = scp_host_charge(h, SCP_COST_ChaCha20DrawBytes, 32);
    if (rc != SCP_OK) return rc;
    scp_prng_fill(&h->base_prng, seed, sizeof seed);
    rc = scp_host_charge_copy(h, 1, 32);
    if (rc != SCP_OK) return rc;
    scp_prng_seed_raw(&f->prng, seed);
    f->has_prng = true;
  }
  *out = &f->prng;
  return SCP_OK;
}

/* prng_reseed: visit, MemCpy(32), then a 32-byte seed replaces the frame's
 * PRNG (new_from_seed: 2 x ComputeSha256Hash(64)); other sizes are
 * Error(Value, UnexpectedSize). */
HOSTFN(prng_reseed) {
  const scp_hobj *o;
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, 32);
  if (rc != SCP_OK) return rc;
  if (o->len != 32)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_SIZE,
                        "Unexpected size of BytesObject in prng_reseed");
  uint8_t seed[32];
  memcpy(seed, o->u.bytes, 32);
  scp_prng *p;
  rc = current_prng(h, &p);
  if (rc == SCP_OK) rc = scp_host_charge_n(h, SCP_COST_ComputeSha256Hash, 2, 64);
  if (rc != SCP_OK) return rc;
  scp_prng_seed(p, seed);
  *ret = SCP_VAL_VOID;
  return SCP_OK;
}

/* prng_bytes_new: Vec<u8> bulk init, ChaCha20DrawBytes(len), the object. */
HOSTFN(prng_bytes_new) {
  uint32_t len = u32_arg(a[0]);
  scp_prng *p;
  int rc = current_prng(h, &p);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, len, 1);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_ChaCha20DrawBytes, len);
  if (rc != SCP_OK) return rc;
  uint8_t *buf = malloc(len ? len : 1);
  if (!buf) return SCP_ERR_NOMEM;
  scp_prng_fill(p, buf, len);
  scp_hobj o = { .tag = SCP_TAG_BYTES_OBJ, .len = len };
  o.u.bytes = buf;
  return scp_host_add_obj(h, &o, ret);
}

/* u64_in_inclusive_range: lo > hi is Error(Value, InvalidInput), else
 * ChaCha20DrawBytes(16) and one uniform sample. */
HOSTFN(prng_u64_in_inclusive_range) {
  scp_prng *p;
  int rc = current_prng(h, &p);
  if (rc != SCP_OK) return rc;
  if (a[0] > a[1]) return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "empty range");
  rc = scp_host_charge(h, SCP_COST_ChaCha20DrawBytes, 16);
  if (rc == SCP_OK) *ret = scp_prng_u64_inclusive(p, a[0], a[1]);
  return rc;
}

/* vec_shuffle: visit, then the vector cloned (metered_clone),
 * ChaCha20DrawBytes(16n), MemCpy(n), the shuffle, the object. */
HOSTFN(prng_vec_shuffle) {
  const scp_hobj *o;
  scp_prng *p;
  int rc = visit(h, a[0], &o);
  if (rc == SCP_OK) rc = current_prng(h, &p);
  if (rc != SCP_OK) return rc;
  o = objp(h, a[0]);
  uint32_t n = o->len;
  rc = charge_vec_new(h, n);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_ChaCha20DrawBytes, 16 * (int64_t)n);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, n, 1);
  if (rc != SCP_OK) return rc;
  uint64_t *vals = vals_alloc(n);
  if (!vals) return SCP_ERR_NOMEM;
  memcpy(vals, o->u.vals, (size_t)n * sizeof *vals);
  scp_prng_shuffle(p, vals, n);
  return add_vec_obj(h, vals, n, ret);
}


/* ---- scalar fields (crypto/bls12_381.rs, crypto/bn254.rs,
 * crypto/metered_scalar.rs) ---------------------------------------------------- */

typedef struct fr_field {
  uint64_t m[4];
  scp_cost_type from, to, addsub, mul, pow, inv;
} fr_field;

static const fr_field bls_fr = {
  { 0x73eda753299d7d48ULL, 0x3339d80809a1d805ULL, 0x53bda402fffe5bfeULL, 0xffffffff00000001ULL },
  SCP_COST_Bls12381FrFromU256, SCP_COST_Bls12381FrToU256, SCP_COST_Bls12381FrAddSub,
  SCP_COST_Bls12381FrMul, SCP_COST_Bls12381FrPow, SCP_COST_Bls12381FrInv,
};
static const fr_field bn_fr = {
  { 0x30644e72e131a029ULL, 0xb85045b68181585dULL, 0x2833e84879b97091ULL, 0x43e1f593f0000001ULL },
  SCP_COST_Bn254FrFromU256, SCP_COST_Bn254FrToU256, SCP_COST_Bn254FrAddSub,
  SCP_COST_Bn254FrMul, SCP_COST_Bn254FrPow, SCP_COST_Bn254FrInv,
};

/* from_u256val: the cost type, then the value (an object is visited)
 * reduced mod r. */
static int fr_from_val(scp_host *h, const fr_field *f, uint64_t v, uint64_t *x) {
  int rc = scp_host_charge(h, f->from, -1);
  if (rc != SCP_OK) return rc;
  uint64_t w[4];
  if (scp_val_is_object(v)) {
    const scp_hobj *o;
    rc = visit(h, v, &o);
    if (rc != SCP_OK) return rc;
    memcpy(w, o->u.w, sizeof w);
  } else {
    scp_int256_from_small(v, false, w);
  }
  scp_fr_reduce(w, f->m, x);
  return SCP_OK;
}

/* into_u256val: the cost type, then U256Val::try_from_val. */
static int fr_to_val(scp_host *h, const fr_field *f, const uint64_t *x, uint64_t *ret) {
  int rc = scp_host_charge(h, f->to, -1);
  return rc == SCP_OK ? int256_to_val(h, x, false, ret) : rc;
}

enum { FR_ADD, FR_SUB, FR_MUL };

static int fr_arith(scp_host *h, const fr_field *f, const uint64_t *a, int op, uint64_t *ret) {
  uint64_t x[4], y[4], r[4];
  int rc = fr_from_val(h, f, a[0], x);
  if (rc == SCP_OK) rc = fr_from_val(h, f, a[1], y);
  if (rc == SCP_OK) rc = scp_host_charge(h, op == FR_MUL ? f->mul : f->addsub, -1);
  if (rc != SCP_OK) return rc;
  if (op == FR_ADD) scp_fr_add(x, y, f->m, r);
  else if (op == FR_SUB) scp_fr_sub(x, y, f->m, r);
  else scp_fr_mul(x, y, f->m, r);
  return fr_to_val(h, f, r, ret);
}

/* pow: the exponent is a U64Val (u64::try_from_val: an object through the
 * checked Env obj_to_u64); FrPow's input is its bit length. */
static int fr_pow(scp_host *h, const fr_field *f, const uint64_t *a, uint64_t *ret) {
  uint64_t x[4], r[4], e;
  int rc = fr_from_val(h, f, a[0], x);
  if (rc != SCP_OK) return rc;
  if (scp_val_is_object(a[1])) {
    rc = scp_host_check_val(h, a[1]);
    if (rc == SCP_OK) rc = obj_to_word(h, a[1], &e);
    if (rc != SCP_OK) return rc;
  } else {
    e = scp_val_body(a[1]);
  }
  rc = scp_host_charge(h, f->pow, (int64_t)magnitude(e));
  if (rc != SCP_OK) return rc;
  scp_fr_pow(x, &e, 1, f->m, r);
  return fr_to_val(h, f, r, ret);
}

/* inv: zero is Error(Crypto, InvalidInput) before the charge; a^(r-2). */
static int fr_inv(scp_host *h, const fr_field *f, const uint64_t *a, uint64_t *ret) {
  uint64_t x[4], r[4], e[4];
  int rc = fr_from_val(h, f, a[0], x);
  if (rc != SCP_OK) return rc;
  if (!(x[0] | x[1] | x[2] | x[3]))
    return scp_host_err(h, SCP_ET_CRYPTO, SCP_EC_INVALID_INPUT, "scalar inversion input is zero");
  rc = scp_host_charge(h, f->inv, -1);
  if (rc != SCP_OK) return rc;
  const uint64_t two[4] = { 0, 0, 0, 2 };
  uint64_t m2[4];
  scp_int256_op(SCP_I256_SUB, false, f->m, two, 0, m2);
  for (int i = 0; i < 4; i++) e[i] = m2[3 - i];   /* least significant first */
  scp_fr_pow(x, e, 4, f->m, r);
  return fr_to_val(h, f, r, ret);
}

HOSTFN(bls12_381_fr_add) { return fr_arith(h, &bls_fr, a, FR_ADD, ret); }
HOSTFN(bls12_381_fr_sub) { return fr_arith(h, &bls_fr, a, FR_SUB, ret); }
HOSTFN(bls12_381_fr_mul) { return fr_arith(h, &bls_fr, a, FR_MUL, ret); }
HOSTFN(bls12_381_fr_pow) { return fr_pow(h, &bls_fr, a, ret); }
HOSTFN(bls12_381_fr_inv) { return fr_inv(h, &bls_fr, a, ret); }
HOSTFN(bn254_fr_add) { return fr_arith(h, &bn_fr, a, FR_ADD, ret); }
HOSTFN(bn254_fr_sub) { return fr_arith(h, &bn_fr, a, FR_SUB, ret); }
HOSTFN(bn254_fr_mul) { return fr_arith(h, &bn_fr, a, FR_MUL, ret); }
HOSTFN(bn254_fr_pow) { return fr_pow(h, &bn_fr, a, ret); }
HOSTFN(bn254_fr_inv) { return fr_inv(h, &bn_fr, a, ret); }

HOSTFN(dummy0) {
  *ret = SCP_VAL_VOID;
  return SCP_OK;
}

HOSTFN(protocol_gated_dummy) {
  *ret = SCP_VAL_VOID;
  return SCP_OK;
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
  int rc = visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  /* the objects table may grow while converting: copy the input first */
  uint8_t *copy = malloc(o->len ? o->len : 1);
  if (!copy) return SCP_ERR_NOMEM;
  if (o->len) memcpy(copy, o->u.bytes, o->len);
  rc = scp_host_val_from_xdr(h, copy, o->len, ret);
  free(copy);
  return rc;
}

/* ---- EnvBase (host.rs impl EnvBase for Host) ------------------------------ */

/* bytes_new_from_slice / string_new_from_slice: metered_slice_to_vec
 * (Vec<u8> bulk init of len) + add_host_object.  symbol_new_from_slice
 * first charges MemCmp(len) and validates every byte. */
int scp_host_memobj_new_from_slice(scp_host *h, unsigned tag, const uint8_t *p,
                                   uint32_t len, uint64_t *out) {
  int rc = SCP_OK;
  if (tag == SCP_TAG_SYMBOL_OBJ) {
    rc = scp_host_charge(h, SCP_COST_MemCmp, len);
    for (uint32_t i = 0; rc == SCP_OK && i < len; i++)
      if (scp_val_symbol_code(p[i]) < 0)
        rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT,
                          "byte is not allowed in Symbol");
  }
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, len, 1);
  if (rc == SCP_OK && tag == SCP_TAG_SYMBOL_OBJ && len > SCP_SYMBOL_MAX)
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "symbol too long");
  if (rc != SCP_OK) return rc;
  return add_bytes_obj(h, tag, p, len, out);
}

/* bytes_copy_to_slice etc.: memobj_copy_to_slice -- visit, range, then
 * metered_copy_byte_slice = MemCpy(len). */
int scp_host_memobj_copy_to_slice(scp_host *h, uint64_t obj, uint32_t pos, uint8_t *dst,
                                  uint32_t len) {
  const scp_hobj *o;
  int rc = memobj_range(h, obj, pos, len, &o);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_MemCpy, len);
  if (rc == SCP_OK && len) memcpy(dst, o->u.bytes + pos, len);
  return rc;
}

/* bytes_copy_from_slice: memobj_copy_from_slice. */
int scp_host_memobj_copy_from_slice(scp_host *h, uint64_t obj, uint32_t pos,
                                    const uint8_t *src, uint32_t len, uint64_t *out) {
  return memobj_copy_in(h, obj, pos, len, src, 0, out);
}

/* HostMap::from_map_with_host of n pairs + add_host_object (no capacity
 * charge: the caller's Vec was already charged). */
int scp_host_map_from_pairs_nocap(scp_host *h, const uint64_t *kv, uint32_t n, uint64_t *out) {
  uint64_t *copy = vals_alloc(2 * (size_t)n);
  if (!copy) return SCP_ERR_NOMEM;
  if (n) memcpy(copy, kv, 2 * (size_t)n * sizeof *copy);
  int rc = scp_host_charge_copy(h, n, SIZE_MAP_ENTRY);
  if (rc != SCP_OK) {
    free(copy);
    return rc;
  }
  return map_adopt_sorted(h, copy, n, out);
}

/* A Map from sorted (key, value) pairs the way to_host_obj converts an
 * ScVal::Map (conversion.rs): Vec<(Val, Val)> with_metered_capacity(n),
 * then HostMap::from_map (MemCpy(24n), adjacent keys compared, each must
 * be Less: Error(Object, InvalidInput)), then add_host_object. */
int scp_host_map_from_pairs(scp_host *h, const uint64_t *kv, uint32_t n, uint64_t *out) {
  int rc = scp_host_charge_bulk_init(h, n, SIZE_MAP_ENTRY);
  if (rc != SCP_OK) return rc;
  return scp_host_map_from_pairs_nocap(h, kv, n, out);
}

/* vec_unpack_to_slice: visit, lengths must match (Object/UnexpectedSize),
 * charge_shallow_copy::<Val>(len) = MemCpy(8*len). */
int scp_host_vec_unpack_to_slice(scp_host *h, uint64_t vec, uint64_t *dst, uint32_t len) {
  const scp_hobj *o;
  int rc = visit(h, vec, &o);
  if (rc != SCP_OK) return rc;
  if (o->len != len)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_UNEXPECTED_SIZE,
                        "differing host vector and output vector lengths");
  rc = scp_host_charge_copy(h, len, SIZE_VAL);
  if (rc == SCP_OK && len) memcpy(dst, o->u.vals, (size_t)len * sizeof *dst);
  return rc;
}

/* vec_new_from_slice: from_exact_iter, check every element, add. */
int scp_host_vec_new_from_slice(scp_host *h, const uint64_t *vals, uint32_t n,
                                uint64_t *out) {
  int rc = charge_vec_new(h, n);
  for (uint32_t i = 0; rc == SCP_OK && i < n; i++) rc = scp_host_check_val(h, vals[i]);
  if (rc != SCP_OK) return rc;
  uint64_t *copy = vals_alloc(n);
  if (!copy) return SCP_ERR_NOMEM;
  if (n) memcpy(copy, vals, (size_t)n * sizeof *copy);
  return add_vec_obj(h, copy, n, out);
}

/* ---- registration ------------------------------------------------------- */

#define REG(name) [SCP_HF_##name] = hf_##name

const scp_hostfn_impl scp_hostfn_impls[SCP_HF_COUNT] = {
  REG(log_from_linear_memory), REG(get_ledger_version), REG(get_ledger_sequence),
  REG(get_ledger_timestamp), REG(contract_event), REG(fail_with_error),
  REG(get_ledger_network_id), REG(get_current_contract_address), REG(get_max_live_until_ledger),
  REG(obj_from_u64), REG(obj_to_u64), REG(obj_from_i64), REG(obj_to_i64),
  REG(timepoint_obj_from_u64), REG(timepoint_obj_to_u64),
  REG(duration_obj_from_u64), REG(duration_obj_to_u64),
  REG(obj_from_u128_pieces), REG(obj_to_u128_lo64), REG(obj_to_u128_hi64),
  REG(obj_from_i128_pieces), REG(obj_to_i128_lo64), REG(obj_to_i128_hi64),
  REG(obj_from_u256_pieces), REG(obj_from_i256_pieces),
  REG(obj_to_u256_hi_hi), REG(obj_to_u256_hi_lo), REG(obj_to_u256_lo_hi), REG(obj_to_u256_lo_lo),
  REG(obj_to_i256_hi_hi), REG(obj_to_i256_hi_lo), REG(obj_to_i256_lo_hi), REG(obj_to_i256_lo_lo),
  REG(u256_add), REG(u256_sub), REG(u256_mul), REG(u256_div), REG(u256_rem_euclid),
  REG(u256_pow), REG(u256_shl), REG(u256_shr),
  REG(i256_add), REG(i256_sub), REG(i256_mul), REG(i256_div), REG(i256_rem_euclid),
  REG(i256_pow), REG(i256_shl), REG(i256_shr),
  REG(u256_checked_add), REG(u256_checked_sub), REG(u256_checked_mul), REG(u256_checked_pow),
  REG(i256_checked_add), REG(i256_checked_sub), REG(i256_checked_mul), REG(i256_checked_pow),
  REG(u256_val_from_be_bytes), REG(i256_val_from_be_bytes),
  REG(u256_val_to_be_bytes), REG(i256_val_to_be_bytes),
  REG(vec_new), REG(vec_len), REG(vec_get), REG(vec_front), REG(vec_back),
  REG(vec_push_back), REG(vec_push_front), REG(vec_pop_back), REG(vec_pop_front),
  REG(vec_del), REG(vec_put),
  REG(bytes_new_from_linear_memory), REG(string_new_from_linear_memory),
  REG(symbol_new_from_linear_memory), REG(bytes_len), REG(string_len),
  REG(symbol_len), REG(bytes_new),
  REG(compute_hash_sha256), REG(compute_hash_keccak256), REG(verify_sig_ed25519),
  REG(recover_key_ecdsa_secp256k1), REG(verify_sig_ecdsa_secp256r1),
  REG(vec_insert), REG(vec_append), REG(vec_slice), REG(vec_first_index_of),
  REG(vec_last_index_of), REG(vec_binary_search), REG(vec_new_from_linear_memory),
  REG(vec_unpack_to_linear_memory),
  REG(map_new), REG(map_put), REG(map_get), REG(map_del), REG(map_len), REG(map_has),
  REG(map_key_by_pos), REG(map_val_by_pos), REG(map_keys), REG(map_values),
  REG(obj_cmp), REG(serialize_to_bytes), REG(deserialize_from_bytes),
  REG(address_to_strkey), REG(muxed_address_to_strkey), REG(strkey_to_address),
  REG(strkey_to_muxed_address), REG(get_address_from_muxed_address),
  REG(get_id_from_muxed_address),
  REG(bls12_381_fr_add), REG(bls12_381_fr_sub), REG(bls12_381_fr_mul), REG(bls12_381_fr_pow),
  REG(bls12_381_fr_inv), REG(bn254_fr_add), REG(bn254_fr_sub), REG(bn254_fr_mul),
  REG(bn254_fr_pow), REG(bn254_fr_inv), REG(dummy0), REG(protocol_gated_dummy),
  REG(prng_reseed), REG(prng_bytes_new), REG(prng_u64_in_inclusive_range), REG(prng_vec_shuffle), REG(map_new_from_linear_memory), REG(sparse_map_new_from_linear_memory),
  REG(map_unpack_to_linear_memory), REG(sparse_map_unpack_to_linear_memory),
  REG(symbol_index_in_linear_memory),
  REG(put_contract_data), REG(get_contract_data), REG(has_contract_data), REG(del_contract_data),
  REG(extend_contract_data_ttl), REG(extend_contract_data_ttl_v2),
  [SCP_HF_upload_wasm] = scp_hf_upload_wasm, [SCP_HF_create_contract] = scp_hf_create_contract,
  [SCP_HF_create_contract_with_constructor] = scp_hf_create_contract_with_constructor,
  [SCP_HF_call] = scp_hf_call, [SCP_HF_try_call] = scp_hf_try_call,
  [SCP_HF_require_auth] = scp_hf_require_auth,
  [SCP_HF_require_auth_for_args] = scp_hf_require_auth_for_args,
  [SCP_HF_extend_current_contract_instance_and_code_ttl] =
      scp_hf_extend_current_contract_instance_and_code_ttl,
  [SCP_HF_extend_contract_instance_ttl] = scp_hf_extend_contract_instance_ttl,
  [SCP_HF_extend_contract_instance_and_code_ttl] = scp_hf_extend_contract_instance_and_code_ttl,
  [SCP_HF_extend_contract_code_ttl] = scp_hf_extend_contract_code_ttl,
  REG(bytes_put), REG(bytes_get), REG(bytes_del), REG(bytes_push), REG(bytes_pop),
  REG(bytes_front), REG(bytes_back), REG(bytes_insert), REG(bytes_append), REG(bytes_slice),
  REG(string_to_bytes), REG(bytes_to_string), REG(create_executable_tag),
  REG(bytes_copy_to_linear_memory), REG(string_copy_to_linear_memory),
  REG(symbol_copy_to_linear_memory), REG(bytes_copy_from_linear_memory),
};
