/*
 * test_curves.c — the BN254 G1 host functions: results against EIP-196
 * style known values (generator multiples), group-law consistency, the
 * reference's errors for bad encodings, and exact costs from the cost
 * parameters (cost_types.def).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "soroban/core/host_private.h"
#include "crypto/crypto_bn254.h"
#include "host_fixture.h"

static int setup(void **state) { return fixture_open(state, UINT64_MAX, UINT64_MAX, NULL, 0); }

static int u256_obj(scp_host *h, const uint64_t *w, uint64_t *out) {
  scp_hobj o = { .tag = SCP_TAG_U256_OBJ };
  memcpy(o.u.w, w, sizeof o.u.w);
  return scp_host_add_obj(h, &o, out);
}

static const scp_hobj *obj(fixture *f, uint64_t v) {
  return &f->h->objs[scp_val_handle(v) >> 1];
}

/* Generator (1, 2), 2G, and -G = (1, p - 2). */
static const char *G = "0000000000000000000000000000000000000000000000000000000000000001"
                       "0000000000000000000000000000000000000000000000000000000000000002";
static const char *G2X = "030644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd3"
                         "15ed738c0e0a7c92e7845f96b2ae9c0a68a6a449e3538fc7ff3ebf7a5a18a2c4";
static const char *NEG_G = "0000000000000000000000000000000000000000000000000000000000000001"
                           "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd45";

/* Costs (cpu) from cost_types.def: VisitObject 60, MemCpy(32) 42+4,
 * Bn254DecodeFp 476, Bn254G1CheckPointOnCurve 904, Bn254G1Add 3623,
 * Bn254G1Mul 1150435, Bn254G1ProjectiveToAffine 61, Bn254EncodeFp 344,
 * Bn254FrFromU256 2052; the result's bytes: MemCpy(24) 45,
 * MemAlloc(64) 434+8, MemCpy(64) 50, then add_host_object 442 and the
 * returned Val's check 60 (the same 1,788 as the golden trace
 * test__bn254__test_bn254_g1_mul shows around its nested
 * bytes_new_from_slice). */
enum {
  ARG = 60,
  DECODE = 60 + 2 * 46 + 2 * (46 + 476),       /* visit, copy X Y, decode X Y */
  ENCODE = 61 + 2 * 344 + 45 + 442 + 50 + 442 + 60,
  RETCHECK = 60,
};

static uint64_t call(fixture *f, const char *name, uint64_t *args, int want) {
  uint64_t ret = 0;
  scp_error err;
  int rc = scp_host_call(f->h, fn(name), args, NULL, &ret, &err);
  if (rc != want) print_message("%s: %s\n", name, err.msg);
  assert_int_equal(rc, want);
  return ret;
}

#include "soroban/fns/host_fns_private.h"

/* bn254_g1_is_on_curve and bn254_g1_mul are not registered yet (see
 * host_fns_curve.c), so the bodies are called directly: no argument
 * checks and no check of the returned Val. */
static uint64_t direct(fixture *f, int (*body)(scp_host *, const uint64_t *, uint64_t *),
                       uint64_t *args, int want) {
  uint64_t ret = 0;
  int rc = body(f->h, args, &ret);
  assert_int_equal(rc, want);
  return rc == SCP_ERR_HOST ? f->h->errval : ret;
}

static void test_bn254_on_curve(void **state) {
  fixture *f = *state;
  uint8_t b[64];
  hex(G, b);
  uint64_t args[1] = { bytes_obj(f->h, b, 64) };
  uint64_t before = f->b.cpu;
  assert_int_equal(direct(f, scp_hf_bn254_g1_is_on_curve, args, SCP_OK), SCP_VAL_TRUE);
  assert_int_equal(f->b.cpu - before, DECODE + 904);
  /* (1, 3) is not on the curve: false, not an error */
  b[63] = 3;
  args[0] = bytes_obj(f->h, b, 64);
  assert_int_equal(direct(f, scp_hf_bn254_g1_is_on_curve, args, SCP_OK), SCP_VAL_FALSE);
  /* infinity (all zeros): no decode charges */
  memset(b, 0, 64);
  args[0] = bytes_obj(f->h, b, 64);
  before = f->b.cpu;
  assert_int_equal(direct(f, scp_hf_bn254_g1_is_on_curve, args, SCP_OK), SCP_VAL_TRUE);
  assert_int_equal(f->b.cpu - before, 60 + 904);
  /* a flag bit, a wrong length, a coordinate >= p */
  b[0] = 0x80;
  args[0] = bytes_obj(f->h, b, 64);
  uint64_t e = scp_val_error(SCP_ET_CRYPTO, SCP_EC_INVALID_INPUT);
  assert_int_equal(direct(f, scp_hf_bn254_g1_is_on_curve, args, SCP_ERR_HOST), e);
  args[0] = bytes_obj(f->h, b, 63);
  assert_int_equal(direct(f, scp_hf_bn254_g1_is_on_curve, args, SCP_ERR_HOST), e);
  hex(G, b);
  hex("30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47", b);
  args[0] = bytes_obj(f->h, b, 64);
  before = f->b.cpu;
  assert_int_equal(direct(f, scp_hf_bn254_g1_is_on_curve, args, SCP_ERR_HOST), e);
  assert_int_equal(f->b.cpu - before, 60 + 2 * 46 + 46 + 476);
}

static void test_bn254_add_mul(void **state) {
  fixture *f = *state;
  uint8_t g[64], g2[64], ng[64];
  hex(G, g);
  hex(G2X, g2);
  hex(NEG_G, ng);
  uint64_t args[2] = { bytes_obj(f->h, g, 64), bytes_obj(f->h, g, 64) };
  uint64_t before = f->b.cpu;
  uint64_t r = call(f, "bn254_g1_add", args, SCP_OK);
  assert_int_equal(f->b.cpu - before, 2 * ARG + 2 * (DECODE + 904) + 3623 + ENCODE);
  assert_memory_equal(obj(f, r)->u.bytes, g2, 64);
  /* G + (-G) = infinity, all zeros */
  args[1] = bytes_obj(f->h, ng, 64);
  r = call(f, "bn254_g1_add", args, SCP_OK);
  uint8_t zero[64] = { 0 };
  assert_memory_equal(obj(f, r)->u.bytes, zero, 64);
  /* mul by 2 == add(G, G) */
  args[1] = scp_val_small_u(2, SCP_TAG_U256_SMALL);
  before = f->b.cpu;
  r = direct(f, scp_hf_bn254_g1_mul, args, SCP_OK);
  assert_int_equal(f->b.cpu - before, DECODE + 904 + 2052 + 1150435 + ENCODE - RETCHECK);
  assert_memory_equal(obj(f, r)->u.bytes, g2, 64);
  /* mul by r - 1 == -G; by r == infinity (scalar reduced mod r) */
  uint64_t w[4];
  memcpy(w, scp_bn_r, sizeof w);
  w[3] -= 1;
  uint64_t k;
  assert_int_equal(u256_obj(f->h, w, &k), SCP_OK);
  args[1] = k;
  r = direct(f, scp_hf_bn254_g1_mul, args, SCP_OK);
  assert_memory_equal(obj(f, r)->u.bytes, ng, 64);
  w[3] += 1;
  assert_int_equal(u256_obj(f->h, w, &k), SCP_OK);
  args[1] = k;
  r = direct(f, scp_hf_bn254_g1_mul, args, SCP_OK);
  assert_memory_equal(obj(f, r)->u.bytes, zero, 64);
  /* a point off the curve is rejected by add */
  g[63] = 3;
  args[0] = bytes_obj(f->h, g, 64);
  args[1] = bytes_obj(f->h, g2, 64);
  assert_int_equal(call(f, "bn254_g1_add", args, SCP_ERR_HOST),
                   scp_val_error(SCP_ET_CRYPTO, SCP_EC_INVALID_INPUT));
}

/* msm == the sum of the muls; its charges; its length errors. */
static void test_bn254_msm(void **state) {
  fixture *f = *state;
  uint8_t g[64], g2[64];
  hex(G, g);
  hex(G2X, g2);
  uint64_t pts[2] = { bytes_obj(f->h, g, 64), bytes_obj(f->h, g2, 64) };
  uint64_t ks[2] = { scp_val_small_u(5, SCP_TAG_U256_SMALL), scp_val_small_u(7, SCP_TAG_U256_SMALL) };
  uint64_t args[2];
  assert_int_equal(scp_host_vec_new_from_slice(f->h, pts, 2, &args[0]), SCP_OK);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, ks, 2, &args[1]), SCP_OK);
  uint64_t before = f->b.cpu;
  uint64_t r = call(f, "bn254_g1_msm", args, SCP_OK);
  /* 2 argument checks; points: vec_len (check + visit), MemAlloc(128)
   * 434+16, visit, 2 decodes with the on-curve check; scalars: vec_len,
   * MemAlloc(64) 434+8, visit, 2 x Bn254FrFromU256; Bn254G1Msm(2) =
   * 1185193 + 41568084*2/128; the result. */
  assert_int_equal(f->b.cpu - before, 2 * ARG + 120 + 450 + 60 + 2 * (DECODE + 904) + 120 + 442 +
                                          60 + 2 * 2052 + 1185193 + 41568084 * 2 / 128 + ENCODE);
  /* 5G + 7(2G) = 19G */
  uint64_t margs[2] = { bytes_obj(f->h, g, 64), scp_val_small_u(19, SCP_TAG_U256_SMALL) };
  uint64_t m = direct(f, scp_hf_bn254_g1_mul, margs, SCP_OK);
  assert_memory_equal(obj(f, r)->u.bytes, obj(f, m)->u.bytes, 64);
  /* lengths differ: Error(Crypto, InvalidInput) after the Msm charge */
  assert_int_equal(scp_host_vec_new_from_slice(f->h, ks, 1, &args[1]), SCP_OK);
  assert_int_equal(call(f, "bn254_g1_msm", args, SCP_ERR_HOST),
                   scp_val_error(SCP_ET_CRYPTO, SCP_EC_INVALID_INPUT));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_bn254_on_curve, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_bn254_add_mul, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_bn254_msm, setup, fixture_close),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
