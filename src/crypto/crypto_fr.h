/*
 * crypto_fr.h — arithmetic modulo a 256-bit prime m (the scalar fields of
 * BLS12-381 and BN254, and BN254's base field).  Values are four 64-bit
 * words, most significant first, the layout Soroban's U256 objects use.
 * Plain schoolbook code: slow, simple, constant in its results.
 */
#ifndef SCP_CRYPTO_FR_H
#define SCP_CRYPTO_FR_H

#include <stdint.h>

#include "util/scp_util.h"

/* Operands < m except scp_fr_reduce's.  scp_fr_pow's exponent has ewords
 * words, least significant first. */
SCP_HIDDEN void scp_fr_reduce(const uint64_t *a, const uint64_t *m, uint64_t *r);
SCP_HIDDEN void scp_fr_add(const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t *r);
SCP_HIDDEN void scp_fr_sub(const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t *r);
SCP_HIDDEN void scp_fr_mul(const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t *r);
SCP_HIDDEN void scp_fr_pow(const uint64_t *a, const uint64_t *e, unsigned ewords,
                           const uint64_t *m, uint64_t *r);

#endif
