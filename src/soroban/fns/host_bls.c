/*
 * host_bls.c — the BLS12-381 point codec and point checks of
 * crypto/bls12_381.rs (affine_deserialize, validate_point_encoding,
 * deserialize_uncompressed_no_validate, check_point_is_on_curve,
 * check_point_is_in_subgroup, affine_vec_from_vecobj,
 * *_serialize_uncompressed), on the Fp/Fp2
 * group law of crypto_ff.c.  The coordinate layout is arkworks'
 * read/write_g1/g2_uncompressed (ark-bls12-381 curves/util.rs).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/fns/host_bls.h"
#include "soroban/fns/host_fns_private.h"

const uint8_t scp_bls_r_be[SCP_BLS_FR] = {
  0x73, 0xed, 0xa7, 0x53, 0x29, 0x9d, 0x7d, 0x48, 0x33, 0x39, 0xd8, 0x08, 0x09, 0xa1, 0xd8, 0x05,
  0x53, 0xbd, 0xa4, 0x02, 0xff, 0xfe, 0x5b, 0xfe, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01,
};

static scp_ec g1_curve, g2_curve;
static pthread_once_t curves_once = PTHREAD_ONCE_INIT;

static void curves_setup(void) {
  memset(&g1_curve, 0, sizeof g1_curve);
  memset(&g2_curve, 0, sizeof g2_curve);
  g1_curve.f = g2_curve.f = scp_ff_bls12_381();
  scp_fe_set_u64(&g1_curve.b.c0, 4);
  scp_fe_set_u64(&g2_curve.b.c0, 4);
  scp_fe_set_u64(&g2_curve.b.c1, 4);
}

const scp_ec *scp_bls_g1(void) {
  pthread_once(&curves_once, curves_setup);
  return &g1_curve;
}

const scp_ec *scp_bls_g2(void) {
  pthread_once(&curves_once, curves_setup);
  return &g2_curve;
}

/* The answer, not arkworks' method (it uses endomorphisms): r * p is
 * infinity exactly for the points of the order-r subgroup. */
static bool in_subgroup(const scp_ec *c, const scp_ecp *p) {
  if (p->inf) return true;
  scp_ecp t;
  scp_ec_mul(c, p, scp_bls_r_be, sizeof scp_bls_r_be, &t);
  return t.inf;
}

bool scp_bls_g1_in_subgroup(const scp_ecp *p) { return in_subgroup(scp_bls_g1(), p); }
bool scp_bls_g2_in_subgroup(const scp_ecp *p) { return in_subgroup(scp_bls_g2(), p); }

static int bls_invalid(scp_host *h, const char *msg, const char *tag) {
  return scp_host_err(h, SCP_ET_CRYPTO, SCP_EC_INVALID_INPUT, msg, tag);
}

/* affine_deserialize::<EXPECTED_SIZE, P>.  Inside the visit:
 * validate_point_encoding (length, then flags: compression and sort must
 * be clear; infinity only with every other bit zero), then
 * deserialize_uncompressed_no_validate (the same length check, the
 * DecodeFp bulk charge, then each coordinate < p).  After it the on-curve
 * and subgroup checks the mode asks for, each charged before it runs. */
static int decode(scp_host *h, uint64_t v, scp_bls_check mode, bool g2, scp_ecp *p) {
  const char *tag = g2 ? "G2" : "G1";
  const uint32_t size = g2 ? SCP_BLS_G2 : SCP_BLS_G1;
  const scp_ec *c = g2 ? scp_bls_g2() : scp_bls_g1();
  const scp_hobj *o;
  int rc = scp_host_visit(h, v, &o);
  if (rc != SCP_OK) return rc;
  if (o->len != size)
    return bls_invalid(h, "bls12-381 %s: invalid input length to deserialize", tag);
  const uint8_t *b = o->u.bytes;
  uint8_t flags = b[0] & 0xe0;
  if (flags == 0x40) {
    bool rest_zero = b[0] == 0x40;
    for (uint32_t i = 1; i < size && rest_zero; i++) rest_zero = !b[i];
    if (!rest_zero)
      return bls_invalid(h, "bls12-381 %s deserialize: infinity flag (bit 1) is set while "
                            "remaining bits are not all zero", tag);
  } else if (flags) {
    return bls_invalid(h, "bls12-381 %s deserialize: either compression flag (bit 0) or the "
                          "sort flag (bit 2) is set, while the input should be encoded "
                          "uncompressed", tag);
  }
  rc = scp_host_charge_n(h, SCP_COST_Bls12381DecodeFp, size / SCP_BLS_FP, -1);
  if (rc != SCP_OK) return rc;
  memset(p, 0, sizeof *p);
  if (flags == 0x40) {
    p->inf = true;
  } else {
    /* G1: X, Y; G2: X.c1, X.c0, Y.c1, Y.c0 (flags are clear here, so X
     * needs no masking) */
    scp_fe *coord[4] = { &p->x.c0, &p->y.c0, NULL, NULL };
    if (g2) {
      coord[0] = &p->x.c1;
      coord[1] = &p->x.c0;
      coord[2] = &p->y.c1;
      coord[3] = &p->y.c0;
    }
    for (uint32_t i = 0; i < size / SCP_BLS_FP; i++)
      if (!scp_fe_from_be(c->f, b + i * SCP_BLS_FP, coord[i]))
        return bls_invalid(h, "bls12-381: unable to deserialize %s", tag);
  }
  if (mode == SCP_BLS_NO_CHECK) return SCP_OK;
  rc = scp_host_charge(h, g2 ? SCP_COST_Bls12381G2CheckPointOnCurve
                             : SCP_COST_Bls12381G1CheckPointOnCurve, -1);
  if (rc != SCP_OK) return rc;
  if (!scp_ec_on_curve(c, p)) return bls_invalid(h, "bls12-381 %s: point not on curve", tag);
  if (mode != SCP_BLS_ON_CURVE_AND_SUBGROUP) return SCP_OK;
  rc = scp_host_charge(h, g2 ? SCP_COST_Bls12381G2CheckPointInSubgroup
                             : SCP_COST_Bls12381G1CheckPointInSubgroup, -1);
  if (rc != SCP_OK) return rc;
  if (!in_subgroup(c, p))
    return bls_invalid(h, "bls12-381 %s: point not in the correct subgroup", tag);
  return SCP_OK;
}

int scp_bls_g1_decode(scp_host *h, uint64_t bytes_obj, scp_bls_check mode, scp_ecp *p) {
  return decode(h, bytes_obj, mode, false, p);
}

int scp_bls_g2_decode(scp_host *h, uint64_t bytes_obj, scp_bls_check mode, scp_ecp *p) {
  return decode(h, bytes_obj, mode, true, p);
}

/* self.vec_len(v) goes through the Env interface: the argument's
 * check_val_integrity (a visit), then the visit of the body. */
static int vec_len(scp_host *h, uint64_t v, const scp_hobj **o) {
  int rc = scp_host_check_val(h, v);
  return rc == SCP_OK ? scp_host_visit(h, v, o) : rc;
}

/* The visit closure's Result is discarded by the host (`let _ =`), but
 * its `?` still stops at the first bad point and the outer `?` keeps the
 * error. */
static int vec_decode(scp_host *h, uint64_t v, bool g2, scp_ecp **out, uint32_t *n) {
  const scp_hobj *o;
  *out = NULL;
  int rc = vec_len(h, v, &o);
  if (rc == SCP_OK)
    rc = scp_host_charge(h, SCP_COST_MemAlloc, (int64_t)o->len * (g2 ? SCP_BLS_G2 : SCP_BLS_G1));
  if (rc == SCP_OK) rc = scp_host_visit(h, v, &o);
  if (rc != SCP_OK) return rc;
  uint32_t len = o->len;
  scp_ecp *pts = malloc((len ? len : 1) * sizeof *pts);
  if (!pts) return SCP_ERR_NOMEM;
  for (uint32_t i = 0; i < len && rc == SCP_OK; i++) {
    uint64_t e = o->u.vals[i];
    if (scp_val_tag_of(e) != SCP_TAG_BYTES_OBJ)
      rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "unexpected type");
    else
      rc = decode(h, e, SCP_BLS_ON_CURVE_AND_SUBGROUP, g2, &pts[i]);
  }
  if (rc != SCP_OK) {
    free(pts);
    return rc;
  }
  *out = pts;
  *n = len;
  return SCP_OK;
}

int scp_bls_g1_vec_decode(scp_host *h, uint64_t vec_obj, scp_ecp **pts, uint32_t *n) {
  return vec_decode(h, vec_obj, false, pts, n);
}

int scp_bls_g2_vec_decode(scp_host *h, uint64_t vec_obj, scp_ecp **pts, uint32_t *n) {
  return vec_decode(h, vec_obj, true, pts, n);
}

void scp_bls_g1_to_bytes(const scp_ecp *p, uint8_t out[SCP_BLS_G1]) {
  const scp_ff *f = scp_ff_bls12_381();
  memset(out, 0, SCP_BLS_G1);
  if (p->inf) { out[0] = 0x40; return; }
  scp_fe_to_be(f, &p->x.c0, out);
  scp_fe_to_be(f, &p->y.c0, out + SCP_BLS_FP);
}

void scp_bls_g2_to_bytes(const scp_ecp *p, uint8_t out[SCP_BLS_G2]) {
  const scp_ff *f = scp_ff_bls12_381();
  memset(out, 0, SCP_BLS_G2);
  if (p->inf) { out[0] = 0x40; return; }
  scp_fe_to_be(f, &p->x.c1, out);
  scp_fe_to_be(f, &p->x.c0, out + SCP_BLS_FP);
  scp_fe_to_be(f, &p->y.c1, out + 2 * SCP_BLS_FP);
  scp_fe_to_be(f, &p->y.c0, out + 3 * SCP_BLS_FP);
}

/* serialize_uncompressed_into_slice (EncodeFp per 48 bytes), then
 * add_host_object(scbytes_from_slice(&buf)): the Vec<u8>'s bulk-init
 * charges and the object's. */
static int encode_affine(scp_host *h, const scp_ecp *p, bool g2, uint64_t *ret) {
  uint8_t buf[SCP_BLS_G2];
  uint32_t size = g2 ? SCP_BLS_G2 : SCP_BLS_G1;
  int rc = scp_host_charge_n(h, SCP_COST_Bls12381EncodeFp, size / SCP_BLS_FP, -1);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, size, 1);
  if (rc != SCP_OK) return rc;
  if (g2) scp_bls_g2_to_bytes(p, buf);
  else scp_bls_g1_to_bytes(p, buf);
  return scp_hf_add_bytes_obj(h, SCP_TAG_BYTES_OBJ, buf, size, ret);
}

int scp_bls_g1_encode_affine(scp_host *h, const scp_ecp *p, uint64_t *ret) {
  return encode_affine(h, p, false, ret);
}

int scp_bls_g2_encode_affine(scp_host *h, const scp_ecp *p, uint64_t *ret) {
  return encode_affine(h, p, true, ret);
}

/* *_projective_into_affine charges before the conversion. */
static int encode_proj(scp_host *h, const scp_ecj *p, bool g2, uint64_t *ret) {
  int rc = scp_host_charge(h, g2 ? SCP_COST_Bls12381G2ProjectiveToAffine
                                 : SCP_COST_Bls12381G1ProjectiveToAffine, -1);
  if (rc != SCP_OK) return rc;
  scp_ecp a;
  scp_ec_to_affine(g2 ? scp_bls_g2() : scp_bls_g1(), p, &a);
  return encode_affine(h, &a, g2, ret);
}

int scp_bls_g1_encode(scp_host *h, const scp_ecj *p, uint64_t *ret) {
  return encode_proj(h, p, false, ret);
}

int scp_bls_g2_encode(scp_host *h, const scp_ecj *p, uint64_t *ret) {
  return encode_proj(h, p, true, ret);
}
