/*
 * test_fmt.c — scp_buf_printf's own formatter (scp_fmt.c) against the C
 * library's snprintf: every format of its subset gives the same bytes,
 * "%.Nf" on some 120,000 doubles (ties, neighbours, a random sweep), and
 * a format outside it is left to vsnprintf (scp_fmt_fast says false and
 * appends nothing); scp_fmt_fixed at every precision and
 * scp_buf_put_grouped on 100,000 values against snprintf's digits.  Independent evidence: snprintf is the reference.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/scp_util.h"

/* fmt through scp_fmt_fast (which must take it) and through vsnprintf */
static void same(const char *fmt, ...) {
  char want[512];
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(want, sizeof want, fmt, ap);
  scp_buf b = {0};
  bool took = scp_fmt_fast(&b, fmt, ap2);
  va_end(ap2);
  va_end(ap);
  if (!took) fail_msg("not taken: \"%s\"", fmt);
  assert_int_equal(b.len, (size_t)n);
  if (n && memcmp(b.data, want, (size_t)n)) fail_msg("\"%s\": \"%s\" against snprintf's \"%s\"", fmt, b.data, want);
  scp_buf_free(&b);
}

static bool taken(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  scp_buf b = {0};
  bool took = scp_fmt_fast(&b, fmt, ap);
  va_end(ap);
  if (!took) assert_int_equal(b.len, 0);
  scp_buf_free(&b);
  return took;
}

static void test_numbers(void **state) {
  (void)state;
  same("%d %d %d %i", 0, -1, INT_MAX, INT_MIN);
  same("%u %u %x %X", 0u, UINT_MAX, 0xdeadbeefu, 0xabcdefu);
  same("%ld %lu %lx", LONG_MIN, ULONG_MAX, 0x123456789abcdefUL);
  same("%lld|%llu|%llx|%llX", LLONG_MIN, ULLONG_MAX, 0xfedcba9876543210ULL, 0ULL);
  same("%zu %zd %zx", SIZE_MAX, (ptrdiff_t)-5, (size_t)255);
  same("%02x%02x%02x", 0, 0xab, 7);
  same("%5d|%05d|%5d|%05d|%1d|%09llu", 42, 42, -42, -42, 12345, 1ULL);
  same("%3u|%03x|%08X|%12lld|%012lld", 7u, 10u, 0xbeefu, -9LL, -9LL);
  same("%2d|%02d", 123456, -123456);
}

static void test_text(void **state) {
  (void)state;
  same("");
  same("plain text, no conversion");
  same("100%% of %s", "it");
  same("%s|%5s|%2s|%s", "abc", "ab", "abcdef", "");
  same("%c%c%3c", 'x', '"', 'z');
  same("{\"pc\":%llu,\"insn\":%s,%zu}", 123456789ULL, "mov64 r1, r2", (size_t)9);
  same("%s", (const char *)NULL);
  same("%%%d%%", 5);
}

/* scp_buf_printf of one double against snprintf, on whichever path */
static void agree(const char *fmt, double x) {
  char want[512];
  snprintf(want, sizeof want, fmt, x);
  scp_buf b = {0};
  scp_buf_printf(&b, fmt, x);
  if (strcmp(b.data, want)) fail_msg("\"%s\" of %.17g: \"%s\" against snprintf's \"%s\"", fmt, x, b.data, want);
  scp_buf_free(&b);
}

/* "%.Nf": ties at every decimal (to even, on the exact binary value),
 * values just either side of them, negatives and -0, subnormals, powers
 * of two and ten, and a long pseudo-random sweep, each as snprintf writes
 * it; past 2^64 units or not finite, vsnprintf's (still the same text) */
static void test_fixed(void **state) {
  (void)state;
  static const char *const fmts[] = {"%.0f", "%.1f", "%.2f", "%.3f", "%.6f"};
  static const double fixed[] = {0.0, -0.0, 0.5, 1.5, 2.5, 0.125, 0.375, 2.675, 1.005, 0.045, 1e-300, 4.9e-324,
                                 -4.9e-324, -0.001, -0.004, -0.005, 123456.785, 99.995, 9.995, 0.05, 0.15, 0.25,
                                 1e15 + 0.3, 4503599627370495.5, 9007199254740993.0, 1e18, 1.8446744073709552e19,
                                 1e19, 1e20, 3.4e38, 1e300, -1e300};
  for (size_t f = 0; f < SCP_ARRAY_LEN(fmts); f++) {
    for (size_t i = 0; i < SCP_ARRAY_LEN(fixed); i++) {
      agree(fmts[f], fixed[i]);
      agree(fmts[f], nextafter(fixed[i], 1e308));
      agree(fmts[f], nextafter(fixed[i], -1e308));
    }
    for (int k = -8; k <= 8; k++) agree(fmts[f], (double)k / 8);
    for (int k = 0; k < 4000; k++) agree(fmts[f], (double)k / 1000 + (double)k * 0.0005);
    uint64_t r = 88172645463325252ull;
    for (int k = 0; k < 20000; k++) {
      r ^= r << 13, r ^= r >> 7, r ^= r << 17;
      double x = (double)(r >> 11) / (double)(1ull << 53) * (double)(1ull << (k % 40)) * (k & 1 ? -1 : 1);
      agree(fmts[f], x);
    }
  }
  agree("%.2f", INFINITY);
  agree("%.2f", -INFINITY);
  agree("%.2f", NAN);
  same("x=\"%.2f\" y=\"%u\" w=\"%.1f\"", 12.345, 7u, 0.25);
  assert_false(taken("%.7f", 1.0));
  assert_false(taken("%5.2f", 1.0));
  assert_false(taken("%.2lf", 1.0));
  assert_false(taken("%f", 1.0));
}

/* scp_fmt_fixed, which the flamegraph's and reports' percentages use
 * directly, against snprintf's "%.*f" at every precision it takes; where
 * it declines (0), the value is one it must decline: not finite, or past
 * 2^64 units of the last decimal */
static void fixed_agrees(double x, int prec) {
  char want[512], got[SCP_FMT_FIXED_MAX + 1];
  int n = snprintf(want, sizeof want, "%.*f", prec, x);
  size_t k = scp_fmt_fixed(got, x, prec);
  if (!k) {
    static const double units[7] = {1, 10, 100, 1000, 10000, 100000, 1000000};
    if (isfinite(x) && fabs(x) * units[prec] < 1.8e19) fail_msg("%.17g at %d declined", x, prec);
    return;
  }
  got[k] = 0;
  assert_int_equal(k, (size_t)n);
  if (strcmp(got, want)) fail_msg("%.17g at %d: \"%s\" against snprintf's \"%s\"", x, prec, got, want);
}

static void test_fixed_direct(void **state) {
  (void)state;
  static const double fixed[] = {0.0, -0.0, 0.5, 1.5, 2.5, 0.125, 2.675, 1.005, 0.045, 4.9e-324, -0.005,
                                 99.995, 9.995, 100.0, 33.333333333333336, 66.66666666666667,
                                 1.8446744073709552e17, 1.8446744073709552e19, 1e20, INFINITY, -INFINITY, NAN};
  for (int prec = 0; prec <= 6; prec++) {
    for (size_t i = 0; i < SCP_ARRAY_LEN(fixed); i++) {
      fixed_agrees(fixed[i], prec);
      if (isfinite(fixed[i])) {
        fixed_agrees(nextafter(fixed[i], 1e308), prec);
        fixed_agrees(nextafter(fixed[i], -1e308), prec);
      }
    }
    /* percentages as scp_out_put_pct makes them: 100 * part / whole */
    uint64_t r = 0x9e3779b97f4a7c15ull;
    for (int k = 0; k < 20000; k++) {
      r ^= r << 13, r ^= r >> 7, r ^= r << 17;
      uint64_t whole = (r >> (k % 60)) + 1, part = k & 1 ? whole - (r >> 33) % whole : (r >> 20) % (whole + 1);
      fixed_agrees(100.0 * (double)part / (double)whole, prec);
    }
    /* every binary exponent from 2^-80 to 2^60 (the 64-bit path of
     * precisions up to 3 and where it ends), random mantissas and the
     * halves that are ties */
    for (int e = -80; e <= 60; e++)
      for (int k = 0; k < 60; k++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        double m = (double)((r >> 11) | 1ull << 52);
        fixed_agrees(ldexp(m, e - 52), prec);
        fixed_agrees(-ldexp(m, e - 52), prec);
        fixed_agrees(ldexp((double)(2 * (r % 1000) + 1), e) / 2000.0, prec);
      }
  }
  char t[SCP_FMT_FIXED_MAX];
  assert_int_equal(scp_fmt_fixed(t, 1.0, 7), 0);
  assert_int_equal(scp_fmt_fixed(t, 1.0, -1), 0);
}

/* scp_buf_put_grouped against snprintf's digits grouped by threes */
static void grouped_agrees(uint64_t v) {
  char digits[32], want[48];
  int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v), o = 0;
  for (int i = 0; i < n; i++) {
    if (i > 0 && (n - i) % 3 == 0) want[o++] = ',';
    want[o++] = digits[i];
  }
  want[o] = 0;
  scp_buf b = {0};
  scp_buf_put_grouped(&b, v);
  if (!b.data || strcmp(b.data, want)) fail_msg("%llu: \"%s\" against \"%s\"", (unsigned long long)v, b.data, want);
  scp_buf_free(&b);
}

static void test_grouped(void **state) {
  (void)state;
  grouped_agrees(0);
  grouped_agrees(UINT64_MAX);
  for (uint64_t p = 1; p <= 10000000000000000000ull; p *= 10) {
    grouped_agrees(p - 1);
    grouped_agrees(p);
    grouped_agrees(p + 1);
    if (p > UINT64_MAX / 10) break;
  }
  uint64_t r = 88172645463325252ull;
  for (int k = 0; k < 100000; k++) {
    r ^= r << 13, r ^= r >> 7, r ^= r << 17;
    grouped_agrees(r >> (k % 64));
  }
}

static void test_outside(void **state) {
  (void)state;
  assert_false(taken("%.2e", 1.0));
  assert_false(taken("%-5d", 1));
  assert_false(taken("%+d", 1));
  assert_false(taken("% d", 1));
  assert_false(taken("%#x", 1u));
  assert_false(taken("%.*s", 2, "abc"));
  assert_false(taken("%*d", 3, 1));
  assert_false(taken("%100d", 1));
  assert_false(taken("%hhu", 1));
  assert_false(taken("%p", (void *)0));
  assert_false(taken("%05s", "a"));
  assert_false(taken("ok %d then %g", 1, 2.0));
  assert_true(taken("%llu", 1ULL));
  /* longer than its 256 bytes: left to vsnprintf */
  char big[300];
  memset(big, 'a', sizeof big - 1);
  big[sizeof big - 1] = 0;
  assert_false(taken("%s", big));
  assert_false(taken("%s%s", big + 100, big + 100));
  assert_true(taken("%s", big + 44));
  /* the same limit for text outside the conversions: 256 bytes fit */
  big[256] = 0;
  same(big);
  assert_true(taken(big));
  big[256] = 'a';
  big[257] = 0;
  assert_false(taken(big));
  same("%s", "a%");
  same("ab%%cd%uef%%", 5u);
}

/* scp_buf_printf gives snprintf's bytes on either path */
static void test_printf_paths(void **state) {
  (void)state;
  scp_buf b = {0};
  scp_buf_printf(&b, "%s=%llu;", "a", 18446744073709551615ULL);
  scp_buf_printf(&b, "%.3f;", 2.5);
  scp_buf_printf(&b, "%-4d|", 7);
  scp_buf_printf(&b, "%04x", 0xbeu);
  assert_string_equal(b.data, "a=18446744073709551615;2.500;7   |00be");
  char big[300];
  memset(big, 'b', sizeof big - 1);
  big[sizeof big - 1] = 0;
  b.len = 0;
  scp_buf_printf(&b, "<%s>", big);
  assert_int_equal(b.len, 301);
  assert_true(b.data[0] == '<' && b.data[1] == 'b' && b.data[299] == 'b' && b.data[300] == '>');
  scp_buf_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_numbers),
      cmocka_unit_test(test_text),
      cmocka_unit_test(test_fixed),
      cmocka_unit_test(test_fixed_direct),
      cmocka_unit_test(test_grouped),
      cmocka_unit_test(test_outside),
      cmocka_unit_test(test_printf_paths),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
