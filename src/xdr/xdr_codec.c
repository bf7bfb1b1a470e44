/*
 * xdr_codec.c — the one walker over the type rows of xdr_types.c: binary
 * to JSON (to_json, which also checks binary) and JSON to binary
 * (from_json).  XDR (RFC 4506): big-endian 4-byte units, opaque data and
 * strings padded with zeros to a multiple of 4, a variable length as a
 * u32 before it, an optional as a bool before it.
 */
#include <ctype.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "util/scp_json.h"
#include "xdr/xdr_private.h"

/* ---- binary -> JSON -------------------------------------------------------- */

typedef struct rd {
  const uint8_t *p;
  size_t len, pos;
  scp_xdr_style style;
  scp_error *err;
  int rc;
} rd;

static json_t *rd_fail(rd *r, int code, const char *what) {
  if (!r->rc) r->rc = scp_fail(r->err, code, "XDR at byte %zu: %s", r->pos, what);
  return NULL;
}

static bool take(rd *r, size_t n, const uint8_t **at) {
  if (r->len - r->pos < n) return false;
  *at = r->p + r->pos;
  r->pos += n;
  return true;
}

static bool take32(rd *r, uint32_t *v) {
  const uint8_t *a;
  if (!take(r, 4, &a)) return false;
  *v = scp_be32(a);
  return true;
}

/* n bytes and their padding (zeros). */
static const uint8_t *take_padded(rd *r, size_t n) {
  const uint8_t *a, *pad;
  size_t np = (4 - n % 4) % 4;
  if (!take(r, n, &a) || !take(r, np, &pad)) return NULL;
  for (size_t i = 0; i < np; i++)
    if (pad[i]) return NULL;
  return a;
}

/* n big-endian bytes negated in two's complement. */
static void negate(uint8_t *be, size_t n) {
  unsigned carry = 1;
  for (size_t i = n; i-- > 0;) {
    unsigned x = (uint8_t)~be[i] + carry;
    be[i] = (uint8_t)x;
    carry = x >> 8;
  }
}

/* Big-endian magnitude bytes as decimal digits (repeated division). */
static void big_decimal(const uint8_t *be, size_t n, bool neg, char *out) {
  uint8_t m[32];
  char d[80];
  size_t nd = 0;
  memcpy(m, be, n);
  if (neg) negate(m, n);   /* the magnitude */
  bool zero;
  do {
    unsigned rem = 0;
    zero = true;
    for (size_t i = 0; i < n; i++) {
      unsigned x = rem * 256 + m[i];
      m[i] = (uint8_t)(x / 10);
      rem = x % 10;
      if (m[i]) zero = false;
    }
    d[nd++] = (char)('0' + rem);
  } while (!zero);
  size_t k = 0;
  if (neg) out[k++] = '-';
  while (nd) out[k++] = d[--nd];
  out[k] = 0;
}

static json_t *int64_json(rd *r, uint64_t v, bool sign) {
  char t[24];
  if (r->style == SCP_XDR_JSON_NUMBERS && (sign || v <= INT64_MAX)) return json_integer((json_int_t)v);
  if (r->style == SCP_XDR_JSON_NUMBERS) {
    /* a u64 beyond i64: jansson holds no such number, so the digits go out
     * as a string (what scp_json_parse turns such a literal into) */
    snprintf(t, sizeof t, "%llu", (unsigned long long)v);
    return json_string(t);
  }
  if (sign) snprintf(t, sizeof t, "%lld", (long long)(int64_t)v);
  else snprintf(t, sizeof t, "%llu", (unsigned long long)v);
  return json_string(t);
}

static json_t *big_json(rd *r, const scp_xdr_type *t, const uint8_t *be) {
  size_t n = t->n / 8;
  bool sign = t->kind == XK_SBIG;
  if (r->style == SCP_XDR_JSON_STRINGS) {
    char d[82];
    big_decimal(be, n, sign && (be[0] & 0x80), d);
    return json_string(d);
  }
  static const char *const p128[] = {"hi", "lo"}, *const p256[] = {"hi_hi", "hi_lo", "lo_hi", "lo_lo"};
  const char *const *names = n == 16 ? p128 : p256;
  json_t *o = json_object();
  for (size_t i = 0; o && i < n / 8; i++)
    json_object_set_new(o, names[i], int64_json(r, scp_be64(be + 8 * i), sign && i == 0));
  return o;
}

/* Text as stellar-xdr writes it: printable ASCII as is, '\\' doubled,
 * \0 \t \n \r, other bytes \xNN. */
static json_t *text_json(const uint8_t *s, size_t n) {
  scp_buf b = {0};
  for (size_t i = 0; i < n; i++) {
    uint8_t c = s[i];
    if (c == '\\') scp_buf_puts(&b, "\\\\");
    else if (c == 0) scp_buf_puts(&b, "\\0");
    else if (c == '\t') scp_buf_puts(&b, "\\t");
    else if (c == '\n') scp_buf_puts(&b, "\\n");
    else if (c == '\r') scp_buf_puts(&b, "\\r");
    else if (c >= 0x20 && c < 0x7f) scp_buf_putc(&b, (char)c);
    else scp_buf_printf(&b, "\\x%02x", c);
  }
  json_t *j = b.oom ? NULL : json_stringn(b.data ? b.data : "", b.len);
  scp_buf_free(&b);
  return j;
}

static json_t *hex_json(const uint8_t *p, size_t n) {
  char *h = malloc(2 * n + 1);
  if (!h) return NULL;
  sodium_bin2hex(h, 2 * n + 1, p, n);
  json_t *j = json_string(h);
  free(h);
  return j;
}

static json_t *dec(rd *r, const scp_xdr_type *t, int depth);

static const xdr_arm *arm_of(const scp_xdr_type *t, int32_t v) {
  for (uint32_t i = 0; i < t->count; i++)
    if (t->arms[i].value == v) return &t->arms[i];
  return NULL;
}

static json_t *dec_union(rd *r, const scp_xdr_type *t, int depth) {
  uint32_t d;
  if (!take32(r, &d)) return rd_fail(r, SCP_ERR_MALFORMED, "truncated");
  const xdr_arm *a = arm_of(t, (int32_t)d);
  if (!a) return rd_fail(r, SCP_ERR_MALFORMED, "unknown union arm");
  if (t->kind == XK_ENUM || !a->type) return json_string(a->name);
  if (a->type->kind == XK_NONE) return rd_fail(r, SCP_ERR_UNSUPPORTED, "an arm scprof does not read");
  json_t *v = dec(r, a->type, depth + 1);
  if (!v || t->flat) return v;
  json_t *o = json_object();
  if (o) json_object_set_new(o, a->name, v);
  else json_decref(v);
  return o;
}

static json_t *dec_list(rd *r, const scp_xdr_type *t, int depth) {
  uint32_t n = t->n;
  if (t->kind == XK_ARRAY && (!take32(r, &n) || n > t->n))
    return rd_fail(r, SCP_ERR_MALFORMED, "array length past its bound or the end");
  json_t *a = json_array();
  for (uint32_t i = 0; a && i < n; i++) {
    json_t *e = dec(r, t->elem, depth + 1);
    if (!e) {
      json_decref(a);
      return NULL;
    }
    json_array_append_new(a, e);
  }
  return a;
}

static json_t *dec_struct(rd *r, const scp_xdr_type *t, int depth) {
  json_t *o = json_object();
  for (uint32_t i = 0; o && i < t->count; i++) {
    json_t *e = dec(r, t->fields[i].type, depth + 1);
    if (!e) {
      json_decref(o);
      return NULL;
    }
    json_object_set_new(o, t->fields[i].name, e);
  }
  return o;
}

static json_t *dec_bytes(rd *r, const scp_xdr_type *t) {
  uint32_t n = t->kind == XK_STRKEY ? 32 : t->n;   /* a strkey's n is its version byte */
  if ((t->kind == XK_VAROPAQUE || t->kind == XK_STRING) && (!take32(r, &n) || n > t->n))
    return rd_fail(r, SCP_ERR_MALFORMED, "length past its bound or the end");
  const uint8_t *a = take_padded(r, n);
  if (!a) return rd_fail(r, SCP_ERR_MALFORMED, "truncated, or nonzero padding");
  if (t->kind == XK_STRING) return text_json(a, n);
  if (t->kind == XK_ASSETCODE) {
    size_t k = n;
    while (k && !a[k - 1]) k--;
    return text_json(a, k);
  }
  if (t->kind == XK_STRKEY) {
    char s[57];
    scp_xdr_strkey((uint8_t)t->n, a, s);
    return json_string(s);
  }
  return hex_json(a, n);
}

static json_t *dec(rd *r, const scp_xdr_type *t, int depth) {
  const uint8_t *a;
  uint32_t v;
  if (depth > SCP_XDR_MAX_DEPTH) return rd_fail(r, SCP_ERR_MALFORMED, "nested too deep");
  switch (t->kind) {
  case XK_U32:
  case XK_I32:
    if (!take32(r, &v)) return rd_fail(r, SCP_ERR_MALFORMED, "truncated");
    return json_integer(t->kind == XK_I32 ? (json_int_t)(int32_t)v : (json_int_t)v);
  case XK_BOOL:
    if (!take32(r, &v) || v > 1) return rd_fail(r, SCP_ERR_MALFORMED, "a bool other than 0 or 1");
    return json_boolean(v);
  case XK_U64:
  case XK_I64:
    if (!take(r, 8, &a)) return rd_fail(r, SCP_ERR_MALFORMED, "truncated");
    return int64_json(r, scp_be64(a), t->kind == XK_I64);
  case XK_UBIG:
  case XK_SBIG:
    if (!take(r, t->n / 8, &a)) return rd_fail(r, SCP_ERR_MALFORMED, "truncated");
    return big_json(r, t, a);
  case XK_OPAQUE:
  case XK_VAROPAQUE:
  case XK_STRING:
  case XK_ASSETCODE:
  case XK_STRKEY:
    return dec_bytes(r, t);
  case XK_STRUCT:
    return dec_struct(r, t, depth);
  case XK_UNION:
  case XK_ENUM:
    return dec_union(r, t, depth);
  case XK_ARRAY:
  case XK_FARRAY:
    return dec_list(r, t, depth);
  case XK_OPTION:
    if (!take32(r, &v) || v > 1) return rd_fail(r, SCP_ERR_MALFORMED, "an optional flag other than 0 or 1");
    return v ? dec(r, t->elem, depth + 1) : json_null();
  case XK_NONE:
    break;
  }
  return rd_fail(r, SCP_ERR_UNSUPPORTED, "a type scprof does not read");
}

static json_t *dec_top(rd *r, const scp_xdr_type *t) {
  json_t *j = dec(r, t, 0);
  if (!j && !r->rc) r->rc = scp_fail(r->err, SCP_ERR_NOMEM, "out of memory");
  return j;
}

int scp_xdr_check(const scp_xdr_type *t, const uint8_t *p, size_t len, size_t *used,
                  scp_error *err) {
  rd r = {.p = p, .len = len, .err = err};
  json_t *j = dec_top(&r, t);
  json_decref(j);
  if (used) *used = r.pos;
  return r.rc;
}

int scp_xdr_to_json(const scp_xdr_type *t, const uint8_t *p, size_t len, scp_xdr_style style,
                    json_t **out, scp_error *err) {
  rd r = {.p = p, .len = len, .style = style, .err = err};
  *out = dec_top(&r, t);
  if (*out && r.pos != len) {
    json_decref(*out);
    *out = NULL;
    return scp_fail(err, SCP_ERR_MALFORMED, "XDR at byte %zu: %zu bytes after the %s", r.pos,
                    len - r.pos, t->name ? t->name : "value");
  }
  return r.rc;
}

/* ---- JSON -> binary -------------------------------------------------------- */

typedef struct wr {
  scp_buf *out;
  scp_error *err;
  char path[512];
  size_t plen;
  int rc;
} wr;

static int wr_fail(wr *w, int code, const char *what) {
  if (!w->rc) {
    w->rc = code;
    scp_fail(w->err, code, "%s%s%s", w->path, w->plen ? ": " : "", what);
  }
  return w->rc;
}

static size_t path_push(wr *w, const char *name, long index) {
  size_t at = w->plen;
  int n = index >= 0 ? snprintf(w->path + at, sizeof w->path - at, "[%ld]", index)
          : snprintf(w->path + at, sizeof w->path - at, "%s%s", at ? "." : "", name ? name : "");
  if (n > 0) w->plen = at + (size_t)n < sizeof w->path ? at + (size_t)n : sizeof w->path - 1;
  return at;
}

static void path_pop(wr *w, size_t at) {
  w->plen = at;
  w->path[at] = 0;
}

static void put32(wr *w, uint32_t v) {
  uint8_t b[4];
  scp_put_be32(b, v);
  scp_buf_put(w->out, b, 4);
}

static void put_padded(wr *w, const uint8_t *p, size_t n) {
  static const uint8_t zero[4];
  scp_buf_put(w->out, p, n);
  scp_buf_put(w->out, zero, (4 - n % 4) % 4);
}

/* Decimal text into n big-endian bytes, two's complement when sign. */
static bool big_parse(const char *s, size_t n, bool sign, uint8_t *be) {
  bool neg = *s == '-';
  if (neg && !sign) return false;
  s += neg;
  if (!*s) return false;
  memset(be, 0, n);
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return false;
    unsigned carry = (unsigned)(*s - '0');
    for (size_t i = n; i-- > 0;) {
      unsigned x = be[i] * 10u + carry;
      be[i] = (uint8_t)x;
      carry = x >> 8;
    }
    if (carry) return false;
  }
  if (sign) {
    /* magnitude at most 2^(bits-1) - 1, or 2^(bits-1) when negative */
    bool top = be[0] & 0x80, rest = false;
    for (size_t i = 1; i < n; i++) rest |= be[i] != 0;
    if (top && (!neg || rest || be[0] != 0x80)) return false;
    if (neg) negate(be, n);
  }
  return true;
}

static int enc(wr *w, const scp_xdr_type *t, const json_t *v, int depth);

static int enc_big(wr *w, const scp_xdr_type *t, const json_t *v) {
  size_t n = t->n / 8;
  bool sign = t->kind == XK_SBIG;
  uint8_t be[32];
  char digits[100];
  if (json_is_object(v)) {
    static const char *const p128[] = {"hi", "lo", NULL}, *const p256[] = {"hi_hi", "hi_lo", "lo_hi", "lo_lo", NULL};
    const char *const *names = n == 16 ? p128 : p256;
    if (scp_json_check_keys(v, names, "", NULL, NULL)) return wr_fail(w, SCP_ERR_MALFORMED, "expected its parts {hi, lo} (or hi_hi .. lo_lo)");
    for (size_t i = 0; i < n / 8; i++) {
      const json_t *p = json_object_get(v, names[i]);
      uint64_t u;
      int64_t s;
      bool ok = sign && i == 0 ? scp_json_i64(p, &s) : scp_json_u64(p, &u);
      if (!ok) return wr_fail(w, SCP_ERR_MALFORMED, "a part missing or out of range");
      scp_put_be64(be + 8 * i, sign && i == 0 ? (uint64_t)s : u);
    }
  } else if (!scp_json_int_text(v, digits, sizeof digits) || !big_parse(digits, n, sign, be)) {
    return wr_fail(w, SCP_ERR_MALFORMED, sign ? "expected a signed integer in range" : "expected an unsigned integer in range");
  }
  scp_buf_put(w->out, be, n);
  return SCP_OK;
}

/* Text as text_json writes it back to bytes. */
static int enc_text(wr *w, const scp_xdr_type *t, const json_t *v) {
  if (!json_is_string(v)) return wr_fail(w, SCP_ERR_MALFORMED, "expected a string");
  const char *s = json_string_value(v);
  size_t n = json_string_length(v), k = 0;
  /* room for the text and for an asset code's zero padding after it */
  uint8_t *b = malloc(n + 1 + (t->kind == XK_ASSETCODE ? t->n : 0));
  if (!b) return wr_fail(w, SCP_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < n; i++) {
    uint8_t c = (uint8_t)s[i];
    if (c != '\\') {
      b[k++] = c;
      continue;
    }
    char e = ++i < n ? s[i] : 0;
    unsigned x;
    if (e == '\\') b[k++] = '\\';
    else if (e == '0') b[k++] = 0;
    else if (e == 't') b[k++] = '\t';
    else if (e == 'n') b[k++] = '\n';
    else if (e == 'r') b[k++] = '\r';
    else if (e == 'x' && i + 2 < n && sscanf(s + i + 1, "%2x", &x) == 1 && isxdigit((unsigned char)s[i + 1]) &&
             isxdigit((unsigned char)s[i + 2])) {
      b[k++] = (uint8_t)x;
      i += 2;
    } else {
      free(b);
      return wr_fail(w, SCP_ERR_MALFORMED, "a bad escape (\\\\ \\0 \\t \\n \\r \\xNN)");
    }
  }
  if (k > t->n) {
    free(b);
    return wr_fail(w, SCP_ERR_MALFORMED, "longer than the type allows");
  }
  if (t->kind == XK_ASSETCODE) {
    memset(b + k, 0, t->n - k);
    put_padded(w, b, t->n);
  } else {
    put32(w, (uint32_t)k);
    put_padded(w, b, k);
  }
  free(b);
  return SCP_OK;
}

static int enc_bytes(wr *w, const scp_xdr_type *t, const json_t *v) {
  if (t->kind == XK_STRING || t->kind == XK_ASSETCODE) return enc_text(w, t, v);
  if (!json_is_string(v)) return wr_fail(w, SCP_ERR_MALFORMED, t->kind == XK_STRKEY ? "expected a strkey" : "expected hex");
  const char *s = json_string_value(v);
  size_t n = json_string_length(v), got = 0;
  if (t->kind == XK_STRKEY) {
    uint8_t k[32];
    if (!scp_xdr_strkey_decode(s, (uint8_t)t->n, k)) return wr_fail(w, SCP_ERR_MALFORMED, "not a valid strkey of this kind");
    scp_buf_put(w->out, k, 32);
    return SCP_OK;
  }
  const char *end = NULL;
  uint8_t *b = malloc(n / 2 + 1);
  if (!b) return wr_fail(w, SCP_ERR_NOMEM, "out of memory");
  int bad = n % 2 || sodium_hex2bin(b, n / 2 + 1, s, n, NULL, &got, &end) || end != s + n;
  if (!bad && (t->kind == XK_OPAQUE ? got != t->n : got > t->n)) bad = 2;
  if (!bad) {
    if (t->kind == XK_VAROPAQUE) put32(w, (uint32_t)got);
    put_padded(w, b, got);
  }
  free(b);
  if (bad == 2) return wr_fail(w, SCP_ERR_MALFORMED, t->kind == XK_OPAQUE ? "the wrong number of bytes" : "longer than the type allows");
  return bad ? wr_fail(w, SCP_ERR_MALFORMED, "not hex") : SCP_OK;
}

static bool flat_match(const scp_xdr_type *t, const json_t *v) {
  if (!t) return false;
  if (t->kind == XK_STRKEY) {
    static const char b32[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    return json_is_string(v) && json_string_value(v)[0] == b32[t->n >> 3];
  }
  for (uint32_t i = 0; t->kind == XK_UNION && i < t->count; i++)
    if (flat_match(t->arms[i].type, v)) return true;
  return false;
}

static int enc_union(wr *w, const scp_xdr_type *t, const json_t *v, int depth) {
  const xdr_arm *a = NULL;
  const json_t *body = NULL;
  const char *name = NULL;
  if (t->flat) {
    for (uint32_t i = 0; i < t->count && !a; i++)
      if (flat_match(t->arms[i].type, v)) a = &t->arms[i];
    if (!a) return wr_fail(w, json_is_string(v) && json_string_value(v)[0] == 'M' ? SCP_ERR_UNSUPPORTED : SCP_ERR_MALFORMED,
                           "expected a strkey of one of the kinds this field holds");
    put32(w, (uint32_t)a->value);
    return enc(w, a->type, v, depth + 1);
  }
  if (json_is_string(v)) name = json_string_value(v);
  else if (t->kind == XK_UNION && json_is_object(v) && json_object_size(v) == 1) {
    void *it = json_object_iter((json_t *)v);
    name = json_object_iter_key(it);
    body = json_object_iter_value(it);
  }
  for (uint32_t i = 0; name && i < t->count && !a; i++)
    if (!strcmp(t->arms[i].name, name)) a = &t->arms[i];
  if (!a) {
    char why[160];
    snprintf(why, sizeof why, "%s%s%s: not a %s", name ? "\"" : "", name ? name : "the value", name ? "\"" : "",
             t->name ? t->name : "value of this field");
    return wr_fail(w, SCP_ERR_MALFORMED, why);
  }
  if ((a->type != NULL) != (body != NULL))
    return wr_fail(w, SCP_ERR_MALFORMED, a->type ? "this arm takes a value: {\"arm\": value}" : "this arm takes no value: a bare string");
  if (a->type && a->type->kind == XK_NONE) return wr_fail(w, SCP_ERR_UNSUPPORTED, "an arm scprof does not write");
  put32(w, (uint32_t)a->value);
  if (!a->type) return SCP_OK;
  size_t at = path_push(w, a->name, -1);
  int rc = enc(w, a->type, body, depth + 1);
  if (!rc) path_pop(w, at);
  return rc;
}

static int enc_struct(wr *w, const scp_xdr_type *t, const json_t *v, int depth) {
  if (!json_is_object(v)) return wr_fail(w, SCP_ERR_MALFORMED, "expected an object");
  const char *known[40];
  for (uint32_t i = 0; i < t->count && i + 1 < SCP_ARRAY_LEN(known); i++) known[i] = t->fields[i].name;
  known[t->count] = NULL;
  scp_error e = {0};
  if (scp_json_check_keys(v, known, "", NULL, &e)) return wr_fail(w, SCP_ERR_MALFORMED, e.msg + 2);
  for (uint32_t i = 0; i < t->count; i++) {
    const json_t *f = json_object_get(v, t->fields[i].name);
    size_t at = path_push(w, t->fields[i].name, -1);
    if (!f) return wr_fail(w, SCP_ERR_MALFORMED, "missing");
    if (enc(w, t->fields[i].type, f, depth + 1)) return w->rc;
    path_pop(w, at);
  }
  return SCP_OK;
}

static int enc_list(wr *w, const scp_xdr_type *t, const json_t *v, int depth) {
  if (!json_is_array(v)) return wr_fail(w, SCP_ERR_MALFORMED, "expected an array");
  size_t n = json_array_size(v);
  if (t->kind == XK_FARRAY ? n != t->n : n > t->n) return wr_fail(w, SCP_ERR_MALFORMED, "too many or too few elements");
  if (t->kind == XK_ARRAY) put32(w, (uint32_t)n);
  for (size_t i = 0; i < n; i++) {
    size_t at = path_push(w, NULL, (long)i);
    if (enc(w, t->elem, json_array_get(v, i), depth + 1)) return w->rc;
    path_pop(w, at);
  }
  return SCP_OK;
}

static int enc_int(wr *w, const scp_xdr_type *t, const json_t *v) {
  uint64_t u = 0;
  int64_t s = 0;
  bool ok = t->kind == XK_U32 || t->kind == XK_U64 ? scp_json_u64(v, &u) : scp_json_i64(v, &s);
  if (ok && t->kind == XK_U32) ok = u <= UINT32_MAX;
  if (ok && t->kind == XK_I32) ok = s >= INT32_MIN && s <= INT32_MAX;
  if (!ok) return wr_fail(w, SCP_ERR_MALFORMED, "expected an integer in the type's range");
  if (t->kind == XK_U32 || t->kind == XK_I32) put32(w, t->kind == XK_U32 ? (uint32_t)u : (uint32_t)(int32_t)s);
  else {
    uint8_t b[8];
    scp_put_be64(b, t->kind == XK_U64 ? u : (uint64_t)s);
    scp_buf_put(w->out, b, 8);
  }
  return SCP_OK;
}

static int enc(wr *w, const scp_xdr_type *t, const json_t *v, int depth) {
  if (depth > SCP_XDR_MAX_DEPTH) return wr_fail(w, SCP_ERR_MALFORMED, "nested too deep");
  switch (t->kind) {
  case XK_U32:
  case XK_I32:
  case XK_U64:
  case XK_I64:
    return enc_int(w, t, v);
  case XK_BOOL:
    if (!json_is_boolean(v)) return wr_fail(w, SCP_ERR_MALFORMED, "expected true or false");
    put32(w, json_is_true(v));
    return SCP_OK;
  case XK_UBIG:
  case XK_SBIG:
    return enc_big(w, t, v);
  case XK_OPAQUE:
  case XK_VAROPAQUE:
  case XK_STRING:
  case XK_ASSETCODE:
  case XK_STRKEY:
    return enc_bytes(w, t, v);
  case XK_STRUCT:
    return enc_struct(w, t, v, depth);
  case XK_UNION:
  case XK_ENUM:
    return enc_union(w, t, v, depth);
  case XK_ARRAY:
  case XK_FARRAY:
    return enc_list(w, t, v, depth);
  case XK_OPTION:
    put32(w, !json_is_null(v));
    return json_is_null(v) ? SCP_OK : enc(w, t->elem, v, depth + 1);
  case XK_NONE:
    break;
  }
  return wr_fail(w, SCP_ERR_UNSUPPORTED, "a type scprof does not write");
}

int scp_xdr_from_json(const scp_xdr_type *t, const json_t *v, scp_buf *out, scp_error *err) {
  wr w = {.out = out, .err = err};
  int rc = v ? enc(&w, t, v, 0) : wr_fail(&w, SCP_ERR_MALFORMED, "missing");
  if (!rc && out->oom) rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  return rc;
}

const scp_xdr_type *scp_xdr_find(const char *name) {
  for (size_t i = 0; scp_xdr_types[i].name; i++)
    if (!strcmp(scp_xdr_types[i].name, name)) return scp_xdr_types[i].type;
  return NULL;
}

/* ---- base64 and strkeys ---------------------------------------------------- */

char *scp_xdr_base64(const uint8_t *p, size_t len) {
  size_t n = sodium_base64_ENCODED_LEN(len, sodium_base64_VARIANT_ORIGINAL);
  char *s = malloc(n);
  if (s) sodium_bin2base64(s, n, p, len, sodium_base64_VARIANT_ORIGINAL);
  return s;
}

bool scp_xdr_unbase64(const char *text, uint8_t **out, size_t *len) {
  while (*text == ' ' || *text == '\n' || *text == '\r' || *text == '\t') text++;
  size_t n = strlen(text);
  while (n && (text[n - 1] == ' ' || text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == '\t')) n--;
  const char *end = NULL;
  *out = malloc(n / 4 * 3 + 3);
  if (!*out) return false;
  if (sodium_base642bin(*out, n / 4 * 3 + 3, text, n, NULL, len, &end, sodium_base64_VARIANT_ORIGINAL) ||
      end != text + n) {
    free(*out);
    *out = NULL;
    return false;
  }
  return true;
}

static const char B32[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

uint16_t scp_xdr_crc16_xmodem(const uint8_t *p, size_t n) {
  uint16_t crc = 0;
  for (size_t i = 0; i < n; i++) {
    crc ^= (uint16_t)(p[i] << 8);
    for (int b = 0; b < 8; b++) crc = crc & 0x8000 ? (uint16_t)(crc << 1 ^ 0x1021) : (uint16_t)(crc << 1);
  }
  return crc;
}

size_t scp_xdr_strkey_encode(uint8_t ver, const uint8_t *payload, size_t n, char *out) {
  uint8_t raw[SCP_XDR_STRKEY_MAX_RAW];
  raw[0] = ver;
  memcpy(raw + 1, payload, n);
  uint16_t crc = scp_xdr_crc16_xmodem(raw, n + 1);
  raw[n + 1] = (uint8_t)crc;
  raw[n + 2] = (uint8_t)(crc >> 8);
  uint32_t acc = 0;
  int bits = 0;
  size_t k = 0;
  for (size_t i = 0; i < n + 3; i++) {
    acc = acc << 8 | raw[i];
    bits += 8;
    while (bits >= 5) {
      out[k++] = B32[(acc >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits) out[k++] = B32[(acc << (5 - bits)) & 31];
  out[k] = 0;
  return k;
}

bool scp_xdr_strkey_raw(const uint8_t *s, size_t n, uint8_t *raw, size_t cap, size_t *len) {
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
  /* strict: no padding, no spare character, unused trailing bits zero */
  if (bits >= 5 || acc || o < 3) return false;
  *len = o;
  return scp_xdr_crc16_xmodem(raw, o - 2) == (uint16_t)(raw[o - 2] | raw[o - 1] << 8);
}

void scp_xdr_strkey(uint8_t ver, const uint8_t key[32], char out[57]) {
  scp_xdr_strkey_encode(ver, key, 32, out);
}

bool scp_xdr_strkey_decode(const char *s, uint8_t ver, uint8_t key[32]) {
  uint8_t raw[35];
  size_t n = strlen(s), len = 0;
  if (n != 56 || !scp_xdr_strkey_raw((const uint8_t *)s, n, raw, sizeof raw, &len) || len != 35 || raw[0] != ver)
    return false;
  memcpy(key, raw + 1, 32);
  return true;
}
