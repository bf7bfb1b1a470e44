/*
 * host_fns_bls.c — the BLS12-381 curve host functions (host.rs
 * bls12_381_*, crypto/bls12_381.rs): add, mul, msm, is_on_curve, the
 * subgroup checks, map_fp_to_g1 / map_fp2_to_g2 and hash_to_g1 /
 * hash_to_g2, with the reference's checks, errors and charges in its
 * order.  Points go through host_bls.c; the maps and hashes through
 * crypto_bls_h2c.c.  bls12_381_multi_pairing_check is not here.
 * test_bls.c checks results and charges.
 */
#include <string.h>

#include "soroban/fns/crypto_bls_h2c.h"
#include "soroban/fns/host_bls.h"
#include "soroban/fns/host_fns_private.h"

/* Fr (4 words, most significant first) -> 32 bytes big-endian. */
static void fr_to_be(const uint64_t *x, uint8_t *b) {
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 8; j++) b[8 * i + j] = (uint8_t)(x[i] >> (56 - 8 * j));
}

/* fr_from_u256val (MeteredScalar::from_u256val): Bls12381FrFromU256,
 * an object visited, reduced mod r. */
static int fr_be(scp_host *h, uint64_t v, uint8_t k[SCP_BLS_FR]) {
  uint64_t x[4];
  int rc = scp_hf_fr_from_val(h, false, v, x);
  if (rc == SCP_OK) fr_to_be(x, k);
  return rc;
}

static const scp_ec *curve(bool g2) { return g2 ? scp_bls_g2() : scp_bls_g1(); }

static int decode(scp_host *h, bool g2, uint64_t v, scp_bls_check m, scp_ecp *p) {
  return g2 ? scp_bls_g2_decode(h, v, m, p) : scp_bls_g1_decode(h, v, m, p);
}

static int encode(scp_host *h, bool g2, const scp_ecj *p, uint64_t *ret) {
  return g2 ? scp_bls_g2_encode(h, p, ret) : scp_bls_g1_encode(h, p, ret);
}

/* ---- is_on_curve, subgroup checks ------------------------------------------- */

/* g1/g2_is_on_curve: decode with NoCheck, then check_point_is_on_curve
 * (its charge, then the answer as a Bool). */
static int is_on_curve(scp_host *h, bool g2, const uint64_t *a, uint64_t *ret) {
  scp_ecp p;
  int rc = decode(h, g2, a[0], SCP_BLS_NO_CHECK, &p);
  if (rc == SCP_OK)
    rc = scp_host_charge(h, g2 ? SCP_COST_Bls12381G2CheckPointOnCurve
                               : SCP_COST_Bls12381G1CheckPointOnCurve, -1);
  if (rc == SCP_OK) *ret = scp_ec_on_curve(curve(g2), &p) ? SCP_VAL_TRUE : SCP_VAL_FALSE;
  return rc;
}

HOSTFN(bls12_381_g1_is_on_curve) { return is_on_curve(h, false, a, ret); }
HOSTFN(bls12_381_g2_is_on_curve) { return is_on_curve(h, true, a, ret); }

/* check_g1/g2_is_in_subgroup: decode with CheckOnCurve, then
 * check_point_is_in_subgroup (its charge, then the answer). */
static int in_subgroup(scp_host *h, bool g2, const uint64_t *a, uint64_t *ret) {
  scp_ecp p;
  int rc = decode(h, g2, a[0], SCP_BLS_ON_CURVE, &p);
  if (rc == SCP_OK)
    rc = scp_host_charge(h, g2 ? SCP_COST_Bls12381G2CheckPointInSubgroup
                               : SCP_COST_Bls12381G1CheckPointInSubgroup, -1);
  if (rc != SCP_OK) return rc;
  bool in = g2 ? scp_bls_g2_in_subgroup(&p) : scp_bls_g1_in_subgroup(&p);
  *ret = in ? SCP_VAL_TRUE : SCP_VAL_FALSE;
  return SCP_OK;
}

HOSTFN(bls12_381_check_g1_is_in_subgroup) { return in_subgroup(h, false, a, ret); }
HOSTFN(bls12_381_check_g2_is_in_subgroup) { return in_subgroup(h, true, a, ret); }

/* ---- add, mul ----------------------------------------------------------------- */

/* g1/g2_add: both points decoded with CheckOnCurve (no subgroup check),
 * then G1Add/G2Add, then the projective serialization. */
static int add(scp_host *h, bool g2, const uint64_t *a, uint64_t *ret) {
  scp_ecp p, q;
  int rc = decode(h, g2, a[0], SCP_BLS_ON_CURVE, &p);
  if (rc == SCP_OK) rc = decode(h, g2, a[1], SCP_BLS_ON_CURVE, &q);
  if (rc == SCP_OK)
    rc = scp_host_charge(h, g2 ? SCP_COST_Bls12381G2Add : SCP_COST_Bls12381G1Add, -1);
  if (rc != SCP_OK) return rc;
  scp_ecj jp, jq;
  scp_ec_to_jac(curve(g2), &p, &jp);
  scp_ec_to_jac(curve(g2), &q, &jq);
  scp_ec_add(curve(g2), &jp, &jq, &jp);
  return encode(h, g2, &jp, ret);
}

HOSTFN(bls12_381_g1_add) { return add(h, false, a, ret); }
HOSTFN(bls12_381_g2_add) { return add(h, true, a, ret); }

/* g1/g2_mul: the point with CheckOnCurveAndInSubgroup, then the scalar
 * (fr_from_u256val), then G1Mul/G2Mul, then the serialization. */
static int mul(scp_host *h, bool g2, const uint64_t *a, uint64_t *ret) {
  scp_ecp p, r;
  uint8_t k[SCP_BLS_FR];
  int rc = decode(h, g2, a[0], SCP_BLS_ON_CURVE_AND_SUBGROUP, &p);
  if (rc == SCP_OK) rc = fr_be(h, a[1], k);
  if (rc == SCP_OK)
    rc = scp_host_charge(h, g2 ? SCP_COST_Bls12381G2Mul : SCP_COST_Bls12381G1Mul, -1);
  if (rc != SCP_OK) return rc;
  scp_ec_mul(curve(g2), &p, k, sizeof k, &r);
  scp_ecj j;
  scp_ec_to_jac(curve(g2), &r, &j);
  return encode(h, g2, &j, ret);
}

HOSTFN(bls12_381_g1_mul) { return mul(h, false, a, ret); }
HOSTFN(bls12_381_g2_mul) { return mul(h, true, a, ret); }

/* ---- msm ----------------------------------------------------------------------- */

/* TryFromVal of a vec element to U256Val. */
static int err_type(scp_host *h) {
  return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "unexpected type");
}

/* g1/g2_msm: checked_g1/g2_vec_from_vecobj (host_bls.c), then
 * fr_vec_from_vecobj (vec_len: the argument's check and a visit;
 * MemAlloc(32n), the visit, each fr_from_u256val), then msm_internal:
 * G1Msm/G2Msm(n points) before the length check (lengths equal and
 * non-zero), then the serialization. */
static int msm(scp_host *h, bool g2, const uint64_t *a, uint64_t *ret) {
  const scp_hobj *vs;
  scp_ecp *pts = NULL;
  uint8_t (*ks)[SCP_BLS_FR] = NULL;
  uint32_t np = 0, ns = 0;
  int rc = g2 ? scp_bls_g2_vec_decode(h, a[0], &pts, &np)
              : scp_bls_g1_vec_decode(h, a[0], &pts, &np);
  if (rc != SCP_OK) return rc;
  rc = scp_host_check_val(h, a[1]);
  if (rc == SCP_OK) rc = scp_host_visit(h, a[1], &vs);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_MemAlloc, (int64_t)vs->len * SCP_BLS_FR);
  if (rc == SCP_OK) rc = scp_host_visit(h, a[1], &vs);
  if (rc == SCP_OK) {
    ns = vs->len;
    ks = malloc((ns ? ns : 1) * sizeof *ks);
    if (!ks) rc = SCP_ERR_NOMEM;
  }
  for (uint32_t i = 0; i < ns && rc == SCP_OK; i++) {
    uint64_t e = vs->u.vals[i];
    unsigned tag = scp_val_tag_of(e);
    if (tag != SCP_TAG_U256_SMALL && tag != SCP_TAG_U256_OBJ) rc = err_type(h);
    else rc = fr_be(h, e, ks[i]);
  }
  if (rc == SCP_OK)
    rc = scp_host_charge(h, g2 ? SCP_COST_Bls12381G2Msm : SCP_COST_Bls12381G1Msm, np);
  if (rc == SCP_OK && (np != ns || np == 0))
    rc = scp_hf_err_crypto(h, g2 ? "G2 msm: invalid input vector lengths"
                                 : "G1 msm: invalid input vector lengths");
  scp_ecj acc, t;
  scp_ecp inf = { .inf = true }, r;
  scp_ec_to_jac(curve(g2), &inf, &acc);
  for (uint32_t i = 0; i < np && rc == SCP_OK; i++) {
    scp_ec_mul(curve(g2), &pts[i], ks[i], SCP_BLS_FR, &r);
    scp_ec_to_jac(curve(g2), &r, &t);
    scp_ec_add(curve(g2), &acc, &t, &acc);
  }
  free(pts);
  free(ks);
  return rc == SCP_OK ? encode(h, g2, &acc, ret) : rc;
}

HOSTFN(bls12_381_g1_msm) { return msm(h, false, a, ret); }
HOSTFN(bls12_381_g2_msm) { return msm(h, true, a, ret); }

/* ---- map_to_curve ---------------------------------------------------------- */

/* field_element_deserialize::<48 or 96>: the visit; the length; the
 * bytes copied out (metered_copy_byte_slice: MemCpy(len)); then
 * deserialize_uncompressed_no_validate of the reversed copy: DecodeFp
 * per 48 bytes, each element < p.  An Fp2 is c1 || c0. */
static int field_decode(scp_host *h, bool g2, uint64_t v, scp_fe2 *u) {
  const scp_ff *f = scp_ff_bls12_381();
  const uint32_t size = g2 ? SCP_BLS_FP2 : SCP_BLS_FP;
  const scp_hobj *o;
  int rc = scp_host_visit(h, v, &o);
  if (rc != SCP_OK) return rc;
  if (o->len != size)
    return scp_hf_err_crypto(
        h, g2 ? "bls12-381 field element Fp2: invalid input length to deserialize"
              : "bls12-381 field element Fp: invalid input length to deserialize");
  rc = scp_host_charge(h, SCP_COST_MemCpy, size);
  if (rc == SCP_OK) rc = scp_host_charge_n(h, SCP_COST_Bls12381DecodeFp, size / SCP_BLS_FP, -1);
  if (rc != SCP_OK) return rc;
  memset(u, 0, sizeof *u);
  bool ok = g2 ? scp_fe_from_be(f, o->u.bytes, &u->c1) &&
                 scp_fe_from_be(f, o->u.bytes + SCP_BLS_FP, &u->c0)
               : scp_fe_from_be(f, o->u.bytes, &u->c0);
  if (!ok)
    return scp_hf_err_crypto(h, g2 ? "bls12-381: unable to deserialize Fp2"
                                   : "bls12-381: unable to deserialize Fp");
  return SCP_OK;
}

/* map_fp_to_g1 / map_fp2_to_g2: the element, then map_to_curve
 * (MapFpToG1 / MapFp2ToG2 charged first), then the affine serialization
 * (no ProjectiveToAffine).  The result is not cofactor-cleared. */
static int map_to(scp_host *h, bool g2, const uint64_t *a, uint64_t *ret) {
  scp_fe2 u;
  scp_ecp p;
  int rc = field_decode(h, g2, a[0], &u);
  if (rc == SCP_OK)
    rc = scp_host_charge(h, g2 ? SCP_COST_Bls12381MapFp2ToG2 : SCP_COST_Bls12381MapFpToG1, -1);
  if (rc != SCP_OK) return rc;
  if (g2) {
    scp_bls_map_g2(&u, &p);
    return scp_bls_g2_encode_affine(h, &p, ret);
  }
  scp_bls_map_g1(&u.c0, &p);
  return scp_bls_g1_encode_affine(h, &p, ret);
}

HOSTFN(bls12_381_map_fp_to_g1) { return map_to(h, false, a, ret); }
HOSTFN(bls12_381_map_fp2_to_g2) { return map_to(h, true, a, ret); }

/* ---- hash_to_curve ---------------------------------------------------------- */

/* hash_to_g1 / hash_to_g2: the message visited, then the DST, then
 * hash_to_curve: HashToG1/HashToG2(message length) charged before the
 * DST length check (1..255 bytes), then the affine serialization. */
static int hash_to(scp_host *h, bool g2, const uint64_t *a, uint64_t *ret) {
  const scp_hobj *mo, *dst;
  int rc = scp_host_visit(h, a[0], &mo);
  if (rc == SCP_OK) rc = scp_host_visit(h, a[1], &dst);
  if (rc == SCP_OK)
    rc = scp_host_charge(h, g2 ? SCP_COST_Bls12381HashToG2 : SCP_COST_Bls12381HashToG1,
                         (int64_t)mo->len);
  if (rc != SCP_OK) return rc;
  if (dst->len == 0 || dst->len > 255)
    return scp_host_err(h, SCP_ET_CRYPTO, SCP_EC_INVALID_INPUT,
                        "hash_to_curve: invalid input dst length %u, must be > 0 and < 256",
                        dst->len);
  scp_ecp p;
  bool ok = g2 ? scp_bls_hash_g2(mo->u.bytes, mo->len, dst->u.bytes, dst->len, &p)
               : scp_bls_hash_g1(mo->u.bytes, mo->len, dst->u.bytes, dst->len, &p);
  if (!ok) return scp_host_err(h, SCP_ET_CRYPTO, SCP_EC_INTERNAL_ERROR, "hash-to-curve error");
  return g2 ? scp_bls_g2_encode_affine(h, &p, ret) : scp_bls_g1_encode_affine(h, &p, ret);
}

HOSTFN(bls12_381_hash_to_g1) { return hash_to(h, false, a, ret); }
HOSTFN(bls12_381_hash_to_g2) { return hash_to(h, true, a, ret); }
