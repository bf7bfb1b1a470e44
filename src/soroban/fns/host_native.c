/*
 * host_native.c — the Env interface as native contract code sees it: the
 * Stellar Asset Contract, and auth's account checks.
 *
 * rs-soroban-env v28.0.2: host.rs (impl EnvBase for Host:
 * symbol_index_in_strs, map_new_from_slices, map_unpack_to_slice,
 * *_new_from_slice, *_copy_to_slice), host/data_helper.rs
 * (map_new_from_slices_impl, map_unpack_impl), host/mem_helper.rs
 * (compare_symbol_to_bytes), builtin_contracts/base_types.rs (String,
 * BytesN, Address).
 *
 * Env methods (the host functions of env.json) are called as the reference
 * calls them from native code: the generated Env impl checks each argument
 * and the result (CheckedEnvArg) around the body, with no
 * DispatchHostFunction charge -- what scp_host_call does.  The EnvBase
 * helpers are not host functions and check nothing beyond what their
 * bodies do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/fns/host_fns_private.h"
#include "soroban/fns/host_native.h"

int scp_native_env(scp_host *h, const char *fn, const uint64_t *args, uint64_t *ret) {
  int id = scp_hostfn_find_name(fn);
  if (id < 0 || !h->links || !h->links->impls[id]) {
    snprintf(h->errmsg, sizeof h->errmsg, "Stellar Asset Contract: host function %s is not implemented", fn);
    return SCP_ERR_UNSUPPORTED;
  }
  scp_error err;
  SAC_TRACE(h, fn);
  int rc = scp_host_call(h, (unsigned)id, args, NULL, ret, &err);
  SAC_TRACE(h, "  ret");
  if (rc != SCP_OK && !h->errmsg[0]) {
    size_t m = strnlen(err.msg, sizeof h->errmsg - 1);
    memcpy(h->errmsg, err.msg, m);
    h->errmsg[m] = 0;
  }
  return rc;
}

int scp_native_env0(scp_host *h, const char *fn, uint64_t *ret) {
  uint64_t a[1] = { 0 };
  return scp_native_env(h, fn, a, ret);
}

int scp_native_env1(scp_host *h, const char *fn, uint64_t a, uint64_t *ret) {
  uint64_t v[1] = { a };
  return scp_native_env(h, fn, v, ret);
}

int scp_native_env2(scp_host *h, const char *fn, uint64_t a, uint64_t b, uint64_t *ret) {
  uint64_t v[2] = { a, b };
  return scp_native_env(h, fn, v, ret);
}

int scp_native_env3(scp_host *h, const char *fn, uint64_t a, uint64_t b, uint64_t c,
                 uint64_t *ret) {
  uint64_t v[3] = { a, b, c };
  return scp_native_env(h, fn, v, ret);
}

/* symbol_index_in_strs: no early exit (every str is compared). */
int scp_native_symbol_index(scp_host *h, uint64_t sym, const char *const *strs, uint32_t n,
                         uint32_t *idx) {
  SAC_TRACE(h, "symbol_index_in_strs");
  bool found = false;
  for (uint32_t i = 0; i < n; i++) {
    int ord;
    int rc = scp_hf_symbol_vs_bytes(h, sym, (const uint8_t *)strs[i], (uint32_t)strlen(strs[i]),
                                    &ord);
    if (rc != SCP_OK) return rc;
    if (!ord && !found) {
      found = true;
      *idx = i;
    }
  }
  if (!found)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "symbol not found in slice of strs");
  return SCP_OK;
}

int scp_native_symbol(scp_host *h, const char *s, uint64_t *out) {
  size_t n = strlen(s);
  if (scp_val_symbol_small((const uint8_t *)s, n, out)) return SCP_OK;
  return scp_host_memobj_new_from_slice(h, SCP_TAG_SYMBOL_OBJ, (const uint8_t *)s, (uint32_t)n, out);
}

int scp_native_vec(scp_host *h, const uint64_t *vals, uint32_t n, uint64_t *out) {
  SAC_TRACE(h, "vec_new_from_slice");
  return scp_host_vec_new_from_slice(h, vals, n, out);
}

enum { SIZE_MAP_ENTRY = 8 + 8 + 8, SIZE_VAL = 8 };   /* (Val, Val) as host_fns_map.c */

/* map_new_from_slices_impl, dense: keys are never compared here (from_map
 * checks the order). */
int scp_native_map_new(scp_host *h, const char *const *keys, const uint64_t *vals, uint32_t n,
                    uint64_t *out) {
  SAC_TRACE(h, "map_new_from_slices");
  uint64_t kv[2 * 8];
  if (n > 8) return SCP_ERR_INTERNAL;
  int rc = scp_host_charge_bulk_init(h, n, SIZE_MAP_ENTRY);
  for (uint32_t i = 0; rc == SCP_OK && i < n; i++) {
    rc = scp_native_symbol(h, keys[i], &kv[2 * i]);
    if (rc == SCP_OK) rc = scp_host_check_val(h, vals[i]);
    kv[2 * i + 1] = vals[i];
  }
  return rc == SCP_OK ? scp_host_map_from_pairs_nocap(h, kv, n, out) : rc;
}

int scp_native_keys_ascending(scp_host *h, const char *const *keys, uint32_t i) {
  size_t pl = strlen(keys[i - 1]), kl = strlen(keys[i]), mm = pl < kl ? pl : kl;
  int rc = scp_host_charge(h, SCP_COST_MemCmp, (int64_t)mm);
  int c = mm ? memcmp(keys[i - 1], keys[i], mm) : 0;
  if (rc == SCP_OK && (c > 0 || (!c && pl >= kl)))
    rc = scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INVALID_INPUT,
                      "keys are not in ascending order when unpacking map");
  return rc;
}

/* map_unpack_impl over &str keys, dense: the sizes must agree, the output
 * copy, the map's scan, then per key the order check (Budget compare of
 * the two strs: MemCmp(min)) and the map key against it. */
int scp_native_map_unpack(scp_host *h, uint64_t map, const char *const *keys, uint32_t n,
                       uint64_t *vals) {
  SAC_TRACE(h, "map_unpack_to_slice");
  const scp_hobj *m;
  int rc = scp_host_visit(h, map, &m);
  if (rc != SCP_OK) return rc;
  if (m->tag != SCP_TAG_MAP_OBJ)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "expected a Map");
  if (m->len != n)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_UNEXPECTED_SIZE,
                        "differing map and output slice lengths when unpacking map");
  rc = scp_host_charge_copy(h, n, SIZE_VAL);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, m->len, SIZE_MAP_ENTRY);   /* iter */
  uint32_t mlen = m->len;
  uint64_t kv[2 * 8];
  if (mlen > 8) return SCP_ERR_INTERNAL;
  memcpy(kv, m->u.vals, 2 * (size_t)mlen * sizeof *kv);
  for (uint32_t i = 0; rc == SCP_OK && i < n; i++) {
    size_t kl = strlen(keys[i]);
    if (i) rc = scp_native_keys_ascending(h, keys, i);
    int ord = 0;
    if (rc == SCP_OK)
      rc = scp_hf_symbol_vs_bytes(h, kv[2 * i], (const uint8_t *)keys[i], (uint32_t)kl, &ord);
    if (rc == SCP_OK && ord)
      rc = scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INVALID_INPUT,
                        "key not found in map when unpacking map");
    if (rc == SCP_OK) vals[i] = kv[2 * i + 1];
  }
  return rc;
}

int scp_native_new_obj(scp_host *h, unsigned tag, const uint8_t *p, uint32_t len, uint64_t *out) {
  scp_hobj o = { .tag = (uint8_t)tag, .len = len };
  o.u.bytes = malloc(len ? len : 1);
  if (!o.u.bytes) return SCP_ERR_NOMEM;
  if (len) memcpy(o.u.bytes, p, len);
  return scp_host_add_obj(h, &o, out);
}

int scp_native_bytesn(scp_host *h, uint64_t b, uint32_t n) {
  uint64_t len;
  int rc = scp_native_env1(h, "bytes_len", b, &len);
  if (rc == SCP_OK && scp_val_major(len) != n)
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_SIZE, "bytes have unexpected length");
  return rc;
}

/* String::to_array::<N>: string_len, which must be N, then the copy. */
int scp_native_string_to_array(scp_host *h, uint64_t s, uint8_t *out, uint32_t n) {
  uint64_t len;
  int rc = scp_native_env1(h, "string_len", s, &len);
  if (rc == SCP_OK && scp_val_major(len) != n)
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_SIZE, "String has unexpected length");
  return rc == SCP_OK ? scp_host_memobj_copy_to_slice(h, s, 0, out, n) : rc;
}

/* BytesN::to_array: the length is known from try_from_val. */
int scp_native_bytes_to_array(scp_host *h, uint64_t b, uint8_t *out, uint32_t n) {
  return scp_host_memobj_copy_to_slice(h, b, 0, out, n);
}
