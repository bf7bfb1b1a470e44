/*
 * test_fr.c — crypto_fr's arithmetic modulo a 256-bit prime and
 * crypto_bn254's G1 law on top of it, on known values: BN254's 2G and 5G
 * (the alt_bn128 precompile's), r G = infinity, a^(r-1) = 1, wrap-around
 * of add and sub, and the reduction of a value above the modulus.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "crypto/crypto_bn254.h"

static void words(const char *hex, uint64_t w[4]) {
  for (int i = 0; i < 4; i++) {
    unsigned long long v;
    sscanf(hex + 16 * i, "%16llx", &v);
    w[i] = v;
  }
}

static void test_field(void **state) {
  (void)state;
  uint64_t a[4] = { 0, 0, 0, 5 }, r[4], one[4] = { 0, 0, 0, 1 }, e[4], m1[4];
  /* Fermat: a^(r-1) = 1 */
  scp_fr_sub(scp_bn_r, one, scp_bn_r, m1);
  for (int i = 0; i < 4; i++) e[i] = m1[3 - i];
  scp_fr_pow(a, e, 4, scp_bn_r, r);
  assert_memory_equal(r, one, sizeof one);
  /* (r - 1) + 1 = 0 and 0 - 1 = r - 1 */
  scp_fr_add(m1, one, scp_bn_r, r);
  assert_true(!(r[0] | r[1] | r[2] | r[3]));
  uint64_t zero[4] = { 0 };
  scp_fr_sub(zero, one, scp_bn_r, r);
  assert_memory_equal(r, m1, sizeof r);
  /* 2^256 - 1 mod r */
  uint64_t big[4] = { UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX }, want[4];
  scp_fr_reduce(big, scp_bn_r, r);
  words("0e0a77c19a07df2f666ea36f7879462e36fc76959f60cd29ac96341c4ffffffa", want);
  assert_memory_equal(r, want, sizeof r);
}

static void test_g1(void **state) {
  (void)state;
  scp_bn_g1 g = { { 0, 0, 0, 1 }, { 0, 0, 0, 2 }, false }, r, w;
  assert_true(scp_bn_g1_on_curve(&g));
  uint64_t k2[4] = { 0, 0, 0, 2 }, k5[4] = { 0, 0, 0, 5 };
  scp_bn_g1_mul(&g, k2, &r);
  words("030644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd3", w.x);
  words("15ed738c0e0a7c92e7845f96b2ae9c0a68a6a449e3538fc7ff3ebf7a5a18a2c4", w.y);
  assert_false(r.inf);
  assert_memory_equal(r.x, w.x, 32);
  assert_memory_equal(r.y, w.y, 32);
  scp_bn_g1_add(&g, &g, &r);
  assert_memory_equal(r.x, w.x, 32);
  scp_bn_g1_mul(&g, k5, &r);
  words("17c139df0efee0f766bc0204762b774362e4ded88953a39ce849a8a7fa163fa9", w.x);
  words("01e0559bacb160664764a357af8a9fe70baa9258e0b959273ffc5718c6d4cc7c", w.y);
  assert_memory_equal(r.x, w.x, 32);
  assert_memory_equal(r.y, w.y, 32);
  scp_bn_g1_mul(&g, scp_bn_r, &r);
  assert_true(r.inf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_field),
    cmocka_unit_test(test_g1),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
