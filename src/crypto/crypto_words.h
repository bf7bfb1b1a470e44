/*
 * crypto_words.h — the plain 256-bit word arithmetic under both the prime
 * fields (crypto_fr.c) and Soroban's U256 / I256 host objects
 * (host_int.c).  Values are four 64-bit words, most significant first, as
 * those objects store them.  Inline: each is a few instructions in the
 * innermost loops of field multiplication and division.
 */
#ifndef SCP_CRYPTO_WORDS_H
#define SCP_CRYPTO_WORDS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* r = a + b (mod 2^256); returns the carry out.  r may be a or b. */
static inline bool scp_w256_add(const uint64_t *a, const uint64_t *b, uint64_t *r) {
  unsigned __int128 c = 0;
  for (int i = 3; i >= 0; i--) {
    c += (unsigned __int128)a[i] + b[i];
    r[i] = (uint64_t)c;
    c >>= 64;
  }
  return c != 0;
}

/* r = a - b (mod 2^256); returns the borrow out.  r may be a or b. */
static inline bool scp_w256_sub(const uint64_t *a, const uint64_t *b, uint64_t *r) {
  uint64_t borrow = 0;
  for (int i = 3; i >= 0; i--) {
    unsigned __int128 d = (unsigned __int128)a[i] - b[i] - borrow;
    r[i] = (uint64_t)d;
    borrow = (uint64_t)(d >> 127);
  }
  return borrow != 0;
}

/* unsigned comparison: -1, 0 or 1 */
static inline int scp_w256_cmp(const uint64_t *a, const uint64_t *b) {
  for (int i = 0; i < 4; i++)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/* res = a * b, the full 512-bit product in little-endian words (the
 * schoolbook order the reduction and the overflow check each read back) */
static inline void scp_w256_mul_full(const uint64_t *a, const uint64_t *b, uint64_t res[8]) {
  memset(res, 0, 8 * sizeof *res);
  for (int i = 0; i < 4; i++) {
    unsigned __int128 carry = 0;
    for (int j = 0; j < 4; j++) {
      unsigned __int128 t = (unsigned __int128)a[3 - i] * b[3 - j] + res[i + j] + carry;
      res[i + j] = (uint64_t)t;
      carry = t >> 64;
    }
    res[i + 4] = (uint64_t)carry;
  }
}

#endif
