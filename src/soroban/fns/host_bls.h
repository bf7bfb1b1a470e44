/*
 * host_bls.h — BLS12-381 points as the host functions take and return
 * them (crypto/bls12_381.rs): uncompressed big-endian encodings (G1 96
 * bytes X || Y, G2 192 bytes X_c1 || X_c0 || Y_c1 || Y_c0; the top three
 * bits of the first byte are the compression, infinity and sort flags),
 * decoded and encoded with the reference's checks, errors and charges.
 * Shared by the curve, map/hash (host_fns_bls.c) and pairing host
 * functions.
 *
 * Every function returning int returns SCP_OK, SCP_ERR_HOST (an
 * Error(type, code) recorded in the host: budget exhausted, or
 * Error(Crypto, InvalidInput) for a bad encoding or point, or the visit's
 * object errors) or SCP_ERR_NOMEM.  On failure the output is unspecified
 * and the budget keeps every charge made before the failing check, as the
 * reference's does.
 */
#ifndef SCP_HOST_BLS_H
#define SCP_HOST_BLS_H

#include "crypto/crypto_ff.h"
#include "soroban/core/host_private.h"

enum { SCP_BLS_FP = 48, SCP_BLS_FP2 = 96, SCP_BLS_G1 = 96, SCP_BLS_G2 = 192, SCP_BLS_FR = 32 };

/* PointValidationMode (crypto/mod.rs). */
typedef enum scp_bls_check {
  SCP_BLS_NO_CHECK,
  SCP_BLS_ON_CURVE,
  SCP_BLS_ON_CURVE_AND_SUBGROUP,
} scp_bls_check;

/* y^2 = x^3 + 4 over Fp (imaginary parts zero) and y^2 = x^3 + 4(1 + u)
 * over Fp2.  Static; never NULL. */
SCP_HIDDEN const scp_ec *scp_bls_g1(void);
SCP_HIDDEN const scp_ec *scp_bls_g2(void);
/* The group order r, 32 bytes big-endian. */
SCP_HIDDEN extern const uint8_t scp_bls_r_be[SCP_BLS_FR];

/* is_in_correct_subgroup_assuming_on_curve: r * p == infinity (no charge;
 * p assumed on the curve; infinity is in the subgroup). */
SCP_HIDDEN bool scp_bls_g1_in_subgroup(const scp_ecp *p);
SCP_HIDDEN bool scp_bls_g2_in_subgroup(const scp_ecp *p);

/* g1/g2_affine_deserialize_from_bytesobj (affine_deserialize): the object
 * visited (VisitObject); the length and the flags checked
 * (validate_point_encoding); Bls12381DecodeFp charged 2 (G1) or 4 (G2)
 * times; each coordinate must be < p; then, as mode asks, the on-curve
 * charge and check, then the subgroup charge and check.  bytes_obj is an
 * absolute BytesObject Val. */
SCP_HIDDEN int scp_bls_g1_decode(scp_host *h, uint64_t bytes_obj, scp_bls_check mode, scp_ecp *p);
SCP_HIDDEN int scp_bls_g2_decode(scp_host *h, uint64_t bytes_obj, scp_bls_check mode, scp_ecp *p);

/* checked_g1/g2_vec_from_vecobj (affine_vec_from_vecobj): vec_len (the
 * argument's check and a visit), MemAlloc(96 or 192 per element), the
 * visit, then each element decoded with CheckOnCurveAndInSubgroup, the
 * first bad one ending it (an element that is not a BytesObject is
 * Error(Value, UnexpectedType)).  On SCP_OK *pts (malloc'd, the caller
 * frees; non-NULL even for 0 points) holds *n points; on failure *pts is
 * NULL. */
SCP_HIDDEN int scp_bls_g1_vec_decode(scp_host *h, uint64_t vec_obj, scp_ecp **pts, uint32_t *n);
SCP_HIDDEN int scp_bls_g2_vec_decode(scp_host *h, uint64_t vec_obj, scp_ecp **pts, uint32_t *n);

/* g1/g2_affine_serialize_uncompressed: Bls12381EncodeFp 2 (G1) or 4 (G2)
 * times, then the new BytesObject (scbytes_from_slice and
 * add_host_object charges); *ret is its Val.  Infinity is 0x40 then
 * zeros. */
SCP_HIDDEN int scp_bls_g1_encode_affine(scp_host *h, const scp_ecp *p, uint64_t *ret);
SCP_HIDDEN int scp_bls_g2_encode_affine(scp_host *h, const scp_ecp *p, uint64_t *ret);
/* g1/g2_projective_serialize_uncompressed: Bls12381G1/G2ProjectiveToAffine,
 * then the affine encoding above. */
SCP_HIDDEN int scp_bls_g1_encode(scp_host *h, const scp_ecj *p, uint64_t *ret);
SCP_HIDDEN int scp_bls_g2_encode(scp_host *h, const scp_ecj *p, uint64_t *ret);

/* The encodings alone, no host and no charge (tests, pairing inputs). */
SCP_HIDDEN void scp_bls_g1_to_bytes(const scp_ecp *p, uint8_t out[SCP_BLS_G1]);
SCP_HIDDEN void scp_bls_g2_to_bytes(const scp_ecp *p, uint8_t out[SCP_BLS_G2]);

#endif
