/*
 * host_crypto.c — the cryptographic primitives behind the crypto host
 * functions, on Debian's libraries: libsodium (ed25519), libsecp256k1
 * (ECDSA recovery) and OpenSSL libcrypto (P-256); Keccak-256 is
 * crypto/crypto_keccak's.  No charges
 * here: host_fns.c charges as the reference does around these calls.
 */
#include <string.h>
/* EC_KEY is deprecated in OpenSSL 3 but is the short way to verify a
 * prehashed P-256 signature from a raw point. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/obj_mac.h>
#include <secp256k1.h>
#include <secp256k1_recovery.h>
#include <sodium.h>

#include "crypto/crypto_ed25519.h"
#include "soroban/core/host_private.h"

/* ---- ed25519 -------------------------------------------------------------- */

/* VerifyingKey::from_bytes (ed25519-dalek) only decompresses the point, as
 * crypto_ed25519 does (non-canonical y, x = 0 with the sign bit, small
 * order all pass).  Small-order keys such as all zeros (the GAAAA...WHF
 * account) fail only at verify_strict, after VerifyEd25519Sig is charged:
 * libsodium's crypto_core_ed25519_is_valid_point would reject them before. */
bool scp_host_ed25519_key_ok(const uint8_t key[32]) { return scp_ed_valid(false, key); }

bool scp_host_ed25519_verify(const uint8_t key[32], const uint8_t *msg, size_t len,
                             const uint8_t sig[64]) {
  if (sodium_init() < 0) return false;
  return crypto_sign_verify_detached(sig, msg, len, key) == 0;
}

/* ---- ECDSA signature scalars ------------------------------------------------ */

/* Group orders (big-endian) of secp256k1 and P-256. */
static const uint8_t order_k1[32] = {
  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
  0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48, 0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41 };
static const uint8_t order_r1[32] = {
  0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
  0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51 };

static bool is_zero32(const uint8_t *x) {
  for (int i = 0; i < 32; i++)
    if (x[i]) return false;
  return true;
}

/* x < n (big-endian) */
static bool below(const uint8_t *x, const uint8_t *n) { return memcmp(x, n, 32) < 0; }

/* x > n/2 */
static bool is_high(const uint8_t *x, const uint8_t *n) {
  uint8_t half[32];
  unsigned carry = 0;
  for (int i = 0; i < 32; i++) {
    unsigned v = (carry << 8) | n[i];
    half[i] = (uint8_t)(v >> 1);
    carry = v & 1;
  }
  return memcmp(x, half, 32) > 0;
}

/* ecdsa::Signature::try_from: 64 bytes, r and s in [1, n).  Then the
 * host's low-s rule. 0 ok, 1 malformed, 2 high s. */
int scp_host_ecdsa_sig_check(const uint8_t *sig, size_t len, bool k1) {
  const uint8_t *n = k1 ? order_k1 : order_r1;
  if (len != 64) return 1;
  if (is_zero32(sig) || is_zero32(sig + 32) || !below(sig, n) || !below(sig + 32, n)) return 1;
  return is_high(sig + 32, n) ? 2 : 0;
}

/* ---- secp256k1 ----------------------------------------------------------------- */

bool scp_host_secp256k1_recover(const uint8_t hash[32], const uint8_t sig[64], int recid,
                                uint8_t out[65]) {
  secp256k1_context *ctx = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
  if (!ctx) return false;
  secp256k1_ecdsa_recoverable_signature rs;
  secp256k1_pubkey pk;
  size_t outlen = 65;
  bool ok = secp256k1_ecdsa_recoverable_signature_parse_compact(ctx, &rs, sig, recid) &&
            secp256k1_ecdsa_recover(ctx, &pk, &rs, hash) &&
            secp256k1_ec_pubkey_serialize(ctx, out, &outlen, &pk, SECP256K1_EC_UNCOMPRESSED);
  secp256k1_context_destroy(ctx);
  return ok && outlen == 65;
}

/* ---- P-256 ------------------------------------------------------------------------ */

/* sec1 Tag::from_u8 accepts 0 (identity), 2, 3 (compressed), 4
 * (uncompressed), 5..7 (compact/hybrid forms are not accepted by p256);
 * the host then requires 4 and a valid 65-byte point. 0 ok, 1 bad. */
int scp_host_p256_key_check(const uint8_t *key, size_t len) {
  if (!len || key[0] != 0x04 || len != 65) return 1;
  EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
  EC_POINT *p = g ? EC_POINT_new(g) : NULL;
  int bad = !p || !EC_POINT_oct2point(g, p, key, len, NULL) || !EC_POINT_is_on_curve(g, p, NULL);
  EC_POINT_free(p);
  EC_GROUP_free(g);
  return bad;
}

bool scp_host_p256_verify(const uint8_t key[65], const uint8_t hash[32], const uint8_t sig[64]) {
  bool ok = false;
  EC_KEY *k = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
  ECDSA_SIG *s = ECDSA_SIG_new();
  BIGNUM *r = BN_bin2bn(sig, 32, NULL), *ss = BN_bin2bn(sig + 32, 32, NULL);
  EC_POINT *p = NULL;
  if (!k || !s || !r || !ss) goto done;
  p = EC_POINT_new(EC_KEY_get0_group(k));
  if (!p || !EC_POINT_oct2point(EC_KEY_get0_group(k), p, key, 65, NULL)) goto done;
  if (!EC_KEY_set_public_key(k, p)) goto done;
  if (!ECDSA_SIG_set0(s, r, ss)) goto done;
  r = ss = NULL;   /* owned by s now */
  ok = ECDSA_do_verify(hash, 32, s, k) == 1;
done:
  BN_free(r);
  BN_free(ss);
  EC_POINT_free(p);
  ECDSA_SIG_free(s);
  EC_KEY_free(k);
  return ok;
}
