/*
 * crypto_ed25519.h — the group operations on curve25519 that Solana's
 * curve syscalls expose, with curve25519-dalek's results.  Points are the
 * 32-byte compressed encodings, scalars 32 bytes little-endian.
 *
 * Edwards points decode as CompressedEdwardsY::decompress does: y taken
 * from the low 255 bits modulo p (a non-canonical y is accepted), any
 * point of the curve (small order and outside the prime-order subgroup
 * too), and results are re-encoded canonically.  libsodium's ed25519
 * functions refuse some of those points, so this is its own arithmetic
 * over GF(2^255-19); it is not constant-time (no secrets pass through).
 * Ristretto points are libsodium's, which decodes as dalek does.
 *
 * Each operation is false where dalek answers None (a point that does not
 * decode, a scalar not below the group order), and then leaves out alone.
 */
#ifndef SCP_CRYPTO_ED25519_H
#define SCP_CRYPTO_ED25519_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/scp_util.h"

/* s < l = 2^252 + 27742317777372353535851937790883648493 */
SCP_HIDDEN bool scp_ed_scalar_canonical(const uint8_t s[32]);

/* ristretto: false for Edwards, true for Ristretto255 */
SCP_HIDDEN bool scp_ed_valid(bool ristretto, const uint8_t p[32]);
/* a + b, or a - b when sub */
SCP_HIDDEN bool scp_ed_add(bool ristretto, const uint8_t a[32], const uint8_t b[32], bool sub,
                           uint8_t out[32]);
SCP_HIDDEN bool scp_ed_mul(bool ristretto, const uint8_t s[32], const uint8_t p[32],
                           uint8_t out[32]);
/* sum of s[i] p[i] over n pairs (32 bytes each, packed); n 0 is the identity */
SCP_HIDDEN bool scp_ed_msm(bool ristretto, const uint8_t *s, const uint8_t *p, size_t n,
                           uint8_t out[32]);

#endif
