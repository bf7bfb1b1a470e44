/*
 * test_words.c — crypto_words.h's 256-bit helpers, shared by the prime
 * fields and Soroban's U256 / I256: carry and borrow across every word,
 * in-place results, the unsigned order (the top word decides), and the
 * full 512-bit product of 2^256 - 1 with itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "crypto/crypto_words.h"

static const uint64_t max[4] = { UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX };
static const uint64_t one[4] = { 0, 0, 0, 1 };
static const uint64_t zero[4] = { 0 };

static void test_add_sub(void **state) {
  (void)state;
  uint64_t r[4];
  assert_true(scp_w256_add(max, one, r));   /* the carry runs through all four */
  assert_memory_equal(r, zero, sizeof r);
  assert_true(scp_w256_sub(zero, one, r));
  assert_memory_equal(r, max, sizeof r);
  uint64_t a[4] = { 1, 0, UINT64_MAX, 5 }, b[4] = { 0, 1, 1, UINT64_MAX };
  assert_false(scp_w256_add(a, b, a));      /* in place */
  uint64_t want[4] = { 1, 2, 1, 4 };
  assert_memory_equal(a, want, sizeof a);
  assert_false(scp_w256_sub(a, b, a));
  uint64_t back[4] = { 1, 0, UINT64_MAX, 5 };
  assert_memory_equal(a, back, sizeof a);
}

static void test_cmp(void **state) {
  (void)state;
  uint64_t hi[4] = { 1, 0, 0, 0 };
  uint64_t lo[4] = { 0, UINT64_MAX, UINT64_MAX, UINT64_MAX };
  assert_int_equal(scp_w256_cmp(hi, lo), 1);
  assert_int_equal(scp_w256_cmp(lo, hi), -1);
  assert_int_equal(scp_w256_cmp(max, max), 0);
  assert_int_equal(scp_w256_cmp(zero, one), -1);
}

static void test_mul_full(void **state) {
  (void)state;
  /* (2^256 - 1)^2 = 2^512 - 2^257 + 1, little-endian words */
  uint64_t res[8];
  scp_w256_mul_full(max, max, res);
  const uint64_t want[8] = { 1, 0, 0, 0, UINT64_MAX - 1, UINT64_MAX, UINT64_MAX, UINT64_MAX };
  assert_memory_equal(res, want, sizeof res);
  uint64_t a[4] = { 0, 0, 1, 0 }, b[4] = { 0, 0, 0, 3 };   /* 2^64 * 3 */
  scp_w256_mul_full(a, b, res);
  const uint64_t want2[8] = { 0, 3, 0, 0, 0, 0, 0, 0 };
  assert_memory_equal(res, want2, sizeof res);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_add_sub),
    cmocka_unit_test(test_cmp),
    cmocka_unit_test(test_mul_full),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
