/* crypto_fr.c — arithmetic modulo a 256-bit prime, four words most
 * significant first.  Reduction is bit-serial long division: no
 * precomputation per modulus, so any prime works. */
#include <stdbool.h>
#include <string.h>

#include "crypto/crypto_fr.h"

typedef unsigned __int128 u128;

/* r = a + b; returns the carry out */
static bool add_words(const uint64_t *a, const uint64_t *b, uint64_t *r) {
  u128 c = 0;
  for (int i = 3; i >= 0; i--) {
    c += (u128)a[i] + b[i];
    r[i] = (uint64_t)c;
    c >>= 64;
  }
  return c != 0;
}

/* r = a - b; returns the borrow out */
static bool sub_words(const uint64_t *a, const uint64_t *b, uint64_t *r) {
  uint64_t borrow = 0;
  for (int i = 3; i >= 0; i--) {
    u128 d = (u128)a[i] - b[i] - borrow;
    r[i] = (uint64_t)d;
    borrow = (uint64_t)(d >> 127);
  }
  return borrow != 0;
}

static int cmp_words(const uint64_t *a, const uint64_t *b) {
  for (int i = 0; i < 4; i++)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

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
    if (top || cmp_words(rem, m) >= 0) sub_words(rem, m, rem);
  }
  memcpy(r, rem, sizeof rem);
}

void scp_fr_reduce(const uint64_t *a, const uint64_t *m, uint64_t *r) {
  uint64_t x[8] = { 0 };
  memcpy(x + 4, a, 4 * sizeof *a);
  mod512(x, m, r);
}

void scp_fr_add(const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t *r) {
  bool carry = add_words(a, b, r);
  if (carry || cmp_words(r, m) >= 0) sub_words(r, m, r);
}

void scp_fr_sub(const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t *r) {
  if (sub_words(a, b, r)) add_words(r, m, r);
}

void scp_fr_mul(const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t *r) {
  uint64_t res[8] = { 0 };   /* little-endian words */
  for (int i = 0; i < 4; i++) {
    u128 carry = 0;
    for (int j = 0; j < 4; j++) {
      u128 t = (u128)a[3 - i] * b[3 - j] + res[i + j] + carry;
      res[i + j] = (uint64_t)t;
      carry = t >> 64;
    }
    res[i + 4] = (uint64_t)carry;
  }
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
