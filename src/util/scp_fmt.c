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
 * with c or s).  No '-', '+', ' ', '#', precision, '*' or other length.
 */
#include "util/scp_util.h"

#include <string.h>

typedef struct spec {
  bool zero;
  unsigned width;
  unsigned len;      /* 0 int, 1 long, 2 long long, 3 size_t */
  char conv;
} spec;

/* Parses the conversion after a '%' at *p; false when it is not in the
 * subset.  *p moves past it. */
static bool parse_spec(const char **p, spec *s) {
  const char *f = *p;
  *s = (spec){0};
  if (*f == '%') {
    s->conv = '%';
    *p = f + 1;
    return true;
  }
  if (*f == '0') s->zero = true, f++;
  for (int d = 0; d < 2 && *f >= '0' && *f <= '9'; d++) s->width = s->width * 10 + (unsigned)(*f++ - '0');
  if (*f >= '0' && *f <= '9') return false;
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
    do {   /* a constant divisor: the compiler multiplies */
      tmp[--n] = (char)('0' + v % 10);
      v /= 10;
    } while (v);
  }
  size_t len = sizeof tmp - n + neg;
  size_t fill = s->width > len ? s->width - len : 0;
  if (!s->zero) pad(l, ' ', fill);
  if (neg) put(l, "-", 1);
  if (s->zero) pad(l, '0', fill);
  put(l, tmp + n, sizeof tmp - n);
}

static void put_conv(line *l, const spec *s, va_list *ap) {
  if (s->conv == '%') {
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
      if (l.n == sizeof l.c) {
        l.full = true;
        break;
      }
      l.c[l.n++] = *p++;
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
