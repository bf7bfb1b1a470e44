/* crypto_keccak.c — Keccak-f[1600] and the 136-byte-rate sponge of
 * Keccak-256. */
#include <string.h>

#include "crypto/crypto_keccak.h"

enum { RATE = 136 };

static const uint64_t keccak_rc[24] = {
  0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
  0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
  0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
  0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
  0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
  0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
  0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
  0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* rho rotation offsets and pi lane order, walking the lanes from (1, 0) */
static const unsigned keccak_rot[24] = { 1,  3,  6,  10, 15, 21, 28, 36, 45, 55, 2,  14,
                                         27, 41, 56, 8,  25, 43, 62, 18, 39, 61, 20, 44 };
static const unsigned keccak_pi[24] = { 10, 7,  11, 17, 18, 3, 5,  16, 8,  21, 24, 4,
                                        15, 23, 19, 13, 12, 2, 20, 14, 22, 9,  6,  1 };

static uint64_t rotl64(uint64_t x, unsigned n) { return (x << n) | (x >> (64 - n)); }

static void keccak_f(uint64_t s[25]) {
  for (int round = 0; round < 24; round++) {
    uint64_t c[5];
    for (int x = 0; x < 5; x++) c[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20];
    for (int x = 0; x < 5; x++) {
      uint64_t d = c[(x + 4) % 5] ^ rotl64(c[(x + 1) % 5], 1);
      for (int y = 0; y < 25; y += 5) s[y + x] ^= d;
    }
    uint64_t cur = s[1];
    for (int i = 0; i < 24; i++) {
      unsigned j = keccak_pi[i];
      uint64_t t = s[j];
      s[j] = rotl64(cur, keccak_rot[i]);
      cur = t;
    }
    for (int y = 0; y < 25; y += 5) {
      uint64_t row[5];
      for (int x = 0; x < 5; x++) row[x] = s[y + x];
      for (int x = 0; x < 5; x++) s[y + x] = row[x] ^ (~row[(x + 1) % 5] & row[(x + 2) % 5]);
    }
    s[0] ^= keccak_rc[round];
  }
}

static void absorb(uint64_t s[25], const uint8_t block[RATE]) {
  for (int i = 0; i < RATE / 8; i++) {
    uint64_t v = 0;
    for (int b = 7; b >= 0; b--) v = (v << 8) | block[8 * i + b];
    s[i] ^= v;
  }
  keccak_f(s);
}

void scp_keccak_init(scp_keccak *k) { memset(k, 0, sizeof *k); }

void scp_keccak_update(scp_keccak *k, const uint8_t *in, size_t len) {
  while (len) {
    size_t take = RATE - k->fill < len ? RATE - k->fill : len;
    memcpy(k->buf + k->fill, in, take);
    k->fill += take;
    in += take;
    len -= take;
    if (k->fill == RATE) {
      absorb(k->s, k->buf);
      k->fill = 0;
    }
  }
}

void scp_keccak_final(scp_keccak *k, uint8_t out[32]) {
  memset(k->buf + k->fill, 0, RATE - k->fill);
  k->buf[k->fill] ^= 0x01;
  k->buf[RATE - 1] ^= 0x80;
  absorb(k->s, k->buf);
  for (int i = 0; i < 32; i++) out[i] = (uint8_t)(k->s[i / 8] >> (8 * (i % 8)));
}

void scp_keccak256(const uint8_t *in, size_t len, uint8_t out[32]) {
  scp_keccak k;
  scp_keccak_init(&k);
  scp_keccak_update(&k, in, len);
  scp_keccak_final(&k, out);
}
