/*
 * crypto_pairing.h — the optimal ate pairings of BN254 and BLS12-381 on
 * crypto_ff's Fp/Fp2: the towers Fp6 = Fp2[v]/(v^3 - xi) and
 * Fp12 = Fp6[w]/(w^2 - v), Miller loops on the sextic twist, and the final
 * exponentiation to (p^12 - 1) / r.  Used by host_fns_pairing.c for
 * bn254_multi_pairing_check and bls12_381_multi_pairing_check.
 *
 * Only the pairing's value matters to the host (product == 1 or not), so
 * the arithmetic is written for clarity: affine lines with one Fp2
 * inversion per step and a plain square-and-multiply final exponent.  A
 * pairing takes a few tens of milliseconds.
 *
 * Points are crypto_ff's affine scp_ecp: G1 points over Fp are stored
 * with every imaginary part zero, G2 points are on the twist E'(Fp2).
 * Inputs are assumed valid (on their curves, in the order-r subgroups);
 * the host checks that before it pairs.
 */
#ifndef SCP_CRYPTO_PAIRING_H
#define SCP_CRYPTO_PAIRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/crypto_ff.h"

typedef struct scp_fe6 { scp_fe2 c[3]; } scp_fe6;     /* c0 + c1 v + c2 v^2 */
typedef struct scp_fe12 { scp_fe6 c[2]; } scp_fe12;   /* c0 + c1 w */

enum { SCP_PAIR_HARD_LIMBS = 24 };

/* One pairing-friendly curve.  Read-only after init. */
typedef struct scp_pairing {
  const scp_ff *f;
  scp_ec g1;                 /* y^2 = x^3 + b over Fp */
  scp_ec g2;                 /* the twist y^2 = x^3 + b' over Fp2 */
  scp_fe2 xi;                /* the sextic non-residue: w^6 = xi */
  bool m_twist;              /* b' = b xi (BLS12-381), else b' = b / xi */
  bool bn;                   /* BN loop 6x+2 and its two Frobenius lines */
  bool loop_neg;             /* the curve parameter x is negative */
  uint64_t loop;             /* |6x + 2| (BN: its low 64 bits) */
  uint64_t loop_hi;          /* BN: bit 64 of 6x + 2 */
  uint8_t r_be[32];          /* group order r, big-endian */
  scp_fe2 gamma[6];          /* xi^(k (p - 1) / 6): Frobenius on w^k */
  mp_limb_t hard[SCP_PAIR_HARD_LIMBS];   /* (p^4 - p^2 + 1) / r */
  int hard_n;
} scp_pairing;

SCP_HIDDEN const scp_pairing *scp_pairing_bn254(void);
SCP_HIDDEN const scp_pairing *scp_pairing_bls12_381(void);

/* ---- Fp12 ---- */
SCP_HIDDEN void scp_fe12_one(scp_fe12 *r);
SCP_HIDDEN bool scp_fe12_is_one(const scp_pairing *pc, const scp_fe12 *a);
SCP_HIDDEN bool scp_fe12_eq(const scp_pairing *pc, const scp_fe12 *a, const scp_fe12 *b);
SCP_HIDDEN void scp_fe12_mul(const scp_pairing *pc, const scp_fe12 *a, const scp_fe12 *b,
                             scp_fe12 *r);
/* 1/a; a must be non-zero. */
SCP_HIDDEN void scp_fe12_inv(const scp_pairing *pc, const scp_fe12 *a, scp_fe12 *r);
/* a^p. */
SCP_HIDDEN void scp_fe12_frob(const scp_pairing *pc, const scp_fe12 *a, scp_fe12 *r);
/* a^k, k big-endian bytes of any length. */
SCP_HIDDEN void scp_fe12_pow(const scp_pairing *pc, const scp_fe12 *a, const uint8_t *k,
                             size_t klen, scp_fe12 *r);

/* ---- the pairing ---- */
/* f *= the Miller loop value f_{loop,Q}(P) (with BN's Frobenius lines);
 * nothing when P or Q is infinity. */
SCP_HIDDEN void scp_pairing_miller(const scp_pairing *pc, const scp_ecp *p, const scp_ecp *q,
                                   scp_fe12 *f);
/* r = f^((p^12 - 1) / r). */
SCP_HIDDEN void scp_pairing_final_exp(const scp_pairing *pc, const scp_fe12 *f, scp_fe12 *r);
/* The reduced pairing e(P, Q). */
SCP_HIDDEN void scp_pairing_eval(const scp_pairing *pc, const scp_ecp *p, const scp_ecp *q,
                                 scp_fe12 *r);
/* prod e(P_i, Q_i) == 1 in GT (one shared final exponentiation). */
SCP_HIDDEN bool scp_pairing_product_is_one(const scp_pairing *pc, const scp_ecp *p,
                                           const scp_ecp *q, size_t n);
/* r Q == O for a point Q on the twist. */
SCP_HIDDEN bool scp_pairing_g2_in_subgroup(const scp_pairing *pc, const scp_ecp *q);

#endif
