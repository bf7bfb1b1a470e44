/*
 * host_fns_curve.c — the BN254 G1 host functions (crypto/bn254.rs,
 * host.rs bn254_g1_*), with the reference's checks, errors and charges in
 * its order; test_curves.c checks results and charges.  The
 * BLS12-381 curve functions are in host_fns_bls.c.  The G1 decoder is
 * shared with bn254_multi_pairing_check (host_bn254.h, host_fns_pairing.c).
 */
#include <string.h>

#include "crypto/crypto_bn254.h"
#include "soroban/fns/host_bn254.h"
#include "soroban/fns/host_fns_private.h"

enum { BN_FP = 32, BN_G1 = 64 };

/* bn254_g1_affine_deserialize: visit; length, then the two flag bits;
 * all zeros is infinity with no further charge; else X and Y are copied
 * out (MemCpy 32 each), then each is decoded (MemCpy 32, Bn254DecodeFp 1,
 * rejected when >= p); then, unless check is false, the on-curve charge
 * and check. */
static int bn_g1_decode(scp_host *h, uint64_t v, bool check, scp_bn_g1 *pt) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, v, &o);
  if (rc != SCP_OK) return rc;
  if (o->len != BN_G1)
    return scp_hf_err_crypto(h, "bn254 G1: invalid input length to deserialize");
  if (o->u.bytes[0] & 0xc0)
    return scp_hf_err_crypto(h, "bn254 G1 deserialize: the two flag bits must be unset");
  memset(pt, 0, sizeof *pt);
  bool zero = true;
  for (uint32_t i = 0; i < BN_G1; i++) zero = zero && !o->u.bytes[i];
  if (zero) { pt->inf = true; return SCP_OK; }
  rc = scp_host_charge(h, SCP_COST_MemCpy, BN_FP);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_MemCpy, BN_FP);
  for (int c = 0; c < 2 && rc == SCP_OK; c++) {
    rc = scp_host_charge(h, SCP_COST_MemCpy, BN_FP);
    if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_Bn254DecodeFp, -1);
    if (rc == SCP_OK && !scp_bn_fp_from_be(o->u.bytes + c * BN_FP, c ? pt->y : pt->x))
      rc = scp_hf_err_crypto(h, "bn254: unable to deserialize bn254 Fp");
  }
  if (rc != SCP_OK || !check) return rc;
  rc = scp_host_charge(h, SCP_COST_Bn254G1CheckPointOnCurve, -1);
  if (rc == SCP_OK && !scp_bn_g1_on_curve(pt))
    rc = scp_hf_err_crypto(h, "bn254 G1: point not on curve");
  return rc;
}

int scp_bn_g1_decode(scp_host *h, uint64_t v, bool check, scp_bn_g1 *pt) {
  return bn_g1_decode(h, v, check, pt);
}

/* bn254_g1_projective_serialize_uncompressed: ProjectiveToAffine, an
 * EncodeFp per coordinate, then bytes_new_from_slice (Vec<u8> of 64). */
static int bn_g1_encode(scp_host *h, const scp_bn_g1 *pt, uint64_t *ret) {
  uint8_t buf[BN_G1] = { 0 };
  int rc = scp_host_charge(h, SCP_COST_Bn254G1ProjectiveToAffine, -1);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_Bn254EncodeFp, -1);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_Bn254EncodeFp, -1);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, BN_G1, 1);
  if (rc != SCP_OK) return rc;
  if (!pt->inf) {
    scp_bn_fp_to_be(pt->x, buf);
    scp_bn_fp_to_be(pt->y, buf + BN_FP);
  }
  return scp_hf_add_bytes_obj(h, SCP_TAG_BYTES_OBJ, buf, BN_G1, ret);
}

HOSTFN(bn254_g1_is_on_curve) {
  scp_bn_g1 p;
  int rc = bn_g1_decode(h, a[0], false, &p);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_Bn254G1CheckPointOnCurve, -1);
  if (rc == SCP_OK) *ret = scp_bn_g1_on_curve(&p) ? SCP_VAL_TRUE : SCP_VAL_FALSE;
  return rc;
}

HOSTFN(bn254_g1_add) {
  scp_bn_g1 p, q, r;
  int rc = bn_g1_decode(h, a[0], true, &p);
  if (rc == SCP_OK) rc = bn_g1_decode(h, a[1], true, &q);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_Bn254G1Add, -1);
  if (rc != SCP_OK) return rc;
  scp_bn_g1_add(&p, &q, &r);
  return bn_g1_encode(h, &r, ret);
}

HOSTFN(bn254_g1_mul) {
  scp_bn_g1 p, r;
  uint64_t k[4];
  int rc = bn_g1_decode(h, a[0], true, &p);
  if (rc == SCP_OK) rc = scp_hf_fr_from_val(h, true, a[1], k);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_Bn254G1Mul, -1);
  if (rc != SCP_OK) return rc;
  scp_bn_g1_mul(&p, k, &r);
  return bn_g1_encode(h, &r, ret);
}

/* Val -> BytesObject / U256Val conversions of vec elements: a wrong tag
 * is Error(Value, UnexpectedType). */
static int bn_err_type(scp_host *h) {
  return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "unexpected type");
}

/* self.vec_len(v) goes through the Env interface: the argument's
 * check_val_integrity (a visit) and then the visit of the body. */
static int vec_len(scp_host *h, uint64_t v, const scp_hobj **o) {
  int rc = scp_host_check_val(h, v);
  return rc == SCP_OK ? scp_host_visit(h, v, o) : rc;
}

/* bn254_g1_msm: the points (vec_len visit, MemAlloc(64n), visit, each
 * decoded with the on-curve check), then the scalars (vec_len visit,
 * MemAlloc(32n), visit, each from_u256val), then Bn254G1Msm(n) before the
 * length check. */
HOSTFN(bn254_g1_msm) {
  const scp_hobj *vp, *vs;
  scp_bn_g1 *pts = NULL, acc = { .inf = true }, t;
  uint64_t (*ks)[4] = NULL;
  int rc = vec_len(h, a[0], &vp);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_MemAlloc, (int64_t)vp->len * BN_G1);
  if (rc == SCP_OK) rc = scp_host_visit(h, a[0], &vp);
  if (rc != SCP_OK) return rc;
  uint32_t np = vp->len;
  /* the vec's visit closure returns Result and the host discards it
   * (`let _ =`), but `?` inside it still stops at the first bad point */
  pts = malloc((np ? np : 1) * sizeof *pts);
  if (!pts) return SCP_ERR_NOMEM;
  for (uint32_t i = 0; i < np && rc == SCP_OK; i++) {
    uint64_t e = vp->u.vals[i];
    if (scp_val_tag_of(e) != SCP_TAG_BYTES_OBJ) rc = bn_err_type(h);
    else rc = bn_g1_decode(h, e, true, &pts[i]);
  }
  if (rc == SCP_OK) rc = vec_len(h, a[1], &vs);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_MemAlloc, (int64_t)vs->len * 32);
  if (rc == SCP_OK) rc = scp_host_visit(h, a[1], &vs);
  uint32_t ns = rc == SCP_OK ? vs->len : 0;
  if (rc == SCP_OK) {
    ks = malloc((ns ? ns : 1) * sizeof *ks);
    if (!ks) rc = SCP_ERR_NOMEM;
  }
  for (uint32_t i = 0; i < ns && rc == SCP_OK; i++) {
    uint64_t e = vs->u.vals[i];
    unsigned tag = scp_val_tag_of(e);
    if (tag != SCP_TAG_U256_SMALL && tag != SCP_TAG_U256_OBJ) rc = bn_err_type(h);
    else rc = scp_hf_fr_from_val(h, true, e, ks[i]);
  }
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_Bn254G1Msm, np);
  if (rc == SCP_OK && (np != ns || np == 0))
    rc = scp_hf_err_crypto(h, "BN254 G1 msm: invalid input vector lengths");
  for (uint32_t i = 0; i < np && rc == SCP_OK; i++) {
    scp_bn_g1_mul(&pts[i], ks[i], &t);
    scp_bn_g1_add(&acc, &t, &acc);
  }
  free(pts);
  free(ks);
  return rc == SCP_OK ? bn_g1_encode(h, &acc, ret) : rc;
}
