/*
 * host_xdr.c — ScVal XDR for serialize_to_bytes / deserialize_from_bytes,
 * with the reference's charges (rs-soroban-env v28):
 *   Val -> ScVal  host/conversion.rs from_host_val / from_host_obj
 *   ScVal -> XDR  host/metered_xdr.rs metered_write_xdr: one ValSer(n) per
 *                 non-empty write of the stellar-xdr writer (each 4- or
 *                 8-byte scalar, each opaque body, each padding)
 *   XDR -> ScVal  metered_from_xdr: one ValDeser(total length)
 *   ScVal -> Val  conversion.rs to_host_val / to_host_obj
 * Conversion and encoding are separate passes, as in the reference, so
 * every conversion charge precedes every ValSer charge.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/core/host_private.h"

/* ScValType (Stellar-contract.x) */
enum {
  SCV_BOOL = 0, SCV_VOID, SCV_ERROR, SCV_U32, SCV_I32, SCV_U64, SCV_I64, SCV_TIMEPOINT,
  SCV_DURATION, SCV_U128, SCV_I128, SCV_U256, SCV_I256, SCV_BYTES, SCV_STRING, SCV_SYMBOL,
  SCV_VEC, SCV_MAP, SCV_ADDRESS, SCV_CONTRACT_INSTANCE, SCV_LEDGER_KEY_CONTRACT_INSTANCE,
  SCV_LEDGER_KEY_NONCE, SCV_EXECUTABLE_TAG
};

/* Declared sizes (declared_size.rs). */
enum { SIZE_SCVAL = 96, SIZE_SCMAP_ENTRY = 192, SIZE_SCADDRESS = 48, SIZE_ENTRY = 24 };

/* ---- Val -> ScVal: the conversion pass (charges only) ------------------ */

static int convert_charges(scp_host *h, uint64_t v) {
  int rc = scp_host_depth_enter(h);   /* from_host_val's with_limited_depth */
  if (rc != SCP_OK) return rc;
  if (!scp_val_is_object(v)) {
    scp_host_depth_leave(h);
    return scp_val_is_good(v) ? SCP_OK
                              : scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "bad Val");
  }
  const scp_hobj *o;
  rc = scp_host_visit(h, v, &o);
  if (rc == SCP_OK) {
    switch (o->tag) {
    case SCP_TAG_VEC_OBJ: {
      uint32_t n = o->len;
      const uint64_t *vals = o->u.vals;
      rc = scp_host_charge_bulk_init(h, n, SIZE_SCVAL);
      for (uint32_t i = 0; rc == SCP_OK && i < n; i++) rc = convert_charges(h, vals[i]);
      break;
    }
    case SCP_TAG_MAP_OBJ: {
      /* host_map_to_scmap: Vec<ScMapEntry> with capacity, the iteration's
       * charge_scan, then key and value of each entry */
      uint32_t n = o->len;
      const uint64_t *kv = o->u.vals;
      rc = scp_host_charge_bulk_init(h, n, SIZE_SCMAP_ENTRY);
      if (rc == SCP_OK) rc = scp_host_charge_copy(h, n, SIZE_ENTRY);
      for (uint32_t i = 0; rc == SCP_OK && i < 2 * n; i++) rc = convert_charges(h, kv[i]);
      break;
    }
    case SCP_TAG_U64_OBJ: case SCP_TAG_I64_OBJ: case SCP_TAG_TIMEPOINT_OBJ:
    case SCP_TAG_DURATION_OBJ:
      rc = scp_host_charge_copy(h, 1, 8);
      break;
    case SCP_TAG_U128_OBJ: case SCP_TAG_I128_OBJ:
      rc = scp_host_charge_copy(h, 1, 16);
      break;
    case SCP_TAG_U256_OBJ: case SCP_TAG_I256_OBJ:
      rc = scp_host_charge_copy(h, 2, 16);
      break;
    case SCP_TAG_BYTES_OBJ: case SCP_TAG_STRING_OBJ: case SCP_TAG_SYMBOL_OBJ:
    case SCP_TAG_EXECUTABLE_TAG_OBJ:
      rc = scp_host_charge_bulk_init(h, o->len, 1);   /* metered_clone */
      break;
    case SCP_TAG_ADDRESS_OBJ: case SCP_TAG_MUXED_ADDRESS_OBJ:
      rc = scp_host_charge_copy(h, 1, SIZE_SCADDRESS);
      break;
    default:
      break;
    }
  }
  scp_host_depth_leave(h);
  return rc;
}

/* ---- ScVal -> XDR: the write pass ---------------------------------------- */

typedef struct xbuf {
  uint8_t *p;
  size_t n, cap;
  bool nocharge;   /* storage byte images: no ValSer */
} xbuf;

/* One writer call: ValSer(len) for a non-empty write (std's write_all
 * never calls write for an empty slice). */
static int put(scp_host *h, xbuf *b, const void *p, size_t len) {
  if (!len) return SCP_OK;
  int rc = b->nocharge ? SCP_OK : scp_host_charge(h, SCP_COST_ValSer, (int64_t)len);
  if (rc != SCP_OK) return rc;
  if (!scp_grow(&b->p, &b->cap, b->n + len, 1)) return SCP_ERR_NOMEM;
  memcpy(b->p + b->n, p, len);
  b->n += len;
  return SCP_OK;
}

static int put_u32(scp_host *h, xbuf *b, uint32_t x) {
  uint8_t t[4] = { (uint8_t)(x >> 24), (uint8_t)(x >> 16), (uint8_t)(x >> 8), (uint8_t)x };
  return put(h, b, t, 4);
}

static int put_u64(scp_host *h, xbuf *b, uint64_t x) {
  uint8_t t[8];
  scp_put_be64(t, x);
  return put(h, b, t, 8);
}

/* variable-length opaque: length, bytes, padding to 4 */
static int put_opaque(scp_host *h, xbuf *b, const uint8_t *p, uint32_t len) {
  static const uint8_t zero[3];
  int rc = put_u32(h, b, len);
  if (rc == SCP_OK) rc = put(h, b, p, len);
  if (rc == SCP_OK) rc = put(h, b, zero, (4 - len % 4) % 4);
  return rc;
}

static int write_val(scp_host *h, xbuf *b, uint64_t v);

static int write_obj(scp_host *h, xbuf *b, const scp_hobj *o) {
  int rc;
  switch (o->tag) {
  case SCP_TAG_U64_OBJ: case SCP_TAG_I64_OBJ: case SCP_TAG_TIMEPOINT_OBJ:
  case SCP_TAG_DURATION_OBJ: {
    static const uint32_t types[] = { SCV_U64, SCV_I64, SCV_TIMEPOINT, SCV_DURATION };
    rc = put_u32(h, b, types[o->tag - SCP_TAG_U64_OBJ]);
    return rc == SCP_OK ? put_u64(h, b, o->u.u64) : rc;
  }
  case SCP_TAG_U128_OBJ: case SCP_TAG_I128_OBJ:
    rc = put_u32(h, b, o->tag == SCP_TAG_U128_OBJ ? SCV_U128 : SCV_I128);
    if (rc == SCP_OK) rc = put_u64(h, b, o->u.i128.hi);
    return rc == SCP_OK ? put_u64(h, b, o->u.i128.lo) : rc;
  case SCP_TAG_U256_OBJ: case SCP_TAG_I256_OBJ:
    rc = put_u32(h, b, o->tag == SCP_TAG_U256_OBJ ? SCV_U256 : SCV_I256);
    for (int i = 0; rc == SCP_OK && i < 4; i++) rc = put_u64(h, b, o->u.w[i]);
    return rc;
  case SCP_TAG_BYTES_OBJ: case SCP_TAG_STRING_OBJ: case SCP_TAG_SYMBOL_OBJ:
  case SCP_TAG_EXECUTABLE_TAG_OBJ: {
    uint32_t t = o->tag == SCP_TAG_BYTES_OBJ    ? SCV_BYTES
                 : o->tag == SCP_TAG_STRING_OBJ ? SCV_STRING
                 : o->tag == SCP_TAG_SYMBOL_OBJ ? SCV_SYMBOL
                                                : SCV_EXECUTABLE_TAG;
    rc = put_u32(h, b, t);
    return rc == SCP_OK ? put_opaque(h, b, o->u.bytes, o->len) : rc;
  }
  case SCP_TAG_VEC_OBJ: case SCP_TAG_MAP_OBJ: {
    bool map = o->tag == SCP_TAG_MAP_OBJ;
    uint32_t n = o->len;
    const uint64_t *vals = o->u.vals;
    rc = put_u32(h, b, map ? SCV_MAP : SCV_VEC);
    if (rc == SCP_OK) rc = put_u32(h, b, 1);   /* Option: Some */
    if (rc == SCP_OK) rc = put_u32(h, b, n);
    for (uint32_t i = 0; rc == SCP_OK && i < (map ? 2 * n : n); i++) rc = write_val(h, b, vals[i]);
    return rc;
  }
  case SCP_TAG_ADDRESS_OBJ: case SCP_TAG_MUXED_ADDRESS_OBJ: {
    /* stored: kind byte, then 32-byte key/hash (muxed: 8-byte id, key) */
    rc = put_u32(h, b, SCV_ADDRESS);
    if (rc == SCP_OK) rc = put_u32(h, b, o->u.bytes[0]);
    if (o->u.bytes[0] == 0) {   /* AccountId: PublicKey union, ed25519 */
      if (rc == SCP_OK) rc = put_u32(h, b, 0);
      if (rc == SCP_OK) rc = put(h, b, o->u.bytes + 1, 32);
    } else if (o->u.bytes[0] == 1) {
      if (rc == SCP_OK) rc = put(h, b, o->u.bytes + 1, 32);
    } else {
      uint64_t id = 0;
      for (int i = 0; i < 8; i++) id = (id << 8) | o->u.bytes[1 + i];
      if (rc == SCP_OK) rc = put_u64(h, b, id);
      if (rc == SCP_OK) rc = put(h, b, o->u.bytes + 9, 32);
    }
    return rc;
  }
  default:
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "object not serializable");
  }
}

static int write_val(scp_host *h, xbuf *b, uint64_t v) {
  unsigned tag = scp_val_tag_of(v);
  int rc;
  switch (tag) {
  case SCP_TAG_FALSE: case SCP_TAG_TRUE:
    rc = put_u32(h, b, SCV_BOOL);
    return rc == SCP_OK ? put_u32(h, b, tag == SCP_TAG_TRUE) : rc;
  case SCP_TAG_VOID:
    return put_u32(h, b, SCV_VOID);
  case SCP_TAG_ERROR:
    rc = put_u32(h, b, SCV_ERROR);
    if (rc == SCP_OK) rc = put_u32(h, b, scp_val_minor(v));
    return rc == SCP_OK ? put_u32(h, b, scp_val_major(v)) : rc;
  case SCP_TAG_U32: case SCP_TAG_I32:
    rc = put_u32(h, b, tag == SCP_TAG_U32 ? SCV_U32 : SCV_I32);
    return rc == SCP_OK ? put_u32(h, b, scp_val_major(v)) : rc;
  case SCP_TAG_U64_SMALL: case SCP_TAG_TIMEPOINT_SMALL: case SCP_TAG_DURATION_SMALL:
    rc = put_u32(h, b, tag == SCP_TAG_U64_SMALL ? SCV_U64
                       : tag == SCP_TAG_TIMEPOINT_SMALL ? SCV_TIMEPOINT : SCV_DURATION);
    return rc == SCP_OK ? put_u64(h, b, scp_val_body(v)) : rc;
  case SCP_TAG_I64_SMALL:
    rc = put_u32(h, b, SCV_I64);
    return rc == SCP_OK ? put_u64(h, b, (uint64_t)scp_val_signed_body(v)) : rc;
  case SCP_TAG_U128_SMALL: case SCP_TAG_I128_SMALL: {
    bool sign = tag == SCP_TAG_I128_SMALL;
    int64_t s = sign ? scp_val_signed_body(v) : (int64_t)scp_val_body(v);
    rc = put_u32(h, b, sign ? SCV_I128 : SCV_U128);
    if (rc == SCP_OK) rc = put_u64(h, b, sign && s < 0 ? UINT64_MAX : 0);
    return rc == SCP_OK ? put_u64(h, b, (uint64_t)s) : rc;
  }
  case SCP_TAG_U256_SMALL: case SCP_TAG_I256_SMALL: {
    uint64_t w[4];
    scp_int256_from_small(v, tag == SCP_TAG_I256_SMALL, w);
    rc = put_u32(h, b, tag == SCP_TAG_U256_SMALL ? SCV_U256 : SCV_I256);
    for (int i = 0; rc == SCP_OK && i < 4; i++) rc = put_u64(h, b, w[i]);
    return rc;
  }
  case SCP_TAG_SYMBOL_SMALL: {
    char s[16];
    size_t n = scp_val_symbol_small_str(v, s);
    rc = put_u32(h, b, SCV_SYMBOL);
    return rc == SCP_OK ? put_opaque(h, b, (const uint8_t *)s, (uint32_t)n) : rc;
  }
  default: {
    const scp_hobj *o = scp_host_obj(h, v);
    if (!o) return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "unknown object");
    return write_obj(h, b, o);
  }
  }
}

int scp_host_val_to_xdr(scp_host *h, uint64_t v, uint8_t **out, size_t *len) {
  xbuf b = { 0 };
  *out = NULL;
  *len = 0;
  int rc = convert_charges(h, v);
  if (rc == SCP_OK) rc = write_val(h, &b, v);
  if (rc != SCP_OK) {
    free(b.p);
    return rc;
  }
  *out = b.p;
  *len = b.n;
  return SCP_OK;
}

int scp_host_val_to_xdr_writes(scp_host *h, uint64_t v, uint8_t **out, size_t *len) {
  xbuf b = { 0 };
  *out = NULL;
  *len = 0;
  int rc = write_val(h, &b, v);
  if (rc != SCP_OK) {
    free(b.p);
    return rc;
  }
  *out = b.p;
  *len = b.n;
  return SCP_OK;
}

int scp_host_from_host_val_charges(scp_host *h, uint64_t v) {
  return convert_charges(h, v);
}

int scp_host_val_to_xdr_raw(scp_host *h, uint64_t v, uint8_t **out, size_t *len) {
  xbuf b = { .nocharge = true };
  *out = NULL;
  *len = 0;
  int rc = write_val(h, &b, v);
  if (rc != SCP_OK) {
    free(b.p);
    return rc;
  }
  if (!b.p && !(b.p = malloc(1))) return SCP_ERR_NOMEM;
  *out = b.p;
  *len = b.n;
  return SCP_OK;
}

/* ---- XDR -> ScVal (parse) -> Val ----------------------------------------- */

typedef struct xnode {
  uint32_t type;
  uint64_t w[4];            /* scalars: most significant first */
  const uint8_t *data;      /* opaque bodies (bytes/string/symbol/address) */
  uint32_t len;             /* opaque length, or element count */
  struct xnode *kids;       /* vec: len nodes; map: 2*len (key, value) */
  bool representable;
} xnode;

/* eof: the first error was a read past the input.  The reference reads
 * with its XDR length limit set to the input's length (metered_xdr.rs
 * metered_from_xdr), so such a read is LengthLimitExceeded, which
 * error.rs turns into (Context, ExceededLimit); other malformed input is
 * (Value, InvalidInput). */
typedef struct xreader {
  const uint8_t *p, *end;
  unsigned depth;
  bool eof;
} xreader;

static bool get_u32(xreader *r, uint32_t *x) {
  if (r->end - r->p < 4) {
    r->eof = true;
    return false;
  }
  *x = scp_be32(r->p);
  r->p += 4;
  return true;
}

static bool get_u64(xreader *r, uint64_t *x) {
  uint32_t hi, lo;
  if (!get_u32(r, &hi) || !get_u32(r, &lo)) return false;
  *x = (uint64_t)hi << 32 | lo;
  return true;
}

static bool get_fixed(xreader *r, uint32_t n, const uint8_t **p) {
  if ((size_t)(r->end - r->p) < n) {
    r->eof = true;
    return false;
  }
  *p = r->p;
  r->p += n;
  return true;
}

static bool get_opaque(xreader *r, uint32_t max, const uint8_t **p, uint32_t *n) {
  uint32_t pad;
  if (!get_u32(r, n) || *n > max || !get_fixed(r, *n, p)) return false;
  pad = (4 - *n % 4) % 4;
  const uint8_t *z;
  if (!get_fixed(r, pad, &z)) return false;
  for (uint32_t i = 0; i < pad; i++)
    if (z[i]) return false;
  return true;
}

static void free_node(xnode *n) {
  if (!n->kids) return;
  uint32_t k = n->type == SCV_MAP ? 2 * n->len : n->len;
  for (uint32_t i = 0; i < k; i++) free_node(&n->kids[i]);
  free(n->kids);
}

static int parse(xreader *r, xnode *n);

/* A Vec or Map: Option<ScVec> / Option<ScMap> (None is valid XDR but no
 * Val), then the elements (a map's as key, value pairs). */
static int parse_seq(xreader *r, xnode *n, uint32_t t) {
  uint32_t some;
  int rc = 0;
  if (!get_u32(r, &some) || some > 1) return 1;
  if (!some) {
    n->representable = false;
    return 0;
  }
  if (!get_u32(r, &n->len)) return 1;
  uint32_t k = t == SCV_MAP ? 2 * n->len : n->len;
  /* each element takes at least 4 bytes: fewer left is a read past
   * the end */
  if ((size_t)(r->end - r->p) / 4 < k) {
    r->eof = true;
    return 1;
  }
  n->kids = calloc(k ? k : 1, sizeof *n->kids);
  if (!n->kids) return 1;
  for (uint32_t i = 0; !rc && i < k; i++) {
    rc = parse(r, &n->kids[i]);
    if (!rc && !n->kids[i].representable) n->representable = false;
  }
  return rc;
}

/* An ScAddress: account, contract, muxed account, claimable balance or
 * liquidity pool; n->data points at its 32 bytes. */
static int parse_address(xreader *r, xnode *n) {
  const uint8_t *p;
  uint32_t x;
  if (!get_u32(r, &x)) return 1;
  n->w[0] = x;
  if (x == 0) {   /* account: PublicKey ed25519 */
    uint32_t pk;
    if (!get_u32(r, &pk) || pk != 0 || !get_fixed(r, 32, &p)) return 1;
  } else if (x == 1) {
    if (!get_fixed(r, 32, &p)) return 1;
  } else if (x == 2) {
    if (!get_u64(r, &n->w[1]) || !get_fixed(r, 32, &p)) return 1;
  } else if (x == 3) {
    /* claimable balance: ClaimableBalanceId (only V0: a Hash) */
    uint32_t v;
    if (!get_u32(r, &v) || v != 0 || !get_fixed(r, 32, &p)) return 1;
  } else if (x == 4) {
    /* liquidity pool: PoolId (a Hash) */
    if (!get_fixed(r, 32, &p)) return 1;
  } else {
    return 1;
  }
  n->data = p;
  return 0;
}

/* A contract instance: executable (Wasm hash | StellarAsset), then
 * Option<ScMap> storage; valid XDR but not a Val. */
static int parse_instance(xreader *r, xnode *n) {
  const uint8_t *p;
  uint32_t x, some;
  int rc = 0;
  n->representable = false;
  if (!get_u32(r, &x)) return 1;
  if (x == 0 && !get_fixed(r, 32, &p)) return 1;
  if (x > 1) return 1;
  if (!get_u32(r, &some) || some > 1) return 1;
  if (some) {
    if (!get_u32(r, &n->len)) return 1;
    if ((size_t)(r->end - r->p) / 8 < n->len) {
      r->eof = true;
      return 1;
    }
    n->type = SCV_MAP;   /* so free_node releases the entries */
    n->kids = calloc(n->len ? 2 * (size_t)n->len : 1, sizeof *n->kids);
    if (!n->kids) return 1;
    for (uint32_t i = 0; !rc && i < 2 * n->len; i++) rc = parse(r, &n->kids[i]);
  }
  return rc;
}

/* 0 ok, 1 malformed (xdr error), 2 depth */
static int parse(xreader *r, xnode *n) {
  memset(n, 0, sizeof *n);
  n->representable = true;
  if (++r->depth > 500) return 2;
  uint32_t t, x;
  int rc = 0;
  if (!get_u32(r, &t)) return 1;
  n->type = t;
  switch (t) {
  case SCV_BOOL:
    if (!get_u32(r, &x) || x > 1) return 1;
    n->w[0] = x;
    break;
  case SCV_VOID: case SCV_LEDGER_KEY_CONTRACT_INSTANCE:
    n->representable = t == SCV_VOID;
    break;
  case SCV_ERROR:
    if (!get_u32(r, &x) || x > SCP_ET_AUTH) return 1;
    n->w[0] = x;
    if (!get_u32(r, &x) || (n->w[0] != SCP_ET_CONTRACT && x > SCP_EC_UNEXPECTED_SIZE)) return 1;
    n->w[1] = x;
    break;
  case SCV_U32: case SCV_I32:
    if (!get_u32(r, &x)) return 1;
    n->w[0] = x;
    break;
  case SCV_U64: case SCV_I64: case SCV_TIMEPOINT: case SCV_DURATION:
    if (!get_u64(r, &n->w[0])) return 1;
    break;
  case SCV_U128: case SCV_I128:
    if (!get_u64(r, &n->w[0]) || !get_u64(r, &n->w[1])) return 1;
    break;
  case SCV_U256: case SCV_I256:
    for (int i = 0; i < 4; i++)
      if (!get_u64(r, &n->w[i])) return 1;
    break;
  case SCV_BYTES: case SCV_STRING: case SCV_EXECUTABLE_TAG:
    if (!get_opaque(r, UINT32_MAX, &n->data, &n->len)) return 1;
    break;
  case SCV_SYMBOL:
    if (!get_opaque(r, SCP_SYMBOL_MAX, &n->data, &n->len)) return 1;
    break;
  case SCV_VEC: case SCV_MAP:
    rc = parse_seq(r, n, t);
    break;
  case SCV_ADDRESS:
    rc = parse_address(r, n);
    break;
  case SCV_LEDGER_KEY_NONCE:   /* ScNonceKey { nonce: i64 } */
    if (!get_u64(r, &n->w[0])) return 1;
    n->representable = false;
    break;
  case SCV_CONTRACT_INSTANCE:
    rc = parse_instance(r, n);
    break;
  default:
    return 1;
  }
  r->depth--;
  return rc;
}

static int to_host_val(scp_host *h, const xnode *n, uint64_t *out);

static int add_buf(scp_host *h, unsigned tag, const uint8_t *p, uint32_t len, uint64_t *out) {
  scp_hobj o = { .tag = (uint8_t)tag, .len = len };
  o.u.bytes = malloc(len ? len : 1);
  if (!o.u.bytes) return SCP_ERR_NOMEM;
  if (len) memcpy(o.u.bytes, p, len);
  return scp_host_add_obj(h, &o, out);
}

static int to_host_obj(scp_host *h, const xnode *n, uint64_t *out) {
  int rc;
  scp_hobj o = { 0 };
  switch (n->type) {
  case SCV_U64: case SCV_I64: case SCV_TIMEPOINT: case SCV_DURATION:
    rc = scp_host_charge_copy(h, 1, 8);
    if (rc != SCP_OK) return rc;
    o.tag = (uint8_t)(SCP_TAG_U64_OBJ + (n->type - SCV_U64));
    o.u.u64 = n->w[0];
    return scp_host_add_obj(h, &o, out);
  case SCV_U128: case SCV_I128:
    rc = scp_host_charge_copy(h, 1, 16);
    if (rc != SCP_OK) return rc;
    o.tag = n->type == SCV_U128 ? SCP_TAG_U128_OBJ : SCP_TAG_I128_OBJ;
    o.u.i128.hi = n->w[0];
    o.u.i128.lo = n->w[1];
    return scp_host_add_obj(h, &o, out);
  case SCV_U256: case SCV_I256:
    rc = scp_host_charge_copy(h, 2, 16);
    if (rc != SCP_OK) return rc;
    o.tag = n->type == SCV_U256 ? SCP_TAG_U256_OBJ : SCP_TAG_I256_OBJ;
    memcpy(o.u.w, n->w, sizeof o.u.w);
    return scp_host_add_obj(h, &o, out);
  case SCV_BYTES: case SCV_STRING: case SCV_EXECUTABLE_TAG:
    rc = scp_host_charge_bulk_init(h, n->len, 1);
    if (rc != SCP_OK) return rc;
    return add_buf(h, n->type == SCV_BYTES ? SCP_TAG_BYTES_OBJ
                      : n->type == SCV_STRING ? SCP_TAG_STRING_OBJ : SCP_TAG_EXECUTABLE_TAG_OBJ,
                   n->data, n->len, out);
  case SCV_SYMBOL:
    /* s.0.metered_clone, then ScSymbol::try_from_bytes (characters) */
    rc = scp_host_charge_bulk_init(h, n->len, 1);
    if (rc != SCP_OK) return rc;
    for (uint32_t i = 0; i < n->len; i++)
      if (scp_val_symbol_code(n->data[i]) < 0)
        return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "byte is not allowed in Symbol");
    return add_buf(h, SCP_TAG_SYMBOL_OBJ, n->data, n->len, out);
  case SCV_ADDRESS: {
    /* valid XDR, but conversion.rs to_host_obj takes only account,
     * contract and muxed addresses, before any charge */
    if (n->w[0] > 2)
      return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_UNEXPECTED_TYPE,
                          "encountered unsupported ScAddress type");
    rc = scp_host_charge_copy(h, 1, SIZE_SCADDRESS);
    if (rc != SCP_OK) return rc;
    uint8_t enc[41];
    uint32_t len = 33;
    enc[0] = (uint8_t)n->w[0];
    if (n->w[0] == 2) {
      scp_put_be64(enc + 1, n->w[1]);
      memcpy(enc + 9, n->data, 32);
      len = 41;
    } else {
      memcpy(enc + 1, n->data, 32);
    }
    return add_buf(h, n->w[0] == 2 ? SCP_TAG_MUXED_ADDRESS_OBJ : SCP_TAG_ADDRESS_OBJ, enc, len,
                   out);
  }
  case SCV_VEC: {
    rc = scp_host_charge_bulk_init(h, n->len, 8);   /* with_metered_capacity */
    if (rc != SCP_OK) return rc;
    uint64_t *vals = malloc((n->len ? n->len : 1) * sizeof *vals);
    if (!vals) return SCP_ERR_NOMEM;
    for (uint32_t i = 0; rc == SCP_OK && i < n->len; i++) rc = to_host_val(h, &n->kids[i], &vals[i]);
    if (rc != SCP_OK) {
      free(vals);
      return rc;
    }
    o.tag = SCP_TAG_VEC_OBJ;
    o.len = n->len;
    o.u.vals = vals;
    return scp_host_add_obj(h, &o, out);
  }
  case SCV_MAP: {
    rc = scp_host_charge_bulk_init(h, n->len, SIZE_ENTRY);
    if (rc != SCP_OK) return rc;
    uint64_t *kv = malloc((n->len ? 2 * (size_t)n->len : 1) * sizeof *kv);
    if (!kv) return SCP_ERR_NOMEM;
    for (uint32_t i = 0; rc == SCP_OK && i < 2 * n->len; i++) rc = to_host_val(h, &n->kids[i], &kv[i]);
    if (rc == SCP_OK) rc = scp_host_map_from_pairs_nocap(h, kv, n->len, out);
    free(kv);
    return rc;
  }
  default:
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "not representable as Val");
  }
}

/* to_host_val: small forms are free; the rest become objects. */
static int to_host_val(scp_host *h, const xnode *n, uint64_t *out) {
  int rc = scp_host_depth_enter(h);
  if (rc != SCP_OK) return rc;
  switch (n->type) {
  case SCV_BOOL: *out = scp_val_bool(n->w[0] != 0); break;
  case SCV_VOID: *out = SCP_VAL_VOID; break;
  case SCV_ERROR: *out = scp_val_error((scp_err_type)n->w[0], (uint32_t)n->w[1]); break;
  case SCV_U32: *out = scp_val_u32((uint32_t)n->w[0]); break;
  case SCV_I32: *out = scp_val_i32((int32_t)(uint32_t)n->w[0]); break;
  case SCV_U64: case SCV_TIMEPOINT: case SCV_DURATION:
    if (scp_val_u64_fits_small(n->w[0])) {
      *out = scp_val_small_u(n->w[0], n->type == SCV_U64 ? SCP_TAG_U64_SMALL
                                      : n->type == SCV_TIMEPOINT ? SCP_TAG_TIMEPOINT_SMALL
                                                                 : SCP_TAG_DURATION_SMALL);
      break;
    }
    rc = to_host_obj(h, n, out);
    break;
  case SCV_I64:
    if (scp_val_i64_fits_small((int64_t)n->w[0])) {
      *out = scp_val_small_i((int64_t)n->w[0], SCP_TAG_I64_SMALL);
      break;
    }
    rc = to_host_obj(h, n, out);
    break;
  case SCV_U128:
    if (!n->w[0] && scp_val_u64_fits_small(n->w[1])) {
      *out = scp_val_small_u(n->w[1], SCP_TAG_U128_SMALL);
      break;
    }
    rc = to_host_obj(h, n, out);
    break;
  case SCV_I128:
    if (n->w[0] == ((int64_t)n->w[1] < 0 ? UINT64_MAX : 0) &&
        scp_val_i64_fits_small((int64_t)n->w[1])) {
      *out = scp_val_small_i((int64_t)n->w[1], SCP_TAG_I128_SMALL);
      break;
    }
    rc = to_host_obj(h, n, out);
    break;
  case SCV_U256: case SCV_I256: {
    bool sign = n->type == SCV_I256;
    if (scp_int256_fits_small(n->w, sign)) {
      *out = sign ? scp_val_small_i((int64_t)n->w[3], SCP_TAG_I256_SMALL)
                  : scp_val_small_u(n->w[3], SCP_TAG_U256_SMALL);
      break;
    }
    rc = to_host_obj(h, n, out);
    break;
  }
  case SCV_SYMBOL:
    if (scp_val_symbol_small(n->data, n->len, out)) break;
    /* ScValObjRef::classify (object.rs): a symbol of at most 9 chars is
     * never an object, so a bad character fails SymbolSmall::try_from_bytes
     * before any clone is charged */
    if (n->len <= SCP_SYMBOL_SMALL_MAX) {
      rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "byte is not allowed in Symbol");
      break;
    }
    rc = to_host_obj(h, n, out);
    break;
  default:
    rc = to_host_obj(h, n, out);
    break;
  }
  scp_host_depth_leave(h);
  return rc;
}

static int from_xdr_body(scp_host *h, const uint8_t *p, size_t len, uint64_t *out);

int scp_host_val_from_xdr(scp_host *h, const uint8_t *p, size_t len, uint64_t *out) {
  int rc = scp_host_charge(h, SCP_COST_ValDeser, (int64_t)len);
  if (rc != SCP_OK) return rc;
  return from_xdr_body(h, p, len, out);
}

int scp_host_scval_to_val(scp_host *h, const uint8_t *p, size_t len, uint64_t *out) {
  return from_xdr_body(h, p, len, out);
}

static int from_xdr_body(scp_host *h, const uint8_t *p, size_t len, uint64_t *out) {
  int rc;
  xreader r = { .p = p, .end = p + len, .depth = 0, .eof = false };
  xnode n;
  int prc = parse(&r, &n);
  if (!prc && r.p != r.end) prc = 1;   /* trailing bytes */
  if (prc) {
    free_node(&n);
    if (prc == 2)
      return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_EXCEEDED_LIMIT, "XDR depth limit");
    if (r.eof)   /* same text: a scenario's bad XDR reads the same to the user */
      return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_EXCEEDED_LIMIT, "malformed XDR");
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "malformed XDR");
  }
  if (!n.representable) {
    free_node(&n);
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE,
                        "Deserialized ScVal type cannot be represented as Val");
  }
  rc = to_host_val(h, &n, out);
  free_node(&n);
  return rc;
}

size_t scp_host_scval_xdr_len(const uint8_t *p, size_t len) {
  xreader r = { .p = p, .end = p + len };
  xnode n;
  int prc = parse(&r, &n);
  free_node(&n);
  return prc ? 0 : (size_t)(r.p - p);
}
