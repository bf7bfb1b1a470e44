/*
 * test_out_row.c — the pieces the writers build their rows from
 * (out_private.h, out_util.c) against the C library: scp_out_dec against
 * snprintf's "%llu" on every length of number and a sweep, scp_out_fixed
 * against "%.Nf" (its own path and the snprintf one past its range),
 * scp_out_put_pct against snprintf's "%.2f" grouped by threes, and the
 * JSON-string scan's table against the rule it stands for (printable
 * ASCII but '"' and '\\'), with report.json's strings written the same
 * either way.  Independent evidence: snprintf and the rule are the
 * references.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/out_private.h"

static void dec_agrees(uint64_t v) {
  char want[32], got[32];
  snprintf(want, sizeof want, "%llu", (unsigned long long)v);
  char *e = scp_out_dec(got, v);
  *e = 0;
  if (strcmp(got, want)) fail_msg("%s: \"%s\"", want, got);
}

static void test_dec(void **state) {
  (void)state;
  dec_agrees(0);
  dec_agrees(UINT64_MAX);
  dec_agrees(UINT64_MAX - 1);
  for (uint64_t v = 0; v < 1000; v++) dec_agrees(v);   /* one and two digits: their own path */
  for (uint64_t v = UINT32_MAX - 1000; v < (uint64_t)UINT32_MAX + 1000; v++) dec_agrees(v);
  for (uint64_t p = 1;; p *= 10) {
    dec_agrees(p - 1);
    dec_agrees(p);
    dec_agrees(p + 1);
    if (p > UINT64_MAX / 10) break;
  }
  uint64_t r = 88172645463325252ull;
  for (int k = 0; k < 200000; k++) {
    r ^= r << 13, r ^= r >> 7, r ^= r << 17;
    dec_agrees(r >> (k % 64));
  }
}

static void fixed_agrees(double x, int prec) {
  char want[400], got[SCP_OUT_FIXED_ROOM + 1];
  snprintf(want, sizeof want, "%.*f", prec, x);
  *scp_out_fixed(got, x, prec) = 0;
  if (strcmp(got, want)) fail_msg("%.17g at %d: \"%s\" against \"%s\"", x, prec, got, want);
}

static void test_fixed(void **state) {
  (void)state;
  static const double xs[] = {0.0, -0.0, 10.5, 13.0, 1189.9999999, 0.005, 0.015, 1e19, 1e30, -1e300,
                              1.7976931348623157e308, -1.7976931348623157e308, INFINITY, NAN};
  for (int prec = 0; prec <= 6; prec++)
    for (size_t i = 0; i < sizeof xs / sizeof *xs; i++) fixed_agrees(xs[i], prec);
  uint64_t r = 0x2545f4914f6cdd1dull;
  for (int k = 0; k < 50000; k++) {
    r ^= r << 13, r ^= r >> 7, r ^= r << 17;
    double x = (double)(r >> 11) / (double)(1ull << 53) * 1200.0;   /* a flamegraph's pixels */
    fixed_agrees(x, 2);
    fixed_agrees(x + 10.5, 1);
  }
}

static void pct_agrees(uint64_t part, uint64_t whole) {
  char digits[400], want[500];
  int n = snprintf(digits, sizeof digits, "%.2f", 100.0 * (double)part / (double)whole), o = 0;
  for (int i = 0; i < n; i++) {
    if (i && i < n - 3 && (n - 3 - i) % 3 == 0) want[o++] = ',';
    want[o++] = digits[i];
  }
  want[o++] = '%';
  want[o] = 0;
  scp_buf b = {0};
  scp_out_put_pct(&b, part, whole);
  if (!b.data || strcmp(b.data, want)) fail_msg("%llu/%llu: \"%s\" against \"%s\"", (unsigned long long)part,
                                                (unsigned long long)whole, b.data, want);
  scp_buf_free(&b);
}

static void test_pct(void **state) {
  (void)state;
  pct_agrees(0, 1);
  pct_agrees(1, 3);
  pct_agrees(2, 3);
  pct_agrees(21178600, 1000);        /* an overrun: 2,117,860.00% */
  pct_agrees(UINT64_MAX, 1);         /* past scp_fmt_fixed: snprintf's */
  pct_agrees(UINT64_MAX, 7);
  uint64_t r = 0x9e3779b97f4a7c15ull;
  for (int k = 0; k < 50000; k++) {
    r ^= r << 13, r ^= r >> 7, r ^= r << 17;
    uint64_t whole = (r >> (k % 56)) + 1;
    pct_agrees((r >> 7) % (whole + 1) * (k % 3 ? 1 : 5), whole);
  }
  scp_buf b = {0};
  scp_out_put_pct(&b, 5, 0);
  assert_string_equal(b.data, "-");
  scp_buf_free(&b);
}

static void test_json_plain(void **state) {
  (void)state;
  for (int c = 0; c < 256; c++) {
    bool want = c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
    if ((scp_out_json_plain_byte[c] != 0) != want) fail_msg("byte 0x%02x", c);
  }
  assert_int_equal(scp_out_json_plain("mov64r r1, r2", 96), 13);
  assert_int_equal(scp_out_json_plain("ab\"c", 96), 2);
  assert_int_equal(scp_out_json_plain("abcdef", 3), 3);
  /* four bytes a step: every byte value at every place of strings up to
   * 13 bytes long, under every bound up to the length + 1, gives what
   * the rule gives a byte at a time */
  char text[16];
  for (size_t len = 0; len <= 13; len++)
    for (size_t at = 0; at < len; at++)
      for (int c = 1; c < 256; c++) {
        memset(text, 'a', len);
        text[len] = 0;
        text[at] = (char)c;
        for (size_t max = 0; max <= len + 1; max++) {
          size_t want = 0;
          while (want < max && text[want] && scp_out_json_plain_byte[(unsigned char)text[want]]) want++;
          size_t got = scp_out_json_plain(text, max);
          if (got != want) fail_msg("len %zu, 0x%02x at %zu, max %zu: %zu, not %zu", len, c, at, max, got, want);
        }
      }
  char *heap = strdup("abcdefghij\"k");   /* unbounded, as scp_out_put_json_str asks */
  assert_non_null(heap);
  assert_int_equal(scp_out_json_plain(heap, SIZE_MAX), 10);
  heap[10] = 0;
  assert_int_equal(scp_out_json_plain(heap, SIZE_MAX), 10);
  free(heap);
  scp_buf b = {0};
  scp_out_put_json_str(&b, "a\"b\\c\n\x01\xff");
  assert_string_equal(b.data, "\"a\\\"b\\\\c\\n\\u0001\xef\xbf\xbd\"");
  scp_buf_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dec),
      cmocka_unit_test(test_fixed),
      cmocka_unit_test(test_pct),
      cmocka_unit_test(test_json_plain),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
