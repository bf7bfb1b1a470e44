/* crypto_poseidon.c — circom's Poseidon over BN254 Fr.  The parameters
 * come from the reference generator's Grain LFSR: an 80-bit state seeded
 * with (field 1, S-box 0, 254 bits, t, R_F, R_P, thirty ones), 160
 * outputs discarded, then bits taken in pairs (the second bit kept when
 * the first is 1); 254-bit samples are round constants when < r, and
 * 2t samples reduced mod r give the Cauchy MDS matrix 1 / (x_i + y_j).
 * The reference also runs security checks on the matrix and samples again
 * if one fails; for these widths the first matrix passes, which the known
 * hashes in tests/crypto/test_poseidon.c confirm for every width. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "crypto/crypto_bn254.h"
#include "crypto/crypto_poseidon.h"

enum { MIN_T = 2, MAX_T = 13, FULL_ROUNDS = 8, NBITS = 254 };

/* the partial rounds of widths 2..13 (the reference's table) */
static const unsigned PARTIAL[MAX_T - MIN_T + 1] = { 56, 57, 56, 60, 60, 63, 64, 63, 60, 66, 60, 65 };

typedef struct grain { uint8_t s[80]; unsigned head; } grain;

static unsigned grain_step(grain *g) {
  /* taps 62, 51, 38, 23, 13, 0 of the state, oldest bit first */
  const uint8_t *s = g->s;
  unsigned h = g->head;
  unsigned b = s[(h + 62) % 80] ^ s[(h + 51) % 80] ^ s[(h + 38) % 80] ^ s[(h + 23) % 80] ^
               s[(h + 13) % 80] ^ s[h];
  g->s[h] = (uint8_t)b;
  g->head = (h + 1) % 80;
  return b;
}

static void put_bits(grain *g, unsigned *at, unsigned v, unsigned width) {
  for (unsigned i = 0; i < width; i++) g->s[(*at)++] = (v >> (width - 1 - i)) & 1;
}

static void grain_init(grain *g, unsigned t, unsigned rp) {
  unsigned at = 0;
  g->head = 0;
  put_bits(g, &at, 1, 2);          /* a prime field */
  put_bits(g, &at, 0, 4);          /* x^alpha */
  put_bits(g, &at, NBITS, 12);
  put_bits(g, &at, t, 12);
  put_bits(g, &at, FULL_ROUNDS, 10);
  put_bits(g, &at, rp, 10);
  while (at < 80) g->s[at++] = 1;
  for (int i = 0; i < 160; i++) grain_step(g);
}

static unsigned grain_bit(grain *g) {
  for (;;) {
    unsigned first = grain_step(g), second = grain_step(g);
    if (first) return second;
  }
}

/* NBITS bits, most significant first, as 4 words most significant first */
static void grain_sample(grain *g, uint64_t v[4]) {
  memset(v, 0, 4 * sizeof *v);
  for (unsigned i = 0; i < NBITS; i++) {
    unsigned pos = NBITS - 1 - i;          /* bit position of this bit */
    if (grain_bit(g)) v[3 - pos / 64] |= (uint64_t)1 << (pos % 64);
  }
}

static int cmp4(const uint64_t *a, const uint64_t *b) {
  for (int i = 0; i < 4; i++)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

static bool is_zero4(const uint64_t *a) { return !(a[0] | a[1] | a[2] | a[3]); }

/* 1/a mod r with GMP: the 169 inversions of width 13's matrix would take
 * a noticeable fraction of a second as crypto_fr exponentiations */
static void fr_inv(const uint64_t *a, uint64_t *r) {
  mpz_t x, m;
  mpz_inits(x, m, NULL);
  mpz_import(x, 4, 1, sizeof a[0], 0, 0, a);
  mpz_import(m, 4, 1, sizeof scp_bn_r[0], 0, 0, scp_bn_r);
  mpz_invert(x, x, m);
  memset(r, 0, 4 * sizeof *r);
  size_t cnt = 0;
  uint64_t t[4] = { 0 };
  mpz_export(t, &cnt, -1, sizeof t[0], 0, 0, x);
  for (size_t i = 0; i < cnt; i++) r[3 - i] = t[i];
  mpz_clears(x, m, NULL);
}

/* The reference's create_mds_p: 2t distinct samples mod r; again when two
 * are equal or some x_i + y_j is zero. */
static void make_mds(grain *g, unsigned t, uint64_t (*mds)[4]) {
  uint64_t xy[2 * MAX_T][4];
  for (;;) {
    bool distinct;
    do {
      for (unsigned i = 0; i < 2 * t; i++) {
        grain_sample(g, xy[i]);
        scp_fr_reduce(xy[i], scp_bn_r, xy[i]);
      }
      distinct = true;
      for (unsigned i = 0; i < 2 * t && distinct; i++)
        for (unsigned j = i + 1; j < 2 * t && distinct; j++) distinct = cmp4(xy[i], xy[j]) != 0;
    } while (!distinct);
    bool ok = true;
    for (unsigned i = 0; i < t && ok; i++)
      for (unsigned j = 0; j < t && ok; j++) {
        uint64_t s[4];
        scp_fr_add(xy[i], xy[t + j], scp_bn_r, s);
        if (is_zero4(s)) ok = false;
        else fr_inv(s, mds[i * t + j]);
      }
    if (ok) return;
  }
}

static scp_poseidon_params *make_params(unsigned t) {
  scp_poseidon_params *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->t = t;
  p->full_rounds = FULL_ROUNDS;
  p->partial_rounds = PARTIAL[t - MIN_T];
  size_t nark = (size_t)(FULL_ROUNDS + p->partial_rounds) * t;
  p->ark = calloc(nark, sizeof *p->ark);
  p->mds = calloc((size_t)t * t, sizeof *p->mds);
  if (!p->ark || !p->mds) {
    free(p->ark);
    free(p->mds);
    free(p);
    return NULL;
  }
  grain g;
  grain_init(&g, t, p->partial_rounds);
  for (size_t i = 0; i < nark; i++) {
    do grain_sample(&g, p->ark[i]);
    while (cmp4(p->ark[i], scp_bn_r) >= 0);
  }
  make_mds(&g, t, p->mds);
  return p;
}

static pthread_mutex_t params_lock = PTHREAD_MUTEX_INITIALIZER;
static scp_poseidon_params *params[MAX_T + 1];

const scp_poseidon_params *scp_poseidon_circom(unsigned t) {
  if (t < MIN_T || t > MAX_T) return NULL;
  pthread_mutex_lock(&params_lock);
  if (!params[t]) params[t] = make_params(t);
  scp_poseidon_params *p = params[t];
  pthread_mutex_unlock(&params_lock);
  return p;
}

static void sbox(uint64_t *x) {
  uint64_t x2[4], x4[4];
  scp_fr_mul(x, x, scp_bn_r, x2);
  scp_fr_mul(x2, x2, scp_bn_r, x4);
  scp_fr_mul(x4, x, scp_bn_r, x);
}

bool scp_poseidon_hash(const uint64_t (*in)[4], size_t n, uint64_t out[4]) {
  if (n < 1 || n > SCP_POSEIDON_MAX_INPUTS) return false;
  const scp_poseidon_params *p = scp_poseidon_circom((unsigned)n + 1);
  if (!p) return false;
  unsigned t = p->t, rounds = p->full_rounds + p->partial_rounds, half = p->full_rounds / 2;
  uint64_t st[MAX_T][4] = { { 0 } }, nx[MAX_T][4];
  for (size_t i = 0; i < n; i++) memcpy(st[i + 1], in[i], sizeof st[0]);
  for (unsigned r = 0; r < rounds; r++) {
    for (unsigned i = 0; i < t; i++) scp_fr_add(st[i], p->ark[r * t + i], scp_bn_r, st[i]);
    bool full = r < half || r >= half + p->partial_rounds;
    for (unsigned i = 0; i < (full ? t : 1); i++) sbox(st[i]);
    for (unsigned i = 0; i < t; i++) {
      uint64_t acc[4] = { 0 }, m[4];
      for (unsigned j = 0; j < t; j++) {
        scp_fr_mul(st[j], p->mds[i * t + j], scp_bn_r, m);
        scp_fr_add(acc, m, scp_bn_r, acc);
      }
      memcpy(nx[i], acc, sizeof acc);
    }
    memcpy(st, nx, sizeof st[0] * t);
  }
  memcpy(out, st[0], sizeof st[0]);
  return true;
}
