/*
 * host_fns_pairing.c — bn254_multi_pairing_check and
 * bls12_381_multi_pairing_check (host.rs; crypto/bn254.rs
 * bn254_checked_g{1,2}_vec_from_vecobj, bn254_pairing_internal,
 * bn254_check_pairing_output; crypto/bls12_381.rs affine_vec_from_vecobj,
 * pairing_internal, check_pairing_output), with the reference's checks,
 * errors and charges in its order.  The pairing itself is
 * crypto_pairing.c; BLS12-381 points are decoded by host_bls.c, BN254 G1
 * points by host_fns_curve.c, BN254 G2 points here.  test_pairing.c
 * checks results and exact charges.
 */
#include <string.h>

#include "crypto/crypto_pairing.h"
#include "soroban/fns/host_bls.h"
#include "soroban/fns/host_bn254.h"
#include "soroban/fns/host_fns_private.h"

enum { BN_FP = 32, BN_FP2 = 64, BN_G1 = 64, BN_G2 = 128 };

/* BytesObject::try_from_val of a vec element: a wrong tag is
 * Error(Value, UnexpectedType). */
static int pair_err_type(scp_host *h) {
  return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "unexpected type");
}

/* The nested self.vec_len(vp) of the *_vec_from_vecobj helpers goes
 * through the Env interface: the argument's check_val_integrity (a
 * visit), then the visit of the body. */
static int env_vec_len(scp_host *h, uint64_t v, const scp_hobj **o) {
  int rc = scp_host_check_val(h, v);
  return rc == SCP_OK ? scp_host_visit(h, v, o) : rc;
}

/* The host function's own vec_len(vmcaller, v) calls (one visit each),
 * then the length rule both functions apply before decoding anything. */
static int pair_lengths(scp_host *h, const uint64_t *a) {
  const scp_hobj *v1, *v2;
  int rc = scp_host_visit(h, a[0], &v1);
  if (rc == SCP_OK) rc = scp_host_visit(h, a[1], &v2);
  if (rc != SCP_OK) return rc;
  if (v1->len != v2->len || v1->len == 0)
    return scp_host_err(h, SCP_ET_CRYPTO, SCP_EC_INVALID_INPUT,
                        "multi-pairing-check: invalid input vector lengths %u and %u",
                        v1->len, v2->len);
  return SCP_OK;
}

/* ---- BN254 ---- */

/* bn254_field_element_deserialize::<EXPECTED_SIZE>: MemCpy of the
 * buffer, Bn254DecodeFp once per 32 bytes, then each Fp < p.  The
 * encoding is big-endian, an Fp2 imaginary part first (c1 || c0). */
static int bn_fe_decode(scp_host *h, const uint8_t *b, size_t size, scp_fe2 *r) {
  const scp_ff *f = scp_ff_bn254();
  int rc = scp_host_charge(h, SCP_COST_MemCpy, (int64_t)size);
  if (rc == SCP_OK) rc = scp_host_charge_n(h, SCP_COST_Bn254DecodeFp, size / BN_FP, -1);
  if (rc != SCP_OK) return rc;
  memset(r, 0, sizeof *r);
  bool ok = size == BN_FP ? scp_fe_from_be(f, b, &r->c0)
                          : scp_fe_from_be(f, b, &r->c1) && scp_fe_from_be(f, b + BN_FP, &r->c0);
  return ok ? SCP_OK
            : scp_hf_err_crypto(h, size == BN_FP ? "bn254: unable to deserialize bn254 Fp"
                                                 : "bn254: unable to deserialize bn254 Fp2");
}

/* bn254_g2_affine_deserialize (always fully validated): visit; length,
 * the two flag bits of the first byte; all zeros is infinity with no
 * further charge; else X and Y copied out (MemCpy 64 each), each decoded
 * as an Fp2, then the on-curve and the subgroup charges and checks. */
static int bn_g2_decode(scp_host *h, uint64_t v, scp_ecp *pt) {
  const scp_pairing *pc = scp_pairing_bn254();
  const scp_hobj *o;
  int rc = scp_host_visit(h, v, &o);
  if (rc != SCP_OK) return rc;
  if (o->len != BN_G2) return scp_hf_err_crypto(h, "bn254 G2: invalid input length to deserialize");
  const uint8_t *b = o->u.bytes;
  if (b[0] & 0xc0)
    return scp_hf_err_crypto(h, "bn254 G2 deserialize: the two flag bits must be unset");
  memset(pt, 0, sizeof *pt);
  bool zero = true;
  for (uint32_t i = 0; i < BN_G2 && zero; i++) zero = !b[i];
  if (zero) { pt->inf = true; return SCP_OK; }
  rc = scp_host_charge(h, SCP_COST_MemCpy, BN_FP2);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_MemCpy, BN_FP2);
  if (rc == SCP_OK) rc = bn_fe_decode(h, b, BN_FP2, &pt->x);
  if (rc == SCP_OK) rc = bn_fe_decode(h, b + BN_FP2, BN_FP2, &pt->y);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_Bn254G2CheckPointOnCurve, -1);
  if (rc != SCP_OK) return rc;
  if (!scp_ec_on_curve(&pc->g2, pt)) return scp_hf_err_crypto(h, "bn254 G2: point not on curve");
  rc = scp_host_charge(h, SCP_COST_Bn254G2CheckPointInSubgroup, -1);
  if (rc != SCP_OK) return rc;
  if (!scp_pairing_g2_in_subgroup(pc, pt))
    return scp_hf_err_crypto(h, "bn254 G2: point not in the correct subgroup");
  return SCP_OK;
}

/* crypto_bn254's G1 point as a crypto_ff point over Fp. */
static void bn_g1_to_ecp(const scp_bn_g1 *g, scp_ecp *p) {
  const scp_ff *f = scp_ff_bn254();
  uint8_t b[BN_FP];
  memset(p, 0, sizeof *p);
  p->inf = g->inf;
  if (g->inf) return;
  scp_bn_fp_to_be(g->x, b);
  scp_fe_from_be(f, b, &p->x.c0);
  scp_bn_fp_to_be(g->y, b);
  scp_fe_from_be(f, b, &p->y.c0);
}

/* One vec of points: the Env vec_len, MemAlloc(len * encoded size), the
 * vec's visit, then each element a BytesObject decoded in turn; the
 * first failure ends it (the visit closure's `?`). */
typedef int (*pair_decode_fn)(scp_host *h, uint64_t v, scp_ecp *pt);

static int pair_vec(scp_host *h, uint64_t vec, uint32_t size, pair_decode_fn dec,
                    scp_ecp **out, uint32_t *n) {
  const scp_hobj *o;
  int rc = env_vec_len(h, vec, &o);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_MemAlloc, (int64_t)o->len * size);
  if (rc == SCP_OK) rc = scp_host_visit(h, vec, &o);
  if (rc != SCP_OK) return rc;
  scp_ecp *pts = malloc((o->len ? o->len : 1) * sizeof *pts);
  if (!pts) return SCP_ERR_NOMEM;
  for (uint32_t i = 0; i < o->len && rc == SCP_OK; i++) {
    uint64_t e = o->u.vals[i];
    rc = scp_val_tag_of(e) == SCP_TAG_BYTES_OBJ ? dec(h, e, &pts[i]) : pair_err_type(h);
  }
  if (rc != SCP_OK) { free(pts); return rc; }
  *out = pts;
  *n = o->len;
  return SCP_OK;
}

static int bn_g1_dec(scp_host *h, uint64_t v, scp_ecp *pt) {
  scp_bn_g1 g;
  /* CheckOnCurveAndInSubgroup: on the curve is in the subgroup for G1 */
  int rc = scp_bn_g1_decode(h, v, true, &g);
  if (rc == SCP_OK) bn_g1_to_ecp(&g, pt);
  return rc;
}

static int bls_g1_dec(scp_host *h, uint64_t v, scp_ecp *pt) {
  return scp_bls_g1_decode(h, v, SCP_BLS_ON_CURVE_AND_SUBGROUP, pt);
}

static int bls_g2_dec(scp_host *h, uint64_t v, scp_ecp *pt) {
  return scp_bls_g2_decode(h, v, SCP_BLS_ON_CURVE_AND_SUBGROUP, pt);
}

/* Per curve: the encoded sizes (for the MemAlloc charges), the decoders,
 * the Pairing cost type and the GT comparison's size (12 Fp). */
typedef struct pair_curve {
  const scp_pairing *(*pc)(void);
  uint32_t g1_size, g2_size;
  pair_decode_fn g1, g2;
  scp_cost_type pairing;
  uint32_t gt_size;
} pair_curve;

/* The shared body: lengths, the G1 vec, the G2 vec, then
 * *_pairing_internal (Pairing(n) charged before its own length check,
 * which cannot fail here), then *_check_pairing_output (MemCmp of GT's
 * size, then the comparison with one).  The final exponentiation's None
 * (a zero Miller value) cannot happen for valid points. */
static int pairing_check(scp_host *h, const uint64_t *a, const pair_curve *c, uint64_t *ret) {
  scp_ecp *p = NULL, *q = NULL;
  uint32_t np = 0, nq = 0;
  int rc = pair_lengths(h, a);
  if (rc == SCP_OK) rc = pair_vec(h, a[0], c->g1_size, c->g1, &p, &np);
  if (rc == SCP_OK) rc = pair_vec(h, a[1], c->g2_size, c->g2, &q, &nq);
  if (rc == SCP_OK) rc = scp_host_charge(h, c->pairing, np);
  if (rc == SCP_OK && (np != nq || np == 0))
    rc = scp_hf_err_crypto(h, "pairing: invalid input vector lengths");
  bool one = false;
  if (rc == SCP_OK) one = scp_pairing_product_is_one(c->pc(), p, q, np);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_MemCmp, c->gt_size);
  if (rc == SCP_OK) *ret = one ? SCP_VAL_TRUE : SCP_VAL_FALSE;
  free(p);
  free(q);
  return rc;
}

HOSTFN(bn254_multi_pairing_check) {
  static const pair_curve bn = { .pc = scp_pairing_bn254, .g1_size = BN_G1, .g2_size = BN_G2,
                                 .g1 = bn_g1_dec, .g2 = bn_g2_decode,
                                 .pairing = SCP_COST_Bn254Pairing, .gt_size = 12 * BN_FP };
  return pairing_check(h, a, &bn, ret);
}

HOSTFN(bls12_381_multi_pairing_check) {
  static const pair_curve bls = { .pc = scp_pairing_bls12_381, .g1_size = SCP_BLS_G1,
                                  .g2_size = SCP_BLS_G2, .g1 = bls_g1_dec, .g2 = bls_g2_dec,
                                  .pairing = SCP_COST_Bls12381Pairing, .gt_size = 12 * SCP_BLS_FP };
  return pairing_check(h, a, &bls, ret);
}
