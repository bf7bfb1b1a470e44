/*
 * args.c — contract-call arguments: parsing "type:value" text
 * (scp_arg_parse) and turning an argument into a host Val the way the
 * reference converts an ScVal argument (rs-soroban-env v28
 * soroban-env-host/src/host/conversion.rs to_host_val / to_host_obj).
 * Arguments given as JSON are arg_json.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/core/host_private.h"
#include "soroban/run/args.h"
#include "xdr/scp_xdr.h"
#include "soroban/run/scp_spec.h"

/* ---- parsing ---------------------------------------------------------- */

/* Decimal digits into a 128-bit magnitude; false on junk or overflow. */
static bool parse_u128(const char *s, unsigned __int128 *out) {
  unsigned __int128 x = 0;
  const unsigned __int128 max = ~(unsigned __int128)0;
  if (!*s) return false;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return false;
    unsigned d = (unsigned)(*s - '0');
    if (x > (max - d) / 10) return false;
    x = x * 10 + d;
  }
  *out = x;
  return true;
}

/* Signed decimal within [-2^(bits-1), 2^(bits-1)-1]. */
static bool parse_signed(const char *s, unsigned bits, __int128 *out) {
  bool neg = *s == '-';
  if (neg || *s == '+') s++;
  unsigned __int128 m;
  if (!parse_u128(s, &m)) return false;
  unsigned __int128 lim = (unsigned __int128)1 << (bits - 1);
  if (neg ? m > lim : m >= lim) return false;
  *out = neg ? (__int128)(0 - m) : (__int128)m;
  return true;
}

static bool parse_unsigned(const char *s, unsigned bits, unsigned __int128 *out) {
  if (*s == '+') s++;
  if (!parse_u128(s, out)) return false;
  return bits == 128 || *out < ((unsigned __int128)1 << bits);
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void scp_arg_hex_decode(const uint8_t *hex, size_t n, uint8_t *out) {
  for (size_t k = 0; k < n; k++)
    out[k] = (uint8_t)(hexval((char)hex[2 * k]) << 4 | hexval((char)hex[2 * k + 1]));
}

bool scp_arg_parse_256(const char *s, size_t n, bool sign, uint8_t out[32]) {
  uint32_t limb[8] = {0};   /* little-endian 32-bit limbs */
  bool neg = false;
  if (n && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    if (neg && !sign) return false;
    s++;
    n--;
  }
  if (!n) return false;
  for (size_t k = 0; k < n; k++) {
    if (s[k] < '0' || s[k] > '9') return false;
    uint64_t carry = (uint64_t)(s[k] - '0');
    for (int j = 0; j < 8; j++) {
      uint64_t x = (uint64_t)limb[j] * 10 + carry;
      limb[j] = (uint32_t)x;
      carry = x >> 32;
    }
    if (carry) return false;
  }
  if (sign) {
    /* magnitude at most 2^255 when negative, below it otherwise */
    bool top = limb[7] >> 31;
    bool rest_zero = (limb[7] & 0x7fffffffu) == 0;
    for (int j = 0; j < 7 && rest_zero; j++) rest_zero = limb[j] == 0;
    if (top && !(neg && rest_zero)) return false;
  }
  if (neg) {   /* two's complement: invert and add one */
    uint64_t carry = 1;
    for (int j = 0; j < 8; j++) {
      uint64_t x = (uint64_t)(uint32_t)~limb[j] + carry;
      limb[j] = (uint32_t)x;
      carry = x >> 32;
    }
  }
  for (int j = 0; j < 8; j++)
    for (int b = 0; b < 4; b++) out[31 - 4 * j - b] = (uint8_t)(limb[j] >> (8 * b));
  return true;
}

bool scp_arg_strkey_decode(const uint8_t *s, size_t n, uint8_t *raw, size_t cap, size_t *len) {
  return scp_xdr_strkey_raw(s, n, raw, cap, len);
}

/* A 56-character strkey (version byte, 32-byte payload, checksum)
 * decoded into raw; false when it is not base32 of 35 bytes with a good
 * checksum. */
static bool strkey_raw(const uint8_t *s, size_t n, uint8_t raw[35]) {
  size_t len;
  return n == 56 && scp_arg_strkey_decode(s, n, raw, 35, &len) && len == 35;
}

/* Strkey of an account ("G...", ed25519 public key, version 6 << 3) or a
 * contract ("C...", 2 << 3).  *kind = 0 account, 1 contract (ScAddress's
 * discriminant).  False when the text is not such a strkey. */
static bool strkey_decode(const uint8_t *s, size_t n, unsigned *kind, uint8_t key[32]) {
  uint8_t raw[35];
  if (!strkey_raw(s, n, raw) || (raw[0] != (6 << 3) && raw[0] != (2 << 3))) return false;
  *kind = raw[0] == (6 << 3) ? 0 : 1;
  memcpy(key, raw + 1, 32);
  return true;
}

/* A secret seed's strkey ("S...": version byte 18 << 3). */
bool scp_seed_strkey(const char *text, uint8_t seed[32]) {
  uint8_t raw[35];
  if (!text || !strkey_raw((const uint8_t *)text, strlen(text), raw) || raw[0] != (18 << 3))
    return false;
  memcpy(seed, raw + 1, 32);
  return true;
}

/* An address strkey: *kind 0 account (G...), 1 contract (C...). */
bool scp_address_strkey(const char *text, unsigned *kind, uint8_t key[32]) {
  return text && strkey_decode((const uint8_t *)text, strlen(text), kind, key);
}

bool scp_account_strkey(const char *text, uint8_t key[32]) {
  unsigned kind;
  return text && strkey_decode((const uint8_t *)text, strlen(text), &kind, key) && kind == 0;
}

int scp_arg_parse_as(const char *type, size_t tlen, const char *v, const char *label,
                     scp_arg *out, scp_error *err) {
  memset(out, 0, sizeof *out);
#define TYPE_IS(s) (tlen == sizeof(s) - 1 && !memcmp(type, s, tlen))
  unsigned __int128 u;
  __int128 i;
  if (TYPE_IS("void")) {
    if (*v && strcmp(v, "void"))
      return scp_fail(err, SCP_ERR_ARG, "argument %s: void takes no value", label);
    out->kind = SCP_ARG_VOID;
    return SCP_OK;
  }
  if (TYPE_IS("u32") || TYPE_IS("u64") || TYPE_IS("u128")) {
    unsigned bits = TYPE_IS("u32") ? 32 : TYPE_IS("u64") ? 64 : 128;
    if (!parse_unsigned(v, bits, &u))
      return scp_fail(err, SCP_ERR_ARG, "argument %s: not a u%u", label, bits);
    out->kind = bits == 32 ? SCP_ARG_U32 : bits == 64 ? SCP_ARG_U64 : SCP_ARG_U128;
    out->hi = (uint64_t)(u >> 64);
    out->lo = (uint64_t)u;
    return SCP_OK;
  }
  if (TYPE_IS("timepoint") || TYPE_IS("duration")) {
    if (!parse_unsigned(v, 64, &u))
      return scp_fail(err, SCP_ERR_ARG, "argument %s: not a %.*s (a u64)", label, (int)tlen,
                      type);
    out->kind = TYPE_IS("timepoint") ? SCP_ARG_TIMEPOINT : SCP_ARG_DURATION;
    out->lo = (uint64_t)u;
    return SCP_OK;
  }
  if (TYPE_IS("i32") || TYPE_IS("i64") || TYPE_IS("i128")) {
    unsigned bits = TYPE_IS("i32") ? 32 : TYPE_IS("i64") ? 64 : 128;
    if (!parse_signed(v, bits, &i))
      return scp_fail(err, SCP_ERR_ARG, "argument %s: not an i%u", label, bits);
    out->kind = bits == 32 ? SCP_ARG_I32 : bits == 64 ? SCP_ARG_I64 : SCP_ARG_I128;
    out->hi = (uint64_t)((unsigned __int128)i >> 64);
    out->lo = (uint64_t)(unsigned __int128)i;
    return SCP_OK;
  }
  if (TYPE_IS("u256") || TYPE_IS("i256")) {
    bool sign = TYPE_IS("i256");
    uint8_t be[32];
    if (!scp_arg_parse_256(v, strlen(v), sign, be))
      return scp_fail(err, SCP_ERR_ARG, "argument %s: not a%s %s", label, sign ? "n" : "",
                      sign ? "i256" : "u256");
    /* the checked text itself is kept (data points into the caller's text) */
    out->kind = sign ? SCP_ARG_I256 : SCP_ARG_U256;
    out->hi = 1;
    out->data = (const uint8_t *)v;
    out->len = strlen(v);
    return SCP_OK;
  }
  if (TYPE_IS("bool")) {
    if (strcmp(v, "true") && strcmp(v, "false"))
      return scp_fail(err, SCP_ERR_ARG, "argument %s: bool is true or false", label);
    out->kind = SCP_ARG_BOOL;
    out->lo = !strcmp(v, "true");
    return SCP_OK;
  }
  if (TYPE_IS("sym") || TYPE_IS("symbol")) {
    size_t n = strlen(v);
    if (n > SCP_SYMBOL_MAX)
      return scp_fail(err, SCP_ERR_ARG,
                      "argument %s: a symbol has at most %d characters", label, SCP_SYMBOL_MAX);
    for (size_t k = 0; k < n; k++)
      if (scp_val_symbol_code((uint8_t)v[k]) < 0)
        return scp_fail(err, SCP_ERR_ARG, "argument %s: a symbol uses only [_0-9A-Za-z]", label);
    out->kind = SCP_ARG_SYMBOL;
    out->data = (const uint8_t *)v;
    out->len = n;
    return SCP_OK;
  }
  if (TYPE_IS("str") || TYPE_IS("string")) {
    out->kind = SCP_ARG_STRING;
    out->data = (const uint8_t *)v;
    out->len = strlen(v);
    return SCP_OK;
  }
  if (TYPE_IS("addr") || TYPE_IS("address")) {
    unsigned kind;
    uint8_t key[32];
    if (!strkey_decode((const uint8_t *)v, strlen(v), &kind, key))
      return scp_fail(err, SCP_ERR_ARG,
                      "argument %s: not an address strkey (G... account or C... contract, "
                      "56 characters)", label);
    out->kind = SCP_ARG_ADDRESS;
    out->data = (const uint8_t *)v;
    out->len = 56;
    return SCP_OK;
  }
  if (TYPE_IS("bytes")) {
    size_t n = strlen(v);
    if (n >= 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
      v += 2;
      n -= 2;
    }
    if (n % 2)
      return scp_fail(err, SCP_ERR_ARG, "argument %s: odd number of hex digits", label);
    for (size_t k = 0; k < n; k++)
      if (hexval(v[k]) < 0)
        return scp_fail(err, SCP_ERR_ARG, "argument %s: bytes are hex digits", label);
    /* data must point into text, so it is the hex itself; hi = 1 marks
     * that (hi is otherwise unused for BYTES: 0 = data holds raw bytes). */
    out->kind = SCP_ARG_BYTES;
    out->hi = 1;
    out->data = (const uint8_t *)v;
    out->len = n;
    return SCP_OK;
  }
#undef TYPE_IS
  return scp_fail(err, SCP_ERR_ARG,
                  "argument %s: unknown type (u32 i32 u64 i64 u128 i128 u256 i256 timepoint "
                  "duration bool sym bytes str addr void)", label);
}

int scp_arg_parse(const char *text, scp_arg *out, scp_error *err) {
  memset(out, 0, sizeof *out);
  size_t tlen = strlen(text);
  if (tlen > SCP_MAX_ARG_BYTES)
    return scp_fail(err, SCP_ERR_LIMIT, "argument: %zu bytes, over the %u-byte limit for an "
                    "argument", tlen, SCP_MAX_ARG_BYTES);
  if (!strcmp(text, "void")) {
    out->kind = SCP_ARG_VOID;
    return SCP_OK;
  }
  const char *colon = strchr(text, ':');
  if (!colon)
    return scp_fail(err, SCP_ERR_ARG,
                    "argument '%s': expected type:value (u32:7, sym:name, ...)", text);
  /* messages name the whole argument as typed, quoted */
  char label[96];
  snprintf(label, sizeof label, "'%.*s%s'", 80, text, strlen(text) > 80 ? "..." : "");
  return scp_arg_parse_as(text, (size_t)(colon - text), colon + 1, label, out, err);
}

/* ---- conversion to a host Val ------------------------------------------- */

enum { SIZE_SCBYTES = 24, SIZE_U64 = 8, SIZE_U128 = 16 };

static int add_word_obj(scp_host *h, unsigned tag, uint64_t hi, uint64_t lo,
                        uint64_t copy_size, uint64_t *val) {
  /* to_host_obj: charge_shallow_copy of the number, then add_host_object. */
  int rc = scp_host_charge_copy(h, 1, copy_size);
  if (rc != SCP_OK) return rc;
  scp_hobj o = { .tag = (uint8_t)tag };
  if (copy_size == SIZE_U64) o.u.u64 = lo;
  else {
    o.u.i128.hi = hi;
    o.u.i128.lo = lo;
  }
  return scp_host_add_obj(h, &o, val);
}

/* ScBytes / ScString / ScSymbol: metered_clone of the BytesM (MemCpy(24),
 * MemAlloc(len), MemCpy(len)), then add_host_object. */
static int add_buf_obj(scp_host *h, unsigned tag, const uint8_t *p, size_t len,
                       bool hex, uint64_t *val) {
  size_t n = hex ? len / 2 : len;
  if (n > UINT32_MAX) return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "too long");
  int rc = scp_host_charge_bulk_init(h, n, 1);
  if (rc != SCP_OK) return rc;
  scp_hobj o = { .tag = (uint8_t)tag, .len = (uint32_t)n };
  o.u.bytes = malloc(n ? n : 1);
  if (!o.u.bytes) return SCP_ERR_NOMEM;
  if (hex) scp_arg_hex_decode(p, n, o.u.bytes);
  else if (n) memcpy(o.u.bytes, p, n);
  return scp_host_add_obj(h, &o, val);
}

/* ScVal discriminants (Stellar-contract.x SCValType) of the kinds below. */
enum { XDR_SCV_TIMEPOINT = 7, XDR_SCV_DURATION = 8, XDR_SCV_U256 = 11, XDR_SCV_I256 = 12,
       XDR_SCV_ADDRESS = 18 };

/* Timepoint, duration, u256, i256 and addresses go through the host's own
 * ScVal -> Val conversion (host_xdr.c, conversion.rs to_host_val): the
 * argument is written as the ScVal XDR the reference's InvokeContractArgs
 * would carry, then converted with exactly its charges (none for small
 * values; the object's shallow copy and add_host_object otherwise).  No
 * ValDeser charge: the reference receives the args already decoded. */
static int scval_arg_to_val(scp_host *h, const scp_arg *a, uint64_t *val) {
  uint8_t x[4 + 4 + 4 + 32];
  size_t n = 4;
  switch (a->kind) {
  case SCP_ARG_TIMEPOINT: case SCP_ARG_DURATION:
    scp_put_be32(x, a->kind == SCP_ARG_TIMEPOINT ? XDR_SCV_TIMEPOINT : XDR_SCV_DURATION);
    scp_put_be64(x + 4, a->lo);
    n += 8;
    break;
  case SCP_ARG_U256: case SCP_ARG_I256: {
    bool sign = a->kind == SCP_ARG_I256;
    scp_put_be32(x, sign ? XDR_SCV_I256 : XDR_SCV_U256);
    if (a->hi == 1) {
      char text[96];
      if (a->len >= sizeof text || !a->data)
        return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "256-bit value too long");
      memcpy(text, a->data, a->len);
      text[a->len] = 0;
      if (!scp_arg_parse_256(text, a->len, sign, x + 4))
        return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "not a %s",
                            sign ? "i256" : "u256");
    } else {
      if (a->len != 32 || !a->data)
        return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "a 256-bit value is 32 bytes");
      memcpy(x + 4, a->data, 32);
    }
    n += 32;
    break;
  }
  case SCP_ARG_ADDRESS: {
    unsigned kind;
    uint8_t key[32];
    if (!a->data || !strkey_decode(a->data, a->len, &kind, key))
      return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "not an address strkey");
    scp_put_be32(x, XDR_SCV_ADDRESS);
    scp_put_be32(x + 4, kind);   /* ScAddressType: 0 account, 1 contract */
    n += 4;
    if (kind == 0) {          /* AccountID = PublicKey: type 0, ed25519 */
      scp_put_be32(x + n, 0);
      n += 4;
    }
    memcpy(x + n, key, 32);
    n += 32;
    break;
  }
  default:
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "unknown argument kind");
  }
  return scp_host_scval_to_val(h, x, n, val);
}

static int arg_to_val(scp_host *h, const scp_arg *a, uint64_t *val) {
  switch (a->kind) {
  case SCP_ARG_TIMEPOINT: case SCP_ARG_DURATION: case SCP_ARG_U256: case SCP_ARG_I256:
  case SCP_ARG_ADDRESS:
    return scval_arg_to_val(h, a, val);
  case SCP_ARG_SCVAL:
    if (!a->data) return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "no ScVal");
    return scp_host_scval_to_val(h, a->data, a->len, val);
  case SCP_ARG_VOID: *val = SCP_VAL_VOID; return SCP_OK;
  case SCP_ARG_BOOL: *val = scp_val_bool(a->lo != 0); return SCP_OK;
  case SCP_ARG_U32: *val = scp_val_u32((uint32_t)a->lo); return SCP_OK;
  case SCP_ARG_I32: *val = scp_val_i32((int32_t)a->lo); return SCP_OK;
  case SCP_ARG_U64:
    if (scp_val_u64_fits_small(a->lo)) {
      *val = scp_val_small_u(a->lo, SCP_TAG_U64_SMALL);
      return SCP_OK;
    }
    return add_word_obj(h, SCP_TAG_U64_OBJ, 0, a->lo, SIZE_U64, val);
  case SCP_ARG_I64:
    if (scp_val_i64_fits_small((int64_t)a->lo)) {
      *val = scp_val_small_i((int64_t)a->lo, SCP_TAG_I64_SMALL);
      return SCP_OK;
    }
    return add_word_obj(h, SCP_TAG_I64_OBJ, 0, a->lo, SIZE_U64, val);
  case SCP_ARG_U128:
    if (!a->hi && scp_val_u64_fits_small(a->lo)) {
      *val = scp_val_small_u(a->lo, SCP_TAG_U128_SMALL);
      return SCP_OK;
    }
    return add_word_obj(h, SCP_TAG_U128_OBJ, a->hi, a->lo, SIZE_U128, val);
  case SCP_ARG_I128: {
    /* fits the small form when hi is the sign extension of lo and lo fits
     * 56-bit signed */
    int64_t lo = (int64_t)a->lo;
    if ((int64_t)a->hi == (lo < 0 ? -1 : 0) && scp_val_i64_fits_small(lo)) {
      *val = scp_val_small_i(lo, SCP_TAG_I128_SMALL);
      return SCP_OK;
    }
    return add_word_obj(h, SCP_TAG_I128_OBJ, a->hi, a->lo, SIZE_U128, val);
  }
  case SCP_ARG_SYMBOL:
    if (scp_val_symbol_small(a->data, a->len, val)) return SCP_OK;
    if (a->len > SCP_SYMBOL_MAX)
      return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "symbol too long");
    return add_buf_obj(h, SCP_TAG_SYMBOL_OBJ, a->data, a->len, false, val);
  case SCP_ARG_STRING:
    return add_buf_obj(h, SCP_TAG_STRING_OBJ, a->data, a->len, false, val);
  case SCP_ARG_BYTES:
    return add_buf_obj(h, SCP_TAG_BYTES_OBJ, a->data, a->len, a->hi == 1, val);
  }
  return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "unknown argument kind");
}

int scp_host_arg_to_val(scp_host *h, const scp_arg *a, uint64_t *val,
                        scp_error *err) {
  h->errmsg[0] = 0;
  int rc = arg_to_val(h, a, val);
  if (rc == SCP_OK) return SCP_OK;
  if (rc == SCP_ERR_HOST) rc = SCP_ERR_ARG;
  return scp_fail(err, rc, "argument: %s", h->errmsg[0] ? h->errmsg : scp_strerror(rc));
}

int scp_host_args_to_vals(scp_host *h, const scp_arg *args, size_t n,
                          uint64_t *vals, scp_error *err) {
  /* scvals_to_val_vec: metered_collect of a Vec<Val> charges its bulk init
   * before converting the elements. */
  h->errmsg[0] = 0;
  int rc = scp_host_charge_bulk_init(h, n, 8);
  if (rc != SCP_OK) return scp_fail(err, rc, "arguments: %s", h->errmsg);
  for (size_t k = 0; k < n; k++) {
    rc = scp_host_arg_to_val(h, &args[k], &vals[k], err);
    if (rc != SCP_OK) return rc;
  }
  return SCP_OK;
}

/* ---- scalar arguments typed by the spec ------------------------------------ */

int scp_spec_arg_parse(const scp_spec_type *t, const char *param, const char *text,
                       scp_arg *out, scp_error *err) {
  char label[64];
  snprintf(label, sizeof label, "--%s", param);
  /* Option<T>: the ScVal is Void for none, else T's value (how the SDK
   * encodes Option), so "void" / "none" / "null" or a T. */
  if (t->kind == SCP_SPEC_OPTION && t->nsub == 1) {
    if (!strcmp(text, "void") || !strcmp(text, "none") || !strcmp(text, "null")) {
      memset(out, 0, sizeof *out);
      out->kind = SCP_ARG_VOID;
      return SCP_OK;
    }
    t = &t->sub[0];
  }
  const char *type = scp_spec_kind_arg(t->kind);
  if (!type) {
    scp_buf tn = {0};
    scp_spec_type_format(t, &tn);
    int rc = scp_fail(err, SCP_ERR_ARG,
                      "argument %s: type %s cannot be given on the command line yet "
                      "(supported: bool, void, integers, timepoint, duration, bytes, bytesn, "
                      "string, symbol, address, option of those)",
                      label, tn.oom ? "?" : tn.data);
    scp_buf_free(&tn);
    return rc;
  }
  int rc = scp_arg_parse_as(type, strlen(type), text, label, out, err);
  if (rc != SCP_OK) return rc;
  if (t->kind == SCP_SPEC_BYTES_N && out->len != 2 * (size_t)t->n)
    return scp_fail(err, SCP_ERR_ARG, "argument %s: bytesn<%u> takes exactly %u bytes (%u hex "
                    "digits), got %zu", label, t->n, t->n, 2 * t->n, out->len / 2);
  return SCP_OK;
}
