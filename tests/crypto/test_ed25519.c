/*
 * test_ed25519.c — crypto_ed25519 on known values: the Edwards base point's
 * multiples (checked against libsodium, which agrees on prime-order
 * points), the points libsodium refuses and dalek accepts (the identity,
 * small-order points, a non-canonical y, x = 0 with the sign bit set), the
 * scalar bound l, Ristretto255's RFC 9496 multiples of its generator and
 * the identity's 32 zero bytes, and multiscalar sums of 0, 1 and 2 terms.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <sodium.h>

#include "crypto/crypto_ed25519.h"

static void hex(const char *h, uint8_t out[32]) {
  for (int i = 0; i < 32; i++) {
    unsigned v;
    sscanf(h + 2 * i, "%2x", &v);
    out[i] = (uint8_t)v;
  }
}

static const char *ED_B = "5866666666666666666666666666666666666666666666666666666666666666";
static const char *ED_ID = "0100000000000000000000000000000000000000000000000000000000000000";
/* (0, -1), of order 2 */
static const char *ED_ORDER2 = "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f";
/* a point of order 8 */
static const char *ED_ORDER8 = "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05";
static const char *L_HEX = "edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010";

static void scalar(unsigned v, uint8_t s[32]) {
  memset(s, 0, 32);
  s[0] = (uint8_t)v;
  s[1] = (uint8_t)(v >> 8);
}

static void test_edwards_base(void **state) {
  (void)state;
  uint8_t b[32], r[32], want[32], s[32], b2[32];
  hex(ED_B, b);
  assert_true(scp_ed_valid(false, b));
  /* B + B = 2B = 2 * B, as libsodium has it */
  assert_true(scp_ed_add(false, b, b, false, b2));
  scalar(2, s);
  assert_int_equal(crypto_scalarmult_ed25519_noclamp(want, s, b), 0);
  assert_memory_equal(b2, want, 32);
  assert_true(scp_ed_mul(false, s, b, r));
  assert_memory_equal(r, want, 32);
  /* random-looking canonical scalars against libsodium */
  for (unsigned k = 1; k < 40; k++) {
    for (int i = 0; i < 32; i++) s[i] = (uint8_t)(k * 37 + i * 101);
    s[31] &= 0x0f;
    assert_true(scp_ed_mul(false, s, b, r));
    assert_int_equal(crypto_scalarmult_ed25519_noclamp(want, s, b), 0);
    assert_memory_equal(r, want, 32);
  }
  /* 2B - B = B */
  assert_true(scp_ed_add(false, b2, b, true, r));
  assert_memory_equal(r, b, 32);
  /* l B = identity, l is not a canonical scalar */
  uint8_t l[32], id[32];
  hex(L_HEX, l);
  hex(ED_ID, id);
  assert_false(scp_ed_scalar_canonical(l));
  assert_false(scp_ed_mul(false, l, b, r));
  l[0]--;
  assert_true(scp_ed_scalar_canonical(l));
  assert_true(scp_ed_mul(false, l, b, r));   /* (l - 1) B = -B */
  assert_true(scp_ed_add(false, r, b, false, r));
  assert_memory_equal(r, id, 32);
}

static void test_edwards_dalek_points(void **state) {
  (void)state;
  uint8_t id[32], o2[32], o8[32], r[32], s[32], p[32];
  hex(ED_ID, id);
  hex(ED_ORDER2, o2);
  hex(ED_ORDER8, o8);
  assert_true(scp_ed_valid(false, id));
  assert_true(scp_ed_valid(false, o2));
  assert_true(scp_ed_valid(false, o8));
  assert_false(crypto_core_ed25519_is_valid_point(o8));
  /* 2 * order-2 = identity; 8 * order-8 = identity, 4 * order-8 is not */
  scalar(2, s);
  assert_true(scp_ed_mul(false, s, o2, r));
  assert_memory_equal(r, id, 32);
  scalar(8, s);
  assert_true(scp_ed_mul(false, s, o8, r));
  assert_memory_equal(r, id, 32);
  scalar(4, s);
  assert_true(scp_ed_mul(false, s, o8, r));
  assert_memory_equal(r, o2, 32);
  /* y = p + 1 is y = 1: the identity, re-encoded canonically */
  hex("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", p);
  assert_true(scp_ed_valid(false, p));
  scalar(1, s);
  assert_true(scp_ed_mul(false, s, p, r));
  assert_memory_equal(r, id, 32);
  /* x = 0 with the sign bit: accepted, encoded without it */
  memcpy(p, id, 32);
  p[31] |= 0x80;
  assert_true(scp_ed_add(false, p, id, false, r));
  assert_memory_equal(r, id, 32);
  /* y = 2 is not on the curve */
  scalar(2, p);
  assert_false(scp_ed_valid(false, p));
  assert_false(scp_ed_add(false, p, id, false, r));
  /* the sign bit picks -B */
  uint8_t b[32], nb[32];
  hex(ED_B, b);
  memcpy(nb, b, 32);
  nb[31] |= 0x80;
  assert_true(scp_ed_add(false, b, nb, false, r));
  assert_memory_equal(r, id, 32);
}

static void test_ristretto(void **state) {
  (void)state;
  uint8_t g[32], g2[32], r[32], s[32], zero[32] = {0};
  hex("e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76", g);
  hex("6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919", g2);
  assert_true(scp_ed_valid(true, g));
  assert_true(scp_ed_valid(true, zero));
  assert_true(scp_ed_add(true, g, g, false, r));
  assert_memory_equal(r, g2, 32);
  scalar(2, s);
  assert_true(scp_ed_mul(true, s, g, r));
  assert_memory_equal(r, g2, 32);
  /* 0 G and G - G are the identity: zeros, not a failure */
  memset(r, 0xaa, 32);
  scalar(0, s);
  assert_true(scp_ed_mul(true, s, g, r));
  assert_memory_equal(r, zero, 32);
  assert_true(scp_ed_add(true, g, g, true, r));
  assert_memory_equal(r, zero, 32);
  /* the Edwards base point's bytes are not a Ristretto encoding */
  uint8_t b[32];
  hex(ED_B, b);
  assert_false(scp_ed_valid(true, b));
  memset(r, 0xaa, 32);
  assert_false(scp_ed_mul(true, s, b, r));
  assert_int_equal(r[0], 0xaa);
}

static void test_msm(void **state) {
  (void)state;
  uint8_t s[96] = {0}, p[96], r[32], want[32], id[32];
  hex(ED_ID, id);
  /* no terms: the identity of each group */
  assert_true(scp_ed_msm(false, s, p, 0, r));
  assert_memory_equal(r, id, 32);
  assert_true(scp_ed_msm(true, s, p, 0, r));
  assert_memory_equal(r, (uint8_t[32]){0}, 32);
  /* 3 B + 5 (2B) = 13 B */
  hex(ED_B, p);
  assert_true(scp_ed_add(false, p, p, false, p + 32));
  s[0] = 3;
  s[32] = 5;
  assert_true(scp_ed_msm(false, s, p, 2, r));
  uint8_t k[32];
  scalar(13, k);
  assert_true(scp_ed_mul(false, k, p, want));
  assert_memory_equal(r, want, 32);
  /* one term equals the product */
  assert_true(scp_ed_msm(false, s, p, 1, r));
  scalar(3, k);
  assert_true(scp_ed_mul(false, k, p, want));
  assert_memory_equal(r, want, 32);
  /* a non-canonical scalar anywhere fails the whole sum */
  hex(L_HEX, s + 32);
  assert_false(scp_ed_msm(false, s, p, 2, r));
  /* Ristretto: 3 G + 5 (2G) = 13 G; G + (-G) = identity */
  hex("e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76", p);
  assert_true(scp_ed_add(true, p, p, false, p + 32));
  memset(s + 32, 0, 32);
  s[32] = 5;
  assert_true(scp_ed_msm(true, s, p, 2, r));
  scalar(13, k);
  assert_true(scp_ed_mul(true, k, p, want));
  assert_memory_equal(r, want, 32);
  hex(L_HEX, s);
  s[0]--;   /* l - 1 */
  scalar(1, s + 32);
  memcpy(p + 32, p, 32);
  assert_true(scp_ed_msm(true, s, p, 2, r));
  assert_memory_equal(r, (uint8_t[32]){0}, 32);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_edwards_base),
    cmocka_unit_test(test_edwards_dalek_points),
    cmocka_unit_test(test_ristretto),
    cmocka_unit_test(test_msm),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
