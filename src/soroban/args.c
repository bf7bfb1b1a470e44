/*
 * args.c — contract-call arguments: parsing "type:value" text
 * (scp_arg_parse) and turning an argument into a host Val the way the
 * reference converts an ScVal argument (rs-soroban-env v28
 * soroban-env-host/src/host/conversion.rs to_host_val / to_host_obj).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/host_private.h"

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

int scp_arg_parse(const char *text, scp_arg *out, scp_error *err) {
  memset(out, 0, sizeof *out);
  if (!strcmp(text, "void")) {
    out->kind = SCP_ARG_VOID;
    return SCP_OK;
  }
  const char *colon = strchr(text, ':');
  if (!colon)
    return scp_fail(err, SCP_ERR_ARG,
                    "argument '%s': expected type:value (u32:7, sym:name, ...)", text);
  size_t tlen = (size_t)(colon - text);
  const char *v = colon + 1;
#define TYPE_IS(s) (tlen == sizeof(s) - 1 && !memcmp(text, s, tlen))
  unsigned __int128 u;
  __int128 i;
  if (TYPE_IS("u32") || TYPE_IS("u64") || TYPE_IS("u128")) {
    unsigned bits = TYPE_IS("u32") ? 32 : TYPE_IS("u64") ? 64 : 128;
    if (!parse_unsigned(v, bits, &u))
      return scp_fail(err, SCP_ERR_ARG, "argument '%s': not a u%u", text, bits);
    out->kind = bits == 32 ? SCP_ARG_U32 : bits == 64 ? SCP_ARG_U64 : SCP_ARG_U128;
    out->hi = (uint64_t)(u >> 64);
    out->lo = (uint64_t)u;
    return SCP_OK;
  }
  if (TYPE_IS("i32") || TYPE_IS("i64") || TYPE_IS("i128")) {
    unsigned bits = TYPE_IS("i32") ? 32 : TYPE_IS("i64") ? 64 : 128;
    if (!parse_signed(v, bits, &i))
      return scp_fail(err, SCP_ERR_ARG, "argument '%s': not an i%u", text, bits);
    out->kind = bits == 32 ? SCP_ARG_I32 : bits == 64 ? SCP_ARG_I64 : SCP_ARG_I128;
    out->hi = (uint64_t)((unsigned __int128)i >> 64);
    out->lo = (uint64_t)(unsigned __int128)i;
    return SCP_OK;
  }
  if (TYPE_IS("bool")) {
    if (strcmp(v, "true") && strcmp(v, "false"))
      return scp_fail(err, SCP_ERR_ARG, "argument '%s': bool is true or false", text);
    out->kind = SCP_ARG_BOOL;
    out->lo = !strcmp(v, "true");
    return SCP_OK;
  }
  if (TYPE_IS("sym")) {
    size_t n = strlen(v);
    if (n > SCP_SYMBOL_MAX)
      return scp_fail(err, SCP_ERR_ARG,
                      "argument '%s': a symbol has at most %d characters", text, SCP_SYMBOL_MAX);
    for (size_t k = 0; k < n; k++)
      if (scp_val_symbol_code((uint8_t)v[k]) < 0)
        return scp_fail(err, SCP_ERR_ARG,
                        "argument '%s': a symbol uses only [_0-9A-Za-z]", text);
    out->kind = SCP_ARG_SYMBOL;
    out->data = (const uint8_t *)v;
    out->len = n;
    return SCP_OK;
  }
  if (TYPE_IS("str")) {
    out->kind = SCP_ARG_STRING;
    out->data = (const uint8_t *)v;
    out->len = strlen(v);
    return SCP_OK;
  }
  if (TYPE_IS("bytes")) {
    size_t n = strlen(v);
    if (n >= 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
      v += 2;
      n -= 2;
    }
    if (n % 2)
      return scp_fail(err, SCP_ERR_ARG, "argument '%s': odd number of hex digits", text);
    for (size_t k = 0; k < n; k++)
      if (hexval(v[k]) < 0)
        return scp_fail(err, SCP_ERR_ARG, "argument '%s': bytes are hex digits", text);
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
                  "argument '%s': unknown type (u32 i32 u64 i64 u128 i128 bool sym bytes str void)",
                  text);
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

static int arg_to_val(scp_host *h, const scp_arg *a, uint64_t *val) {
  switch (a->kind) {
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
