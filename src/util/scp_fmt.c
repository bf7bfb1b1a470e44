/*
 * scp_fmt.c — scp_buf_printf's formatter for the conversions the writers
 * use per row (a report of 1,000 transactions formats millions of numbers):
 * vsnprintf costs about a thousand instructions a call, most of them
 * setting up its stream.  Only a format whose every conversion is in the
 * subset below is formatted here, byte for byte as printf formats it
 * (tests/util/test_fmt.c compares the two); anything else goes to
 * vsnprintf unchanged, as does a text longer than 256 bytes.
 *
 * The subset: "%%"; an optional '0' flag and a width of one or two digits;
 * length "", "l", "ll" or "z"; conversion d, i, u, x, X, c or s ('0' not
 * with c or s); and "%.Nf" with N from 0 to 6 alone (no flag, width or
 * length), a finite double rounded as glibc rounds it: the exact binary
 * value, a tie to even.  No '-', '+', ' ', '#', '*' or other length.
 */
#include "util/scp_util.h"

#include <string.h>

typedef struct spec {
  bool zero;
  unsigned width;
  int prec;          /* -1: none */
  unsigned len;      /* 0 int, 1 long, 2 long long, 3 size_t */
  char conv;
} spec;

/* Parses the conversion after a '%' at *p; false when it is not in the
 * subset.  *p moves past it. */
static bool parse_spec(const char **p, spec *s) {
  const char *f = *p;
  *s = (spec){.prec = -1};
  if (*f == '%') {
    s->conv = '%';
    *p = f + 1;
    return true;
  }
  if (*f == '0') s->zero = true, f++;
  for (int d = 0; d < 2 && *f >= '0' && *f <= '9'; d++) s->width = s->width * 10 + (unsigned)(*f++ - '0');
  if (*f >= '0' && *f <= '9') return false;
  if (*f == '.') {
    if (s->zero || s->width || f[1] < '0' || f[1] > '6' || f[2] != 'f') return false;
    s->prec = f[1] - '0';
    s->conv = 'f';
    *p = f + 3;
    return true;
  }
  if (*f == 'l') {
    s->len = 1, f++;
    if (*f == 'l') s->len = 2, f++;
  } else if (*f == 'z') {
    s->len = 3, f++;
  }
  s->conv = *f++;
  *p = f;
  switch (s->conv) {
  case 'd': case 'i': case 'u': case 'x': case 'X': return true;
  case 'c': case 's': return !s->zero && !s->len;
  default: return false;
  }
}

/* The text formatted so far, in a line of its own: one append at the end,
 * nothing appended when the format turns out not to be in the subset. */
typedef struct line {
  char c[256];
  size_t n;
  bool full;
} line;

static void put(line *l, const char *s, size_t n) {
  if (n > sizeof l->c - l->n) {
    l->full = true;
    return;
  }
  memcpy(l->c + l->n, s, n);
  l->n += n;
}

static void pad(line *l, char c, size_t n) {
  if (n > sizeof l->c - l->n) {
    l->full = true;
    return;
  }
  memset(l->c + l->n, c, n);
  l->n += n;
}

/* digits of v in base 10 or 16, after the width's padding */
static void put_num(line *l, const spec *s, bool neg, unsigned long long v) {
  char tmp[24];
  size_t n = sizeof tmp;
  if (s->conv == 'x' || s->conv == 'X') {
    const char *digits = s->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    do {
      tmp[--n] = digits[v & 15];
      v >>= 4;
    } while (v);
  } else {
    n = (size_t)(scp_dec_u64(tmp + sizeof tmp, v) - tmp);
  }
  size_t len = sizeof tmp - n + neg;
  size_t fill = s->width > len ? s->width - len : 0;
  if (!s->zero) pad(l, ' ', fill);
  if (neg) put(l, "-", 1);
  if (s->zero) pad(l, '0', fill);
  put(l, tmp + n, sizeof tmp - n);
}

/* x with prec decimals, as glibc's printf writes it: the exact value of
 * the double times 10^prec, rounded to an integer (a tie to even), then
 * split at the point.  0: not finite, or too large for the sum. */
size_t scp_fmt_fixed(char *out, double x, int prec) {
  static const unsigned scale[7] = {1, 10, 100, 1000, 10000, 100000, 1000000};
  if (prec < 0 || prec > 6) return 0;
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  unsigned exp = (unsigned)(bits >> 52 & 0x7ff);
  uint64_t m = bits & ((1ull << 52) - 1);
  if (exp == 0x7ff) return 0;
  if (exp) m |= 1ull << 52;
  else exp = 1;   /* subnormal */
  int e = (int)exp - 1075;   /* x = m * 2^e */
  unsigned __int128 v = (unsigned __int128)m * scale[prec], q;
  if (prec <= 3 && e < 0) {
    /* the flamegraph's pixels and the percentages: m * 10^prec < 2^63,
     * so all of it in 64 bits, and nothing left of it past 63 places */
    uint64_t v64 = m * scale[prec], q64 = 0;
    unsigned sh = (unsigned)-e;
    if (sh < 64) {
      uint64_t r = v64 & ((1ull << sh) - 1), half = 1ull << (sh - 1);
      q64 = v64 >> sh;
      if (r > half || (r == half && (q64 & 1))) q64++;
    }
    q = q64;
  } else if (e >= 0) {
    if (e > 40) return 0;
    q = v << e;
  } else if (e <= -120) {
    q = 0;   /* v < 2^73: below half of one unit */
  } else {
    unsigned sh = (unsigned)-e;
    unsigned __int128 one = 1, r = v & ((one << sh) - 1), half = one << (sh - 1);
    q = v >> sh;
    if (r > half || (r == half && (q & 1))) q++;
  }
  if (q >> 64) return 0;
  uint64_t whole = (uint64_t)q / scale[prec], frac = (uint64_t)q % scale[prec];
  char tmp[32];
  size_t n = sizeof tmp;
  for (int d = 0; d < prec; d++, frac /= 10) tmp[--n] = (char)('0' + frac % 10);
  if (prec) tmp[--n] = '.';
  n = (size_t)(scp_dec_u64(tmp + n, whole) - tmp);
  if (bits >> 63) tmp[--n] = '-';
  memcpy(out, tmp + n, sizeof tmp - n);
  return sizeof tmp - n;
}

static bool put_fixed(line *l, double x, int prec) {
  char t[SCP_FMT_FIXED_MAX];
  size_t n = scp_fmt_fixed(t, x, prec);
  if (n) put(l, t, n);
  return n != 0;
}

/* Grouped by threes from the right, as the reports show every count. */
void scp_buf_put_grouped(scp_buf *b, uint64_t v) {
  char digits[24], out[32];   /* 20 digits and 6 commas */
  const char *d = scp_dec_u64(digits + sizeof digits, v);
  size_t n = (size_t)(digits + sizeof digits - d), o = 0;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && (n - i) % 3 == 0) out[o++] = ',';
    out[o++] = d[i];
  }
  scp_buf_put(b, out, o);
}

static void put_conv(line *l, const spec *s, va_list *ap) {
  if (s->conv == 'f') {
    if (!put_fixed(l, va_arg(*ap, double), s->prec)) l->full = true;   /* vsnprintf's to write */
  } else if (s->conv == '%') {
    put(l, "%", 1);
  } else if (s->conv == 'c') {
    char c = (char)va_arg(*ap, int);
    pad(l, ' ', s->width > 1 ? s->width - 1 : 0);
    put(l, &c, 1);
  } else if (s->conv == 's') {
    const char *str = va_arg(*ap, const char *);
    if (!str) str = "(null)";
    size_t n = strlen(str);
    pad(l, ' ', s->width > n ? s->width - n : 0);
    put(l, str, n);
  } else if (s->conv == 'd' || s->conv == 'i') {
    long long v = s->len == 0 ? va_arg(*ap, int) : s->len == 1 ? va_arg(*ap, long)
                : s->len == 2 ? va_arg(*ap, long long) : (long long)va_arg(*ap, ptrdiff_t);
    /* the magnitude through unsigned: -LLONG_MIN does not fit */
    put_num(l, s, v < 0, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v);
  } else {
    unsigned long long v = s->len == 0 ? va_arg(*ap, unsigned) : s->len == 1 ? va_arg(*ap, unsigned long)
                         : s->len == 2 ? va_arg(*ap, unsigned long long) : va_arg(*ap, size_t);
    put_num(l, s, false, v);
  }
}

bool scp_fmt_fast(scp_buf *b, const char *fmt, va_list ap) {
  line l;
  l.n = 0;
  l.full = false;
  bool ok = true;
  va_list a;
  va_copy(a, ap);
  for (const char *p = fmt; *p && ok && !l.full;) {
    if (*p != '%') {
      /* the text up to the next conversion in one copy */
      const char *q = strchrnul(p, '%');
      put(&l, p, (size_t)(q - p));
      p = q;
      continue;
    }
    p++;
    spec s;
    if ((ok = parse_spec(&p, &s))) put_conv(&l, &s, &a);
  }
  va_end(a);
  /* a longer text goes through vsnprintf, which has no such limit */
  if (!ok || l.full) return false;
  scp_buf_put(b, l.c, l.n);
  return true;
}
