/*
 * crypto_bls_h2c.h — RFC 9380 hashing to BLS12-381 G1 and G2, as the
 * reference host's arkworks code computes it (ark-ec WBMap,
 * MapToCurveBasedHasher with DefaultFieldHasher<Sha256, 128>): the
 * simplified SWU map to the 11-isogenous (G1) or 3-isogenous (G2) curve,
 * the isogeny back, and for hashing expand_message_xmd(SHA-256),
 * hash_to_field (two elements, L = 64), the sum of the two mapped points
 * and cofactor clearing by h_eff.  No host, no charges.
 */
#ifndef SCP_CRYPTO_BLS_H2C_H
#define SCP_CRYPTO_BLS_H2C_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/crypto_ff.h"

/* map_to_curve (WBMap::map_to_curve): on the curve, NOT cofactor-cleared
 * (the bls12_381_map_fp_to_g1 / map_fp2_to_g2 result).  u canonical. */
SCP_HIDDEN void scp_bls_map_g1(const scp_fe *u, scp_ecp *out);
SCP_HIDDEN void scp_bls_map_g2(const scp_fe2 *u, scp_ecp *out);

/* hash_to_curve: dst of 1..255 bytes (the caller checks; others give an
 * unspecified point).  Returns false only when OpenSSL fails. */
SCP_HIDDEN bool scp_bls_hash_g1(const uint8_t *msg, size_t len, const uint8_t *dst, size_t dlen,
                                scp_ecp *out);
SCP_HIDDEN bool scp_bls_hash_g2(const uint8_t *msg, size_t len, const uint8_t *dst, size_t dlen,
                                scp_ecp *out);

/* expand_message_xmd with SHA-256 (RFC 9380 5.3.1); out_len <= 8160,
 * dlen <= 255.  false on an OpenSSL failure or bad lengths. */
SCP_HIDDEN bool scp_bls_expand_xmd(const uint8_t *msg, size_t len, const uint8_t *dst,
                                   size_t dlen, uint8_t *out, size_t out_len);

#endif
