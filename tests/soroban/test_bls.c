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

#include "soroban/core/host_private.h"
#include "soroban/fns/host_bls.h"
#include "soroban/fns/crypto_bls_h2c.h"
#include "host_fixture.h"
#include "bls_vectors.h"

static int setup(void **state) { return fixture_open(state, UINT64_MAX, UINT64_MAX, NULL, 0); }

static const scp_hobj *obj(fixture *f, uint64_t v) {
  return &f->h->objs[scp_val_handle(v) >> 1];
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
  /* a vec of points (what multi_pairing_check and msm decode): vec_len's
   * check and visit, MemAlloc(2 * 192) 434+48, the visit, the decodes */
  hex(G2_GEN, b);
  uint64_t e[2] = { bytes_obj(f->h, b, 192), bytes_obj(f->h, b, 192) }, v;
  assert_int_equal(scp_host_vec_new_from_slice(f->h, e, 2, &v), SCP_OK);
  scp_ecp *pts;
  uint32_t n;
  uint64_t c0 = f->b.cpu;
  assert_int_equal(scp_bls_g2_vec_decode(f->h, v, &pts, &n), SCP_OK);
  assert_int_equal(f->b.cpu - c0, 120 + 482 + 60 + 2 * (G2_DECODE + G2_CURVE + G2_SUB));
  assert_int_equal(n, 2);
  scp_bls_g2_to_bytes(&pts[1], out);
  assert_memory_equal(out, b, 192);
  free(pts);
  /* the second element not a point: stops there, *pts NULL */
  e[1] = scp_val_u32(7);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, e, 2, &v), SCP_OK);
  assert_int_equal(scp_bls_g2_vec_decode(f->h, v, &pts, &n), SCP_ERR_HOST);
  assert_null(pts);
  assert_int_equal(f->h->errval, scp_val_error(SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE));
}

/* ---- the host functions, through scp_host_call ------------------------------ */

/* One object argument's check (a visit) and the returned Val's; the new
 * result bytes: MemCpy(24) 45, MemAlloc(n) 434 + n/8, MemCpy(n) 42 + n/8,
 * add_host_object's MemAlloc(64) 442. */
enum {
  ARG = 60, RET = 60,
  G1_TO_AFFINE = 92642, G2_TO_AFFINE = 100742,
  G1_ENC = 2 * 661 + 45 + (434 + 12) + (42 + 12) + 442 + RET,
  G2_ENC = 4 * 661 + 45 + (434 + 24) + (42 + 24) + 442 + RET,
  G1_ADD = 7689, G2_ADD = 25207, G1_MUL = 2458985, G2_MUL = 7873219,
  FR_FROM = 1994,
  MAP_G1 = 1020885, MAP_G2 = 1856539,
};

static uint64_t call(fixture *f, const char *name, uint64_t *args, int want) {
  uint64_t ret = 0;
  scp_error err;
  int rc = scp_host_call(f->h, fn(name), args, NULL, &ret, &err);
  if (rc != want) print_message("%s: %s\n", name, err.msg);
  assert_int_equal(rc, want);
  return rc == SCP_ERR_HOST ? f->h->errval : ret;
}

/* name(args) costs exactly cpu (and mem when mem != UINT64_MAX). */
static uint64_t call_cost(fixture *f, const char *name, uint64_t *args, int want, uint64_t cpu,
                          uint64_t mem) {
  uint64_t c0 = f->b.cpu, m0 = f->b.mem;
  uint64_t r = call(f, name, args, want);
  assert_int_equal(f->b.cpu - c0, cpu);
  if (mem != UINT64_MAX) assert_int_equal(f->b.mem - m0, mem);
  return r;
}

static uint64_t hex_obj(fixture *f, const char *s) {
  uint8_t b[512];
  size_t n = strlen(s) / 2;
  hex(s, b);
  return bytes_obj(f->h, b, (uint32_t)n);
}

static void assert_obj_hex(fixture *f, uint64_t v, const char *s) {
  uint8_t b[512];
  size_t n = strlen(s) / 2;
  hex(s, b);
  assert_int_equal(obj(f, v)->len, n);
  assert_memory_equal(obj(f, v)->u.bytes, b, n);
}

static uint64_t u256(fixture *f, const uint8_t be[32]) {
  scp_hobj o = { .tag = SCP_TAG_U256_OBJ };
  for (int i = 0; i < 4; i++) {
    uint64_t w = 0;
    for (int j = 0; j < 8; j++) w = w << 8 | be[8 * i + j];
    o.u.w[i] = w;
  }
  uint64_t v;
  assert_int_equal(scp_host_add_obj(f->h, &o, &v), SCP_OK);
  return v;
}

static uint64_t small(uint64_t k) { return scp_val_small_u(k, SCP_TAG_U256_SMALL); }

/* 2G in G1 (EIP-2537's G1ADD vector for G + G). */
static const char *G1_2G =
  "0572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c39a8c5529bf0f4e"
  "166a9d8cabc673a322fda673779d8e3822ba3ecb8670e461f73bb9021d5fd76a4c56d9d4cd16bd1bba86881979749d28";
static const char *G1_ORDER3 =
  "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
  "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000002";

static void inf_hex(char *out, size_t bytes) {
  memset(out, '0', 2 * bytes);
  out[0] = '4';
  out[2 * bytes] = 0;
}

static void test_is_on_curve(void **state) {
  fixture *f = *state;
  uint64_t a[1] = { hex_obj(f, G1_GEN) };
  /* a Bool result has no object to check */
  assert_int_equal(call_cost(f, "bls12_381_g1_is_on_curve", a, SCP_OK,
                             ARG + G1_DECODE + G1_CURVE, 0), SCP_VAL_TRUE);
  a[0] = hex_obj(f, G1_ORDER3);
  assert_int_equal(call(f, "bls12_381_g1_is_on_curve", a, SCP_OK), SCP_VAL_TRUE);
  /* (0, 3): off the curve is an answer, not an error */
  uint8_t b[192];
  hex(G1_ORDER3, b);
  b[95] = 3;
  a[0] = bytes_obj(f->h, b, 96);
  assert_int_equal(call(f, "bls12_381_g1_is_on_curve", a, SCP_OK), SCP_VAL_FALSE);
  a[0] = hex_obj(f, G2_GEN);
  assert_int_equal(call_cost(f, "bls12_381_g2_is_on_curve", a, SCP_OK,
                             ARG + G2_DECODE + G2_CURVE, 0), SCP_VAL_TRUE);
  hex(G2_GEN, b);
  b[191] ^= 1;
  a[0] = bytes_obj(f->h, b, 192);
  assert_int_equal(call(f, "bls12_381_g2_is_on_curve", a, SCP_OK), SCP_VAL_FALSE);
  /* a G1 encoding is the wrong length for G2 */
  a[0] = hex_obj(f, G1_GEN);
  assert_int_equal(call_cost(f, "bls12_381_g2_is_on_curve", a, SCP_ERR_HOST, ARG + VISIT, 0),
                   invalid_input());
}

static void test_subgroup(void **state) {
  fixture *f = *state;
  uint64_t a[1] = { hex_obj(f, G1_GEN) };
  assert_int_equal(call_cost(f, "bls12_381_check_g1_is_in_subgroup", a, SCP_OK,
                             ARG + G1_DECODE + G1_CURVE + G1_SUB, 0), SCP_VAL_TRUE);
  a[0] = hex_obj(f, G1_ORDER3);
  assert_int_equal(call(f, "bls12_381_check_g1_is_in_subgroup", a, SCP_OK), SCP_VAL_FALSE);
  /* off the curve: the error after the on-curve charge, no subgroup charge */
  a[0] = bytes_obj(f->h, (const uint8_t[96]){ 0 }, 96);
  assert_int_equal(call_cost(f, "bls12_381_check_g1_is_in_subgroup", a, SCP_ERR_HOST,
                             ARG + G1_DECODE + G1_CURVE, 0), invalid_input());
  a[0] = hex_obj(f, G2_GEN);
  assert_int_equal(call_cost(f, "bls12_381_check_g2_is_in_subgroup", a, SCP_OK,
                             ARG + G2_DECODE + G2_CURVE + G2_SUB, 0), SCP_VAL_TRUE);
  /* RFC 9380's Q0 for msg "" is on E2 but not cofactor-cleared */
  a[0] = hex_obj(f, H2C_G2[0].q0);
  assert_int_equal(call(f, "bls12_381_check_g2_is_in_subgroup", a, SCP_OK), SCP_VAL_FALSE);
  a[0] = hex_obj(f, H2C_G1[0].q0);
  assert_int_equal(call(f, "bls12_381_check_g1_is_in_subgroup", a, SCP_OK), SCP_VAL_FALSE);
  a[0] = hex_obj(f, H2C_G1[0].p);
  assert_int_equal(call(f, "bls12_381_check_g1_is_in_subgroup", a, SCP_OK), SCP_VAL_TRUE);
}

static void test_add(void **state) {
  fixture *f = *state;
  char inf[2 * 192 + 1];
  uint64_t a[2] = { hex_obj(f, G1_GEN), hex_obj(f, G1_GEN) };
  /* mem: the result's Vec (96 + 16) and HostObject (64 + 16) */
  uint64_t r = call_cost(f, "bls12_381_g1_add", a, SCP_OK,
                         2 * ARG + 2 * (G1_DECODE + G1_CURVE) + G1_ADD + G1_TO_AFFINE + G1_ENC,
                         112 + 80);
  assert_obj_hex(f, r, G1_2G);
  /* G + (-G) = infinity */
  uint8_t b[192];
  hex(G1_GEN, b);
  scp_ecp p;
  uint64_t v = bytes_obj(f->h, b, 96);
  assert_int_equal(scp_bls_g1_decode(f->h, v, SCP_BLS_NO_CHECK, &p), SCP_OK);
  scp_ec_neg(scp_bls_g1(), &p, &p);
  scp_bls_g1_to_bytes(&p, b);
  a[1] = bytes_obj(f->h, b, 96);
  r = call(f, "bls12_381_g1_add", a, SCP_OK);
  inf_hex(inf, 96);
  assert_obj_hex(f, r, inf);
  /* points outside the subgroup are fine for add */
  a[0] = hex_obj(f, G1_ORDER3);
  a[1] = hex_obj(f, G1_ORDER3);
  r = call(f, "bls12_381_g1_add", a, SCP_OK);
  hex(G1_ORDER3, b);
  b[95] = 0;
  b[48] = 0;
  scp_fe two, m2;
  scp_fe_set_u64(&two, 2);
  scp_fe_neg(scp_ff_bls12_381(), &two, &m2);
  scp_fe_to_be(scp_ff_bls12_381(), &m2, b + 48);   /* 2(0, 2) = -(0, 2) = (0, -2) */
  assert_memory_equal(obj(f, r)->u.bytes, b, 96);
  /* the second point off the curve: after both decodes' on-curve charges */
  a[0] = hex_obj(f, G1_GEN);
  a[1] = bytes_obj(f->h, (const uint8_t[96]){ 0 }, 96);
  assert_int_equal(call_cost(f, "bls12_381_g1_add", a, SCP_ERR_HOST,
                             2 * ARG + 2 * (G1_DECODE + G1_CURVE), 0), invalid_input());
  /* G2: G + G == 2 * G; infinity + G == G */
  a[0] = hex_obj(f, G2_GEN);
  a[1] = hex_obj(f, G2_GEN);
  r = call_cost(f, "bls12_381_g2_add", a, SCP_OK,
                2 * ARG + 2 * (G2_DECODE + G2_CURVE) + G2_ADD + G2_TO_AFFINE + G2_ENC,
                208 + 80);
  a[1] = small(2);
  uint64_t r2 = call(f, "bls12_381_g2_mul", a, SCP_OK);
  assert_memory_equal(obj(f, r)->u.bytes, obj(f, r2)->u.bytes, 192);
  assert_int_not_equal(memcmp(obj(f, r)->u.bytes, obj(f, a[0])->u.bytes, 192), 0);
  inf_hex(inf, 192);
  a[1] = hex_obj(f, inf);
  r = call(f, "bls12_381_g2_add", a, SCP_OK);
  assert_obj_hex(f, r, G2_GEN);
}

static void test_mul(void **state) {
  fixture *f = *state;
  char inf[2 * 192 + 1];
  uint64_t a[2] = { hex_obj(f, G1_GEN), small(2) };
  uint64_t r = call_cost(f, "bls12_381_g1_mul", a, SCP_OK,
                         ARG + G1_DECODE + G1_CURVE + G1_SUB + FR_FROM + G1_MUL + G1_TO_AFFINE +
                             G1_ENC, 112 + 80);
  assert_obj_hex(f, r, G1_2G);
  /* the scalar is reduced mod r: r + 2 gives 2G, r gives infinity, r - 1
   * gives -G; a U256 object adds its argument check and its visit */
  uint8_t k[32];
  memcpy(k, scp_bls_r_be, 32);
  k[31] += 2;
  a[1] = u256(f, k);
  r = call_cost(f, "bls12_381_g1_mul", a, SCP_OK,
                2 * ARG + G1_DECODE + G1_CURVE + G1_SUB + FR_FROM + VISIT + G1_MUL + G1_TO_AFFINE +
                    G1_ENC, 112 + 80);
  assert_obj_hex(f, r, G1_2G);
  k[31] -= 2;
  a[1] = u256(f, k);
  r = call(f, "bls12_381_g1_mul", a, SCP_OK);
  inf_hex(inf, 96);
  assert_obj_hex(f, r, inf);
  a[1] = small(0);
  r = call(f, "bls12_381_g1_mul", a, SCP_OK);
  assert_obj_hex(f, r, inf);
  k[31] -= 1;
  a[1] = u256(f, k);
  r = call(f, "bls12_381_g1_mul", a, SCP_OK);
  uint64_t t[2] = { r, a[0] };
  uint64_t s = call(f, "bls12_381_g1_add", t, SCP_OK);
  assert_obj_hex(f, s, inf);
  /* outside the subgroup: the error after the subgroup charge, before the
   * scalar's */
  a[0] = hex_obj(f, G1_ORDER3);
  a[1] = small(2);
  assert_int_equal(call_cost(f, "bls12_381_g1_mul", a, SCP_ERR_HOST,
                             ARG + G1_DECODE + G1_CURVE + G1_SUB, 0), invalid_input());
  a[0] = hex_obj(f, H2C_G2[0].q0);
  assert_int_equal(call_cost(f, "bls12_381_g2_mul", a, SCP_ERR_HOST,
                             ARG + G2_DECODE + G2_CURVE + G2_SUB, 0), invalid_input());
  /* G2: r * G = infinity, costs */
  a[0] = hex_obj(f, G2_GEN);
  a[1] = u256(f, scp_bls_r_be);
  r = call_cost(f, "bls12_381_g2_mul", a, SCP_OK,
                2 * ARG + G2_DECODE + G2_CURVE + G2_SUB + FR_FROM + VISIT + G2_MUL + G2_TO_AFFINE +
                    G2_ENC, 208 + 80);
  inf_hex(inf, 192);
  assert_obj_hex(f, r, inf);
}

/* msm == the sum of the muls; its charges (Bls12381G1Msm cpu 2347584 +
 * 94135478 n / 128, mem 109494 + 266603 n / 128); its length errors. */
static void test_msm(void **state) {
  fixture *f = *state;
  uint64_t g = hex_obj(f, G1_GEN), g2 = hex_obj(f, G1_2G);
  uint64_t pts[2] = { g, g2 };
  uint64_t ks[2] = { small(5), small(7) };
  uint64_t a[2];
  assert_int_equal(scp_host_vec_new_from_slice(f->h, pts, 2, &a[0]), SCP_OK);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, ks, 2, &a[1]), SCP_OK);
  /* 2 argument checks; points: vec_len (check + visit), MemAlloc(192)
   * 434+24, the visit, 2 decodes with both checks; scalars: vec_len,
   * MemAlloc(64) 434+8, the visit, 2 x FrFromU256; G1Msm(2); the result */
  uint64_t r = call_cost(f, "bls12_381_g1_msm", a, SCP_OK,
                         2 * ARG + 120 + 458 + 60 + 2 * (G1_DECODE + G1_CURVE + G1_SUB) + 120 +
                             442 + 60 + 2 * FR_FROM + 2347584 + 94135478 * 2 / 128 +
                             G1_TO_AFFINE + G1_ENC,
                         (16 + 192) + (16 + 64) + 109494 + 266603 * 2 / 128 + 112 + 80);
  /* 5G + 7(2G) = 19G */
  uint64_t m[2] = { g, small(19) };
  uint64_t r19 = call(f, "bls12_381_g1_mul", m, SCP_OK);
  assert_memory_equal(obj(f, r)->u.bytes, obj(f, r19)->u.bytes, 96);
  /* lengths differ, or are zero: Error(Crypto, InvalidInput) after the
   * Msm charge */
  assert_int_equal(scp_host_vec_new_from_slice(f->h, ks, 1, &a[1]), SCP_OK);
  assert_int_equal(call_cost(f, "bls12_381_g1_msm", a, SCP_ERR_HOST,
                             2 * ARG + 120 + 458 + 60 + 2 * (G1_DECODE + G1_CURVE + G1_SUB) +
                                 120 + (434 + 4) + 60 + FR_FROM + 2347584 + 94135478 * 2 / 128,
                             UINT64_MAX), invalid_input());
  uint64_t e0, e1;
  assert_int_equal(scp_host_vec_new_from_slice(f->h, NULL, 0, &e0), SCP_OK);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, NULL, 0, &e1), SCP_OK);
  uint64_t ea[2] = { e0, e1 };
  assert_int_equal(call_cost(f, "bls12_381_g1_msm", ea, SCP_ERR_HOST,
                             2 * ARG + 120 + 434 + 60 + 120 + 434 + 60 + 2347584, UINT64_MAX),
                   invalid_input());
  /* a point outside the subgroup stops the decoding */
  pts[1] = hex_obj(f, G1_ORDER3);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, pts, 2, &a[0]), SCP_OK);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, ks, 2, &a[1]), SCP_OK);
  assert_int_equal(call_cost(f, "bls12_381_g1_msm", a, SCP_ERR_HOST,
                             2 * ARG + 120 + 458 + 60 + 2 * (G1_DECODE + G1_CURVE + G1_SUB),
                             UINT64_MAX), invalid_input());
  /* a scalar of the wrong type: Error(Value, UnexpectedType) */
  pts[1] = g2;
  ks[1] = scp_val_u32(7);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, pts, 2, &a[0]), SCP_OK);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, ks, 2, &a[1]), SCP_OK);
  assert_int_equal(call(f, "bls12_381_g1_msm", a, SCP_ERR_HOST),
                   scp_val_error(SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE));
  /* G2: 3G + 4G == 7G; G2Msm(2) */
  uint64_t h2 = hex_obj(f, G2_GEN);
  uint64_t p2[2] = { h2, h2 }, k2[2] = { small(3), small(4) };
  assert_int_equal(scp_host_vec_new_from_slice(f->h, p2, 2, &a[0]), SCP_OK);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, k2, 2, &a[1]), SCP_OK);
  r = call_cost(f, "bls12_381_g2_msm", a, SCP_OK,
                2 * ARG + 120 + (434 + 48) + 60 + 2 * (G2_DECODE + G2_CURVE + G2_SUB) + 120 +
                    442 + 60 + 2 * FR_FROM + 7663880 + 298580871 * 2 / 128 + G2_TO_AFFINE +
                    G2_ENC,
                (16 + 384) + (16 + 64) + 219654 + 266603 * 2 / 128 + 208 + 80);
  uint64_t m2[2] = { h2, small(7) };
  uint64_t r7 = call(f, "bls12_381_g2_mul", m2, SCP_OK);
  assert_memory_equal(obj(f, r)->u.bytes, obj(f, r7)->u.bytes, 192);
}

/* RFC 9380 u -> Q0 / Q1 (map_to_curve, no cofactor clearing); costs as
 * test__bls12_381__map_fp_to_g1.json shows (1,024,407 cpu and 2,968 mem
 * per G1 map). */
static void test_map(void **state) {
  fixture *f = *state;
  for (size_t i = 0; i < SCP_ARRAY_LEN(H2C_G1); i++) {
    uint64_t a[1] = { hex_obj(f, H2C_G1[i].u0) };
    uint64_t r = call_cost(f, "bls12_381_map_fp_to_g1", a, SCP_OK, 1024407, 2968);
    assert_int_equal(1024407, ARG + VISIT + (42 + 6) + 985 + MAP_G1 + G1_ENC);
    assert_obj_hex(f, r, H2C_G1[i].q0);
    a[0] = hex_obj(f, H2C_G1[i].u1);
    r = call(f, "bls12_381_map_fp_to_g1", a, SCP_OK);
    assert_obj_hex(f, r, H2C_G1[i].q1);
  }
  for (size_t i = 0; i < SCP_ARRAY_LEN(H2C_G2); i++) {
    uint64_t a[1] = { hex_obj(f, H2C_G2[i].u0) };
    uint64_t r = call_cost(f, "bls12_381_map_fp2_to_g2", a, SCP_OK,
                           ARG + VISIT + (42 + 12) + 2 * 985 + MAP_G2 + G2_ENC,
                           1672 + 208 + 80);
    assert_obj_hex(f, r, H2C_G2[i].q0);
    a[0] = hex_obj(f, H2C_G2[i].u1);
    r = call(f, "bls12_381_map_fp2_to_g2", a, SCP_OK);
    assert_obj_hex(f, r, H2C_G2[i].q1);
  }
  /* u = 0 (the exceptional case of the map) lands on the curve */
  uint8_t z[96] = { 0 };
  uint64_t a[1] = { bytes_obj(f->h, z, 48) };
  uint64_t r = call(f, "bls12_381_map_fp_to_g1", a, SCP_OK);
  uint64_t c[1] = { r };
  assert_int_equal(call(f, "bls12_381_g1_is_on_curve", c, SCP_OK), SCP_VAL_TRUE);
  a[0] = bytes_obj(f->h, z, 96);
  c[0] = call(f, "bls12_381_map_fp2_to_g2", a, SCP_OK);
  assert_int_equal(call(f, "bls12_381_g2_is_on_curve", c, SCP_OK), SCP_VAL_TRUE);
  /* the trace's errors: 47 and 49 bytes after the visit (120 cpu); p
   * itself after the copy and the decode (1,153 cpu) */
  a[0] = bytes_obj(f->h, z, 47);
  assert_int_equal(call_cost(f, "bls12_381_map_fp_to_g1", a, SCP_ERR_HOST, 120, 0),
                   invalid_input());
  a[0] = bytes_obj(f->h, z, 49);
  assert_int_equal(call_cost(f, "bls12_381_map_fp_to_g1", a, SCP_ERR_HOST, 120, 0),
                   invalid_input());
  a[0] = hex_obj(f, P_HEX);
  assert_int_equal(call_cost(f, "bls12_381_map_fp_to_g1", a, SCP_ERR_HOST, 1153, 0),
                   invalid_input());
  /* Fp2 = c1 || c0: p in c0 (the second half) */
  uint8_t b[96] = { 0 };
  hex(P_HEX, b + 48);
  a[0] = bytes_obj(f->h, b, 96);
  assert_int_equal(call_cost(f, "bls12_381_map_fp2_to_g2", a, SCP_ERR_HOST,
                             ARG + VISIT + (42 + 12) + 2 * 985, 0), invalid_input());
  a[0] = bytes_obj(f->h, b, 48);
  assert_int_equal(call_cost(f, "bls12_381_map_fp2_to_g2", a, SCP_ERR_HOST, 120, 0),
                   invalid_input());
}

/* RFC 9380 msg -> P; costs as test__bls12_381__hash_to_g1.json shows
 * (2,641,061 cpu and 6,088 mem for msg "" with its 50-byte DST). */
static void test_hash(void **state) {
  fixture *f = *state;
  uint64_t dst1 = bytes_obj(f->h, (const uint8_t *)H2C_G1_DST, sizeof H2C_G1_DST - 1);
  uint64_t dst2 = bytes_obj(f->h, (const uint8_t *)H2C_G2_DST, sizeof H2C_G2_DST - 1);
  for (size_t i = 0; i < SCP_ARRAY_LEN(H2C_G1); i++) {
    size_t n = strlen(H2C_G1[i].msg);
    uint64_t a[2] = { bytes_obj(f->h, (const uint8_t *)H2C_G1[i].msg, (uint32_t)n), dst1 };
    uint64_t r = call_cost(f, "bls12_381_hash_to_g1", a, SCP_OK,
                           2 * ARG + 2 * VISIT + 2638451 + 6803 * n / 128 + G1_ENC,
                           5896 + 112 + 80);
    assert_obj_hex(f, r, H2C_G1[i].p);
  }
  for (size_t i = 0; i < SCP_ARRAY_LEN(H2C_G2); i++) {
    size_t n = strlen(H2C_G2[i].msg);
    uint64_t a[2] = { bytes_obj(f->h, (const uint8_t *)H2C_G2[i].msg, (uint32_t)n), dst2 };
    uint64_t r = call_cost(f, "bls12_381_hash_to_g2", a, SCP_OK,
                           2 * ARG + 2 * VISIT + 6315452 + 7232 * n / 128 + G2_ENC,
                           3960 + 208 + 80);
    assert_obj_hex(f, r, H2C_G2[i].p);
  }
  /* the trace's first steps: msg of 12 bytes, DST empty, then 256 bytes:
   * the error after the HashToG1 charge (2,639,328 cpu, 5,896 mem) */
  uint8_t big[256] = { 0 };
  uint64_t a[2] = { bytes_obj(f->h, (const uint8_t *)"some message", 12),
                    bytes_obj(f->h, big, 0) };
  assert_int_equal(call_cost(f, "bls12_381_hash_to_g1", a, SCP_ERR_HOST, 2639328, 5896),
                   invalid_input());
  a[1] = bytes_obj(f->h, big, 256);
  assert_int_equal(call_cost(f, "bls12_381_hash_to_g1", a, SCP_ERR_HOST, 2639328, 5896),
                   invalid_input());
  a[1] = bytes_obj(f->h, big, 255);
  call(f, "bls12_381_hash_to_g1", a, SCP_OK);
  a[1] = bytes_obj(f->h, big, 0);
  assert_int_equal(call_cost(f, "bls12_381_hash_to_g2", a, SCP_ERR_HOST,
                             4 * 60 + 6315452 + 7232 * 12 / 128, 3960), invalid_input());
}

/* The golden traces' numbers (test__bls12_381__*.json, the cpu and mem a
 * call added), for inputs of the same shape: the traces' points are random
 * and not shown, but no charge depends on a point's value. */
static void test_trace_numbers(void **state) {
  fixture *f = *state;
  uint8_t k[32] = { 0x12, 0x34 };
  uint64_t g1 = hex_obj(f, G1_GEN), g2 = hex_obj(f, G2_GEN);
  uint64_t off1 = bytes_obj(f->h, (const uint8_t[96]){ 0 }, 96);
  uint64_t off2 = bytes_obj(f->h, (const uint8_t[192]){ 0 }, 192);
  uint64_t a[2] = { g1 };
  /* check_g1/g2_is_in_subgroup.json: Ok, and the off-curve error */
  call_cost(f, "bls12_381_check_g1_is_in_subgroup", a, SCP_OK, 734534, 0);
  a[0] = off1;
  call_cost(f, "bls12_381_check_g1_is_in_subgroup", a, SCP_ERR_HOST, 4024, 0);
  a[0] = g2;
  call_cost(f, "bls12_381_check_g2_is_in_subgroup", a, SCP_OK, 1067803, 0);
  a[0] = off2;
  call_cost(f, "bls12_381_check_g2_is_in_subgroup", a, SCP_ERR_HOST, 9981, 0);
  /* g1/g2_is_on_curve.json */
  a[0] = off1;
  call_cost(f, "bls12_381_g1_is_on_curve", a, SCP_OK, 4024, 0);
  a[0] = off2;
  call_cost(f, "bls12_381_g2_is_on_curve", a, SCP_OK, 9981, 0);
  /* g1/g2_add.json: Ok; the first point off the curve; the second
   * point's length wrong */
  a[0] = a[1] = g1;
  call_cost(f, "bls12_381_g1_add", a, SCP_OK, 110748, 192);
  a[0] = off1;
  call_cost(f, "bls12_381_g1_add", a, SCP_ERR_HOST, 4084, 0);
  a[0] = g1;
  a[1] = g2;
  call_cost(f, "bls12_381_g1_add", a, SCP_ERR_HOST, 4144, 0);
  a[0] = a[1] = g2;
  call_cost(f, "bls12_381_g2_add", a, SCP_OK, 149626, 288);
  a[1] = off2;
  call_cost(f, "bls12_381_g2_add", a, SCP_ERR_HOST, 19962, 0);
  /* g1/g2_mul.json: a U256 object scalar, then U256(1) */
  a[0] = g1;
  a[1] = u256(f, k);
  call_cost(f, "bls12_381_g1_mul", a, SCP_OK, 3290644, 192);
  a[1] = small(1);
  assert_obj_hex(f, call_cost(f, "bls12_381_g1_mul", a, SCP_OK, 3290524, 192), G1_GEN);
  a[0] = g2;
  a[1] = u256(f, k);
  call_cost(f, "bls12_381_g2_mul", a, SCP_OK, 9047593, 288);
  a[1] = small(1);
  assert_obj_hex(f, call_cost(f, "bls12_381_g2_mul", a, SCP_OK, 9047473, 288), G2_GEN);
  /* map_fp2_to_g2.json */
  a[0] = hex_obj(f, H2C_G2[1].u0);
  call_cost(f, "bls12_381_map_fp2_to_g2", a, SCP_OK, 1862398, 1960);
  /* hash_to_g1/g2.json: msg "" and "abc" with the 50-byte DST; the
   * 12-byte msg with an empty DST */
  uint64_t dst1 = bytes_obj(f->h, (const uint8_t *)H2C_G1_DST, sizeof H2C_G1_DST - 1);
  uint64_t dst2 = bytes_obj(f->h, (const uint8_t *)H2C_G2_DST, sizeof H2C_G2_DST - 1);
  a[0] = bytes_obj(f->h, (const uint8_t *)"", 0);
  a[1] = dst1;
  call_cost(f, "bls12_381_hash_to_g1", a, SCP_OK, 2641060, 6088);
  a[1] = dst2;
  call_cost(f, "bls12_381_hash_to_g2", a, SCP_OK, 6319407, 4248);
  a[0] = bytes_obj(f->h, (const uint8_t *)"abc", 3);
  a[1] = dst1;
  call_cost(f, "bls12_381_hash_to_g1", a, SCP_OK, 2641219, 6088);
  a[0] = bytes_obj(f->h, (const uint8_t *)"some message", 12);
  a[1] = bytes_obj(f->h, (const uint8_t *)"", 0);
  call_cost(f, "bls12_381_hash_to_g2", a, SCP_ERR_HOST, 6316370, 3960);
  /* g1/g2_msm.json: empty vecs */
  uint64_t e[2];
  assert_int_equal(scp_host_vec_new_from_slice(f->h, NULL, 0, &e[0]), SCP_OK);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, NULL, 0, &e[1]), SCP_OK);
  call_cost(f, "bls12_381_g1_msm", e, SCP_ERR_HOST, 2348932, 109526);
  call_cost(f, "bls12_381_g2_msm", e, SCP_ERR_HOST, 7665228, 219686);
  /* 2 points, 3 U256 objects */
  uint64_t ks[3] = { u256(f, k), u256(f, k), u256(f, k) };
  uint64_t pts[3] = { g1, hex_obj(f, G1_2G), g1 };
  uint64_t m[2];
  assert_int_equal(scp_host_vec_new_from_slice(f->h, pts, 2, &m[0]), SCP_OK);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, ks, 3, &m[1]), SCP_OK);
  call_cost(f, "bls12_381_g1_msm", m, SCP_ERR_HOST, 5294944, 113979);
  /* 3 points, the second outside the subgroup */
  pts[1] = hex_obj(f, G1_ORDER3);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, pts, 3, &m[0]), SCP_OK);
  call_cost(f, "bls12_381_g1_msm", m, SCP_ERR_HOST, 1469718, 304);
  /* 3 points at infinity, 3 U256 objects: infinity */
  char inf[2 * 192 + 1];
  inf_hex(inf, 96);
  pts[0] = pts[1] = pts[2] = hex_obj(f, inf);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, pts, 3, &m[0]), SCP_OK);
  assert_obj_hex(f, call_cost(f, "bls12_381_g1_msm", m, SCP_OK, 6859875, 116350), inf);
  /* the same with U256(0) scalars (no visits) */
  uint64_t zs[3] = { small(0), small(0), small(0) };
  assert_int_equal(scp_host_vec_new_from_slice(f->h, zs, 3, &m[1]), SCP_OK);
  call_cost(f, "bls12_381_g1_msm", m, SCP_OK, 6859695, 116350);
  /* 10 points and 10 U256 objects (g1_msm.json's msm-vs-mul-and-add
   * block), 5 and 5 for G2 */
  uint64_t p10[10], k10[10], g1x2 = hex_obj(f, G1_2G);
  for (int i = 0; i < 10; i++) {
    p10[i] = i % 2 ? g1 : g1x2;
    k10[i] = u256(f, k);
  }
  assert_int_equal(scp_host_vec_new_from_slice(f->h, p10, 10, &m[0]), SCP_OK);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, k10, 10, &m[1]), SCP_OK);
  call_cost(f, "bls12_381_g1_msm", m, SCP_OK, 17163717, 131826);
  for (int i = 0; i < 5; i++) p10[i] = g2;
  assert_int_equal(scp_host_vec_new_from_slice(f->h, p10, 5, &m[0]), SCP_OK);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, k10, 5, &m[1]), SCP_OK);
  call_cost(f, "bls12_381_g2_msm", m, SCP_OK, 24782125, 231508);
}

/* A call that needs exactly N cpu runs with N left and fails with
 * Error(Budget, ExceededLimit) with N - 1 left (at the returned Val's
 * check, after the result object was made); stopped at its
 * Bls12381G1Mul charge it makes no object. */
static int call_budget(fixture *f, uint64_t *args, uint64_t limit) {
  uint64_t ret = 0;
  scp_error err;
  f->b.cpu_limit = f->b.cpu + limit;
  int rc = scp_host_call(f->h, fn("bls12_381_g1_mul"), args, NULL, &ret, &err);
  if (rc != SCP_OK) assert_int_equal(f->h->errval,
                                     scp_val_error(SCP_ET_BUDGET, SCP_EC_EXCEEDED_LIMIT));
  return rc;
}

static void test_budget_edge(void **state) {
  fixture *f = *state;
  const uint64_t n = ARG + G1_DECODE + G1_CURVE + G1_SUB + FR_FROM + G1_MUL + G1_TO_AFFINE +
                     G1_ENC;
  uint64_t a[2] = { hex_obj(f, G1_GEN), small(3) };
  size_t objs = scp_host_object_count(f->h);
  assert_int_equal(call_budget(f, a, n - G1_TO_AFFINE - G1_ENC - 1), SCP_ERR_BUDGET);
  assert_int_equal(scp_host_object_count(f->h), objs);
  fixture_close(state);
  assert_int_equal(setup(state), 0);
  f = *state;
  a[0] = hex_obj(f, G1_GEN);
  objs = scp_host_object_count(f->h);
  assert_int_equal(call_budget(f, a, n - 1), SCP_ERR_BUDGET);
  assert_int_equal(scp_host_object_count(f->h), objs + 1);
  fixture_close(state);
  assert_int_equal(setup(state), 0);
  f = *state;
  a[0] = hex_obj(f, G1_GEN);
  assert_int_equal(call_budget(f, a, n), SCP_OK);
  assert_int_equal(f->b.cpu, f->b.cpu_limit);
  /* the mem side: a hash needs 5896 + 112 + 80 */
  fixture_close(state);
  assert_int_equal(setup(state), 0);
  f = *state;
  uint64_t dst = bytes_obj(f->h, (const uint8_t *)H2C_G1_DST, sizeof H2C_G1_DST - 1);
  uint64_t h[2] = { bytes_obj(f->h, (const uint8_t *)"abc", 3), dst };
  f->b.mem_limit = f->b.mem + 6088 - 1;
  call(f, "bls12_381_hash_to_g1", h, SCP_ERR_BUDGET);
  assert_int_equal(f->h->errval, scp_val_error(SCP_ET_BUDGET, SCP_EC_EXCEEDED_LIMIT));
  fixture_close(state);
  assert_int_equal(setup(state), 0);
  f = *state;
  dst = bytes_obj(f->h, (const uint8_t *)H2C_G1_DST, sizeof H2C_G1_DST - 1);
  h[0] = bytes_obj(f->h, (const uint8_t *)"abc", 3);
  h[1] = dst;
  f->b.mem_limit = f->b.mem + 6088;
  assert_obj_hex(f, call(f, "bls12_381_hash_to_g1", h, SCP_OK), H2C_G1[1].p);
}

/* RFC 9380 K.1's expand_message_xmd(SHA-256) vectors. */
static void test_expand_xmd(void **state) {
  (void)state;
  static const char dst[] = "QUUX-V01-CS02-with-expander-SHA256-128";
  uint8_t out[32], want[32];
  assert_true(scp_bls_expand_xmd((const uint8_t *)"", 0, (const uint8_t *)dst, sizeof dst - 1,
                                 out, 32));
  hex("68a985b87eb6b46952128911f2a4412bbc302a9d759667f87f7a21d803f07235", want);
  assert_memory_equal(out, want, 32);
  assert_true(scp_bls_expand_xmd((const uint8_t *)"abc", 3, (const uint8_t *)dst,
                                 sizeof dst - 1, out, 32));
  hex("d8ccab23b5985ccea865c6c97b6e5b8350e794e603b4b97902f53a8a0d605615", want);
  assert_memory_equal(out, want, 32);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_codec_g1, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_codec_g2, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_is_on_curve, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_subgroup, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_add, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_mul, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_msm, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_map, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_hash, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_trace_numbers, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_budget_edge, setup, fixture_close),
    cmocka_unit_test(test_expand_xmd),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
