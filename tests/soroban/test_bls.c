/*
 * test_bls.c — BLS12-381 points (host_bls.c) and the curve host functions
 * (host_fns_bls.c): results against known answers (the standard
 * generators, RFC 9380 vectors), the reference's errors for bad
 * encodings and points, and exact costs from cost_types.def and the
 * golden traces.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "soroban/host_private.h"
#include "soroban/host_bls.h"
#include "host_fixture.h"

static void hex(const char *s, uint8_t *out) {
  for (size_t i = 0; s[2 * i]; i++) {
    unsigned v;
    sscanf(s + 2 * i, "%2x", &v);
    out[i] = (uint8_t)v;
  }
}

static int setup(void **state) { return fixture_open(state, UINT64_MAX, UINT64_MAX, NULL, 0); }

static uint64_t bytes_obj(scp_host *h, const uint8_t *p, uint32_t n) {
  uint64_t v;
  assert_int_equal(scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, p, n, &v), SCP_OK);
  return v;
}

static uint64_t invalid_input(void) { return scp_val_error(SCP_ET_CRYPTO, SCP_EC_INVALID_INPUT); }

/* The standard generators (X || Y; G2 as X.c1 X.c0 Y.c1 Y.c0). */
static const char *G1_GEN =
  "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
  "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";
static const char *G2_GEN =
  "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
  "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
  "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be"
  "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801";
/* p, big-endian */
static const char *P_HEX =
  "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";

/* cpu from cost_types.def: VisitObject 60, Bls12381DecodeFp 985,
 * G1/G2CheckPointOnCurve 1934/5921, G1/G2CheckPointInSubgroup
 * 730510/1057822. */
enum {
  VISIT = 60,
  G1_DECODE = VISIT + 2 * 985,
  G2_DECODE = VISIT + 4 * 985,
  G1_CURVE = 1934, G2_CURVE = 5921,
  G1_SUB = 730510, G2_SUB = 1057822,
};

static int decode_g1(fixture *f, const uint8_t *b, uint32_t n, scp_bls_check m, scp_ecp *p,
                     uint64_t cpu) {
  uint64_t v = bytes_obj(f->h, b, n);
  uint64_t before = f->b.cpu, mem = f->b.mem;
  int rc = scp_bls_g1_decode(f->h, v, m, p);
  assert_int_equal(f->b.cpu - before, cpu);
  assert_int_equal(f->b.mem, mem);
  return rc;
}

static int decode_g2(fixture *f, const uint8_t *b, uint32_t n, scp_bls_check m, scp_ecp *p,
                     uint64_t cpu) {
  uint64_t v = bytes_obj(f->h, b, n);
  uint64_t before = f->b.cpu, mem = f->b.mem;
  int rc = scp_bls_g2_decode(f->h, v, m, p);
  assert_int_equal(f->b.cpu - before, cpu);
  assert_int_equal(f->b.mem, mem);
  return rc;
}

static void test_codec_g1(void **state) {
  fixture *f = *state;
  uint8_t b[97], out[96];
  scp_ecp p;
  hex(G1_GEN, b);
  assert_int_equal(decode_g1(f, b, 96, SCP_BLS_ON_CURVE_AND_SUBGROUP, &p,
                             G1_DECODE + G1_CURVE + G1_SUB), SCP_OK);
  assert_false(p.inf);
  scp_bls_g1_to_bytes(&p, out);
  assert_memory_equal(out, b, 96);
  /* infinity: 0x40 then zeros, decoded after the DecodeFp charge; it is
   * on the curve and in the subgroup */
  memset(b, 0, sizeof b);
  b[0] = 0x40;
  assert_int_equal(decode_g1(f, b, 96, SCP_BLS_ON_CURVE_AND_SUBGROUP, &p,
                             G1_DECODE + G1_CURVE + G1_SUB), SCP_OK);
  assert_true(p.inf);
  scp_bls_g1_to_bytes(&p, out);
  assert_memory_equal(out, b, 96);
  /* all zeros is the point (0, 0), not infinity: off the curve */
  b[0] = 0;
  assert_int_equal(decode_g1(f, b, 96, SCP_BLS_ON_CURVE, &p, G1_DECODE + G1_CURVE),
                   SCP_ERR_HOST);
  assert_int_equal(f->h->errval, invalid_input());
  /* (0, 2) is on the curve, of order 3: not in the subgroup */
  b[95] = 2;
  assert_int_equal(decode_g1(f, b, 96, SCP_BLS_ON_CURVE, &p, G1_DECODE + G1_CURVE), SCP_OK);
  assert_false(scp_bls_g1_in_subgroup(&p));
  assert_int_equal(decode_g1(f, b, 96, SCP_BLS_ON_CURVE_AND_SUBGROUP, &p,
                             G1_DECODE + G1_CURVE + G1_SUB), SCP_ERR_HOST);
  assert_int_equal(f->h->errval, invalid_input());
  /* wrong lengths and bad flags: after the visit only */
  hex(G1_GEN, b);
  assert_int_equal(decode_g1(f, b, 95, SCP_BLS_NO_CHECK, &p, VISIT), SCP_ERR_HOST);
  assert_int_equal(decode_g1(f, b, 97, SCP_BLS_NO_CHECK, &p, VISIT), SCP_ERR_HOST);
  for (unsigned flag = 0x20; flag <= 0xe0; flag += 0x20) {
    b[0] = (uint8_t)(0x17 | flag);
    assert_int_equal(decode_g1(f, b, 96, SCP_BLS_NO_CHECK, &p, VISIT), SCP_ERR_HOST);
    assert_int_equal(f->h->errval, invalid_input());
  }
  /* X = p or Y = p: after the DecodeFp charge */
  hex(G1_GEN, b);
  hex(P_HEX, b + 48);
  assert_int_equal(decode_g1(f, b, 96, SCP_BLS_ON_CURVE, &p, G1_DECODE), SCP_ERR_HOST);
  hex(P_HEX, b);
  assert_int_equal(decode_g1(f, b, 96, SCP_BLS_ON_CURVE, &p, G1_DECODE), SCP_ERR_HOST);
  assert_int_equal(f->h->errval, invalid_input());
}

static void test_codec_g2(void **state) {
  fixture *f = *state;
  uint8_t b[192], out[192];
  scp_ecp p;
  hex(G2_GEN, b);
  assert_int_equal(decode_g2(f, b, 192, SCP_BLS_ON_CURVE_AND_SUBGROUP, &p,
                             G2_DECODE + G2_CURVE + G2_SUB), SCP_OK);
  scp_bls_g2_to_bytes(&p, out);
  assert_memory_equal(out, b, 192);
  /* swapping c0 and c1 of Y leaves the curve */
  memcpy(b + 96, out + 144, 48);
  memcpy(b + 144, out + 96, 48);
  assert_int_equal(decode_g2(f, b, 192, SCP_BLS_NO_CHECK, &p, G2_DECODE), SCP_OK);
  assert_false(scp_ec_on_curve(scp_bls_g2(), &p));
  assert_int_equal(decode_g2(f, b, 192, SCP_BLS_ON_CURVE, &p, G2_DECODE + G2_CURVE),
                   SCP_ERR_HOST);
  /* infinity with a stray bit */
  memset(b, 0, sizeof b);
  b[0] = 0x40;
  b[191] = 1;
  assert_int_equal(decode_g2(f, b, 192, SCP_BLS_NO_CHECK, &p, VISIT), SCP_ERR_HOST);
  assert_int_equal(f->h->errval, invalid_input());
  b[191] = 0;
  assert_int_equal(decode_g2(f, b, 192, SCP_BLS_ON_CURVE_AND_SUBGROUP, &p,
                             G2_DECODE + G2_CURVE + G2_SUB), SCP_OK);
  assert_true(p.inf);
  /* the last coordinate (Y.c0) = p */
  hex(G2_GEN, b);
  hex(P_HEX, b + 144);
  assert_int_equal(decode_g2(f, b, 192, SCP_BLS_ON_CURVE, &p, G2_DECODE), SCP_ERR_HOST);
  assert_int_equal(decode_g2(f, b, 96, SCP_BLS_ON_CURVE, &p, VISIT), SCP_ERR_HOST);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_codec_g1, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_codec_g2, setup, fixture_close),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
