/* sol_hash.c — the hashes behind the syscalls: SHA-256 (OpenSSL),
 * Keccak-256 (the original Keccak padding, as Ethereum and solana's
 * keccak-hasher use it), and program-derived addresses with
 * curve25519-dalek's rule for "on the curve". */
#include <string.h>
#include <openssl/evp.h>
#include "crypto/crypto_ed25519.h"
#include "solana/sol_sys.h"

void sol_sha256(const uint8_t *const *parts, const size_t *lens, size_t n, uint8_t out[32]) {
  EVP_MD_CTX *m = EVP_MD_CTX_new();
  unsigned len = 32;
  /* EVP fails only without memory; the digest is then zeros, never stale bytes */
  memset(out, 0, 32);
  if (!m) return;
  if (EVP_DigestInit_ex(m, EVP_sha256(), NULL)) {
    for (size_t i = 0; i < n; i++)
      if (lens[i]) EVP_DigestUpdate(m, parts[i], lens[i]);
    EVP_DigestFinal_ex(m, out, &len);
  }
  EVP_MD_CTX_free(m);
}

static uint64_t rol(uint64_t x, unsigned r) { return r ? x << r | x >> (64 - r) : x; }

/* Keccak-f[1600]: theta, rho+pi, chi, iota over 24 rounds */
static void keccak_f(uint64_t a[25]) {
  static const uint64_t RC[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};
  /* rotation offsets r[x][y] indexed x + 5y */
  static const unsigned R[25] = {0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                                 25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14};
  for (int round = 0; round < 24; round++) {
    uint64_t c[5], b[25];
    for (int x = 0; x < 5; x++) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    for (int x = 0; x < 5; x++) {
      uint64_t d = c[(x + 4) % 5] ^ rol(c[(x + 1) % 5], 1);
      for (int y = 0; y < 5; y++) a[x + 5 * y] ^= d;
    }
    /* B[y, 2x+3y] = rot(A[x, y], r[x, y]) */
    for (int x = 0; x < 5; x++)
      for (int y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rol(a[x + 5 * y], R[x + 5 * y]);
    for (int x = 0; x < 5; x++)
      for (int y = 0; y < 5; y++)
        a[x + 5 * y] = b[x + 5 * y] ^ (~b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
    a[0] ^= RC[round];
  }
}

void sol_keccak256(const uint8_t *const *parts, const size_t *lens, size_t n, uint8_t out[32]) {
  enum { RATE = 136 };
  uint64_t a[25] = {0};
  uint8_t block[RATE];
  size_t fill = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < lens[i]; j++) {
      block[fill++] = parts[i][j];
      if (fill == RATE) {
        for (int k = 0; k < RATE / 8; k++) {
          uint64_t w = 0;
          for (int t = 7; t >= 0; t--) w = w << 8 | block[8 * k + t];
          a[k] ^= w;
        }
        keccak_f(a);
        fill = 0;
      }
    }
  memset(block + fill, 0, RATE - fill);
  block[fill] ^= 0x01;
  block[RATE - 1] ^= 0x80;
  for (int k = 0; k < RATE / 8; k++) {
    uint64_t w = 0;
    for (int t = 7; t >= 0; t--) w = w << 8 | block[8 * k + t];
    a[k] ^= w;
  }
  keccak_f(a);
  for (int i = 0; i < 32; i++) out[i] = (uint8_t)(a[i / 8] >> (8 * (i % 8)));
}

/* CompressedEdwardsY::decompress().is_some(): crypto_ed25519 decodes as
 * dalek does (non-canonical y, small-order points and all); libsodium's
 * crypto_core_ed25519_is_valid_point is stricter and would move bump seeds. */
bool sol_is_on_curve(const uint8_t p[32]) { return scp_ed_valid(false, p); }

bool sol_create_pda(const uint8_t *const *seeds, const size_t *lens, size_t n,
                    const uint8_t program_id[32], uint8_t out[32], scp_sol_ierr_kind *why) {
  static const char MARKER[] = "ProgramDerivedAddress";
  const uint8_t *parts[18];
  size_t plens[18];
  if (n > 16) { *why = SCP_SOL_IERR_MAX_SEED_LENGTH_EXCEEDED; return false; }
  for (size_t i = 0; i < n; i++) {
    if (lens[i] > 32) { *why = SCP_SOL_IERR_MAX_SEED_LENGTH_EXCEEDED; return false; }
    parts[i] = seeds[i];
    plens[i] = lens[i];
  }
  parts[n] = program_id;
  plens[n] = 32;
  parts[n + 1] = (const uint8_t *)MARKER;
  plens[n + 1] = sizeof MARKER - 1;
  sol_sha256(parts, plens, n + 2, out);
  if (sol_is_on_curve(out)) { *why = SCP_SOL_IERR_INVALID_SEEDS; return false; }
  return true;
}
