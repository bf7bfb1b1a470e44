/*
 * scp_json.c — exact integers and strict keys over jansson (scp_json.h).
 */
#include "util/scp_json.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Does the integer literal p[0..n) (optional '-', digits) fit int64? */
static bool fits_i64(const uint8_t *p, size_t n) {
  bool neg = n && p[0] == '-';
  size_t digits = n - neg;
  const char *lim = neg ? "9223372036854775808" : "9223372036854775807";
  if (digits != 19) return digits < 19;
  return memcmp(p + neg, lim, 19) <= 0;
}

/* Length of the JSON number at p (0 if none), and whether it is an integer. */
static size_t number_len(const uint8_t *p, const uint8_t *end, bool *integer) {
  const uint8_t *q = p;
  *integer = true;
  if (q < end && *q == '-') q++;
  if (q >= end || !isdigit(*q)) return 0;
  if (*q == '0') q++;
  else
    while (q < end && isdigit(*q)) q++;
  if (q < end && *q == '.') {
    *integer = false;
    q++;
    while (q < end && isdigit(*q)) q++;
  }
  if (q < end && (*q == 'e' || *q == 'E')) {
    *integer = false;
    q++;
    if (q < end && (*q == '+' || *q == '-')) q++;
    while (q < end && isdigit(*q)) q++;
  }
  return (size_t)(q - p);
}

/* The text with every integer literal outside int64 quoted; *quoted gets
 * the offsets (in the new text) of the quotes opened, so positions can be
 * mapped back.  Strings are copied as they are. */
static uint8_t *quote_big(const uint8_t *t, size_t len, size_t *outlen, size_t **quoted,
                          size_t *nquoted) {
  size_t cap = 0, n = 0, qcap = 0;
  uint8_t *o = NULL;
  *quoted = NULL;
  *nquoted = 0;
  if (!scp_grow(&o, &cap, len + 1, 1)) return NULL;
  bool in_str = false;
  for (size_t i = 0; i < len;) {
    uint8_t ch = t[i];
    bool integer;
    size_t m = in_str ? 0 : number_len(t + i, t + len, &integer);
    if (!in_str && m && integer && !fits_i64(t + i, m)) {
      if (!scp_grow(&o, &cap, n + m + 3, 1) || !scp_grow(quoted, &qcap, *nquoted + 1, sizeof **quoted))
        goto oom;
      (*quoted)[(*nquoted)++] = n;
      o[n++] = '"';
      memcpy(o + n, t + i, m);
      n += m;
      o[n++] = '"';
      i += m;
      continue;
    }
    if (m) {   /* a number that fits: copy it whole (its digits are not a string) */
      if (!scp_grow(&o, &cap, n + m + 1, 1)) goto oom;
      memcpy(o + n, t + i, m);
      n += m;
      i += m;
      continue;
    }
    if (in_str && ch == '\\' && i + 1 < len) {
      if (!scp_grow(&o, &cap, n + 3, 1)) goto oom;
      o[n++] = ch;
      o[n++] = t[i + 1];
      i += 2;
      continue;
    }
    if (ch == '"') in_str = !in_str;
    if (!scp_grow(&o, &cap, n + 2, 1)) goto oom;
    o[n++] = ch;
    i++;
  }
  o[n] = 0;
  *outlen = n;
  return o;
oom:
  free(o);
  free(*quoted);
  *quoted = NULL;
  return NULL;
}

int scp_json_parse(const uint8_t *text, size_t len, const char *name, json_t **out,
                   scp_error *err) {
  size_t n, *quoted, nquoted;
  *out = NULL;
  uint8_t *t = quote_big(text, len, &n, &quoted, &nquoted);
  if (!t) return scp_fail(err, SCP_ERR_NOMEM, "%s: out of memory", name);
  json_error_t je;
  *out = json_loadb((const char *)t, n, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);
  free(t);
  if (*out) {
    free(quoted);
    return SCP_OK;
  }
  /* jansson's position is in the quoted text: take back two bytes per
   * quoted number before it, then count lines in the text as given. */
  size_t pos = je.position > 0 ? (size_t)je.position : 0;
  size_t back = 0;
  for (size_t k = 0; k < nquoted && quoted[k] < pos; k++) back += 2;   /* a number is never broken */
  free(quoted);
  pos = pos > back ? pos - back : 0;
  if (pos > len) pos = len;
  int line = 1, col = 0;
  for (size_t i = 0; i < pos; i++) {
    if (text[i] == '\n') line++, col = 0;
    else if ((text[i] & 0xc0) != 0x80) col++;
  }
  return scp_fail(err, SCP_ERR_MALFORMED, "%s: line %d column %d: %s", name, line, col, je.text);
}

int scp_json_load_file(const char *path, size_t max, const char *what, json_t **out,
                       scp_error *err) {
  uint8_t *text;
  size_t len;
  *out = NULL;
  int rc = scp_read_file_max(path, max, what, &text, &len, err);
  if (rc) return rc;
  rc = scp_json_parse(text, len, path, out, err);
  free(text);
  return rc;
}

/* Decimal digits only, at least one. */
static bool all_digits(const char *s) {
  if (!*s) return false;
  for (; *s; s++)
    if (!isdigit((unsigned char)*s)) return false;
  return true;
}

bool scp_json_u64(const json_t *v, uint64_t *out) {
  if (json_is_integer(v)) {
    json_int_t x = json_integer_value(v);
    if (x < 0) return false;
    *out = (uint64_t)x;
    return true;
  }
  if (!json_is_string(v) || !all_digits(json_string_value(v))) return false;
  uint64_t x = 0;
  for (const char *s = json_string_value(v); *s; s++) {
    unsigned d = (unsigned)(*s - '0');
    if (x > (UINT64_MAX - d) / 10) return false;
    x = x * 10 + d;
  }
  *out = x;
  return true;
}

bool scp_json_i64(const json_t *v, int64_t *out) {
  if (json_is_integer(v)) {
    *out = json_integer_value(v);
    return true;
  }
  if (!json_is_string(v)) return false;
  const char *s = json_string_value(v);
  bool neg = *s == '-';
  if (!all_digits(s + neg)) return false;
  uint64_t x = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  for (s += neg; *s; s++) {
    unsigned d = (unsigned)(*s - '0');
    if (x > (lim - d) / 10) return false;
    x = x * 10 + d;
  }
  *out = neg ? (int64_t)(0 - x) : (int64_t)x;
  return true;
}

bool scp_json_int_text(const json_t *v, char *buf, size_t cap) {
  if (json_is_integer(v)) {
    int w = snprintf(buf, cap, "%lld", (long long)json_integer_value(v));
    return w > 0 && (size_t)w < cap;
  }
  if (!json_is_string(v)) return false;
  const char *s = json_string_value(v);
  if (!all_digits(s + (*s == '-'))) return false;
  size_t n = strlen(s);
  if (n + 1 > cap) return false;
  memcpy(buf, s, n + 1);
  return true;
}

/* lower-case letters and digits only: "rent_epoch" and "rentEpoch" meet */
static size_t fold(const char *s, char *o, size_t cap) {
  size_t n = 0;
  for (; *s && n + 1 < cap; s++)
    if (*s != '_' && *s != '-') o[n++] = (char)tolower((unsigned char)*s);
  o[n] = 0;
  return n;
}

static size_t edit_distance(const char *a, size_t na, const char *b, size_t nb) {
  size_t row[65];
  if (nb > 64) return SIZE_MAX;
  for (size_t j = 0; j <= nb; j++) row[j] = j;
  for (size_t i = 1; i <= na; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= nb; j++) {
      size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      diag = up;
      row[j] = best;
    }
  }
  return row[nb];
}

const char *scp_json_nearest(const char *key, const char *const *known) {
  char a[65], b[65];
  size_t na = fold(key, a, sizeof a), best = SIZE_MAX;
  const char *pick = NULL;
  for (size_t k = 0; known[k]; k++) {
    size_t nb = fold(known[k], b, sizeof b);
    size_t d = edit_distance(a, na, b, nb);
    size_t shorter = na < nb ? na : nb;
    bool inside = shorter >= 4 && (strstr(a, b) || strstr(b, a));
    size_t room = shorter <= 4 ? 1 : 2;
    if ((d <= room || inside) && d < best) best = d, pick = known[k];
  }
  return pick;
}

int scp_json_check_keys(const json_t *obj, const char *const *known, const char *file,
                        const char *path, scp_error *err) {
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)obj, key, v) {
    bool ok = false;
    for (size_t k = 0; known[k] && !ok; k++) ok = !strcmp(known[k], key);
    if (ok) continue;
    const char *near = scp_json_nearest(key, known);
    bool where = path && *path;
    return scp_fail(err, SCP_ERR_MALFORMED, "%s: %s%sunknown key \"%.60s\"%s%s%s", file,
                    where ? path : "", where ? ": " : "", key, near ? "; did you mean \"" : "",
                    near ? near : "", near ? "\"?" : "");
  }
  return SCP_OK;
}
