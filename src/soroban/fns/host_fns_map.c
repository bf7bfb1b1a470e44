/*
 * host_fns_map.c — the map host functions (host.rs map_*,
 * host/metered_map.rs), the maps built from and unpacked to linear memory
 * (host/data_helper.rs, host/mem_helper.rs), the *_contract_data host
 * functions with instance storage, and the EnvBase map conversions, with
 * the reference's checks and charges in the reference's order.  Registered
 * in host_fns.c.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/fns/host_fns_private.h"
#include "soroban/core/host_lifecycle.h"
#include "soroban/core/host_instance.h"

/* Declared sizes (host/declared_size.rs). */
enum { SIZE_VAL = 8 };

/* ---- map (host.rs map_*, host/metered_map.rs) ----------------------------- */

enum { SIZE_MAP_ENTRY = 8 + 8 + 8 };   /* (Val, Val) */

HOSTFN(map_new) {
  scp_hobj o = { .tag = SCP_TAG_MAP_OBJ, .len = 0 };
  o.u.vals = NULL;
  return scp_host_add_obj(h, &o, ret);
}

/* MeteredOrdMap::find: charge_binsearch then the search on keys. */
static int map_find(scp_host *h, uint64_t m, uint64_t key, bool *found, uint32_t *pos) {
  int rc = scp_host_charge_copy(h, 1 + scp_hf_magnitude(scp_hf_objp(h, m)->len), SIZE_MAP_ENTRY);
  if (rc != SCP_OK) return rc;
  return scp_hf_binary_search(h, m, 2, key, found, pos);
}

/* The map a[0] visited, then key a[1] found in it (map_get, map_del,
 * map_has); with fn, a missing key is Error(Object, MissingValue) naming fn. */
static int map_lookup(scp_host *h, const uint64_t *a, const char *fn, bool *found, uint32_t *pos) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = map_find(h, a[0], a[1], found, pos);
  if (rc == SCP_OK && fn && !*found)
    rc = scp_host_err(h, SCP_ET_OBJECT, SCP_EC_MISSING_VALUE, "map key not found in %s", fn);
  return rc;
}

/* MeteredOrdMap::from_exact_iter of n entries: deep clone of the
 * Vec<(Val, Val)> (MemCpy(24), MemAlloc(24n), MemCpy(24n)), then from_map:
 * charge_scan MemCpy(24n) and every adjacent pair of keys compared (each
 * must be Less, else Error(Object, InvalidInput)).  Takes over kv. */
static int map_build(scp_host *h, uint64_t *kv, uint32_t n, uint64_t *ret) {
  int rc = scp_host_charge_bulk_init(h, n, SIZE_MAP_ENTRY);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, n, SIZE_MAP_ENTRY);
  if (rc != SCP_OK) {
    free(kv);
    return rc;
  }
  return scp_host_map_adopt_sorted(h, kv, n, ret);
}

HOSTFN(map_put) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_MAP_ENTRY);   /* insert's access */
  bool found;
  uint32_t pos;
  if (rc == SCP_OK) rc = map_find(h, a[0], a[1], &found, &pos);
  if (rc != SCP_OK) return rc;
  o = scp_hf_objp(h, a[0]);
  if (!found && o->len == UINT32_MAX) return scp_hf_err_index(h, o->len);
  uint32_t n = o->len + (found ? 0 : 1);
  uint64_t *kv = scp_hf_vals_alloc(2 * (size_t)n);
  if (!kv) return SCP_ERR_NOMEM;
  memcpy(kv, o->u.vals, 2 * (size_t)pos * sizeof *kv);
  kv[2 * pos] = a[1];
  kv[2 * pos + 1] = a[2];
  uint32_t rest = o->len - pos - (found ? 1 : 0);
  memcpy(kv + 2 * (pos + 1), o->u.vals + 2 * (pos + (found ? 1 : 0)), 2 * (size_t)rest * sizeof *kv);
  return map_build(h, kv, n, ret);
}

HOSTFN(map_get) {
  bool found;
  uint32_t pos;
  int rc = map_lookup(h, a, "map_get", &found, &pos);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_MAP_ENTRY);
  if (rc == SCP_OK) *ret = scp_hf_objp(h, a[0])->u.vals[2 * pos + 1];
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

/* remove: the new map, then metered_clone of the removed value (MemCpy(8)). */
HOSTFN(map_del) {
  bool found;
  uint32_t pos;
  int rc = map_lookup(h, a, "map_del", &found, &pos);
  if (rc != SCP_OK) return rc;
  const scp_hobj *o = scp_hf_objp(h, a[0]);
  uint32_t n = o->len - 1;
  uint64_t *kv = scp_hf_vals_alloc(2 * (size_t)n);
  if (!kv) return SCP_ERR_NOMEM;
  memcpy(kv, o->u.vals, 2 * (size_t)pos * sizeof *kv);
  memcpy(kv + 2 * pos, o->u.vals + 2 * (pos + 1), 2 * (size_t)(n - pos) * sizeof *kv);
  /* from_exact_iter (with its from_map checks) comes before the clone of
   * the value and before add_host_object */
  rc = kv_rebuild_charges(h, kv, n);
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
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) *ret = scp_val_u32(o->len);
  return rc;
}

HOSTFN(map_has) {
  bool found;
  uint32_t pos;
  int rc = map_lookup(h, a, NULL, &found, &pos);
  if (rc == SCP_OK) *ret = scp_val_bool(found);
  return rc;
}

/* get_at_index: MemCpy(24), then the bounds check. */
static int map_at(scp_host *h, const uint64_t *a, unsigned which, uint64_t *ret) {
  const scp_hobj *o;
  uint32_t i = scp_hf_u32_arg(a[1]);
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_MAP_ENTRY);
  if (rc != SCP_OK) return rc;
  if (i >= o->len) return scp_hf_err_index(h, i);
  *ret = o->u.vals[2 * (size_t)i + which];
  return SCP_OK;
}

HOSTFN(map_key_by_pos) { return map_at(h, a, 0, ret); }
HOSTFN(map_val_by_pos) { return map_at(h, a, 1, ret); }

/* keys / values: charge_scan MemCpy(24n), then HostVec::from_exact_iter. */
static int map_column(scp_host *h, uint64_t m, unsigned which, uint64_t *ret) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, m, &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, o->len, SIZE_MAP_ENTRY);
  if (rc == SCP_OK) rc = scp_hf_charge_vec_new(h, o->len);
  if (rc != SCP_OK) return rc;
  uint32_t n = o->len;
  uint64_t *vals = scp_hf_vals_alloc(n);
  if (!vals) return SCP_ERR_NOMEM;
  for (uint32_t i = 0; i < n; i++) vals[i] = o->u.vals[2 * (size_t)i + which];
  return scp_hf_add_vec_obj(h, vals, n, ret);
}

HOSTFN(map_keys) { return map_column(h, a[0], 0, ret); }
HOSTFN(map_values) { return map_column(h, a[0], 1, ret); }

/* ---- maps and linear memory (host/data_helper.rs) ---------------------------- */

static int need_vm(scp_host *h) {
  return scp_host_in_vm(h) ? SCP_OK : scp_hf_err_not_vm(h);
}

static int err_lm_oob(scp_host *h) {
  return scp_host_err(h, SCP_ET_WASM_VM, SCP_EC_INDEX_BOUNDS,
                      "out-of-bounds access to WASM linear memory");
}

/* scan_linear_memory_slice (mem_helper.rs): the (ptr, len) pair at
 * pos + 8*i, then the slice it names, both bounds-checked. */
static int lm_slice(scp_host *h, uint32_t pos, uint32_t i, const uint8_t **p, uint32_t *len) {
  uint64_t at = (uint64_t)pos + 8ull * i;
  if (!h->mem || at + 8 > h->mem->len) return err_lm_oob(h);
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
  uint64_t *kv = scp_hf_vals_alloc(2 * (size_t)n);
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

/* EnvBase::map_new_from_slices with symbol keys already made (the
 * executable-reference value of host_lifecycle.c). */
int scp_host_map_new_from_slices(scp_host *h, const uint64_t *keys, const uint64_t *vals,
                                 uint32_t n, uint64_t *ret) {
  return map_from_slices(h, keys, vals, n, false, ret);
}

static int map_new_from_lm(scp_host *h, const uint64_t *a, bool sparse, uint64_t *ret) {
  uint32_t kpos = scp_hf_u32_arg(a[0]), vpos = scp_hf_u32_arg(a[1]), len = scp_hf_u32_arg(a[2]);
  int rc = need_vm(h);
  if (rc == SCP_OK) rc = scp_hf_charge_vec_new(h, len);   /* Vec<Symbol> with capacity */
  if (rc == SCP_OK) rc = scp_host_mem_get(h);   /* get_memory before the scan's charge */
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, len, 8);   /* the slice scan */
  if (rc != SCP_OK) return rc;
  uint64_t *keys = scp_hf_vals_alloc(len), *vals = scp_hf_vals_alloc(len);
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
  if (rc == SCP_OK) rc = scp_hf_charge_vec_new(h, len);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 2 * (uint64_t)len, SIZE_VAL);
  if (rc == SCP_OK) rc = scp_hf_lm_vals_range(h, vpos, len);
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
int scp_hf_symbol_vs_bytes(scp_host *h, uint64_t sym, const uint8_t *p, uint32_t n, int *ord) {
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
  int rc = scp_host_visit(h, sym, &o);
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
  uint32_t kpos = scp_hf_u32_arg(a[1]), vpos = scp_hf_u32_arg(a[2]), len = scp_hf_u32_arg(a[3]);
  int rc = need_vm(h);
  if (rc == SCP_OK) rc = scp_hf_charge_vec_new(h, len);
  if (rc == SCP_OK) rc = scp_host_mem_get(h);   /* get_memory before the scan's charge */
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, len, 8);
  const scp_hobj *m;
  if (rc == SCP_OK) rc = scp_host_visit(h, a[0], &m);
  if (rc != SCP_OK) return rc;
  if (!sparse && m->len != len)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_UNEXPECTED_SIZE,
                        "differing map and output slice lengths when unpacking map");
  rc = scp_host_charge_copy(h, len, SIZE_VAL);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, m->len, SIZE_MAP_ENTRY);   /* iter */
  if (rc != SCP_OK) return rc;
  uint64_t *out = scp_hf_vals_alloc(len);
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
      rc = scp_hf_symbol_vs_bytes(h, kv[2 * mi], p, n, &ord);
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
  if (rc == SCP_OK) rc = scp_hf_lm_vals_range(h, vpos, len);
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
  uint32_t pos = scp_hf_u32_arg(a[1]), len = scp_hf_u32_arg(a[2]);
  int rc = need_vm(h);
  /* metered_vm_scan_slices_in_linear_memory: get_memory, then MemCpy */
  if (rc == SCP_OK) rc = scp_host_mem_get(h);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, len, 8);
  bool found = false;
  uint32_t at = 0;
  for (uint32_t i = 0; rc == SCP_OK && i < len; i++) {
    const uint8_t *p;
    uint32_t n;
    int ord;
    rc = lm_slice(h, pos, i, &p, &n);
    if (rc == SCP_OK) rc = scp_hf_symbol_vs_bytes(h, a[0], p, n, &ord);
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
 * host_storage.c; executable-reference keys (CAP-85) are persistent entries
 * there, checked by host_lifecycle.c. */

enum { STORAGE_TEMPORARY = 0, STORAGE_PERSISTENT = 1, STORAGE_INSTANCE = 2 };

/* MeteredOrdMap::find over a raw (key, value) array. */
static int kv_find(scp_host *h, const uint64_t *kv, uint32_t n, uint64_t key, bool *found,
                   uint32_t *pos) {
  int rc = scp_host_charge_copy(h, 1 + scp_hf_magnitude(n), SIZE_MAP_ENTRY);
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

/* The instance map takes the rebuilt entries when their charges went
 * through (rc == SCP_OK); otherwise they are dropped and rc returned. */
static int instance_replace(scp_instance *in, uint64_t *kv, uint32_t n, int rc) {
  if (rc != SCP_OK) {
    free(kv);
    return rc;
  }
  free(in->kv);
  in->kv = kv;
  in->n = n;
  return SCP_OK;
}


HOSTFN(put_contract_data) {
  *ret = SCP_VAL_VOID;
  if (scp_val_tag_of(a[0]) == SCP_TAG_EXECUTABLE_TAG_OBJ) {
    /* validate_put_contract_data: persistent only, the value the hash of
     * existing Wasm; then an ordinary persistent entry */
    if (a[2] != STORAGE_PERSISTENT)
      return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INVALID_INPUT,
                          "executable reference entries may only use persistent storage");
    int rc = scp_lc_validate_exec_ref_put(h, a[1]);
    if (rc != SCP_OK) return rc;
  }
  if (a[2] != STORAGE_INSTANCE) return scp_storage_put_contract_data(h, a[0], a[1], (unsigned)a[2]);
  scp_instance *in;
  bool found;
  uint32_t pos;
  int rc = scp_inst_storage(h, &in);   /* with_instance_storage (host_instance.c) */
  if (rc == SCP_OK) h->frames[h->nframes - 1].instance_modified = true;   /* with_mut_instance_storage */
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_MAP_ENTRY);   /* insert's access */
  if (rc == SCP_OK) rc = kv_find(h, in->kv, in->n, a[0], &found, &pos);
  if (rc != SCP_OK) return rc;
  uint32_t n = in->n + (found ? 0 : 1);
  uint64_t *kv = scp_hf_vals_alloc(2 * (size_t)n);
  if (!kv) return SCP_ERR_NOMEM;
  if (pos) memcpy(kv, in->kv, 2 * (size_t)pos * sizeof *kv);
  kv[2 * pos] = a[0];
  kv[2 * pos + 1] = a[1];
  uint32_t skip = pos + (found ? 1 : 0);
  if (in->n > skip) memcpy(kv + 2 * (pos + 1), in->kv + 2 * skip, 2 * (size_t)(in->n - skip) * sizeof *kv);
  rc = kv_rebuild_charges(h, kv, n);
  *ret = SCP_VAL_VOID;
  return instance_replace(in, kv, n, rc);
}

HOSTFN(get_contract_data) {
  if (a[1] != STORAGE_INSTANCE) return scp_storage_get_contract_data(h, a[0], (unsigned)a[1], ret);
  scp_instance *in;
  bool found;
  uint32_t pos;
  int rc = scp_inst_storage(h, &in);   /* with_instance_storage (host_instance.c) */
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
  int rc = scp_inst_storage(h, &in);   /* with_instance_storage (host_instance.c) */
  if (rc == SCP_OK) rc = kv_find(h, in->kv, in->n, a[0], &found, &pos);
  /* map.get(k).is_some(): get's access charge when the key is there */
  if (rc == SCP_OK && found) rc = scp_host_charge_copy(h, 1, SIZE_MAP_ENTRY);
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
  int rc = scp_inst_storage(h, &in);   /* with_instance_storage (host_instance.c) */
  if (rc == SCP_OK) h->frames[h->nframes - 1].instance_modified = true;
  if (rc == SCP_OK) rc = kv_find(h, in->kv, in->n, a[0], &found, &pos);
  if (rc != SCP_OK) return rc;
  if (!found) return SCP_OK;
  uint32_t n = in->n - 1;
  uint64_t *kv = scp_hf_vals_alloc(2 * (size_t)n);
  if (!kv) return SCP_ERR_NOMEM;
  if (pos) memcpy(kv, in->kv, 2 * (size_t)pos * sizeof *kv);
  if (n > pos) memcpy(kv + 2 * pos, in->kv + 2 * (pos + 1), 2 * (size_t)(n - pos) * sizeof *kv);
  rc = kv_rebuild_charges(h, kv, n);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_VAL);   /* the removed value */
  return instance_replace(in, kv, n, rc);
}

/* extend_contract_data_ttl(_v2) (host.rs): instance storage is refused,
 * then the key and Storage::extend_ttl(_v2). */
HOSTFN(extend_contract_data_ttl) {
  *ret = SCP_VAL_VOID;
  if (a[1] == STORAGE_INSTANCE)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INVALID_ACTION,
                        "instance storage should be extended via `extend_current_contract_instance_and_code_ttl` function only");
  uint32_t p[2] = { scp_hf_u32_arg(a[2]), scp_hf_u32_arg(a[3]) };
  return scp_storage_extend_contract_data(h, a[0], (unsigned)a[1], false, p);
}

HOSTFN(extend_contract_data_ttl_v2) {
  *ret = SCP_VAL_VOID;
  if (a[1] == STORAGE_INSTANCE)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INVALID_ACTION,
                        "instance storage should be extended via `extend_contract_instance_and_code_ttl_v2` function only");
  uint32_t p[3] = { scp_hf_u32_arg(a[2]), scp_hf_u32_arg(a[3]), scp_hf_u32_arg(a[4]) };
  return scp_storage_extend_contract_data(h, a[0], (unsigned)a[1], true, p);
}

/* ---- EnvBase (host.rs impl EnvBase for Host) ------------------------------ */


