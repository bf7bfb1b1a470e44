/*
 * crypto_ff.h — prime fields of up to 384 bits, their quadratic extension
 * Fp2 = Fp[u]/(u^2 + 1), and the group law of y^2 = x^3 + b over Fp2, for
 * the BLS12-381 and BN254 host functions.  Built on GMP's mpn layer: fixed
 * sizes, no allocation.  Elements are canonical (< p), little-endian limbs.
 *
 * A curve over Fp is the same curve over Fp2 with every imaginary part
 * zero, so one group law serves G1 and G2; G1 pays Fp2 prices for that,
 * which is still far below the time the Budget's charges stand for.
 */
#ifndef SCP_CRYPTO_FF_H
#define SCP_CRYPTO_FF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gmp.h>

#include "util/scp_util.h"

enum { SCP_FF_LIMBS = 6 };

typedef struct scp_fe { mp_limb_t l[SCP_FF_LIMBS]; } scp_fe;
typedef struct scp_fe2 { scp_fe c0, c1; } scp_fe2;

/* A prime field; p = 3 mod 4 for every field here (square roots are one
 * exponentiation). */
typedef struct scp_ff {
  int n;                      /* limbs in use */
  size_t bytes;               /* big-endian encoding width */
  mp_limb_t p[SCP_FF_LIMBS];
  mp_limb_t e_inv[SCP_FF_LIMBS];   /* p - 2 */
  mp_limb_t e_sqrt[SCP_FF_LIMBS];  /* (p + 1) / 4 */
  mp_limb_t e_half[SCP_FF_LIMBS];  /* (p - 1) / 2 */
  mp_limb_t e_fp2[SCP_FF_LIMBS];   /* (p - 3) / 4 */
} scp_ff;

/* BLS12-381's base field (48-byte encodings) and BN254's (32 bytes). */
SCP_HIDDEN const scp_ff *scp_ff_bls12_381(void);
SCP_HIDDEN const scp_ff *scp_ff_bn254(void);

/* ---- Fp ---- */
SCP_HIDDEN void scp_fe_zero(scp_fe *r);
SCP_HIDDEN void scp_fe_set_u64(scp_fe *r, uint64_t v);
SCP_HIDDEN bool scp_fe_is_zero(const scp_ff *f, const scp_fe *a);
SCP_HIDDEN bool scp_fe_eq(const scp_ff *f, const scp_fe *a, const scp_fe *b);
/* b holds f->bytes big-endian bytes; false (r unspecified) when >= p. */
SCP_HIDDEN bool scp_fe_from_be(const scp_ff *f, const uint8_t *b, scp_fe *r);
/* Any length up to 128 bytes, reduced mod p (hash_to_field). */
SCP_HIDDEN void scp_fe_from_be_reduce(const scp_ff *f, const uint8_t *b, size_t len, scp_fe *r);
SCP_HIDDEN void scp_fe_to_be(const scp_ff *f, const scp_fe *a, uint8_t *b);
SCP_HIDDEN void scp_fe_add(const scp_ff *f, const scp_fe *a, const scp_fe *b, scp_fe *r);
SCP_HIDDEN void scp_fe_sub(const scp_ff *f, const scp_fe *a, const scp_fe *b, scp_fe *r);
SCP_HIDDEN void scp_fe_neg(const scp_ff *f, const scp_fe *a, scp_fe *r);
SCP_HIDDEN void scp_fe_mul(const scp_ff *f, const scp_fe *a, const scp_fe *b, scp_fe *r);
/* a^e, e little-endian limbs (en of them). */
SCP_HIDDEN void scp_fe_pow(const scp_ff *f, const scp_fe *a, const mp_limb_t *e, int en, scp_fe *r);
/* 1/a; 0 for 0. */
SCP_HIDDEN void scp_fe_inv(const scp_ff *f, const scp_fe *a, scp_fe *r);
/* A square root when a is a square (false otherwise). */
SCP_HIDDEN bool scp_fe_sqrt(const scp_ff *f, const scp_fe *a, scp_fe *r);
/* RFC 9380 sgn0: the parity of the canonical value. */
SCP_HIDDEN int scp_fe_sgn0(const scp_fe *a);

/* ---- Fp2 = Fp[u]/(u^2 + 1) ---- */
SCP_HIDDEN bool scp_fe2_is_zero(const scp_ff *f, const scp_fe2 *a);
SCP_HIDDEN bool scp_fe2_eq(const scp_ff *f, const scp_fe2 *a, const scp_fe2 *b);
SCP_HIDDEN void scp_fe2_add(const scp_ff *f, const scp_fe2 *a, const scp_fe2 *b, scp_fe2 *r);
SCP_HIDDEN void scp_fe2_sub(const scp_ff *f, const scp_fe2 *a, const scp_fe2 *b, scp_fe2 *r);
SCP_HIDDEN void scp_fe2_neg(const scp_ff *f, const scp_fe2 *a, scp_fe2 *r);
SCP_HIDDEN void scp_fe2_conj(const scp_ff *f, const scp_fe2 *a, scp_fe2 *r);
SCP_HIDDEN void scp_fe2_mul(const scp_ff *f, const scp_fe2 *a, const scp_fe2 *b, scp_fe2 *r);
SCP_HIDDEN void scp_fe2_mul_fe(const scp_ff *f, const scp_fe2 *a, const scp_fe *b, scp_fe2 *r);
SCP_HIDDEN void scp_fe2_inv(const scp_ff *f, const scp_fe2 *a, scp_fe2 *r);
SCP_HIDDEN void scp_fe2_pow(const scp_ff *f, const scp_fe2 *a, const mp_limb_t *e, int en, scp_fe2 *r);
SCP_HIDDEN bool scp_fe2_sqrt(const scp_ff *f, const scp_fe2 *a, scp_fe2 *r);
/* RFC 9380 sgn0 for m = 2. */
SCP_HIDDEN int scp_fe2_sgn0(const scp_ff *f, const scp_fe2 *a);

/* ---- y^2 = x^3 + b over Fp2 ---- */
typedef struct scp_ec {
  const scp_ff *f;
  scp_fe2 b;
} scp_ec;

/* Affine; inf marks the point at infinity (x, y then zero). */
typedef struct scp_ecp { scp_fe2 x, y; bool inf; } scp_ecp;
/* Jacobian (X/Z^2, Y/Z^3); Z = 0 is infinity. */
typedef struct scp_ecj { scp_fe2 x, y, z; } scp_ecj;

SCP_HIDDEN bool scp_ec_on_curve(const scp_ec *c, const scp_ecp *p);
SCP_HIDDEN void scp_ec_to_jac(const scp_ec *c, const scp_ecp *p, scp_ecj *r);
SCP_HIDDEN void scp_ec_to_affine(const scp_ec *c, const scp_ecj *p, scp_ecp *r);
SCP_HIDDEN void scp_ec_dbl(const scp_ec *c, const scp_ecj *p, scp_ecj *r);
SCP_HIDDEN void scp_ec_add(const scp_ec *c, const scp_ecj *p, const scp_ecj *q, scp_ecj *r);
SCP_HIDDEN void scp_ec_neg(const scp_ec *c, const scp_ecp *p, scp_ecp *r);
/* k * p, k big-endian bytes of any length (scalars are not reduced). */
SCP_HIDDEN void scp_ec_mul(const scp_ec *c, const scp_ecp *p, const uint8_t *k, size_t klen, scp_ecp *r);
/* Affine conveniences on top of the Jacobian law. */
SCP_HIDDEN void scp_ec_add_affine(const scp_ec *c, const scp_ecp *p, const scp_ecp *q, scp_ecp *r);

#endif
