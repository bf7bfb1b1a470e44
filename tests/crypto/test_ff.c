/*
 * test_ff.c — the field and group-law layer under the BLS12-381 and BN254
 * host functions: the standard generators lie on their curves, r * G is
 * infinity, doubling equals adding, square roots and inverses check out,
 * and encodings at and above p are told apart.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "crypto/crypto_ff.h"

static void hex(const char *s, uint8_t *out) {
  for (size_t i = 0; s[2 * i]; i++) {
    unsigned v;
    sscanf(s + 2 * i, "%2x", &v);
    out[i] = (uint8_t)v;
  }
}

static void fe_hex(const scp_ff *f, const char *s, scp_fe *r) {
  uint8_t b[48];
  hex(s, b);
  assert_true(scp_fe_from_be(f, b, r));
}

static const char *R_HEX = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";

static void bls_g1_gen(scp_ec *c, scp_ecp *g) {
  const scp_ff *f = scp_ff_bls12_381();
  memset(c, 0, sizeof *c);
  c->f = f;
  scp_fe_set_u64(&c->b.c0, 4);
  memset(g, 0, sizeof *g);
  fe_hex(f, "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb", &g->x.c0);
  fe_hex(f, "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1", &g->y.c0);
}

static void bls_g2_gen(scp_ec *c, scp_ecp *g) {
  const scp_ff *f = scp_ff_bls12_381();
  memset(c, 0, sizeof *c);
  c->f = f;
  scp_fe_set_u64(&c->b.c0, 4);
  scp_fe_set_u64(&c->b.c1, 4);
  memset(g, 0, sizeof *g);
  fe_hex(f, "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8", &g->x.c0);
  fe_hex(f, "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e", &g->x.c1);
  fe_hex(f, "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801", &g->y.c0);
  fe_hex(f, "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be", &g->y.c1);
}

static void check_group(const scp_ec *c, const scp_ecp *g) {
  uint8_t r[32], two[1] = { 2 }, three[1] = { 3 };
  scp_ecp p, q, s;
  assert_true(scp_ec_on_curve(c, g));
  hex(R_HEX, r);
  scp_ec_mul(c, g, r, sizeof r, &p);
  assert_true(p.inf);
  /* 2G by doubling and by adding; 3G = 2G + G; results on the curve */
  scp_ec_mul(c, g, two, 1, &p);
  scp_ec_add_affine(c, g, g, &q);
  assert_false(p.inf);
  assert_true(scp_fe2_eq(c->f, &p.x, &q.x) && scp_fe2_eq(c->f, &p.y, &q.y));
  scp_ec_mul(c, g, three, 1, &s);
  scp_ec_add_affine(c, &p, g, &q);
  assert_true(scp_fe2_eq(c->f, &s.x, &q.x) && scp_fe2_eq(c->f, &s.y, &q.y));
  assert_true(scp_ec_on_curve(c, &s));
  /* G + (-G) is infinity; a moved y is off the curve */
  scp_ec_neg(c, g, &p);
  scp_ec_add_affine(c, g, &p, &q);
  assert_true(q.inf);
  p = *g;
  p.y.c0.l[0] ^= 1;
  assert_false(scp_ec_on_curve(c, &p));
}

static void test_bls12_381_g1(void **state) {
  (void)state;
  scp_ec c;
  scp_ecp g;
  bls_g1_gen(&c, &g);
  check_group(&c, &g);
}

static void test_bls12_381_g2(void **state) {
  (void)state;
  scp_ec c;
  scp_ecp g;
  bls_g2_gen(&c, &g);
  check_group(&c, &g);
}

static void test_bn254_g1(void **state) {
  (void)state;
  const scp_ff *f = scp_ff_bn254();
  scp_ec c = { .f = f };
  scp_fe_set_u64(&c.b.c0, 3);
  scp_ecp g = { 0 };
  scp_fe_set_u64(&g.x.c0, 1);
  scp_fe_set_u64(&g.y.c0, 2);
  assert_true(scp_ec_on_curve(&c, &g));
  uint8_t r[32];
  hex("30644e72e131a029b85045b68181585d2833e84879b97091" "43e1f593f0000001", r);
  scp_ecp p;
  scp_ec_mul(&c, &g, r, 32, &p);
  assert_true(p.inf);
}

static void test_fields(void **state) {
  (void)state;
  const scp_ff *f = scp_ff_bls12_381();
  uint8_t b[48];
  scp_fe a, i, one, s, t;
  /* p itself and p - 1 */
  hex("1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", b);
  assert_false(scp_fe_from_be(f, b, &a));
  b[47] = 0xaa;
  assert_true(scp_fe_from_be(f, b, &a));
  uint8_t back[48];
  scp_fe_to_be(f, &a, back);
  assert_memory_equal(back, b, 48);
  /* (p - 1)^2 = 1; 1/(p-1) = p-1 */
  scp_fe_set_u64(&one, 1);
  scp_fe_mul(f, &a, &a, &t);
  assert_true(scp_fe_eq(f, &t, &one));
  scp_fe_inv(f, &a, &i);
  assert_true(scp_fe_eq(f, &i, &a));
  /* 4 has a root; -1 has none (p = 3 mod 4) */
  scp_fe_set_u64(&t, 4);
  assert_true(scp_fe_sqrt(f, &t, &s));
  scp_fe_mul(f, &s, &s, &i);
  assert_true(scp_fe_eq(f, &i, &t));
  assert_false(scp_fe_sqrt(f, &a, &s));
  /* Fp2: every square has a root; x * x^-1 = 1 */
  scp_fe2 x = { 0 }, y, z, w;
  scp_fe_set_u64(&x.c0, 7);
  scp_fe_set_u64(&x.c1, 11);
  scp_fe2_mul(f, &x, &x, &y);
  assert_true(scp_fe2_sqrt(f, &y, &z));
  scp_fe2_mul(f, &z, &z, &w);
  assert_true(scp_fe2_eq(f, &w, &y));
  scp_fe2_inv(f, &x, &z);
  scp_fe2_mul(f, &x, &z, &w);
  assert_true(scp_fe_eq(f, &w.c0, &one) && scp_fe_is_zero(f, &w.c1));
  /* a 64-byte hash output reduced mod p: 2^512 - 1 */
  uint8_t big[64];
  memset(big, 0xff, sizeof big);
  scp_fe_from_be_reduce(f, big, sizeof big, &t);
  assert_true(mpn_cmp(t.l, f->p, f->n) < 0);
  assert_false(scp_fe_is_zero(f, &t));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_fields),
    cmocka_unit_test(test_bls12_381_g1),
    cmocka_unit_test(test_bls12_381_g2),
    cmocka_unit_test(test_bn254_g1),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
