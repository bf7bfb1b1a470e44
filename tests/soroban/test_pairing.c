/*
 * test_pairing.c — the pairings under bn254_multi_pairing_check and
 * bls12_381_multi_pairing_check.  The math: the curve parameters agree
 * with the BN / BLS12 polynomials, the tower inverts and its Frobenius is
 * the p-th power, and the pairing is bilinear (e(aP, bQ) = e(P, Q)^(ab)),
 * non-degenerate, and e(P, Q) e(-P, Q) = 1 on both curves; the EIP-197
 * vectors rs-soroban-env's ethereum_bn254_pairing_tests uses give the
 * known answers for BN254.  The host functions: results, errors and
 * exact cpu/mem charges, the successful ones equal to the reference's
 * golden traces (test__bn254__g1_pairing_hardcoded.json ...).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "crypto/crypto_pairing.h"
#include "soroban/fns/host_bls.h"
#include "soroban/core/host_private.h"
#include "host_fixture.h"
#include "pairing_vectors.h"

static void fe_hex(const scp_ff *f, const char *s, scp_fe *r) {
  uint8_t b[48];
  hex(s, b);
  assert_true(scp_fe_from_be(f, b, r));
}

/* ---- standard generators ---- */

/* BN254: G1 = (1, 2); G2 as EIP-197 writes it (x1, x0, y1, y0). */
static void bn_gens(scp_ecp *g1, scp_ecp *g2) {
  const scp_ff *f = scp_ff_bn254();
  memset(g1, 0, sizeof *g1);
  memset(g2, 0, sizeof *g2);
  scp_fe_set_u64(&g1->x.c0, 1);
  scp_fe_set_u64(&g1->y.c0, 2);
  fe_hex(f, "198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2", &g2->x.c1);
  fe_hex(f, "1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed", &g2->x.c0);
  fe_hex(f, "090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b", &g2->y.c1);
  fe_hex(f, "12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa", &g2->y.c0);
}

static void bls_gens(scp_ecp *g1, scp_ecp *g2) {
  const scp_ff *f = scp_ff_bls12_381();
  memset(g1, 0, sizeof *g1);
  memset(g2, 0, sizeof *g2);
  fe_hex(f, "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb", &g1->x.c0);
  fe_hex(f, "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1", &g1->y.c0);
  fe_hex(f, "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8", &g2->x.c0);
  fe_hex(f, "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e", &g2->x.c1);
  fe_hex(f, "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801", &g2->y.c0);
  fe_hex(f, "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be", &g2->y.c1);
}

/* ---- parameters ---- */

/* p and r from the curve parameter x: BN p = 36x^4 + 36x^3 + 24x^2 + 6x + 1,
 * r = 36x^4 + 36x^3 + 18x^2 + 6x + 1; BLS12 r = x^4 - x^2 + 1,
 * p = (x - 1)^2 r / 3 + x.  The loop scalars are 6x + 2 and |x|. */
static void test_parameters(void **state) {
  (void)state;
  const scp_pairing *bn = scp_pairing_bn254(), *bls = scp_pairing_bls12_381();
  mpz_t x, p, r, t, fp;
  mpz_inits(x, p, r, t, fp, NULL);

  mpz_set_str(x, "44e992b44a6909f1", 16);
  mpz_pow_ui(p, x, 4);
  mpz_mul_ui(p, p, 36);
  mpz_pow_ui(t, x, 3);
  mpz_addmul_ui(p, t, 36);
  mpz_set(r, p);
  mpz_pow_ui(t, x, 2);
  mpz_addmul_ui(p, t, 24);
  mpz_addmul_ui(r, t, 18);
  mpz_addmul_ui(p, x, 6);
  mpz_addmul_ui(r, x, 6);
  mpz_add_ui(p, p, 1);
  mpz_add_ui(r, r, 1);
  mpz_import(fp, (size_t)bn->f->n, -1, sizeof(mp_limb_t), 0, 0, bn->f->p);
  assert_int_equal(mpz_cmp(p, fp), 0);
  mpz_import(t, sizeof bn->r_be, 1, 1, 0, 0, bn->r_be);
  assert_int_equal(mpz_cmp(r, t), 0);
  mpz_mul_ui(t, x, 6);
  mpz_add_ui(t, t, 2);
  assert_int_equal(mpz_sizeinbase(t, 2), 65);
  assert_true(bn->loop_hi == 1 && mpz_getlimbn(t, 0) == bn->loop);

  mpz_set_str(x, "d201000000010000", 16);
  mpz_neg(x, x);
  mpz_pow_ui(r, x, 4);
  mpz_pow_ui(t, x, 2);
  mpz_sub(r, r, t);
  mpz_add_ui(r, r, 1);
  mpz_import(t, sizeof bls->r_be, 1, 1, 0, 0, bls->r_be);
  assert_int_equal(mpz_cmp(r, t), 0);
  mpz_sub_ui(p, x, 1);
  mpz_mul(p, p, p);
  mpz_mul(p, p, r);
  mpz_divexact_ui(p, p, 3);
  mpz_add(p, p, x);
  mpz_import(fp, (size_t)bls->f->n, -1, sizeof(mp_limb_t), 0, 0, bls->f->p);
  assert_int_equal(mpz_cmp(p, fp), 0);
  assert_true(bls->loop_neg && bls->loop == 0xd201000000010000ULL);
  mpz_clears(x, p, r, t, fp, NULL);
}

/* The generators are on their curves and of order r. */
static void test_generators(void **state) {
  (void)state;
  const scp_pairing *pcs[2] = { scp_pairing_bn254(), scp_pairing_bls12_381() };
  for (int c = 0; c < 2; c++) {
    const scp_pairing *pc = pcs[c];
    scp_ecp g1, g2, t;
    if (c) bls_gens(&g1, &g2);
    else bn_gens(&g1, &g2);
    assert_true(scp_ec_on_curve(&pc->g1, &g1));
    assert_true(scp_ec_on_curve(&pc->g2, &g2));
    scp_ec_mul(&pc->g1, &g1, pc->r_be, sizeof pc->r_be, &t);
    assert_true(t.inf);
    assert_true(scp_pairing_g2_in_subgroup(pc, &g2));
    /* 2 G2 is in the subgroup too; G2 + (a point of another order) is not
     * tested here: host tests cover the subgroup rejection */
    scp_ec_add_affine(&pc->g2, &g2, &g2, &t);
    assert_true(scp_pairing_g2_in_subgroup(pc, &t));
  }
}

/* A deterministic Fp12 element with every coefficient non-zero. */
static void fe12_sample(const scp_pairing *pc, unsigned seed, scp_fe12 *a) {
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++) {
      scp_fe2 *e = &a->c[i].c[j];
      uint8_t b[64];
      for (size_t k = 0; k < sizeof b; k++) b[k] = (uint8_t)(seed * 131u + (unsigned)(i * 7 + j) * 17u + k * 29u);
      scp_fe_from_be_reduce(pc->f, b, 64, &e->c0);
      b[0] ^= 0x5a;
      scp_fe_from_be_reduce(pc->f, b, 64, &e->c1);
    }
}

/* a * (1/a) = 1; frob(a) = a^p; frob^12 = id; multiplication commutes. */
static void test_tower(void **state) {
  (void)state;
  const scp_pairing *pcs[2] = { scp_pairing_bn254(), scp_pairing_bls12_381() };
  for (int c = 0; c < 2; c++) {
    const scp_pairing *pc = pcs[c];
    scp_fe12 a, b, t, u, one;
    scp_fe12_one(&one);
    fe12_sample(pc, 1, &a);
    fe12_sample(pc, 2, &b);
    scp_fe12_inv(pc, &a, &t);
    scp_fe12_mul(pc, &a, &t, &t);
    assert_true(scp_fe12_is_one(pc, &t));
    assert_false(scp_fe12_is_one(pc, &a));
    scp_fe12_mul(pc, &a, &b, &t);
    scp_fe12_mul(pc, &b, &a, &u);
    assert_true(scp_fe12_eq(pc, &t, &u));
    uint8_t pbe[48];
    scp_fe_to_be(pc->f, (const scp_fe *)pc->f->p, pbe);
    scp_fe12_pow(pc, &a, pbe, pc->f->bytes, &t);
    scp_fe12_frob(pc, &a, &u);
    assert_true(scp_fe12_eq(pc, &t, &u));
    u = a;
    for (int k = 0; k < 12; k++) scp_fe12_frob(pc, &u, &u);
    assert_true(scp_fe12_eq(pc, &u, &a));
    scp_fe12_frob(pc, &a, &u);
    assert_false(scp_fe12_eq(pc, &u, &a));
  }
}

/* e(aP, bQ) = e(P, Q)^(ab) = e(abP, Q) = e(P, abQ); e(P, Q) != 1 and
 * e(P, Q)^r = 1; e(P, Q) e(-P, Q) = 1 (also through the product check);
 * e(P + P', Q) = e(P, Q) e(P', Q); infinity pairs to 1. */
static void check_bilinear(const scp_pairing *pc, const scp_ecp *g1, const scp_ecp *g2) {
  static const uint8_t a[] = { 0x1d, 0x4a, 0x9c, 0x03, 0x77, 0xe1, 0x25, 0x68, 0xbb };
  static const uint8_t b[] = { 0x02, 0xf3, 0x11, 0x8e, 0x40, 0x6d };
  /* ab = a * b, big-endian */
  uint8_t ab[sizeof a + sizeof b] = { 0 };
  mpz_t za, zb;
  size_t n;
  mpz_inits(za, zb, NULL);
  mpz_import(za, sizeof a, 1, 1, 0, 0, a);
  mpz_import(zb, sizeof b, 1, 1, 0, 0, b);
  mpz_mul(za, za, zb);
  assert_true(mpz_sizeinbase(za, 256) <= sizeof ab);
  mpz_export(ab + sizeof ab - (mpz_sizeinbase(za, 2) + 7) / 8, &n, 1, 1, 0, 0, za);
  mpz_clears(za, zb, NULL);

  scp_ecp ap, bq, abp, abq, negp, p2, sum;
  scp_fe12 e, eab, t, u;
  scp_ec_mul(&pc->g1, g1, a, sizeof a, &ap);
  scp_ec_mul(&pc->g2, g2, b, sizeof b, &bq);
  scp_ec_mul(&pc->g1, g1, ab, sizeof ab, &abp);
  scp_ec_mul(&pc->g2, g2, ab, sizeof ab, &abq);
  scp_pairing_eval(pc, g1, g2, &e);
  assert_false(scp_fe12_is_one(pc, &e));
  scp_fe12_pow(pc, &e, pc->r_be, sizeof pc->r_be, &t);
  assert_true(scp_fe12_is_one(pc, &t));
  scp_fe12_pow(pc, &e, ab, sizeof ab, &eab);
  scp_pairing_eval(pc, &ap, &bq, &t);
  assert_true(scp_fe12_eq(pc, &t, &eab));
  scp_pairing_eval(pc, &abp, g2, &t);
  assert_true(scp_fe12_eq(pc, &t, &eab));
  scp_pairing_eval(pc, g1, &abq, &t);
  assert_true(scp_fe12_eq(pc, &t, &eab));
  /* e(aP, Q) != e(P, Q) */
  scp_pairing_eval(pc, &ap, g2, &t);
  assert_false(scp_fe12_eq(pc, &t, &e));

  scp_ec_neg(&pc->g1, g1, &negp);
  scp_pairing_eval(pc, &negp, g2, &t);
  scp_fe12_mul(pc, &t, &e, &t);
  assert_true(scp_fe12_is_one(pc, &t));
  scp_ecp ps[3] = { *g1, negp }, qs[3] = { *g2, *g2 };
  assert_true(scp_pairing_product_is_one(pc, ps, qs, 2));
  assert_false(scp_pairing_product_is_one(pc, ps, qs, 1));
  /* e(aP, bQ) e(-abP, Q) = 1 */
  scp_ec_neg(&pc->g1, &abp, &abp);
  ps[0] = ap;
  qs[0] = bq;
  ps[1] = abp;
  qs[1] = *g2;
  assert_true(scp_pairing_product_is_one(pc, ps, qs, 2));
  /* e(P + aP, Q) = e(P, Q) e(aP, Q) */
  scp_ec_add_affine(&pc->g1, g1, &ap, &sum);
  scp_pairing_eval(pc, &sum, g2, &t);
  scp_pairing_eval(pc, &ap, g2, &u);
  scp_fe12_mul(pc, &u, &e, &u);
  assert_true(scp_fe12_eq(pc, &t, &u));
  /* infinity on either side */
  p2 = *g1;
  p2.inf = true;
  scp_pairing_eval(pc, &p2, g2, &t);
  assert_true(scp_fe12_is_one(pc, &t));
  ps[0] = *g1;
  qs[0] = *g2;
  qs[0].inf = true;
  assert_true(scp_pairing_product_is_one(pc, ps, qs, 1));
}

static void test_bilinear_bn254(void **state) {
  (void)state;
  scp_ecp g1, g2;
  bn_gens(&g1, &g2);
  check_bilinear(scp_pairing_bn254(), &g1, &g2);
}

static void test_bilinear_bls12_381(void **state) {
  (void)state;
  scp_ecp g1, g2;
  bls_gens(&g1, &g2);
  check_bilinear(scp_pairing_bls12_381(), &g1, &g2);
}

/* One pairing takes a few tens of milliseconds (printed); the bound is
 * loose (sanitizer builds, a loaded machine) and catches a pathological
 * slowdown only. */
static void test_speed(void **state) {
  (void)state;
  const scp_pairing *pcs[2] = { scp_pairing_bn254(), scp_pairing_bls12_381() };
  for (int c = 0; c < 2; c++) {
    scp_ecp g1, g2;
    scp_fe12 e;
    if (c) bls_gens(&g1, &g2);
    else bn_gens(&g1, &g2);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    scp_pairing_eval(pcs[c], &g1, &g2, &e);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    print_message("pairing %s: %.1f ms\n", c ? "bls12-381" : "bn254", ms);
    assert_true(ms < 1000.0);
    assert_false(scp_fe12_is_one(pcs[c], &e));
  }
}

/* ---- the host functions ---- */

static int setup(void **state) { return fixture_open(state, UINT64_MAX, UINT64_MAX, NULL, 0); }

static uint64_t vec_obj(scp_host *h, const uint64_t *vals, uint32_t n) {
  uint64_t v;
  assert_int_equal(scp_host_vec_new_from_slice(h, vals, n, &v), SCP_OK);
  return v;
}

/* Calls fn(v1, v2) expecting status want; *cpu / *mem get the charges of
 * the call alone; returns the result (the Error Val on SCP_ERR_HOST). */
static uint64_t pair_call(fixture *f, const char *name, uint64_t v1, uint64_t v2, int want,
                          uint64_t *cpu, uint64_t *mem) {
  uint64_t args[2] = { v1, v2 }, ret = 0;
  uint64_t c0 = f->b.cpu, m0 = f->b.mem;
  scp_error err;
  int rc = scp_host_call(f->h, fn(name), args, NULL, &ret, &err);
  if (rc != want) print_message("%s: %d %s\n", name, rc, err.msg);
  assert_int_equal(rc, want);
  *cpu = f->b.cpu - c0;
  *mem = f->b.mem - m0;
  return ret;
}

static uint64_t err_invalid(void) { return scp_val_error(SCP_ET_CRYPTO, SCP_EC_INVALID_INPUT); }

/* Every EIP-197 vector (pairing_vectors.h): the expected result, and the
 * cpu/mem the golden trace shows for that call. */
static void test_bn254_eip197(void **state) {
  fixture *f = *state;
  for (size_t k = 0; k < sizeof eip197_vectors / sizeof *eip197_vectors; k++) {
    const eip197 *t = &eip197_vectors[k];
    size_t len = strlen(t->input) / 2;
    uint8_t *in = malloc(len);
    assert_non_null(in);
    hex(t->input, in);
    assert_int_equal(len % 192, 0);
    uint32_t n = (uint32_t)(len / 192);
    uint64_t g1[10], g2[10], cpu, mem;
    assert_true(n <= 10);
    for (uint32_t i = 0; i < n; i++) {
      g1[i] = bytes_obj(f->h, in + 192 * i, 64);
      g2[i] = bytes_obj(f->h, in + 192 * i + 64, 128);
    }
    free(in);
    uint64_t v1 = vec_obj(f->h, g1, n), v2 = vec_obj(f->h, g2, n);
    uint64_t r = pair_call(f, "bn254_multi_pairing_check", v1, v2, SCP_OK, &cpu, &mem);
    if (r != (t->want ? SCP_VAL_TRUE : SCP_VAL_FALSE)) print_message("%s\n", t->name);
    assert_int_equal(r, t->want ? SCP_VAL_TRUE : SCP_VAL_FALSE);
    assert_int_equal(cpu, t->cpu);
    assert_int_equal(mem, t->mem);
  }
}

/* Costs (cost_types.def): the two Vec arguments' checks and the two
 * top-level vec_len visits 4 x 60; per vec the Env vec_len 120, MemAlloc
 * (434 + n*size/8 cpu, 16 + n*size mem) and the vec's visit 60.  A BN254
 * G1 decode is 2,100 (visit 60, MemCpy(32) x4 46, DecodeFp x2 476,
 * on-curve 904); a G2 decode 1,711,027 (visit 60, MemCpy(64) x4 50,
 * DecodeFp x4 476, on-curve 2,811, subgroup 1,706,052). */
enum {
  PRE = 240,
  BN_G1_COST = 2100,
  BN_G2_PRE_SUB = 60 + 4 * 50 + 4 * 476 + 2811,
  BN_G2_COST = BN_G2_PRE_SUB + 1706052,
};

static void bn_point_bytes(const scp_ecp *p, bool g2, uint8_t *out) {
  const scp_ff *f = scp_ff_bn254();
  if (!g2) {
    scp_fe_to_be(f, &p->x.c0, out);
    scp_fe_to_be(f, &p->y.c0, out + 32);
    return;
  }
  scp_fe_to_be(f, &p->x.c1, out);
  scp_fe_to_be(f, &p->x.c0, out + 32);
  scp_fe_to_be(f, &p->y.c1, out + 64);
  scp_fe_to_be(f, &p->y.c0, out + 96);
}

/* A point on the twist outside the order-r subgroup: x = 1 + k u for
 * the first k making x^3 + b' a square. */
static void twist_point_off_subgroup(const scp_pairing *pc, scp_ecp *q) {
  memset(q, 0, sizeof *q);
  for (uint64_t k = 1;; k++) {
    scp_fe2 rhs;
    scp_fe_set_u64(&q->x.c0, 1);
    scp_fe_set_u64(&q->x.c1, k);
    scp_fe2_mul(pc->f, &q->x, &q->x, &rhs);
    scp_fe2_mul(pc->f, &rhs, &q->x, &rhs);
    scp_fe2_add(pc->f, &rhs, &pc->g2.b, &rhs);
    if (scp_fe2_sqrt(pc->f, &rhs, &q->y)) break;
  }
  assert_true(scp_ec_on_curve(&pc->g2, q));
  assert_false(scp_pairing_g2_in_subgroup(pc, q));
}

static void test_bn254_host(void **state) {
  fixture *f = *state;
  const scp_pairing *pc = scp_pairing_bn254();
  const char *name = "bn254_multi_pairing_check";
  scp_ecp p, q, np, bad;
  uint8_t b1[64], b2[128], bn1[64], bq[128];
  uint64_t cpu, mem, e = err_invalid();
  bn_gens(&p, &q);
  scp_ec_neg(&pc->g1, &p, &np);
  bn_point_bytes(&p, false, b1);
  bn_point_bytes(&np, false, bn1);
  bn_point_bytes(&q, true, b2);
  uint64_t P = bytes_obj(f->h, b1, 64), NP = bytes_obj(f->h, bn1, 64);
  uint64_t Q = bytes_obj(f->h, b2, 128);

  /* e(P, Q) e(-P, Q) = 1; e(P, Q)^2 != 1 */
  uint64_t g1v[3] = { P, NP, P }, g2v[3] = { Q, Q, Q };
  uint64_t v1 = vec_obj(f->h, g1v, 2), v2 = vec_obj(f->h, g2v, 2);
  assert_int_equal(pair_call(f, name, v1, v2, SCP_OK, &cpu, &mem), SCP_VAL_TRUE);
  /* the same 14,824,165 / 99,620 as every 2-pair call of the golden traces */
  assert_int_equal(cpu, 14824165);
  assert_int_equal(mem, 99620);
  g1v[1] = P;
  v1 = vec_obj(f->h, g1v, 2);
  assert_int_equal(pair_call(f, name, v1, v2, SCP_OK, &cpu, &mem), SCP_VAL_FALSE);
  assert_int_equal(cpu, 14824165);

  /* lengths 3 and 2, and 0 and 0: Error(Crypto, InvalidInput) after the
   * two visits (test__bn254__test_bn254_multi_pairing_check.json steps
   * 15-16 and 21-22: 240 cpu, no memory) */
  v1 = vec_obj(f->h, g1v, 3);
  assert_int_equal(pair_call(f, name, v1, v2, SCP_ERR_HOST, &cpu, &mem), e);
  assert_int_equal(cpu, PRE);
  assert_int_equal(mem, 0);
  uint64_t empty1 = vec_obj(f->h, NULL, 0), empty2 = vec_obj(f->h, NULL, 0);
  assert_int_equal(pair_call(f, name, empty1, empty2, SCP_ERR_HOST, &cpu, &mem), e);
  assert_int_equal(cpu, PRE);

  /* G1 (1, 3) is not on the curve, second of three: the trace's steps
   * 41-44 (5,078 cpu, 208 mem) */
  uint8_t off[64] = { 0 };
  off[31] = 1;
  off[63] = 3;
  uint64_t OFF = bytes_obj(f->h, off, 64);
  uint64_t g1bad[3] = { P, OFF, P };
  v1 = vec_obj(f->h, g1bad, 3);
  v2 = vec_obj(f->h, g2v, 3);
  assert_int_equal(pair_call(f, name, v1, v2, SCP_ERR_HOST, &cpu, &mem), e);
  assert_int_equal(cpu, 5078);
  assert_int_equal(mem, 208);
  assert_int_equal(cpu, PRE + 120 + 434 + 24 + 60 + 2 * BN_G1_COST);

  /* a G2 point on the twist but not in G2, second of three: every charge
   * up to its subgroup check (the trace's steps 63-68: 3,429,894 cpu,
   * 608 mem) */
  twist_point_off_subgroup(pc, &bad);
  bn_point_bytes(&bad, true, bq);
  uint64_t BADQ = bytes_obj(f->h, bq, 128);
  uint64_t g2bad[3] = { Q, BADQ, Q };
  v1 = vec_obj(f->h, g1v, 3);
  v2 = vec_obj(f->h, g2bad, 3);
  assert_int_equal(pair_call(f, name, v1, v2, SCP_ERR_HOST, &cpu, &mem), e);
  assert_int_equal(cpu, 3429894);
  assert_int_equal(mem, 608);

  /* G2 not on the curve (y + 1): stops after its on-curve check */
  bq[127] ^= 1;
  uint64_t g2off[3] = { bytes_obj(f->h, bq, 128), Q, Q };
  v2 = vec_obj(f->h, g2off, 3);
  assert_int_equal(pair_call(f, name, v1, v2, SCP_ERR_HOST, &cpu, &mem), e);
  assert_int_equal(cpu, PRE + 120 + 458 + 60 + 3 * BN_G1_COST + 120 + 434 + 48 + 60 +
                            BN_G2_PRE_SUB);

  /* G2 encodings: a flag bit, 127 bytes, a coordinate >= p (x.c1 = p):
   * each stops at its decode with the charges before it */
  uint8_t enc[128];
  memcpy(enc, b2, 128);
  enc[0] |= 0x40;
  uint64_t flagged = bytes_obj(f->h, enc, 128);
  uint64_t shortq = bytes_obj(f->h, b2, 127);
  memcpy(enc, b2, 128);
  hex("30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47", enc);
  uint64_t big = bytes_obj(f->h, enc, 128);
  const uint64_t g2pre = PRE + 120 + 434 + 8 + 60 + BN_G1_COST + 120 + 434 + 16 + 60;
  uint64_t cases[3] = { flagged, shortq, big };
  const uint64_t case_cpu[3] = { g2pre + 60, g2pre + 60, g2pre + 60 + 2 * 50 + 50 + 2 * 476 };
  for (int c = 0; c < 3; c++) {
    v1 = vec_obj(f->h, g1v, 1);
    v2 = vec_obj(f->h, &cases[c], 1);
    assert_int_equal(pair_call(f, name, v1, v2, SCP_ERR_HOST, &cpu, &mem), e);
    assert_int_equal(cpu, case_cpu[c]);
  }

  /* a vec element that is not Bytes: Error(Value, UnexpectedType) */
  uint64_t notbytes[1] = { scp_val_u32(7) };
  v1 = vec_obj(f->h, notbytes, 1);
  v2 = vec_obj(f->h, g2v, 1);
  assert_int_equal(pair_call(f, name, v1, v2, SCP_ERR_HOST, &cpu, &mem),
                   scp_val_error(SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE));
  assert_int_equal(cpu, PRE + 120 + 434 + 8 + 60);

  /* infinity (all zeros) on either side: decoded with one visit, pairs to
   * 1; Pairing(1) = 5263916 + 392472814/128, MemCmp(384) 92 */
  uint8_t z[128] = { 0 };
  uint64_t Z1 = bytes_obj(f->h, z, 64), Z2 = bytes_obj(f->h, z, 128);
  v1 = vec_obj(f->h, &Z1, 1);
  v2 = vec_obj(f->h, &Q, 1);
  assert_int_equal(pair_call(f, name, v1, v2, SCP_OK, &cpu, &mem), SCP_VAL_TRUE);
  assert_int_equal(cpu, PRE + 120 + 442 + 60 + 60 + 120 + 450 + 60 + BN_G2_COST +
                            5263916 + 392472814 / 128 + 92);
  assert_int_equal(mem, (16 + 64) + (16 + 128) + 1821 + 6232546 / 128);
  v1 = vec_obj(f->h, &P, 1);
  v2 = vec_obj(f->h, &Z2, 1);
  assert_int_equal(pair_call(f, name, v1, v2, SCP_OK, &cpu, &mem), SCP_VAL_TRUE);
  v2 = vec_obj(f->h, &Q, 1);
  assert_int_equal(pair_call(f, name, v1, v2, SCP_OK, &cpu, &mem), SCP_VAL_FALSE);
}

/* test__bn254__g1_pairing_hardcoded.json: the Solidity example's two
 * pairs, true, 14,824,165 cpu and 99,620 mem (2,174 -> 14,826,339). */
static void test_bn254_hardcoded(void **state) {
  fixture *f = *state;
  const char *const *pts = solidity_pairing_points;
  uint64_t o[4], cpu, mem;
  for (int i = 0; i < 4; i++) {
    uint8_t b[128];
    hex(pts[i], b);
    o[i] = bytes_obj(f->h, b, (uint32_t)strlen(pts[i]) / 2);
  }
  uint64_t g1v[2] = { o[0], o[2] }, g2v[2] = { o[1], o[3] };
  uint64_t v1 = vec_obj(f->h, g1v, 2), v2 = vec_obj(f->h, g2v, 2);
  assert_int_equal(pair_call(f, "bn254_multi_pairing_check", v1, v2, SCP_OK, &cpu, &mem),
                   SCP_VAL_TRUE);
  assert_int_equal(cpu, 14826339 - 2174);
  assert_int_equal(mem, 99844 - 224);
}

/* BLS12-381 (host_bls.c decodes): G1 decode 734,474 (visit 60, DecodeFp
 * x2 985, on-curve 1,934, subgroup 730,510), G2 1,067,743 (visit 60,
 * DecodeFp x4, on-curve 5,921, subgroup 1,057,822); Pairing(n) =
 * 10558948 + n 632860943/128 cpu, 2204 + n 9340474/128 mem; MemCmp(576)
 * 116.  The golden trace test__bls12_381__pairing.json has 3-pair calls
 * of 30,799,969 cpu and 222,017 mem (steps 71-76, true; 137-142, false). */
enum {
  BLS_G1_COST = 60 + 2 * 985 + 1934 + 730510,
  BLS_G2_PRE_CURVE = 60 + 4 * 985,
  BLS_G2_COST = BLS_G2_PRE_CURVE + 5921 + 1057822,
};

static void test_bls12_381_host(void **state) {
  fixture *f = *state;
  const scp_pairing *pc = scp_pairing_bls12_381();
  const char *name = "bls12_381_multi_pairing_check";
  scp_ecp p, q, p2, np2, bad;
  uint8_t b1[96], b2[192];
  uint64_t cpu, mem, e = err_invalid();
  static const uint8_t two = 2;
  bls_gens(&p, &q);
  scp_ec_mul(&pc->g1, &p, &two, 1, &p2);
  scp_ec_neg(&pc->g1, &p2, &np2);
  scp_bls_g1_to_bytes(&p, b1);
  uint64_t P = bytes_obj(f->h, b1, 96);
  scp_bls_g1_to_bytes(&np2, b1);
  uint64_t NP2 = bytes_obj(f->h, b1, 96);
  scp_bls_g2_to_bytes(&q, b2);
  uint64_t Q = bytes_obj(f->h, b2, 192);

  /* e(P, Q) e(P, Q) e(-2P, Q) = 1 */
  uint64_t g1v[3] = { P, P, NP2 }, g2v[3] = { Q, Q, Q };
  uint64_t v1 = vec_obj(f->h, g1v, 3), v2 = vec_obj(f->h, g2v, 3);
  assert_int_equal(pair_call(f, name, v1, v2, SCP_OK, &cpu, &mem), SCP_VAL_TRUE);
  assert_int_equal(cpu, 30799969);
  assert_int_equal(mem, 222017);
  assert_int_equal(cpu, PRE + 120 + 434 + 36 + 60 + 3 * BLS_G1_COST + 120 + 434 + 72 + 60 +
                            3 * BLS_G2_COST + 10558948 + 3 * 632860943ULL / 128 + 116);
  g1v[2] = P;
  v1 = vec_obj(f->h, g1v, 3);
  assert_int_equal(pair_call(f, name, v1, v2, SCP_OK, &cpu, &mem), SCP_VAL_FALSE);
  assert_int_equal(cpu, 30799969);
  assert_int_equal(mem, 222017);

  /* lengths 3 and 2, 0 and 0 (trace steps 15-16, 21-22: 240 cpu) */
  v2 = vec_obj(f->h, g2v, 2);
  assert_int_equal(pair_call(f, name, v1, v2, SCP_ERR_HOST, &cpu, &mem), e);
  assert_int_equal(cpu, PRE);
  uint64_t empty1 = vec_obj(f->h, NULL, 0), empty2 = vec_obj(f->h, NULL, 0);
  assert_int_equal(pair_call(f, name, empty1, empty2, SCP_ERR_HOST, &cpu, &mem), e);
  assert_int_equal(cpu, PRE);
  assert_int_equal(mem, 0);

  /* G2 not on the curve, second of three: the trace's steps 59-64
   * (3,282,662 cpu, 896 mem) */
  uint8_t offc[192];
  memcpy(offc, b2, 192);
  offc[191] ^= 1;
  uint64_t g2bad[3] = { Q, bytes_obj(f->h, offc, 192), Q };
  v1 = vec_obj(f->h, g1v, 3);
  v2 = vec_obj(f->h, g2bad, 3);
  assert_int_equal(pair_call(f, name, v1, v2, SCP_ERR_HOST, &cpu, &mem), e);
  assert_int_equal(cpu, 3282662);
  assert_int_equal(mem, 896);

  /* on the twist, not in G2: every charge through the subgroup check */
  twist_point_off_subgroup(pc, &bad);
  scp_bls_g2_to_bytes(&bad, offc);
  g2bad[1] = bytes_obj(f->h, offc, 192);
  v2 = vec_obj(f->h, g2bad, 3);
  assert_int_equal(pair_call(f, name, v1, v2, SCP_ERR_HOST, &cpu, &mem), e);
  assert_int_equal(cpu, 3282662 - (BLS_G2_PRE_CURVE + 5921) + BLS_G2_COST);

  /* infinity (0x40, zeros) is still charged the on-curve and subgroup
   * checks, and pairs to 1 */
  uint8_t inf[96] = { 0x40 };
  uint64_t INF = bytes_obj(f->h, inf, 96);
  v1 = vec_obj(f->h, &INF, 1);
  v2 = vec_obj(f->h, &Q, 1);
  assert_int_equal(pair_call(f, name, v1, v2, SCP_OK, &cpu, &mem), SCP_VAL_TRUE);
  assert_int_equal(cpu, PRE + 120 + 434 + 12 + 60 + BLS_G1_COST + 120 + 434 + 24 + 60 +
                            BLS_G2_COST + 10558948 + 632860943 / 128 + 116);
  assert_int_equal(mem, (16 + 96) + (16 + 192) + 2204 + 9340474 / 128);
  v1 = vec_obj(f->h, &P, 1);
  assert_int_equal(pair_call(f, name, v1, v2, SCP_OK, &cpu, &mem), SCP_VAL_FALSE);
}

/* The budget at N and N - 1: one BN254 pair costs 10,044,820 cpu
 * (PRE, the G1 vec 120 + 442 + 60 + 2,100, the G2 vec 120 + 450 + 60 +
 * 1,711,027, Pairing(1) 8,330,109, MemCmp 92); one unit less fails at the
 * final MemCmp, and the limit cut before Pairing(1) fails there, each
 * with Error(Budget, ExceededLimit). */
static void test_budget_limits(void **state) {
  fixture *f = *state;
  scp_ecp p, q;
  uint8_t b1[64], b2[128];
  uint64_t cpu, mem;
  const uint64_t total = 10044820, before_pairing = 1714619;
  assert_int_equal(PRE + 120 + 442 + 60 + BN_G1_COST + 120 + 450 + 60 + BN_G2_COST,
                   before_pairing);
  assert_int_equal(before_pairing + 5263916 + 392472814 / 128 + 92, total);
  bn_gens(&p, &q);
  bn_point_bytes(&p, false, b1);
  bn_point_bytes(&q, true, b2);
  uint64_t P = bytes_obj(f->h, b1, 64), Q = bytes_obj(f->h, b2, 128);
  uint64_t v1 = vec_obj(f->h, &P, 1), v2 = vec_obj(f->h, &Q, 1);
  const char *name = "bn254_multi_pairing_check";
  const uint64_t budget_err = scp_val_error(SCP_ET_BUDGET, SCP_EC_EXCEEDED_LIMIT);
  f->b.cpu_limit = f->b.cpu + total;
  assert_int_equal(pair_call(f, name, v1, v2, SCP_OK, &cpu, &mem), SCP_VAL_FALSE);
  assert_int_equal(cpu, total);
  f->b.cpu_limit = f->b.cpu + total - 1;
  assert_int_equal(pair_call(f, name, v1, v2, SCP_ERR_BUDGET, &cpu, &mem), budget_err);
  f->b.exceeded = false;
  f->b.cpu_limit = f->b.cpu + before_pairing + 5263916;
  assert_int_equal(pair_call(f, name, v1, v2, SCP_ERR_BUDGET, &cpu, &mem), budget_err);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_parameters),
    cmocka_unit_test(test_generators),
    cmocka_unit_test(test_tower),
    cmocka_unit_test(test_bilinear_bn254),
    cmocka_unit_test(test_bilinear_bls12_381),
    cmocka_unit_test(test_speed),
    cmocka_unit_test_setup_teardown(test_bn254_eip197, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_bn254_host, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_bn254_hardcoded, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_bls12_381_host, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_budget_limits, setup, fixture_close),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
