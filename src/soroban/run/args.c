/*
 * args.c — contract-call arguments: parsing "type:value" text
 * (scp_arg_parse) and turning an argument into a host Val the way the
 * reference converts an ScVal argument (rs-soroban-env v28
 * soroban-env-host/src/host/conversion.rs to_host_val / to_host_obj).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/core/host_private.h"
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

/* Decimal text -> 256-bit two's complement, 32 bytes big-endian.  Unsigned:
 * [0, 2^256); signed: [-2^255, 2^255).  False on junk or overflow. */
static bool parse_256(const char *s, size_t n, bool sign, uint8_t out[32]) {
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

static uint16_t crc16_xmodem(const uint8_t *p, size_t n) {
  uint16_t crc = 0;
  for (size_t i = 0; i < n; i++) {
    crc ^= (uint16_t)(p[i] << 8);
    for (int b = 0; b < 8; b++) crc = (uint16_t)(crc & 0x8000 ? crc << 1 ^ 0x1021 : crc << 1);
  }
  return crc;
}

/* Base32 (RFC 4648, no padding) of a strkey into raw; false on a
 * character outside the alphabet, non-zero spare bits, or more than cap
 * bytes. */
static bool base32_decode(const uint8_t *s, size_t n, uint8_t *raw, size_t cap, size_t *len) {
  uint32_t acc = 0;
  unsigned bits = 0;
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    if (s[i] >= 'A' && s[i] <= 'Z') v = (unsigned)(s[i] - 'A');
    else if (s[i] >= '2' && s[i] <= '7') v = (unsigned)(s[i] - '2') + 26;
    else return false;
    acc = acc << 5 | v;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      if (o == cap) return false;
      raw[o++] = (uint8_t)(acc >> bits);
      acc &= (1u << bits) - 1;
    }
  }
  if (bits >= 5 || acc) return false;
  *len = o;
  return true;
}

/* A 56-character strkey (SEP-23: base32 of version byte, 32-byte
 * payload, CRC16-XModem little-endian) decoded into raw; false when it is
 * not base32 of 35 bytes with a good checksum. */
static bool strkey_raw(const uint8_t *s, size_t n, uint8_t raw[35]) {
  size_t len;
  return n == 56 && base32_decode(s, n, raw, 35, &len) && len == 35 &&
         crc16_xmodem(raw, 33) == (uint16_t)(raw[33] | raw[34] << 8);
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
    if (!parse_256(v, strlen(v), sign, be))
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
  for (size_t k = 0; k < n; k++)
    o.u.bytes[k] = hex ? (uint8_t)(hexval((char)p[2 * k]) << 4 | hexval((char)p[2 * k + 1]))
                       : p[k];
  return scp_host_add_obj(h, &o, val);
}

/* ScVal discriminants (Stellar-contract.x SCValType) of the kinds below. */
enum { XDR_SCV_TIMEPOINT = 7, XDR_SCV_DURATION = 8, XDR_SCV_U256 = 11, XDR_SCV_I256 = 12,
       XDR_SCV_ADDRESS = 18 };

static void put_be(uint8_t *p, uint64_t x, unsigned n) {
  for (unsigned k = 0; k < n; k++) p[k] = (uint8_t)(x >> (8 * (n - 1 - k)));
}

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
    put_be(x, a->kind == SCP_ARG_TIMEPOINT ? XDR_SCV_TIMEPOINT : XDR_SCV_DURATION, 4);
    put_be(x + 4, a->lo, 8);
    n += 8;
    break;
  case SCP_ARG_U256: case SCP_ARG_I256: {
    bool sign = a->kind == SCP_ARG_I256;
    put_be(x, sign ? XDR_SCV_I256 : XDR_SCV_U256, 4);
    if (a->hi == 1) {
      char text[96];
      if (a->len >= sizeof text || !a->data)
        return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "256-bit value too long");
      memcpy(text, a->data, a->len);
      text[a->len] = 0;
      if (!parse_256(text, a->len, sign, x + 4))
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
    put_be(x, XDR_SCV_ADDRESS, 4);
    put_be(x + 4, kind, 4);   /* ScAddressType: 0 account, 1 contract */
    n += 4;
    if (kind == 0) {          /* AccountID = PublicKey: type 0, ed25519 */
      put_be(x + n, 0, 4);
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

/* ---- JSON values typed by the spec ---------------------------------------
 *
 * Nested arguments (vec, map, tuple, UDTs, muxed addresses) are read from
 * JSON in stellar-cli's conventions (soroban-spec-tools from_json), built
 * as a tree of ScVals, map entries sorted as ScVal's Ord sorts them (the
 * host refuses an unsorted ScMap, and stellar-cli sorts), and written as
 * the ScVal XDR the reference's InvokeContractArgs would carry. */

#include <jansson.h>

enum { SCV_BOOL = 0, SCV_VOID = 1, SCV_ERROR = 2, SCV_U32 = 3, SCV_I32 = 4, SCV_U64 = 5,
       SCV_I64 = 6, SCV_TIMEPOINT = 7, SCV_DURATION = 8, SCV_U128 = 9, SCV_I128 = 10,
       SCV_U256 = 11, SCV_I256 = 12, SCV_BYTES = 13, SCV_STRING = 14, SCV_SYMBOL = 15,
       SCV_VEC = 16, SCV_MAP = 17, SCV_ADDRESS = 18 };

/* One ScVal.  Integers in w (XDR word order: hi first); bytes, strings,
 * symbols and address keys in data; address: w[0] ScAddressType, w[1] the
 * muxed id; vec: n kids; map: 2n kids, key then value. */
typedef struct jnode {
  uint32_t t;
  uint64_t w[4];
  uint8_t *data;
  uint32_t len;
  struct jnode *kids;
  uint32_t n;
} jnode;

typedef struct jctx {
  const scp_spec *spec;
  scp_error *err;
  char path[256];      /* "--pair.b[1]" */
  unsigned depth;
} jctx;

static void jnode_free(jnode *n) {
  uint32_t k = n->t == SCV_MAP ? 2 * n->n : n->n;
  for (uint32_t i = 0; n->kids && i < k; i++) jnode_free(&n->kids[i]);
  free(n->kids);
  free(n->data);
  memset(n, 0, sizeof *n);
}

static int jfail(jctx *c, const char *what) {
  return scp_fail(c->err, SCP_ERR_ARG, "argument %s: %s", c->path, what);
}

static int cmp_u(uint64_t a, uint64_t b) { return a < b ? -1 : a > b; }
static int cmp_i(int64_t a, int64_t b) { return a < b ? -1 : a > b; }

static int cmp_bytes(const uint8_t *a, uint32_t na, const uint8_t *b, uint32_t nb) {
  int r = memcmp(a, b, na < nb ? na : nb);
  return r ? (r < 0 ? -1 : 1) : cmp_u(na, nb);
}

/* ScVal's derived Ord: the variant first, then its fields in order. */
static int jnode_cmp(const jnode *a, const jnode *b) {
  if (a->t != b->t) return cmp_u(a->t, b->t);
  int r = 0;
  switch (a->t) {
  case SCV_I32: return cmp_i((int32_t)a->w[0], (int32_t)b->w[0]);
  case SCV_I64: return cmp_i((int64_t)a->w[0], (int64_t)b->w[0]);
  case SCV_I128: case SCV_I256:
    if ((r = cmp_i((int64_t)a->w[0], (int64_t)b->w[0]))) return r;
    for (int k = 1; k < 4 && !r; k++) r = cmp_u(a->w[k], b->w[k]);
    return r;
  case SCV_BYTES: case SCV_STRING: case SCV_SYMBOL:
    return cmp_bytes(a->data, a->len, b->data, b->len);
  case SCV_ADDRESS:
    if ((r = cmp_u(a->w[0], b->w[0]))) return r;
    if (a->w[0] == 2 && (r = cmp_u(a->w[1], b->w[1]))) return r;
    return cmp_bytes(a->data, 32, b->data, 32);
  case SCV_VEC: case SCV_MAP: {
    uint32_t m = a->t == SCV_MAP ? 2 : 1;
    for (uint32_t k = 0; k < m * a->n && k < m * b->n && !r; k++)
      r = jnode_cmp(&a->kids[k], &b->kids[k]);
    return r ? r : cmp_u(a->n, b->n);
  }
  default:   /* bool, void, error, unsigned integers: words in order */
    for (int k = 0; k < 4 && !r; k++) r = cmp_u(a->w[k], b->w[k]);
    return r;
  }
}

static int pair_cmp(const void *x, const void *y) {
  return jnode_cmp((const jnode *)x, (const jnode *)y);
}

/* Sort a map's entries by key; two equal keys are an error. */
static int sort_map(jctx *c, jnode *m) {
  /* kids are (key, value) blocks; the comparator reads the key */
  if (m->n) qsort(m->kids, m->n, 2 * sizeof *m->kids, pair_cmp);
  for (uint32_t k = 1; k < m->n; k++)
    if (!jnode_cmp(&m->kids[2 * k - 2], &m->kids[2 * k])) return jfail(c, "duplicate map key");
  return SCP_OK;
}

static int node_buf(jctx *c, jnode *n, uint32_t t, const uint8_t *p, size_t len) {
  n->t = t;
  n->len = (uint32_t)len;
  n->data = malloc(len ? len : 1);
  if (!n->data) return scp_fail(c->err, SCP_ERR_NOMEM, "out of memory");
  if (len && p) memcpy(n->data, p, len);
  return SCP_OK;
}

/* G... (account), C... (contract) or, when muxed, M... (muxed account:
 * 32-byte key then the id, big-endian). */
static int node_address(jctx *c, jnode *n, const char *text, bool muxed) {
  uint8_t raw[48];
  size_t len;
  size_t tl = strlen(text);
  bool ok = base32_decode((const uint8_t *)text, tl, raw, sizeof raw, &len) && len >= 3 &&
            crc16_xmodem(raw, len - 2) == (uint16_t)(raw[len - 2] | raw[len - 1] << 8);
  if (ok && raw[0] == (6 << 3) && len == 35) n->w[0] = 0;
  else if (ok && raw[0] == (2 << 3) && len == 35) n->w[0] = 1;
  else if (ok && muxed && raw[0] == (12 << 3) && len == 43) {
    n->w[0] = 2;
    for (int k = 0; k < 8; k++) n->w[1] = n->w[1] << 8 | raw[33 + k];
  } else {
    return jfail(c, muxed ? "not a muxed address strkey (G..., M... or C...)"
                          : "not an address strkey (G... account or C... contract)");
  }
  return node_buf(c, n, SCV_ADDRESS, raw + 1, 32);
}

/* The scalar text of a JSON value: a string as is, an integer in decimal,
 * true/false; NULL for anything else. */
static const char *scalar_text(json_t *j, char *tmp, size_t cap) {
  if (json_is_string(j)) return json_string_value(j);
  if (json_is_integer(j)) {
    snprintf(tmp, cap, "%" JSON_INTEGER_FORMAT, json_integer_value(j));
    return tmp;
  }
  if (json_is_boolean(j)) return json_is_true(j) ? "true" : "false";
  return NULL;
}

/* The scp_arg_parse type of a scalar spec kind (void and addresses are
 * handled apart), or NULL. */
static const char *scalar_name(uint32_t kind) {
  return kind == SCP_SPEC_VOID || kind == SCP_SPEC_ADDRESS ? NULL : scp_spec_kind_arg(kind);
}

/* A scalar spec type from text (the JSON value's, or a map key's). */
static int node_scalar(jctx *c, const scp_spec_type *t, const char *text, jnode *n) {
  if (t->kind == SCP_SPEC_ADDRESS || t->kind == SCP_SPEC_MUXED_ADDRESS)
    return node_address(c, n, text, t->kind == SCP_SPEC_MUXED_ADDRESS);
  const char *name = scalar_name(t->kind);
  scp_arg a;
  int rc = scp_arg_parse_as(name, strlen(name), text, c->path, &a, c->err);
  if (rc != SCP_OK) return rc;
  switch (t->kind) {
  case SCP_SPEC_BOOL: n->t = SCV_BOOL; n->w[0] = a.lo; return SCP_OK;
  case SCP_SPEC_U32: n->t = SCV_U32; n->w[0] = (uint32_t)a.lo; return SCP_OK;
  case SCP_SPEC_I32: n->t = SCV_I32; n->w[0] = (uint32_t)a.lo; return SCP_OK;
  case SCP_SPEC_U64: n->t = SCV_U64; n->w[0] = a.lo; return SCP_OK;
  case SCP_SPEC_I64: n->t = SCV_I64; n->w[0] = a.lo; return SCP_OK;
  case SCP_SPEC_TIMEPOINT: n->t = SCV_TIMEPOINT; n->w[0] = a.lo; return SCP_OK;
  case SCP_SPEC_DURATION: n->t = SCV_DURATION; n->w[0] = a.lo; return SCP_OK;
  case SCP_SPEC_U128: case SCP_SPEC_I128:
    n->t = t->kind == SCP_SPEC_U128 ? SCV_U128 : SCV_I128;
    n->w[0] = a.hi;
    n->w[1] = a.lo;
    return SCP_OK;
  case SCP_SPEC_U256: case SCP_SPEC_I256: {
    uint8_t be[32];
    parse_256(text, strlen(text), t->kind == SCP_SPEC_I256, be);   /* checked above */
    n->t = t->kind == SCP_SPEC_U256 ? SCV_U256 : SCV_I256;
    for (int k = 0; k < 32; k++) n->w[k / 8] = n->w[k / 8] << 8 | be[k];
    return SCP_OK;
  }
  case SCP_SPEC_BYTES: case SCP_SPEC_BYTES_N: {
    size_t nb = a.len / 2;
    if (t->kind == SCP_SPEC_BYTES_N && nb != t->n) {
      char what[96];
      snprintf(what, sizeof what, "bytesn<%u> takes exactly %u bytes, got %zu", t->n, t->n, nb);
      return jfail(c, what);
    }
    rc = node_buf(c, n, SCV_BYTES, NULL, nb);
    for (size_t k = 0; rc == SCP_OK && k < nb; k++)
      n->data[k] = (uint8_t)(hexval((char)a.data[2 * k]) << 4 | hexval((char)a.data[2 * k + 1]));
    return rc;
  }
  case SCP_SPEC_STRING: return node_buf(c, n, SCV_STRING, a.data, a.len);
  default: return node_buf(c, n, SCV_SYMBOL, a.data, a.len);
  }
}

static int from_json(jctx *c, const scp_spec_type *t, json_t *j, jnode *n);

/* c->path grows by a suffix while a child is converted. */
static int child(jctx *c, const scp_spec_type *t, json_t *j, jnode *n, const char *fmt,
                 const char *s, size_t i) {
  size_t at = strlen(c->path);
  if (s) snprintf(c->path + at, sizeof c->path - at, fmt, s);
  else snprintf(c->path + at, sizeof c->path - at, fmt, i);
  int rc = from_json(c, t, j, n);
  if (rc == SCP_OK) c->path[at] = 0;   /* an error message keeps the path */
  return rc;
}

static int kids(jctx *c, jnode *n, uint32_t t, size_t count) {
  n->t = t;
  if (count > UINT32_MAX / 2) return jfail(c, "too many elements");
  n->n = (uint32_t)count;
  n->kids = calloc(count ? (t == SCV_MAP ? 2 * count : count) : 1, sizeof *n->kids);
  return n->kids ? SCP_OK : scp_fail(c->err, SCP_ERR_NOMEM, "out of memory");
}

/* A map: a JSON object (keys typed from their text) or an array of
 * [key, value] pairs. */
static int from_json_map(jctx *c, const scp_spec_type *t, json_t *j, jnode *n) {
  int rc;
  if (json_is_object(j)) {
    if ((rc = kids(c, n, SCV_MAP, json_object_size(j)))) return rc;
    const char *key;
    json_t *v;
    size_t i = 0;
    json_object_foreach(j, key, v) {
      const scp_spec_type *kt = &t->sub[0];
      json_t *kj = NULL;
      if (scalar_name(kt->kind) || kt->kind == SCP_SPEC_ADDRESS ||
          kt->kind == SCP_SPEC_MUXED_ADDRESS) {
        kj = json_string(key);
      } else {
        kj = json_loads(key, JSON_DECODE_ANY, NULL);
        if (!kj) kj = json_string(key);
      }
      if (!kj) return scp_fail(c->err, SCP_ERR_NOMEM, "out of memory");
      rc = child(c, kt, kj, &n->kids[2 * i], "{%s}", key, 0);
      json_decref(kj);
      if (rc == SCP_OK) rc = child(c, &t->sub[1], v, &n->kids[2 * i + 1], ".%s", key, 0);
      if (rc != SCP_OK) return rc;
      i++;
    }
  } else if (json_is_array(j)) {
    if ((rc = kids(c, n, SCV_MAP, json_array_size(j)))) return rc;
    for (size_t i = 0; i < n->n; i++) {
      json_t *p = json_array_get(j, i);
      if (!json_is_array(p) || json_array_size(p) != 2) {
        size_t at = strlen(c->path);
        snprintf(c->path + at, sizeof c->path - at, "[%zu]", i);
        return jfail(c, "a map entry is a [key, value] pair");
      }
      rc = child(c, &t->sub[0], json_array_get(p, 0), &n->kids[2 * i], "[%zu][0]", NULL, i);
      if (rc == SCP_OK)
        rc = child(c, &t->sub[1], json_array_get(p, 1), &n->kids[2 * i + 1], "[%zu][1]", NULL, i);
      if (rc != SCP_OK) return rc;
    }
  } else {
    return jfail(c, "a map is a JSON object or an array of [key, value] pairs");
  }
  return sort_map(c, n);
}

/* A JSON array of exactly count values typed by types[0..count) (or all
 * by types[0] when same). */
static int from_json_seq(jctx *c, const scp_spec_type *types, size_t count, bool same,
                         json_t *j, jnode *n, const char *what) {
  if (!json_is_array(j) || (!same && json_array_size(j) != count)) return jfail(c, what);
  size_t len = json_array_size(j);
  int rc = kids(c, n, SCV_VEC, len);
  for (size_t i = 0; rc == SCP_OK && i < len; i++)
    rc = child(c, &types[same ? 0 : i], json_array_get(j, i), &n->kids[i], "[%zu]", NULL, i);
  return rc;
}

static bool numbered_fields(const scp_spec_udt *u) {
  for (uint32_t k = 0; k < u->ncases; k++) {
    char want[16];
    snprintf(want, sizeof want, "%u", k);
    if (strcmp(u->cases[k].name, want)) return false;
  }
  return u->ncases > 0;
}

static int sym_node(jctx *c, jnode *n, const char *name) {
  scp_spec_type sym = {.kind = SCP_SPEC_SYMBOL};
  return node_scalar(c, &sym, name, n);
}

static int from_json_udt(jctx *c, const scp_spec_type *t, json_t *j, jnode *n) {
  const scp_spec_udt *u = scp_spec_udt_find(c->spec, t->name);
  char what[160];
  if (!u) {
    snprintf(what, sizeof what, "type %s is not defined in the contract's spec", t->name);
    return jfail(c, what);
  }
  int rc;
  if (u->kind == SCP_SPEC_ENTRY_STRUCT) {
    if (numbered_fields(u)) {   /* tuple struct: a vec of the fields */
      scp_spec_type *ft = calloc(u->ncases, sizeof *ft);
      if (!ft) return scp_fail(c->err, SCP_ERR_NOMEM, "out of memory");
      for (uint32_t k = 0; k < u->ncases; k++) ft[k] = u->cases[k].types[0];
      snprintf(what, sizeof what, "%s is a JSON array of %u values", u->name, u->ncases);
      rc = from_json_seq(c, ft, u->ncases, false, j, n, what);
      free(ft);
      return rc;
    }
    if (!json_is_object(j)) {
      snprintf(what, sizeof what, "%s is a JSON object by field name", u->name);
      return jfail(c, what);
    }
    const char *key;
    json_t *v;
    json_object_foreach(j, key, v) {
      bool known = false;
      for (uint32_t k = 0; k < u->ncases && !known; k++) known = !strcmp(u->cases[k].name, key);
      if (!known) {
        snprintf(what, sizeof what, "%s has no field %.60s", u->name, key);
        return jfail(c, what);
      }
    }
    if ((rc = kids(c, n, SCV_MAP, u->ncases))) return rc;
    for (uint32_t k = 0; k < u->ncases; k++) {
      json_t *f = json_object_get(j, u->cases[k].name);
      if (!f) {
        snprintf(what, sizeof what, "%s: missing field %s", u->name, u->cases[k].name);
        return jfail(c, what);
      }
      if ((rc = sym_node(c, &n->kids[2 * k], u->cases[k].name))) return rc;
      rc = child(c, &u->cases[k].types[0], f, &n->kids[2 * k + 1], ".%s", u->cases[k].name, 0);
      if (rc != SCP_OK) return rc;
    }
    return sort_map(c, n);
  }
  if (u->kind == SCP_SPEC_ENTRY_UNION) {
    /* "Case" for a case without values, {"Case": value} (one value) or
     * {"Case": [values]}: a vec of the case's name and its values */
    const char *name = NULL;
    json_t *v = NULL;
    if (json_is_string(j)) name = json_string_value(j);
    else if (json_is_object(j) && json_object_size(j) == 1) {
      void *it = json_object_iter(j);
      name = json_object_iter_key(it);
      v = json_object_iter_value(it);
    }
    const scp_spec_case *cs = NULL;
    for (uint32_t k = 0; name && k < u->ncases; k++)
      if (!strcmp(u->cases[k].name, name)) cs = &u->cases[k];
    if (!cs) {
      scp_buf b = {0};
      for (uint32_t k = 0; k < u->ncases; k++)
        scp_buf_printf(&b, "%s%s", k ? ", " : "", u->cases[k].name);
      snprintf(what, sizeof what, "%s is \"Case\" or {\"Case\": value}, Case one of %.100s",
               u->name, b.oom || !b.data ? "?" : b.data);
      scp_buf_free(&b);
      return jfail(c, what);
    }
    if (!cs->ntypes && v && !json_is_null(v)) {
      snprintf(what, sizeof what, "%s::%s takes no value", u->name, cs->name);
      return jfail(c, what);
    }
    if (cs->ntypes && !v) {
      snprintf(what, sizeof what, "%s::%s takes a value: {\"%s\": ...}", u->name, cs->name,
               cs->name);
      return jfail(c, what);
    }
    if ((rc = kids(c, n, SCV_VEC, 1 + cs->ntypes))) return rc;
    if ((rc = sym_node(c, &n->kids[0], cs->name))) return rc;
    if (cs->ntypes == 1)
      return child(c, &cs->types[0], v, &n->kids[1], ".%s", cs->name, 0);
    for (uint32_t k = 0; k < cs->ntypes; k++) {
      if (!json_is_array(v) || json_array_size(v) != cs->ntypes) {
        snprintf(what, sizeof what, "%s::%s takes an array of %u values", u->name, cs->name,
                 cs->ntypes);
        return jfail(c, what);
      }
      size_t at = strlen(c->path);
      snprintf(c->path + at, sizeof c->path - at, ".%s", cs->name);
      rc = child(c, &cs->types[k], json_array_get(v, k), &n->kids[1 + k], "[%zu]", NULL, k);
      if (rc != SCP_OK) return rc;
      c->path[at] = 0;
    }
    return SCP_OK;
  }
  /* enum (a U32) or error enum (a contract Error): the case's value, by
   * number or by name */
  const scp_spec_case *cs = NULL;
  for (uint32_t k = 0; k < u->ncases; k++)
    if ((json_is_integer(j) && json_integer_value(j) == (json_int_t)u->cases[k].value) ||
        (json_is_string(j) && !strcmp(json_string_value(j), u->cases[k].name)))
      cs = &u->cases[k];
  if (!cs) {
    snprintf(what, sizeof what, "not a value of %s %s (a case's number or name)",
             u->kind == SCP_SPEC_ENTRY_ENUM ? "enum" : "error enum", u->name);
    return jfail(c, what);
  }
  if (u->kind == SCP_SPEC_ENTRY_ENUM) {
    n->t = SCV_U32;
    n->w[0] = cs->value;
  } else {
    n->t = SCV_ERROR;   /* ScError::Contract(code) */
    n->w[0] = SCP_ET_CONTRACT;
    n->w[1] = cs->value;
  }
  return SCP_OK;
}

static int from_json(jctx *c, const scp_spec_type *t, json_t *j, jnode *n) {
  char tmp[32], what[160];
  memset(n, 0, sizeof *n);
  if (++c->depth > SCP_SPEC_MAX_DEPTH) return jfail(c, "nested too deep");
  int rc;
  const char *text;
  switch (t->kind) {
  case SCP_SPEC_VOID:
    n->t = SCV_VOID;
    rc = json_is_null(j) ? SCP_OK : jfail(c, "void is null");
    break;
  case SCP_SPEC_OPTION:
    if (json_is_null(j)) {
      n->t = SCV_VOID;
      rc = SCP_OK;
    } else {
      rc = from_json(c, &t->sub[0], j, n);
    }
    break;
  case SCP_SPEC_VEC:
    rc = from_json_seq(c, t->sub, 0, true, j, n, "a vec is a JSON array");
    break;
  case SCP_SPEC_TUPLE:
    snprintf(what, sizeof what, "a tuple of %u is a JSON array of %u values", t->nsub, t->nsub);
    rc = from_json_seq(c, t->sub, t->nsub, false, j, n, what);
    break;
  case SCP_SPEC_MAP:
    rc = from_json_map(c, t, j, n);
    break;
  case SCP_SPEC_UDT:
    rc = from_json_udt(c, t, j, n);
    break;
  case SCP_SPEC_ADDRESS: case SCP_SPEC_MUXED_ADDRESS:
    rc = json_is_string(j) ? node_address(c, n, json_string_value(j),
                                          t->kind == SCP_SPEC_MUXED_ADDRESS)
                           : jfail(c, "an address is a strkey string");
    break;
  default:
    if (!scalar_name(t->kind)) {
      scp_buf tn = {0};
      scp_spec_type_format(t, &tn);
      snprintf(what, sizeof what, "type %s cannot be given as an argument yet",
               tn.oom || !tn.data ? "?" : tn.data);
      scp_buf_free(&tn);
      rc = jfail(c, what);
      break;
    }
    text = scalar_text(j, tmp, sizeof tmp);
    if (!text || (t->kind == SCP_SPEC_BOOL && !json_is_boolean(j)) ||
        (t->kind != SCP_SPEC_BOOL && json_is_boolean(j))) {
      snprintf(what, sizeof what, "not a %s", scalar_name(t->kind));
      rc = jfail(c, what);
      break;
    }
    rc = node_scalar(c, t, text, n);
    break;
  }
  c->depth--;
  return rc;
}

/* ScVal XDR of a tree. */
static void put_u32b(scp_buf *b, uint32_t x) {
  uint8_t p[4];
  put_be(p, x, 4);
  scp_buf_put(b, p, 4);
}

static void jnode_xdr(const jnode *n, scp_buf *b) {
  put_u32b(b, n->t);
  switch (n->t) {
  case SCV_VOID: return;
  case SCV_BOOL: case SCV_U32: case SCV_I32: put_u32b(b, (uint32_t)n->w[0]); return;
  case SCV_ERROR: put_u32b(b, (uint32_t)n->w[0]); put_u32b(b, (uint32_t)n->w[1]); return;
  case SCV_U64: case SCV_I64: case SCV_TIMEPOINT: case SCV_DURATION: case SCV_U128:
  case SCV_I128: case SCV_U256: case SCV_I256: {
    int words = n->t >= SCV_U256 ? 4 : n->t >= SCV_U128 ? 2 : 1;
    for (int k = 0; k < words; k++) {
      put_u32b(b, (uint32_t)(n->w[k] >> 32));
      put_u32b(b, (uint32_t)n->w[k]);
    }
    return;
  }
  case SCV_BYTES: case SCV_STRING: case SCV_SYMBOL: {
    static const uint8_t zero[4] = {0};
    put_u32b(b, n->len);
    scp_buf_put(b, n->data, n->len);
    scp_buf_put(b, zero, (4 - n->len % 4) % 4);
    return;
  }
  case SCV_VEC: case SCV_MAP:
    put_u32b(b, 1);   /* Some */
    put_u32b(b, n->n);
    for (uint32_t k = 0; k < (n->t == SCV_MAP ? 2 * n->n : n->n); k++) jnode_xdr(&n->kids[k], b);
    return;
  case SCV_ADDRESS:
    put_u32b(b, (uint32_t)n->w[0]);
    if (n->w[0] == 0) put_u32b(b, 0);   /* PublicKey: ed25519 */
    if (n->w[0] == 2) {                  /* MuxedEd25519Account: id, key */
      put_u32b(b, (uint32_t)(n->w[1] >> 32));
      put_u32b(b, (uint32_t)n->w[1]);
    }
    scp_buf_put(b, n->data, 32);
    return;
  }
}

int scp_spec_arg_value(scp_spec *s, const scp_spec_type *t, const char *param,
                       const char *text, scp_arg *out, scp_error *err) {
  memset(out, 0, sizeof *out);
  size_t tlen = strlen(text);
  if (tlen > SCP_MAX_ARG_BYTES)
    return scp_fail(err, SCP_ERR_LIMIT, "argument --%s: %zu bytes, over the %u-byte limit for "
                    "an argument", param, tlen, SCP_MAX_ARG_BYTES);
  const scp_spec_type *inner = t;
  if (t->kind == SCP_SPEC_OPTION && t->nsub == 1) inner = &t->sub[0];
  if (scalar_name(inner->kind) || inner->kind == SCP_SPEC_ADDRESS ||
      inner->kind == SCP_SPEC_VOID)
    return scp_spec_arg_parse(t, param, text, out, err);
  jctx c = {.spec = s, .err = err};
  snprintf(c.path, sizeof c.path, "--%s", param);
  if (t != inner && (!strcmp(text, "void") || !strcmp(text, "none") || !strcmp(text, "null"))) {
    out->kind = SCP_ARG_VOID;
    return SCP_OK;
  }
  json_error_t je;
  json_t *j = json_loads(text, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);
  /* a bare word is a string (a union case, a muxed address), as
   * stellar-cli takes it */
  if (!j && text[0] != '[' && text[0] != '{' && text[0] != '"') j = json_string(text);
  if (!j)
    return scp_fail(err, SCP_ERR_ARG, "argument %s: bad JSON at column %d: %s", c.path,
                    je.column, je.text);
  jnode n;
  int rc = from_json(&c, t, j, &n);
  json_decref(j);
  if (rc != SCP_OK) {
    jnode_free(&n);
    return rc;
  }
  scp_buf b = {0};
  jnode_xdr(&n, &b);
  jnode_free(&n);
  if (b.oom || !scp_grow(&s->owned, &s->owned_cap, s->nowned + 1, sizeof *s->owned)) {
    scp_buf_free(&b);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  s->owned[s->nowned++] = (uint8_t *)b.data;
  out->kind = SCP_ARG_SCVAL;
  out->data = (const uint8_t *)b.data;
  out->len = b.len;
  return SCP_OK;
}
