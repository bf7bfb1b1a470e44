/*
 * host_cmp.c — the host's total order on Vals and host objects, with the
 * reference's charges (rs-soroban-env v28):
 *   soroban-env-common/src/compare.rs   Compare<Val> (small values free,
 *                                       objects through Env::obj_cmp)
 *   soroban-env-host/src/host/comparison.rs  Compare<HostObject>
 *   soroban-env-host/src/host_object.rs try_compare_to_small
 *   soroban-env-host/src/host.rs        obj_cmp
 *   host/metered_vector.rs, host/metered_map.rs  container compares
 */
#include <string.h>

#include "soroban/core/host_private.h"

#define HOST_DEPTH_LIMIT 100   /* budget/limits.rs DEFAULT_HOST_DEPTH_LIMIT */

/* Budget::with_limited_depth: Error(Context, ExceededLimit) past 100. */
int scp_host_depth_enter(scp_host *h) {
  if (h->depth >= HOST_DEPTH_LIMIT)
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_EXCEEDED_LIMIT, "depth limit exceeded");
  h->depth++;
  return SCP_OK;
}

void scp_host_depth_leave(scp_host *h) {
  if (h->depth) h->depth--;
}

static int cmp3(int c) { return c < 0 ? -1 : c > 0; }

#define CMP(a, b) ((a) < (b) ? -1 : (a) > (b))

/* FixedSizeOrdType compare (comparison.rs): MemCmp(declared size). */
static int fixed(scp_host *h, uint64_t size, int order, int *ord) {
  int rc = scp_host_charge(h, SCP_COST_MemCmp, (int64_t)size);
  if (rc == SCP_OK) *ord = order;
  return rc;
}

/* Compare<&[u8]> for Budget: MemCmp(min(len)) then lexicographic. */
static int bytes_cmp(scp_host *h, const uint8_t *a, uint32_t la, const uint8_t *b,
                     uint32_t lb, int *ord) {
  uint32_t m = la < lb ? la : lb;
  int rc = scp_host_charge(h, SCP_COST_MemCmp, m);
  if (rc != SCP_OK) return rc;
  int c = m ? memcmp(a, b, m) : 0;
  *ord = c ? cmp3(c) : CMP(la, lb);
  return SCP_OK;
}

static int u128_order(uint64_t ahi, uint64_t alo, uint64_t bhi, uint64_t blo, bool sign) {
  if (ahi != bhi) return sign ? CMP((int64_t)ahi, (int64_t)bhi) : CMP(ahi, bhi);
  return CMP(alo, blo);
}

static int u256_order(const uint64_t *a, const uint64_t *b, bool sign) {
  if (a[0] != b[0]) return sign ? CMP((int64_t)a[0], (int64_t)b[0]) : CMP(a[0], b[0]);
  for (int i = 1; i < 4; i++)
    if (a[i] != b[i]) return CMP(a[i], b[i]);
  return 0;
}

/* host_obj_discriminant (comparison.rs): the order of kinds. */
static int discriminant(unsigned tag) { return (int)tag - SCP_TAG_U64_OBJ; }

static int compare_hobj(scp_host *h, const scp_hobj *a, const scp_hobj *b, int *ord);

int scp_host_obj_cmp(scp_host *h, uint64_t a, uint64_t b, int *ord);

/* Compare<Val> for Host (compare.rs): identical words are equal for free;
 * anything with an object goes through Env::obj_cmp -- the checked Env
 * method, so each object argument is visited (CheckedEnvArg) before
 * obj_cmp visits it again. */
int scp_host_compare(scp_host *h, uint64_t a, uint64_t b, int *ord) {
  if (a == b) {
    *ord = 0;
    return SCP_OK;
  }
  if (scp_val_is_object(a) || scp_val_is_object(b)) {
    int rc = scp_host_check_val(h, a);
    if (rc == SCP_OK) rc = scp_host_check_val(h, b);
    if (rc == SCP_OK) rc = scp_host_obj_cmp(h, a, b, ord);
    return rc;
  }
  unsigned ta = scp_val_tag_of(a), tb = scp_val_tag_of(b);
  if (ta != tb) {
    *ord = CMP(ta, tb);
    return SCP_OK;
  }
  switch (ta) {
  case SCP_TAG_ERROR:   /* (type, code) */
    *ord = scp_val_minor(a) != scp_val_minor(b) ? CMP(scp_val_minor(a), scp_val_minor(b))
                                                 : CMP(scp_val_major(a), scp_val_major(b));
    break;
  case SCP_TAG_U32: *ord = CMP(scp_val_major(a), scp_val_major(b)); break;
  case SCP_TAG_I32: *ord = CMP((int32_t)scp_val_major(a), (int32_t)scp_val_major(b)); break;
  case SCP_TAG_I64_SMALL: case SCP_TAG_I128_SMALL: case SCP_TAG_I256_SMALL:
    *ord = CMP(scp_val_signed_body(a), scp_val_signed_body(b));
    break;
  case SCP_TAG_SYMBOL_SMALL: {
    char sa[16], sb[16];
    size_t la = scp_val_symbol_small_str(a, sa), lb = scp_val_symbol_small_str(b, sb);
    size_t m = la < lb ? la : lb;
    int c = memcmp(sa, sb, m);
    *ord = c ? cmp3(c) : CMP(la, lb);
    break;
  }
  default:   /* unsigned smalls; bools and void are equal to themselves */
    *ord = CMP(scp_val_body(a), scp_val_body(b));
    break;
  }
  return SCP_OK;
}

/* ScValType of a tag (val.rs get_scval_type); -1 for none. */
static int scval_type(unsigned tag) {
  switch (tag) {
  case SCP_TAG_FALSE: case SCP_TAG_TRUE: return 0;
  case SCP_TAG_VOID: return 1;
  case SCP_TAG_ERROR: return 2;
  case SCP_TAG_U32: return 3;
  case SCP_TAG_I32: return 4;
  case SCP_TAG_U64_SMALL: case SCP_TAG_U64_OBJ: return 5;
  case SCP_TAG_I64_SMALL: case SCP_TAG_I64_OBJ: return 6;
  case SCP_TAG_TIMEPOINT_SMALL: case SCP_TAG_TIMEPOINT_OBJ: return 7;
  case SCP_TAG_DURATION_SMALL: case SCP_TAG_DURATION_OBJ: return 8;
  case SCP_TAG_U128_SMALL: case SCP_TAG_U128_OBJ: return 9;
  case SCP_TAG_I128_SMALL: case SCP_TAG_I128_OBJ: return 10;
  case SCP_TAG_U256_SMALL: case SCP_TAG_U256_OBJ: return 11;
  case SCP_TAG_I256_SMALL: case SCP_TAG_I256_OBJ: return 12;
  case SCP_TAG_BYTES_OBJ: return 13;
  case SCP_TAG_STRING_OBJ: return 14;
  case SCP_TAG_SYMBOL_SMALL: case SCP_TAG_SYMBOL_OBJ: return 15;
  case SCP_TAG_VEC_OBJ: return 16;
  case SCP_TAG_MAP_OBJ: return 17;
  case SCP_TAG_ADDRESS_OBJ: case SCP_TAG_MUXED_ADDRESS_OBJ: return 18;
  case SCP_TAG_EXECUTABLE_TAG_OBJ: return 22;
  default: return -1;
  }
}

/* HostObject::try_compare_to_small: *has = false when the small value is
 * not the object's small counterpart. */
static int compare_to_small(scp_host *h, const scp_hobj *o, uint64_t small, bool *has,
                            int *ord) {
  unsigned st = scp_val_tag_of(small);
  *has = true;
  switch (o->tag) {
  case SCP_TAG_U64_OBJ: case SCP_TAG_TIMEPOINT_OBJ: case SCP_TAG_DURATION_OBJ:
    if (st != (unsigned)(o->tag - SCP_TAG_U64_OBJ + SCP_TAG_U64_SMALL)) break;
    return fixed(h, 8, CMP(o->u.u64, scp_val_body(small)), ord);
  case SCP_TAG_I64_OBJ:
    if (st != SCP_TAG_I64_SMALL) break;
    return fixed(h, 8, CMP(o->u.i64, scp_val_signed_body(small)), ord);
  case SCP_TAG_U128_OBJ:
    if (st != SCP_TAG_U128_SMALL) break;
    return fixed(h, 16, u128_order(o->u.i128.hi, o->u.i128.lo, 0, scp_val_body(small), false),
                 ord);
  case SCP_TAG_I128_OBJ: {
    if (st != SCP_TAG_I128_SMALL) break;
    int64_t s = scp_val_signed_body(small);
    return fixed(h, 16, u128_order(o->u.i128.hi, o->u.i128.lo, s < 0 ? UINT64_MAX : 0,
                                   (uint64_t)s, true), ord);
  }
  case SCP_TAG_U256_OBJ: case SCP_TAG_I256_OBJ: {
    if (st != (o->tag == SCP_TAG_U256_OBJ ? SCP_TAG_U256_SMALL : SCP_TAG_I256_SMALL)) break;
    uint64_t w[4];
    scp_int256_from_small(small, o->tag == SCP_TAG_I256_OBJ, w);
    return fixed(h, 32, u256_order(o->u.w, w, o->tag == SCP_TAG_I256_OBJ), ord);
  }
  case SCP_TAG_SYMBOL_OBJ: {
    if (st != SCP_TAG_SYMBOL_SMALL) break;
    char s[16];
    size_t n = scp_val_symbol_small_str(small, s);
    return bytes_cmp(h, o->u.bytes, o->len, (const uint8_t *)s, (uint32_t)n, ord);
  }
  default: break;
  }
  *has = false;
  return SCP_OK;
}

/* obj_cmp (host.rs): at least one object; visits, then the comparison;
 * a mismatched pair orders by ScValType. */
int scp_host_obj_cmp(scp_host *h, uint64_t a, uint64_t b, int *ord) {
  bool ao = scp_val_is_object(a), bo = scp_val_is_object(b);
  const scp_hobj *x, *y;
  bool has = true;
  int rc;
  if (ao && bo) {
    rc = scp_host_visit(h, a, &x);
    if (rc == SCP_OK) rc = scp_host_visit(h, b, &y);
    if (rc == SCP_OK) rc = compare_hobj(h, x, y, ord);
    return rc;
  }
  if (ao) {
    rc = scp_host_visit(h, a, &x);
    if (rc == SCP_OK) rc = compare_to_small(h, x, b, &has, ord);
  } else if (bo) {
    rc = scp_host_visit(h, b, &y);
    if (rc == SCP_OK) rc = compare_to_small(h, y, a, &has, ord);
    if (rc == SCP_OK && has) *ord = -*ord;
  } else {
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "two non-object args to obj_cmp");
  }
  if (rc != SCP_OK || has) return rc;
  int ta = scval_type(scp_val_tag_of(a)), tb = scval_type(scp_val_tag_of(b));
  if (ta == tb)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INTERNAL_ERROR,
                        "equal-tagged values rejected by small-value obj_cmp");
  *ord = CMP(ta, tb);
  return SCP_OK;
}

static int compare_hobj_inner(scp_host *h, const scp_hobj *a, const scp_hobj *b, int *ord) {
  if (a->tag != b->tag) {
    *ord = CMP(discriminant(a->tag), discriminant(b->tag));
    return SCP_OK;
  }
  switch (a->tag) {
  case SCP_TAG_U64_OBJ: case SCP_TAG_TIMEPOINT_OBJ: case SCP_TAG_DURATION_OBJ:
    return fixed(h, 8, CMP(a->u.u64, b->u.u64), ord);
  case SCP_TAG_I64_OBJ:
    return fixed(h, 8, CMP(a->u.i64, b->u.i64), ord);
  case SCP_TAG_U128_OBJ: case SCP_TAG_I128_OBJ:
    return fixed(h, 16, u128_order(a->u.i128.hi, a->u.i128.lo, b->u.i128.hi, b->u.i128.lo,
                                   a->tag == SCP_TAG_I128_OBJ), ord);
  case SCP_TAG_U256_OBJ: case SCP_TAG_I256_OBJ:
    return fixed(h, 32, u256_order(a->u.w, b->u.w, a->tag == SCP_TAG_I256_OBJ), ord);
  case SCP_TAG_BYTES_OBJ: case SCP_TAG_STRING_OBJ: case SCP_TAG_SYMBOL_OBJ:
  case SCP_TAG_EXECUTABLE_TAG_OBJ:
    return bytes_cmp(h, a->u.bytes, a->len, b->u.bytes, b->len, ord);
  case SCP_TAG_ADDRESS_OBJ: case SCP_TAG_MUXED_ADDRESS_OBJ: {
    /* FixedSizeOrdType<ScAddress>: MemCmp(48); the stored encoding orders
     * like the XDR enum (kind byte first, then the payload) */
    int c = memcmp(a->u.bytes, b->u.bytes, a->len < b->len ? a->len : b->len);
    return fixed(h, 48, c ? cmp3(c) : CMP(a->len, b->len), ord);
  }
  case SCP_TAG_VEC_OBJ: {
    /* Compare<MeteredVector> for Host: MemCpy and MemCmp of 8*min_len,
     * then element by element */
    uint32_t m = a->len < b->len ? a->len : b->len;
    int rc = scp_host_charge(h, SCP_COST_MemCpy, 8 * (int64_t)m);
    if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_MemCmp, 8 * (int64_t)m);
    /* the vectors may be reallocated away by nothing here: compares never
     * add objects, but take copies of the words to be safe */
    for (uint32_t i = 0; rc == SCP_OK; i++) {
      if (i >= a->len || i >= b->len) {
        *ord = CMP(a->len, b->len);
        break;
      }
      rc = scp_host_compare(h, a->u.vals[i], b->u.vals[i], ord);
      if (rc == SCP_OK && *ord) break;
    }
    return rc;
  }
  case SCP_TAG_MAP_OBJ: {
    /* Compare<MeteredOrdMap> for Host: MemCpy(24*min_len), then entry by
     * entry, key before value */
    uint32_t m = a->len < b->len ? a->len : b->len;
    int rc = scp_host_charge(h, SCP_COST_MemCpy, 24 * (int64_t)m);
    for (uint32_t i = 0; rc == SCP_OK; i++) {
      if (i >= a->len || i >= b->len) {
        *ord = CMP(a->len, b->len);
        break;
      }
      rc = scp_host_compare(h, a->u.vals[2 * i], b->u.vals[2 * i], ord);
      if (rc == SCP_OK && *ord) break;
      if (rc == SCP_OK) rc = scp_host_compare(h, a->u.vals[2 * i + 1], b->u.vals[2 * i + 1], ord);
      if (rc == SCP_OK && *ord) break;
    }
    return rc;
  }
  default:
    *ord = 0;
    return SCP_OK;
  }
}

/* Compare<HostObject> for Host runs under with_limited_depth. */
static int compare_hobj(scp_host *h, const scp_hobj *a, const scp_hobj *b, int *ord) {
  int rc = scp_host_depth_enter(h);
  if (rc != SCP_OK) return rc;
  rc = compare_hobj_inner(h, a, b, ord);
  scp_host_depth_leave(h);
  return rc;
}
