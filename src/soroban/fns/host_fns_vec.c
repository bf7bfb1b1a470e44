/*
 * host_fns_vec.c — the vec host functions (host.rs vec_*,
 * host/metered_vector.rs) and the EnvBase vec conversions, with the
 * reference's checks and charges in the reference's order.  Registered in
 * host_fns.c.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/fns/host_fns_private.h"

/* Declared sizes (host/declared_size.rs). */
enum { SIZE_VAL = 8 };

/* ---- vec (host.rs vec_*, host/metered_vector.rs) ------------------------- */

HOSTFN(vec_new) {
  return scp_hf_add_vec_obj(h, NULL, 0, ret);
}

HOSTFN(vec_len) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) *ret = scp_val_u32(o->len);
  return rc;
}

/* get: index check, then charge_access(1) = MemCpy(8). */
HOSTFN(vec_get) {
  const scp_hobj *o;
  uint32_t i = scp_hf_u32_arg(a[1]);
  int rc = scp_host_visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (i >= o->len) return scp_hf_err_index(h, i);
  rc = scp_host_charge_copy(h, 1, SIZE_VAL);
  if (rc == SCP_OK) *ret = o->u.vals[i];
  return rc;
}

static int vec_end(scp_host *h, uint64_t v, bool back, uint64_t *ret) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, v, &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_VAL);
  if (rc != SCP_OK) return rc;
  if (!o->len) return scp_hf_err_index(h, 0);
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
  if (n > UINT32_MAX) return scp_hf_err_index(h, src->len);
  int rc = scp_hf_charge_vec_new(h, n);
  if (rc != SCP_OK) return rc;
  uint64_t *vals = scp_hf_vals_alloc(n);
  if (!vals) return SCP_ERR_NOMEM;
  if (at) memcpy(vals, src->u.vals, (size_t)at * sizeof *vals);
  if (nins) memcpy(vals + at, ins, (size_t)nins * sizeof *vals);
  if (src->len > at + del)
    memcpy(vals + at + nins, src->u.vals + at + del,
           (size_t)(src->len - at - del) * sizeof *vals);
  return scp_hf_add_vec_obj(h, vals, (uint32_t)n, ret);
}

HOSTFN(vec_push_back) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (o->len == UINT32_MAX) return scp_hf_err_index(h, o->len);
  return vec_splice(h, o, o->len, 0, &a[1], 1, ret);
}

HOSTFN(vec_push_front) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (o->len == UINT32_MAX) return scp_hf_err_index(h, o->len);
  return vec_splice(h, o, 0, 0, &a[1], 1, ret);
}

HOSTFN(vec_pop_back) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (!o->len) return scp_hf_err_index(h, 0);
  return vec_splice(h, o, o->len - 1, 1, NULL, 0, ret);
}

HOSTFN(vec_pop_front) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (!o->len) return scp_hf_err_index(h, 0);
  return vec_splice(h, o, 0, 1, NULL, 0, ret);
}

HOSTFN(vec_del) {
  const scp_hobj *o;
  uint32_t i = scp_hf_u32_arg(a[1]);
  int rc = scp_host_visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (i >= o->len) return scp_hf_err_index(h, i);
  return vec_splice(h, o, i, 1, NULL, 0, ret);
}

/* set: metered_clone of the vector (MemCpy(24), MemAlloc(8n), MemCpy(8n)),
 * then charge_access(1) = MemCpy(8). */
HOSTFN(vec_put) {
  const scp_hobj *o;
  uint32_t i = scp_hf_u32_arg(a[1]);
  int rc = scp_host_visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (i >= o->len) return scp_hf_err_index(h, i);
  rc = scp_hf_charge_vec_new(h, o->len);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_VAL);
  if (rc != SCP_OK) return rc;
  uint64_t *vals = scp_hf_vals_alloc(o->len);
  if (!vals) return SCP_ERR_NOMEM;
  memcpy(vals, o->u.vals, (size_t)o->len * sizeof *vals);
  vals[i] = a[2];
  return scp_hf_add_vec_obj(h, vals, o->len, ret);
}

/* insert: validate_index_le_bound, then MeteredVector::insert (a push
 * at either end, or a splice: all from_exact_iter of len+1). */
HOSTFN(vec_insert) {
  const scp_hobj *o;
  uint32_t i = scp_hf_u32_arg(a[1]);
  int rc = scp_host_visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (i > o->len) return scp_hf_err_index(h, i);
  if (o->len == UINT32_MAX) return scp_hf_err_index(h, o->len);
  return vec_splice(h, o, i, 0, &a[2], 1, ret);
}

HOSTFN(vec_append) {
  const scp_hobj *x, *y;
  int rc = scp_host_visit(h, a[0], &x);
  if (rc == SCP_OK) rc = scp_host_visit(h, a[1], &y);
  if (rc != SCP_OK) return rc;
  if (x->len > UINT32_MAX - y->len)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN, "arithmetic overflow");
  uint64_t n = (uint64_t)x->len + y->len;
  rc = scp_hf_charge_vec_new(h, n);
  if (rc != SCP_OK) return rc;
  uint64_t *vals = scp_hf_vals_alloc(n);
  if (!vals) return SCP_ERR_NOMEM;
  if (x->len) memcpy(vals, x->u.vals, (size_t)x->len * sizeof *vals);
  if (y->len) memcpy(vals + x->len, y->u.vals, (size_t)y->len * sizeof *vals);
  return scp_hf_add_vec_obj(h, vals, (uint32_t)n, ret);
}

/* valid_range_from_start_end_bound (validity.rs): each end <= len
 * (Object/IndexBounds), then start <= end (Object/InvalidInput). */
int scp_hf_valid_range(scp_host *h, uint32_t start, uint32_t end, uint32_t len) {
  if (start > len) return scp_hf_err_index(h, start);
  if (end > len) return scp_hf_err_index(h, end);
  if (start > end)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INVALID_INPUT,
                        "start index greater than end index");
  return SCP_OK;
}

HOSTFN(vec_slice) {
  const scp_hobj *o;
  uint32_t start = scp_hf_u32_arg(a[1]), end = scp_hf_u32_arg(a[2]);
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_hf_valid_range(h, start, end, o->len);
  if (rc != SCP_OK) return rc;
  uint32_t n = end - start;
  rc = scp_hf_charge_vec_new(h, n);
  if (rc != SCP_OK) return rc;
  uint64_t *vals = scp_hf_vals_alloc(n);
  if (!vals) return SCP_ERR_NOMEM;
  if (n) memcpy(vals, o->u.vals + start, (size_t)n * sizeof *vals);
  return scp_hf_add_vec_obj(h, vals, n, ret);
}

/* first/last_index_of: charge_scan = MemCpy(8*len), then Compare<Val>
 * of x against each element until equal. */
static int vec_index_of(scp_host *h, const uint64_t *a, bool last, uint64_t *ret) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
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

/* binary_search_by_pre_rust_182 (metered_vector.rs) over entries of
 * `stride` words (1 for vecs, 2 for maps), comparing probe to key.
 * *found / *pos as Result<usize, usize>. */
int scp_hf_binary_search(scp_host *h, uint64_t obj, uint32_t stride, uint64_t key,
                         bool *found, uint32_t *pos) {
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
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1 + scp_hf_magnitude(o->len), SIZE_VAL);
  if (rc != SCP_OK) return rc;
  bool found;
  uint32_t pos;
  rc = scp_hf_binary_search(h, a[0], 1, a[1], &found, &pos);
  if (rc == SCP_OK) *ret = (found ? (uint64_t)1 << 32 : 0) | pos;
  return rc;
}

/* vec_new_from_linear_memory: Vec<Val> bulk init, MemCpy(16*len) for the
 * byte->Val and relative->absolute conversions, the read (bounds check,
 * MemCpy(8*len)), each element to absolute and checked, then the object. */
HOSTFN(vec_new_from_linear_memory) {
  uint32_t pos = scp_hf_u32_arg(a[0]), len = scp_hf_u32_arg(a[1]);
  if (!scp_host_in_vm(h)) return scp_hf_err_not_vm(h);
  int rc = scp_hf_charge_vec_new(h, len);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 2 * (uint64_t)len, SIZE_VAL);
  if (rc != SCP_OK) return rc;
  if ((rc = scp_hf_lm_vals_range(h, pos, len)) != SCP_OK) return rc;
  rc = scp_host_charge_copy(h, len, SIZE_VAL);
  if (rc != SCP_OK) return rc;
  uint64_t *vals = scp_hf_vals_alloc(len);
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
  return scp_hf_add_vec_obj(h, vals, len, ret);
}

/* vec_unpack_to_linear_memory: length must match (Object/UnexpectedSize),
 * MemCpy(8*len), then the write: bounds, MemCpy(8*len), and each element
 * made relative (MemAlloc(8) per object). */
HOSTFN(vec_unpack_to_linear_memory) {
  uint32_t pos = scp_hf_u32_arg(a[1]), len = scp_hf_u32_arg(a[2]);
  if (!scp_host_in_vm(h)) return scp_hf_err_not_vm(h);
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (o->len != len)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_UNEXPECTED_SIZE,
                        "differing host vector and output vector lengths");
  rc = scp_host_charge_copy(h, len, SIZE_VAL);
  if (rc != SCP_OK) return rc;
  if ((rc = scp_hf_lm_vals_range(h, pos, len)) != SCP_OK) return rc;
  rc = scp_host_charge_copy(h, len, SIZE_VAL);
  for (uint32_t i = 0; rc == SCP_OK && i < len; i++) {
    uint64_t rel;
    rc = scp_host_to_relative(h, h->objs[scp_val_handle(a[0]) >> 1].u.vals[i], &rel);
    if (rc == SCP_OK) memcpy(h->mem->base + pos + 8ull * i, &rel, 8);
  }
  if (rc == SCP_OK) *ret = SCP_VAL_VOID;
  return rc;
}

/* ---- EnvBase (host.rs impl EnvBase for Host) ------------------------------ */

/* vec_unpack_to_slice: visit, lengths must match (Object/UnexpectedSize),
 * charge_shallow_copy::<Val>(len) = MemCpy(8*len). */
int scp_host_vec_unpack_to_slice(scp_host *h, uint64_t vec, uint64_t *dst, uint32_t len) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, vec, &o);
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
  int rc = scp_hf_charge_vec_new(h, n);
  for (uint32_t i = 0; rc == SCP_OK && i < n; i++) rc = scp_host_check_val(h, vals[i]);
  if (rc != SCP_OK) return rc;
  uint64_t *copy = scp_hf_vals_alloc(n);
  if (!copy) return SCP_ERR_NOMEM;
  if (n) memcpy(copy, vals, (size_t)n * sizeof *copy);
  return scp_hf_add_vec_obj(h, copy, n, out);
}
