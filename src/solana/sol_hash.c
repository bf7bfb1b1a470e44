/* sol_hash.c — the hashes behind the syscalls: SHA-256 (OpenSSL),
 * Keccak-256 (crypto/crypto_keccak's), and program-derived addresses with
 * curve25519-dalek's rule for "on the curve". */
#include <pthread.h>
#include <string.h>
#include <openssl/evp.h>
#include "crypto/crypto_ed25519.h"
#include "crypto/crypto_keccak.h"
#include "solana/sol_keyslot.h"
#include "solana/sol_sys.h"

/* SHA-256 fetched from the provider once: EVP_sha256() is fetched again
 * on every EVP_DigestInit_ex, a fifth of what hashing a PDA's seeds cost.
 * Written once, then only read (any thread). */
static EVP_MD *sha256_md;
static pthread_once_t sha256_once = PTHREAD_ONCE_INIT;
static void sha256_fetch(void) { sha256_md = EVP_MD_fetch(NULL, "SHA256", NULL); }

void sol_sha256(const uint8_t *const *parts, const size_t *lens, size_t n, uint8_t out[32]) {
  pthread_once(&sha256_once, sha256_fetch);
  EVP_MD_CTX *m = EVP_MD_CTX_new();
  unsigned len = 32;
  /* EVP fails only without memory; the digest is then zeros, never stale bytes */
  memset(out, 0, 32);
  if (!m) return;
  if (EVP_DigestInit_ex(m, sha256_md ? sha256_md : EVP_sha256(), NULL)) {
    for (size_t i = 0; i < n; i++)
      if (lens[i]) EVP_DigestUpdate(m, parts[i], lens[i]);
    EVP_DigestFinal_ex(m, out, &len);
  }
  EVP_MD_CTX_free(m);
}

void sol_keccak256(const uint8_t *const *parts, const size_t *lens, size_t n, uint8_t out[32]) {
  scp_keccak k;
  scp_keccak_init(&k);
  for (size_t i = 0; i < n; i++) scp_keccak_update(&k, parts[i], lens[i]);
  scp_keccak_final(&k, out);
}

/* CompressedEdwardsY::decompress().is_some(): crypto_ed25519 decodes as
 * dalek does (non-canonical y, small-order points and all); libsodium's
 * crypto_core_ed25519_is_valid_point is stricter and would move bump seeds. */
/* A point's decoding costs an exponentiation (some 150,000
 * instructions), and a program signing with a PDA has the runtime derive
 * the address find_program_address found a moment before: each thread
 * keeps the last answers, each slot with its whole point. */
enum { CURVE_BITS = 6 };

typedef struct curve_slot {
  bool used, on;
  uint8_t p[32];
} curve_slot;

static _Thread_local curve_slot curve_cache[1 << CURVE_BITS];

bool sol_is_on_curve(const uint8_t p[32]) {
  curve_slot *s = &curve_cache[sol_key_slot(p, CURVE_BITS)];
  if (!s->used || memcmp(s->p, p, 32)) {
    s->on = scp_ed_valid(false, p);
    memcpy(s->p, p, 32);
    s->used = true;
  }
  return s->on;
}

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
