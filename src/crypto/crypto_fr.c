/* crypto_fr.c — arithmetic modulo a 256-bit prime, four words most
 * significant first.  Reduction is bit-serial long division: no
 * precomputation per modulus, so any prime works. */
#include <stdbool.h>
#include <string.h>

#include "crypto/crypto_fr.h"
#include "crypto/crypto_words.h"

/* a <<= 1; returns the bit shifted out */
static bool shl1(uint64_t *a) {
  bool top = a[0] >> 63;
  for (int i = 0; i < 3; i++) a[i] = a[i] << 1 | a[i + 1] >> 63;
  a[3] <<= 1;
  return top;
}

/* r = x mod m for a 512-bit x (eight words, most significant first) */
static void mod512(const uint64_t *x, const uint64_t *m, uint64_t *r) {
  uint64_t rem[4] = { 0 };
  for (int bit = 511; bit >= 0; bit--) {
    bool top = shl1(rem);   /* the bit shifted out of 256 */
    rem[3] |= (x[7 - bit / 64] >> (bit % 64)) & 1;
    if (top || scp_w256_cmp(rem, m) >= 0) scp_w256_sub(rem, m, rem);
  }
  memcpy(r, rem, sizeof rem);
}

void scp_fr_reduce(const uint64_t *a, const uint64_t *m, uint64_t *r) {
  uint64_t x[8] = { 0 };
  memcpy(x + 4, a, 4 * sizeof *a);
  mod512(x, m, r);
}

void scp_fr_add(const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t *r) {
  bool carry = scp_w256_add(a, b, r);
  if (carry || scp_w256_cmp(r, m) >= 0) scp_w256_sub(r, m, r);
}

void scp_fr_sub(const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t *r) {
  if (scp_w256_sub(a, b, r)) scp_w256_add(r, m, r);
}

void scp_fr_mul(const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t *r) {
  uint64_t res[8];   /* little-endian words */
  scp_w256_mul_full(a, b, res);
  uint64_t x[8];
  for (int i = 0; i < 8; i++) x[i] = res[7 - i];
  mod512(x, m, r);
}

void scp_fr_pow(const uint64_t *a, const uint64_t *e, unsigned ewords, const uint64_t *m,
                uint64_t *r) {
  uint64_t acc[4] = { 0, 0, 0, 1 }, base[4];
  memcpy(base, a, sizeof base);
  /* right to left: least significant word and bit first */
  for (unsigned w = 0; w < ewords; w++)
    for (int bit = 0; bit < 64; bit++) {
      if ((e[w] >> bit) & 1) scp_fr_mul(acc, base, m, acc);
      scp_fr_mul(base, base, m, base);
    }
  memcpy(r, acc, sizeof acc);
}
