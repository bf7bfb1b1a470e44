/*
 * crypto_bn254.h — BN254 (alt_bn128) G1 arithmetic over Fp, as the
 * reference host's ark_bn254 computes it.  Field elements are 4 words,
 * most significant first (the layout scp_fr_* use).
 */
#ifndef SCP_CRYPTO_BN254_H
#define SCP_CRYPTO_BN254_H

#include <stdbool.h>
#include <stdint.h>

#include "crypto/crypto_fr.h"

/* Affine point; inf marks the point at infinity (encoded as all zeros). */
typedef struct scp_bn_g1 {
  uint64_t x[4], y[4];
  bool inf;
} scp_bn_g1;

/* Fp modulus p and the group order r, most significant word first. */
SCP_HIDDEN extern const uint64_t scp_bn_p[4];
SCP_HIDDEN extern const uint64_t scp_bn_r[4];

/* x < p, for the 32 big-endian bytes at b. */
SCP_HIDDEN bool scp_bn_fp_from_be(const uint8_t *b, uint64_t *x);
SCP_HIDDEN void scp_bn_fp_to_be(const uint64_t *x, uint8_t *b);
/* y^2 == x^3 + 3 (infinity counts as on the curve). */
SCP_HIDDEN bool scp_bn_g1_on_curve(const scp_bn_g1 *p);
SCP_HIDDEN void scp_bn_g1_add(const scp_bn_g1 *a, const scp_bn_g1 *b, scp_bn_g1 *r);
/* k: 4 words, most significant first, any value < 2^256. */
SCP_HIDDEN void scp_bn_g1_mul(const scp_bn_g1 *a, const uint64_t *k, scp_bn_g1 *r);

#endif
