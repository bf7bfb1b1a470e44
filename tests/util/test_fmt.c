/*
 * test_fmt.c — scp_buf_printf's own formatter (scp_fmt.c) against the C
 * library's snprintf: every format of its subset gives the same bytes,
 * and a format outside it is left to vsnprintf (scp_fmt_fast says false
 * and appends nothing).  Independent evidence: snprintf is the reference.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
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

static void test_outside(void **state) {
  (void)state;
  assert_false(taken("%.2f", 1.0));
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
      cmocka_unit_test(test_outside),
      cmocka_unit_test(test_printf_paths),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
