/*
 * host_fns_crypto.c — hashes and signatures (crypto/mod.rs), 256-bit
 * integers (host/num.rs), the PRNG (host/prng.rs) and the BLS12-381 /
 * BN254 scalar fields (crypto/metered_scalar.rs), with the reference's
 * checks and charges in the reference's order.  Registered in host_fns.c.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/sha.h>

#include "crypto/crypto_keccak.h"
#include "soroban/fns/host_fns_private.h"

/* ---- crypto (crypto/mod.rs) ------------------------------------------------ */

/* sha256_hash_from_bytesobj_input: visit, Vec<u8> bulk init of 32,
 * ComputeSha256Hash(len); then add_host_object of the digest. */
HOSTFN(compute_hash_sha256) {
  const scp_hobj *o;
  uint8_t digest[SHA256_DIGEST_LENGTH];
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, 32, 1);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_ComputeSha256Hash, o->len);
  if (rc != SCP_OK) return rc;
  SHA256(o->u.bytes, o->len, digest);
  return scp_hf_add_bytes_obj(h, SCP_TAG_BYTES_OBJ, digest, sizeof digest, ret);
}

/* keccak256_hash_from_bytesobj_input: as sha256 with ComputeKeccak256Hash. */
HOSTFN(compute_hash_keccak256) {
  const scp_hobj *o;
  uint8_t digest[32];
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, 32, 1);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_ComputeKeccak256Hash, o->len);
  if (rc != SCP_OK) return rc;
  scp_keccak256(o->u.bytes, o->len, digest);
  return scp_hf_add_bytes_obj(h, SCP_TAG_BYTES_OBJ, digest, sizeof digest, ret);
}

/* fixed_length_bytes_from_bytesobj_input (conversion.rs): visit, then
 * MemCpy(n) or Error(Object, UnexpectedSize). */
static int fixed_bytes(scp_host *h, uint64_t v, uint32_t n, uint8_t *out) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, v, &o);
  if (rc != SCP_OK) return rc;
  if (o->len != n)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_UNEXPECTED_SIZE,
                        "expected fixed-length bytes slice, got slice with different size");
  rc = scp_host_charge(h, SCP_COST_MemCpy, n);
  if (rc == SCP_OK) memcpy(out, o->u.bytes, n);
  return rc;
}

/* verify_sig_ed25519 (host.rs, crypto/mod.rs): key (visit,
 * ComputeEd25519PubKey, length and point checks), signature (64 fixed
 * bytes), then visit the message, VerifyEd25519Sig(len), verify_strict. */
HOSTFN(verify_sig_ed25519) {
  const scp_hobj *o;
  uint8_t key[32], sig[64];
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_ComputeEd25519PubKey, -1);
  if (rc != SCP_OK) return rc;
  if (o->len != 32) return scp_hf_err_crypto(h, "invalid length of ed25519 public key");
  memcpy(key, o->u.bytes, 32);
  if (!scp_host_ed25519_key_ok(key)) return scp_hf_err_crypto(h, "invalid ed25519 public key");
  rc = fixed_bytes(h, a[2], 64, sig);
  if (rc == SCP_OK) rc = scp_host_visit(h, a[1], &o);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_VerifyEd25519Sig, o->len);
  if (rc != SCP_OK) return rc;
  if (!scp_host_ed25519_verify(key, o->u.bytes, o->len, sig))
    return scp_hf_err_crypto(h, "failed ED25519 verification");
  *ret = SCP_VAL_VOID;
  return SCP_OK;
}

/* ecdsa_signature_from_bytesobj_input: visit, DecodeEcdsaCurve256Sig,
 * parse, low-s. */
static int ecdsa_sig(scp_host *h, uint64_t v, bool k1, uint8_t sig[64]) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, v, &o);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_DecodeEcdsaCurve256Sig, -1);
  if (rc != SCP_OK) return rc;
  int c = scp_host_ecdsa_sig_check(o->u.bytes, o->len, k1);
  if (c == 1) return scp_hf_err_crypto(h, "invalid ECDSA signature");
  if (c == 2) return scp_hf_err_crypto(h, "ECDSA signature 's' part is not normalized to low form");
  memcpy(sig, o->u.bytes, 64);
  return SCP_OK;
}

HOSTFN(recover_key_ecdsa_secp256k1) {
  uint8_t sig[64], hash[32], key[65];
  int rc = ecdsa_sig(h, a[1], true, sig);
  if (rc != SCP_OK) return rc;
  uint32_t rid = scp_hf_u32_arg(a[2]);
  if (rid > 3) return scp_hf_err_crypto(h, "invalid ECDSA-secp256k1 recovery ID");
  rc = fixed_bytes(h, a[0], 32, hash);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_RecoverEcdsaSecp256k1Key, -1);
  if (rc != SCP_OK) return rc;
  if (!scp_host_secp256k1_recover(hash, sig, (int)rid, key))
    return scp_hf_err_crypto(h, "ECDSA-secp256k1 signature recovery failed");
  return scp_hf_add_bytes_obj(h, SCP_TAG_BYTES_OBJ, key, sizeof key, ret);
}

HOSTFN(verify_sig_ecdsa_secp256r1) {
  const scp_hobj *o;
  uint8_t key[65], sig[64], hash[32];
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_Sec1DecodePointUncompressed, -1);
  if (rc != SCP_OK) return rc;
  if (scp_host_p256_key_check(o->u.bytes, o->len))
    return scp_hf_err_crypto(h, "invalid ECDSA public key");
  memcpy(key, o->u.bytes, 65);
  rc = ecdsa_sig(h, a[2], false, sig);
  if (rc == SCP_OK) rc = fixed_bytes(h, a[1], 32, hash);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_VerifyEcdsaSecp256r1Sig, -1);
  if (rc != SCP_OK) return rc;
  if (!scp_host_p256_verify(key, hash, sig))
    return scp_hf_err_crypto(h, "failed secp256r1 verification");
  *ret = SCP_VAL_VOID;
  return SCP_OK;
}

/* ---- 256-bit integers (host.rs, host/num.rs, common convert.rs) ------------ */

static int obj_from_words(scp_host *h, unsigned tag, const uint64_t *w, uint64_t *ret) {
  scp_hobj o = { .tag = (uint8_t)tag };
  memcpy(o.u.w, w, sizeof o.u.w);
  return scp_host_add_obj(h, &o, ret);
}

HOSTFN(obj_from_u256_pieces) { return obj_from_words(h, SCP_TAG_U256_OBJ, a, ret); }
HOSTFN(obj_from_i256_pieces) { return obj_from_words(h, SCP_TAG_I256_OBJ, a, ret); }

static int obj_word(scp_host *h, uint64_t v, unsigned k, uint64_t *ret) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, v, &o);
  if (rc == SCP_OK) *ret = o->u.w[k];
  return rc;
}

HOSTFN(obj_to_u256_hi_hi) { return obj_word(h, a[0], 0, ret); }
HOSTFN(obj_to_u256_hi_lo) { return obj_word(h, a[0], 1, ret); }
HOSTFN(obj_to_u256_lo_hi) { return obj_word(h, a[0], 2, ret); }
HOSTFN(obj_to_u256_lo_lo) { return obj_word(h, a[0], 3, ret); }
HOSTFN(obj_to_i256_hi_hi) { return obj_word(h, a[0], 0, ret); }
HOSTFN(obj_to_i256_hi_lo) { return obj_word(h, a[0], 1, ret); }
HOSTFN(obj_to_i256_lo_hi) { return obj_word(h, a[0], 2, ret); }
HOSTFN(obj_to_i256_lo_lo) { return obj_word(h, a[0], 3, ret); }

/* TryFromVal<Val> for U256 / I256: a small value is free; an object is
 * read through four checked Env calls (obj_to_u256_hi_hi ...), each
 * visiting it twice (argument check, then the body). */
static int int256_from_val(scp_host *h, uint64_t v, bool sign, uint64_t *w) {
  if (!scp_val_is_object(v)) {
    scp_int256_from_small(v, sign, w);
    return SCP_OK;
  }
  for (unsigned k = 0; k < 4; k++) {
    int rc = scp_host_check_val(h, v);
    if (rc == SCP_OK) rc = obj_word(h, v, k, &w[k]);
    if (rc != SCP_OK) return rc;
  }
  return SCP_OK;
}

/* TryFromVal<U256> for U256Val: small when it fits, else the checked Env
 * obj_from_u256_pieces (a new object, then its result check). */
static int int256_to_val(scp_host *h, const uint64_t *w, bool sign, uint64_t *ret) {
  if (scp_int256_fits_small(w, sign)) {
    *ret = sign ? scp_val_small_i((int64_t)w[3], SCP_TAG_I256_SMALL)
                : scp_val_small_u(w[3], SCP_TAG_U256_SMALL);
    return SCP_OK;
  }
  int rc = obj_from_words(h, sign ? SCP_TAG_I256_OBJ : SCP_TAG_U256_OBJ, w, ret);
  if (rc == SCP_OK) rc = scp_host_check_val(h, *ret);
  return rc;
}

/* impl_bignum_host_fns (host/num.rs): the cost type first, then both
 * operands, the operation; None is Error(Object, ArithDomain), or Void for
 * the checked_ variants. */
static int bignum(scp_host *h, const uint64_t *a, scp_int256_opcode op, bool sign,
                  scp_cost_type cost, bool checked, uint64_t *ret) {
  uint64_t x[4], y[4] = { 0 }, r[4];
  uint32_t n = 0;
  bool u32_rhs = op == SCP_I256_POW || op == SCP_I256_SHL || op == SCP_I256_SHR;
  int rc = scp_host_charge(h, cost, -1);
  if (rc == SCP_OK) rc = int256_from_val(h, a[0], sign, x);
  if (rc == SCP_OK && !u32_rhs) rc = int256_from_val(h, a[1], sign, y);
  if (rc != SCP_OK) return rc;
  if (u32_rhs) n = scp_hf_u32_arg(a[1]);
  if (!scp_int256_op(op, sign, x, y, n, r)) {
    if (checked) {
      *ret = SCP_VAL_VOID;
      return SCP_OK;
    }
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_ARITH_DOMAIN, "overflow has occurred");
  }
  return int256_to_val(h, r, sign, ret);
}

#define BIGNUM(name, op, sign, cost, checked) \
  HOSTFN(name) { return bignum(h, a, op, sign, SCP_COST_##cost, checked, ret); }
BIGNUM(u256_add, SCP_I256_ADD, false, Int256AddSub, false)
BIGNUM(u256_sub, SCP_I256_SUB, false, Int256AddSub, false)
BIGNUM(u256_mul, SCP_I256_MUL, false, Int256Mul, false)
BIGNUM(u256_div, SCP_I256_DIV, false, Int256Div, false)
BIGNUM(u256_rem_euclid, SCP_I256_REM_EUCLID, false, Int256Div, false)
BIGNUM(u256_pow, SCP_I256_POW, false, Int256Pow, false)
BIGNUM(u256_shl, SCP_I256_SHL, false, Int256Shift, false)
BIGNUM(u256_shr, SCP_I256_SHR, false, Int256Shift, false)
BIGNUM(i256_add, SCP_I256_ADD, true, Int256AddSub, false)
BIGNUM(i256_sub, SCP_I256_SUB, true, Int256AddSub, false)
BIGNUM(i256_mul, SCP_I256_MUL, true, Int256Mul, false)
BIGNUM(i256_div, SCP_I256_DIV, true, Int256Div, false)
BIGNUM(i256_rem_euclid, SCP_I256_REM_EUCLID, true, Int256Div, false)
BIGNUM(i256_pow, SCP_I256_POW, true, Int256Pow, false)
BIGNUM(i256_shl, SCP_I256_SHL, true, Int256Shift, false)
BIGNUM(i256_shr, SCP_I256_SHR, true, Int256Shift, false)
BIGNUM(u256_checked_add, SCP_I256_ADD, false, Int256AddSub, true)
BIGNUM(u256_checked_sub, SCP_I256_SUB, false, Int256AddSub, true)
BIGNUM(u256_checked_mul, SCP_I256_MUL, false, Int256Mul, true)
BIGNUM(u256_checked_pow, SCP_I256_POW, false, Int256Pow, true)
BIGNUM(i256_checked_add, SCP_I256_ADD, true, Int256AddSub, true)
BIGNUM(i256_checked_sub, SCP_I256_SUB, true, Int256AddSub, true)
BIGNUM(i256_checked_mul, SCP_I256_MUL, true, Int256Mul, true)
BIGNUM(i256_checked_pow, SCP_I256_POW, true, Int256Pow, true)
#undef BIGNUM

/* u256_val_from_be_bytes: visit, fixed 32 bytes (MemCpy(32)), then
 * U256Val::try_from_val. */
static int int256_from_be(scp_host *h, uint64_t v, bool sign, uint64_t *ret) {
  uint8_t b[32];
  int rc = fixed_bytes(h, v, 32, b);
  if (rc != SCP_OK) return rc;
  uint64_t w[4];
  for (int k = 0; k < 4; k++) {
    w[k] = 0;
    for (int j = 0; j < 8; j++) w[k] = (w[k] << 8) | b[8 * k + j];
  }
  return int256_to_val(h, w, sign, ret);
}

/* u256_val_to_be_bytes: (visit for an object,) scbytes_from_slice of 32
 * bytes (Vec<u8> bulk init), add. */
static int int256_to_be(scp_host *h, uint64_t v, bool sign, uint64_t *ret) {
  uint64_t w[4];
  if (scp_val_is_object(v)) {
    const scp_hobj *o;
    int rc = scp_host_visit(h, v, &o);
    if (rc != SCP_OK) return rc;
    memcpy(w, o->u.w, sizeof w);
  } else {
    scp_int256_from_small(v, sign, w);
  }
  int rc = scp_host_charge_bulk_init(h, 32, 1);
  if (rc != SCP_OK) return rc;
  uint8_t b[32];
  for (int k = 0; k < 32; k++) b[k] = (uint8_t)(w[k / 8] >> (8 * (7 - k % 8)));
  return scp_hf_add_bytes_obj(h, SCP_TAG_BYTES_OBJ, b, 32, ret);
}

HOSTFN(u256_val_from_be_bytes) { return int256_from_be(h, a[0], false, ret); }
HOSTFN(i256_val_from_be_bytes) { return int256_from_be(h, a[0], true, ret); }
HOSTFN(u256_val_to_be_bytes) { return int256_to_be(h, a[0], false, ret); }
HOSTFN(i256_val_to_be_bytes) { return int256_to_be(h, a[0], true, ret); }

/* ---- PRNG (host.rs prng_*, host/prng.rs, host/frame.rs with_current_prng) - */

/* with_current_prng: the frame's PRNG, drawn on first use from the base
 * (sub_prng: ChaCha20DrawBytes(32), MemCpy(32)). */
static int current_prng(scp_host *h, scp_prng **out) {
  if (!scp_host_in_vm(h))
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR, "no contract frame");
  scp_frame *f = &h->frames[h->nframes - 1];
  if (!f->has_prng) {
    if (!h->has_base_prng)
      return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR,
                          "host base PRNG was not seeded");
    uint8_t seed[32];
    int rc = scp_host_charge(h, SCP_COST_ChaCha20DrawBytes, 32);
    if (rc != SCP_OK) return rc;
    scp_prng_fill(&h->base_prng, seed, sizeof seed);
    rc = scp_host_charge_copy(h, 1, 32);
    if (rc != SCP_OK) return rc;
    scp_prng_seed_raw(&f->prng, seed);
    f->has_prng = true;
  }
  *out = &f->prng;
  return SCP_OK;
}

/* prng_reseed: visit, MemCpy(32), then a 32-byte seed replaces the frame's
 * PRNG (new_from_seed: 2 x ComputeSha256Hash(64)); other sizes are
 * Error(Value, UnexpectedSize). */
HOSTFN(prng_reseed) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, 32);
  if (rc != SCP_OK) return rc;
  if (o->len != 32)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_SIZE,
                        "Unexpected size of BytesObject in prng_reseed");
  uint8_t seed[32];
  memcpy(seed, o->u.bytes, 32);
  scp_prng *p;
  rc = current_prng(h, &p);
  if (rc == SCP_OK) rc = scp_host_charge_n(h, SCP_COST_ComputeSha256Hash, 2, 64);
  if (rc != SCP_OK) return rc;
  scp_prng_seed(p, seed);
  *ret = SCP_VAL_VOID;
  return SCP_OK;
}

/* prng_bytes_new: Vec<u8> bulk init, ChaCha20DrawBytes(len), the object. */
HOSTFN(prng_bytes_new) {
  uint32_t len = scp_hf_u32_arg(a[0]);
  scp_prng *p;
  int rc = current_prng(h, &p);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, len, 1);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_ChaCha20DrawBytes, len);
  if (rc != SCP_OK) return rc;
  uint8_t *buf = malloc(len ? len : 1);
  if (!buf) return SCP_ERR_NOMEM;
  scp_prng_fill(p, buf, len);
  scp_hobj o = { .tag = SCP_TAG_BYTES_OBJ, .len = len };
  o.u.bytes = buf;
  return scp_host_add_obj(h, &o, ret);
}

/* u64_in_inclusive_range: lo > hi is Error(Value, InvalidInput), else
 * ChaCha20DrawBytes(16) and one uniform sample. */
HOSTFN(prng_u64_in_inclusive_range) {
  scp_prng *p;
  int rc = current_prng(h, &p);
  if (rc != SCP_OK) return rc;
  if (a[0] > a[1]) return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "empty range");
  rc = scp_host_charge(h, SCP_COST_ChaCha20DrawBytes, 16);
  if (rc == SCP_OK) *ret = scp_prng_u64_inclusive(p, a[0], a[1]);
  return rc;
}

/* vec_shuffle: visit, then the vector cloned (metered_clone),
 * ChaCha20DrawBytes(16n), MemCpy(n), the shuffle, the object. */
HOSTFN(prng_vec_shuffle) {
  const scp_hobj *o;
  scp_prng *p;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = current_prng(h, &p);
  if (rc != SCP_OK) return rc;
  o = scp_hf_objp(h, a[0]);
  uint32_t n = o->len;
  rc = scp_hf_charge_vec_new(h, n);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_ChaCha20DrawBytes, 16 * (int64_t)n);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, n, 1);
  if (rc != SCP_OK) return rc;
  uint64_t *vals = scp_hf_vals_alloc(n);
  if (!vals) return SCP_ERR_NOMEM;
  memcpy(vals, o->u.vals, (size_t)n * sizeof *vals);
  scp_prng_shuffle(p, vals, n);
  return scp_hf_add_vec_obj(h, vals, n, ret);
}

/* ---- scalar fields (crypto/bls12_381.rs, crypto/bn254.rs,
 * crypto/metered_scalar.rs) ---------------------------------------------------- */

typedef struct fr_field {
  uint64_t m[4];
  scp_cost_type from, to, addsub, mul, pow, inv;
} fr_field;

#define FR_COSTS(c) \
  .from = SCP_COST_##c##FrFromU256, .to = SCP_COST_##c##FrToU256, \
  .addsub = SCP_COST_##c##FrAddSub, .mul = SCP_COST_##c##FrMul, .pow = SCP_COST_##c##FrPow, \
  .inv = SCP_COST_##c##FrInv
static const fr_field bls_fr = {
  .m = { 0x73eda753299d7d48ULL, 0x3339d80809a1d805ULL, 0x53bda402fffe5bfeULL,
         0xffffffff00000001ULL },
  FR_COSTS(Bls12381),
};
static const fr_field bn_fr = {
  .m = { 0x30644e72e131a029ULL, 0xb85045b68181585dULL, 0x2833e84879b97091ULL,
         0x43e1f593f0000001ULL },
  FR_COSTS(Bn254),
};

/* from_u256val: the cost type, then the value (an object is visited)
 * reduced mod r. */
static int fr_from_val(scp_host *h, const fr_field *f, uint64_t v, uint64_t *x) {
  int rc = scp_host_charge(h, f->from, -1);
  if (rc != SCP_OK) return rc;
  uint64_t w[4];
  if (scp_val_is_object(v)) {
    const scp_hobj *o;
    rc = scp_host_visit(h, v, &o);
    if (rc != SCP_OK) return rc;
    memcpy(w, o->u.w, sizeof w);
  } else {
    scp_int256_from_small(v, false, w);
  }
  scp_fr_reduce(w, f->m, x);
  return SCP_OK;
}

/* into_u256val: the cost type, then U256Val::try_from_val. */
static int fr_to_val(scp_host *h, const fr_field *f, const uint64_t *x, uint64_t *ret) {
  int rc = scp_host_charge(h, f->to, -1);
  return rc == SCP_OK ? int256_to_val(h, x, false, ret) : rc;
}

enum { FR_ADD, FR_SUB, FR_MUL };

static int fr_arith(scp_host *h, const fr_field *f, const uint64_t *a, int op, uint64_t *ret) {
  uint64_t x[4], y[4], r[4];
  int rc = fr_from_val(h, f, a[0], x);
  if (rc == SCP_OK) rc = fr_from_val(h, f, a[1], y);
  if (rc == SCP_OK) rc = scp_host_charge(h, op == FR_MUL ? f->mul : f->addsub, -1);
  if (rc != SCP_OK) return rc;
  if (op == FR_ADD) scp_fr_add(x, y, f->m, r);
  else if (op == FR_SUB) scp_fr_sub(x, y, f->m, r);
  else scp_fr_mul(x, y, f->m, r);
  return fr_to_val(h, f, r, ret);
}

/* pow: the exponent is a U64Val (u64::try_from_val: an object through the
 * checked Env obj_to_u64); FrPow's input is its bit length. */
static int fr_pow(scp_host *h, const fr_field *f, const uint64_t *a, uint64_t *ret) {
  uint64_t x[4], r[4], e;
  int rc = fr_from_val(h, f, a[0], x);
  if (rc != SCP_OK) return rc;
  if (scp_val_is_object(a[1])) {
    rc = scp_host_check_val(h, a[1]);
    if (rc == SCP_OK) rc = scp_hf_obj_to_word(h, a[1], &e);
    if (rc != SCP_OK) return rc;
  } else {
    e = scp_val_body(a[1]);
  }
  rc = scp_host_charge(h, f->pow, (int64_t)scp_hf_magnitude(e));
  if (rc != SCP_OK) return rc;
  scp_fr_pow(x, &e, 1, f->m, r);
  return fr_to_val(h, f, r, ret);
}

/* inv: zero is Error(Crypto, InvalidInput) before the charge; a^(r-2). */
static int fr_inv(scp_host *h, const fr_field *f, const uint64_t *a, uint64_t *ret) {
  uint64_t x[4], r[4], e[4];
  int rc = fr_from_val(h, f, a[0], x);
  if (rc != SCP_OK) return rc;
  if (!(x[0] | x[1] | x[2] | x[3]))
    return scp_host_err(h, SCP_ET_CRYPTO, SCP_EC_INVALID_INPUT, "scalar inversion input is zero");
  rc = scp_host_charge(h, f->inv, -1);
  if (rc != SCP_OK) return rc;
  const uint64_t two[4] = { 0, 0, 0, 2 };
  uint64_t m2[4];
  scp_int256_op(SCP_I256_SUB, false, f->m, two, 0, m2);
  for (int i = 0; i < 4; i++) e[i] = m2[3 - i];   /* least significant first */
  scp_fr_pow(x, e, 4, f->m, r);
  return fr_to_val(h, f, r, ret);
}

HOSTFN(bls12_381_fr_add) { return fr_arith(h, &bls_fr, a, FR_ADD, ret); }
HOSTFN(bls12_381_fr_sub) { return fr_arith(h, &bls_fr, a, FR_SUB, ret); }
HOSTFN(bls12_381_fr_mul) { return fr_arith(h, &bls_fr, a, FR_MUL, ret); }
HOSTFN(bls12_381_fr_pow) { return fr_pow(h, &bls_fr, a, ret); }
HOSTFN(bls12_381_fr_inv) { return fr_inv(h, &bls_fr, a, ret); }
HOSTFN(bn254_fr_add) { return fr_arith(h, &bn_fr, a, FR_ADD, ret); }
HOSTFN(bn254_fr_sub) { return fr_arith(h, &bn_fr, a, FR_SUB, ret); }
HOSTFN(bn254_fr_mul) { return fr_arith(h, &bn_fr, a, FR_MUL, ret); }
HOSTFN(bn254_fr_pow) { return fr_pow(h, &bn_fr, a, ret); }
HOSTFN(bn254_fr_inv) { return fr_inv(h, &bn_fr, a, ret); }

/* The scalar conversions for other files (Poseidon), field by flag. */
int scp_hf_fr_from_val(scp_host *h, bool bn254, uint64_t v, uint64_t *x) {
  return fr_from_val(h, bn254 ? &bn_fr : &bls_fr, v, x);
}
int scp_hf_fr_to_val(scp_host *h, bool bn254, const uint64_t *x, uint64_t *ret) {
  return fr_to_val(h, bn254 ? &bn_fr : &bls_fr, x, ret);
}
const uint64_t *scp_hf_fr_modulus(bool bn254) { return bn254 ? bn_fr.m : bls_fr.m; }
