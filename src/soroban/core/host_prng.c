/*
 * host_prng.c — the host's PRNG: ChaCha20 with rand_chacha's ChaCha20Rng
 * layout (64-bit block counter, zero stream, four blocks per refill of a
 * 64-word buffer) and rand 0.8's word consumption, uniform sampling and
 * shuffle, so that the values equal the reference's (host/prng.rs,
 * crypto/mod.rs).  The seed is first "unbiased" by HMAC-SHA256 with the
 * fixed salt of crypto/mod.rs unbias_prng_seed.  No charges here.
 */
#include <string.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "soroban/core/host_private.h"

static uint32_t rotl32(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

#define QR(a, b, c, d)                                       \
  do {                                                       \
    a += b; d ^= a; d = rotl32(d, 16);                       \
    c += d; b ^= c; b = rotl32(b, 12);                       \
    a += b; d ^= a; d = rotl32(d, 8);                        \
    c += d; b ^= c; b = rotl32(b, 7);                        \
  } while (0)

static void chacha20_block(const uint32_t key[8], uint64_t counter, uint32_t out[16]) {
  uint32_t in[16] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };
  memcpy(in + 4, key, 32);
  in[12] = (uint32_t)counter;
  in[13] = (uint32_t)(counter >> 32);
  in[14] = in[15] = 0;   /* stream 0 */
  uint32_t x[16];
  memcpy(x, in, sizeof x);
  for (int i = 0; i < 10; i++) {
    QR(x[0], x[4], x[8], x[12]);
    QR(x[1], x[5], x[9], x[13]);
    QR(x[2], x[6], x[10], x[14]);
    QR(x[3], x[7], x[11], x[15]);
    QR(x[0], x[5], x[10], x[15]);
    QR(x[1], x[6], x[11], x[12]);
    QR(x[2], x[7], x[8], x[13]);
    QR(x[3], x[4], x[9], x[14]);
  }
  for (int i = 0; i < 16; i++) out[i] = x[i] + in[i];
}

/* BlockRng::generate_and_set: the next four blocks, index set to `index` */
static void refill(scp_prng *p, unsigned index) {
  for (int b = 0; b < 4; b++) chacha20_block(p->key, p->counter++, p->buf + 16 * b);
  p->index = index;
}

void scp_prng_seed_raw(scp_prng *p, const uint8_t seed[32]) {
  memset(p, 0, sizeof *p);
  for (int i = 0; i < 8; i++) p->key[i] = scp_le32(seed + 4 * i);
  p->index = 64;   /* empty buffer: the first draw generates */
}

/* unbias_prng_seed: HMAC-SHA256(salt, seed). */
void scp_prng_seed(scp_prng *p, const uint8_t seed[32]) {
  static const uint8_t salt[32] = {
    0x7a, 0xc3, 0x39, 0x97, 0x54, 0x4e, 0x31, 0x75, 0xd2, 0x66, 0xbd, 0x02, 0x24, 0x39, 0xb2, 0x2c,
    0xdb, 0x16, 0x50, 0x8c, 0x01, 0x16, 0x3f, 0x26, 0xe5, 0xcb, 0x2a, 0x3e, 0x10, 0x45, 0xa9, 0x79 };
  uint8_t out[32];
  unsigned len = sizeof out;
  HMAC(EVP_sha256(), salt, sizeof salt, seed, 32, out, &len);
  scp_prng_seed_raw(p, out);
}

/* BlockRng::fill_bytes: whole words; a partly used word is dropped. */
void scp_prng_fill(scp_prng *p, uint8_t *dest, size_t n) {
  size_t done = 0;
  while (done < n) {
    if (p->index >= 64) refill(p, 0);
    while (p->index < 64 && done < n) {
      uint32_t w = p->buf[p->index++];
      for (int i = 0; i < 4 && done < n; i++) dest[done++] = (uint8_t)(w >> (8 * i));
    }
  }
}

static uint32_t next_u32(scp_prng *p) {
  if (p->index >= 64) refill(p, 0);
  return p->buf[p->index++];
}

/* BlockRng::next_u64, including the read across a refill */
static uint64_t next_u64(scp_prng *p) {
  if (p->index < 63) {
    uint64_t v = (uint64_t)p->buf[p->index + 1] << 32 | p->buf[p->index];
    p->index += 2;
    return v;
  }
  if (p->index >= 64) {
    refill(p, 2);
    return (uint64_t)p->buf[1] << 32 | p->buf[0];
  }
  uint64_t x = p->buf[63];
  refill(p, 1);
  return (uint64_t)p->buf[0] << 32 | x;
}

/* Uniform::from(lo..=hi).sample: UniformInt<u64> (rand 0.8). */
uint64_t scp_prng_u64_inclusive(scp_prng *p, uint64_t lo, uint64_t hi) {
  uint64_t range = hi - lo + 1;   /* wrapping */
  if (!range) return next_u64(p);
  uint64_t ints_to_reject = (UINT64_MAX - range + 1) % range;
  uint64_t zone = UINT64_MAX - ints_to_reject;
  for (;;) {
    uint64_t v = next_u64(p);
    unsigned __int128 m = (unsigned __int128)v * range;
    if ((uint64_t)m <= zone) return lo + (uint64_t)(m >> 64);
  }
}

/* gen_index / gen_range(0..ubound) for ubound <= u32::MAX:
 * UniformInt<u32>::sample_single (rand 0.8). */
static uint32_t gen_index(scp_prng *p, uint32_t ubound) {
  uint32_t range = ubound;   /* high - low with low 0, exclusive */
  uint32_t zone = (range << __builtin_clz(range)) - 1;
  for (;;) {
    uint32_t v = next_u32(p);
    uint64_t m = (uint64_t)v * range;
    if ((uint32_t)m <= zone) return (uint32_t)(m >> 32);
  }
}

/* SliceRandom::shuffle (rand 0.8): Fisher-Yates from the end. */
void scp_prng_shuffle(scp_prng *p, uint64_t *v, uint32_t n) {
  for (uint32_t i = n; i > 1; i--) {
    uint32_t j = gen_index(p, i);
    uint64_t t = v[i - 1];
    v[i - 1] = v[j];
    v[j] = t;
  }
}
