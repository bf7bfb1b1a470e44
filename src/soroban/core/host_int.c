/*
 * host_int.c — 256-bit integer arithmetic with the checked semantics of
 * the ethnum crate the reference uses (U256 / I256 checked_add, _sub,
 * _mul, _div, _rem_euclid, _pow, _shl, _shr).  Values are four 64-bit
 * words, most significant first (hi_hi, hi_lo, lo_hi, lo_lo), as host
 * objects store them.  No charges here.
 */
#include <string.h>

#include "crypto/crypto_words.h"
#include "soroban/core/host_private.h"

static bool is_neg(const uint64_t *a) { return (a[0] >> 63) != 0; }

static bool is_zero(const uint64_t *a) { return !(a[0] | a[1] | a[2] | a[3]); }

static void negate(const uint64_t *a, uint64_t *r) {
  static const uint64_t zero[4];
  scp_w256_sub(zero, a, r);
}

/* r = a * b (mod 2^256); returns whether the full product overflowed */
static bool mul_words(const uint64_t *a, const uint64_t *b, uint64_t *r) {
  uint64_t res[8];
  scp_w256_mul_full(a, b, res);
  for (int i = 0; i < 4; i++) r[3 - i] = res[i];
  return res[4] | res[5] | res[6] | res[7];
}

static void shl_words(const uint64_t *a, unsigned n, uint64_t *r) {
  uint64_t t[4] = { 0 };
  unsigned words = n / 64, bits = n % 64;
  for (int i = 0; i < 4; i++) {
    int src = i + (int)words;
    if (src > 3) continue;
    t[i] = a[src] << bits;
    if (bits && src + 1 <= 3) t[i] |= a[src + 1] >> (64 - bits);
  }
  memcpy(r, t, sizeof t);
}

static void shr_words(const uint64_t *a, unsigned n, bool arith, uint64_t *r) {
  uint64_t fill = arith && is_neg(a) ? UINT64_MAX : 0;
  uint64_t t[4];
  unsigned words = n / 64, bits = n % 64;
  for (int i = 0; i < 4; i++) {
    int src = i - (int)words;
    uint64_t hi = src >= 0 ? a[src] : fill;
    uint64_t hi2 = src - 1 >= 0 ? a[src - 1] : fill;
    t[i] = bits ? (hi >> bits) | (hi2 << (64 - bits)) : hi;
  }
  memcpy(r, t, sizeof t);
}

/* unsigned q = a / b, m = a % b (b != 0), bit by bit */
static void divmod_words(const uint64_t *a, const uint64_t *b, uint64_t *q, uint64_t *m) {
  uint64_t quo[4] = { 0 }, rem[4] = { 0 };
  for (int bit = 255; bit >= 0; bit--) {
    shl_words(rem, 1, rem);
    rem[3] |= (a[3 - bit / 64] >> (bit % 64)) & 1;
    if (scp_w256_cmp(rem, b) >= 0) {
      scp_w256_sub(rem, b, rem);
      quo[3 - bit / 64] |= (uint64_t)1 << (bit % 64);
    }
  }
  memcpy(q, quo, sizeof quo);
  memcpy(m, rem, sizeof rem);
}

static void abs_words(const uint64_t *a, uint64_t *r) {
  if (is_neg(a)) negate(a, r);
  else memcpy(r, a, 4 * sizeof *a);
}

static const uint64_t min_i256[4] = { 0x8000000000000000ULL, 0, 0, 0 };

/* Signed multiply: overflow when the magnitude product does not fit. */
static bool mul_signed(const uint64_t *a, const uint64_t *b, uint64_t *r) {
  uint64_t ma[4], mb[4], p[4];
  abs_words(a, ma);
  abs_words(b, mb);
  bool of = mul_words(ma, mb, p);
  bool neg = is_neg(a) != is_neg(b) && !is_zero(a) && !is_zero(b);
  if (of) return false;
  if (neg) {
    /* |result| may be up to 2^255 */
    if (scp_w256_cmp(p, min_i256) > 0) return false;
    negate(p, r);
  } else {
    if (is_neg(p)) return false;
    memcpy(r, p, sizeof p);
  }
  return true;
}

static bool mul_checked(const uint64_t *a, const uint64_t *b, bool sign, uint64_t *r) {
  if (sign) return mul_signed(a, b, r);
  return !mul_words(a, b, r);
}

/* Rust's checked_pow: square-and-multiply with checked multiplies. */
static bool pow_checked(const uint64_t *a, uint32_t e, bool sign, uint64_t *r) {
  uint64_t acc[4] = { 0, 0, 0, 1 }, base[4];
  memcpy(base, a, sizeof base);
  if (!e) {
    memcpy(r, acc, sizeof acc);
    return true;
  }
  while (e > 1) {
    if (e & 1)
      if (!mul_checked(acc, base, sign, acc)) return false;
    e /= 2;
    if (!mul_checked(base, base, sign, base)) return false;
  }
  return mul_checked(acc, base, sign, r);
}

bool scp_int256_op(scp_int256_opcode op, bool sign, const uint64_t *a, const uint64_t *b,
                   uint32_t n, uint64_t *r) {
  switch (op) {
  case SCP_I256_ADD: {
    bool carry = scp_w256_add(a, b, r);
    if (!sign) return !carry;
    /* overflow iff both operands share a sign the result lacks */
    return !(is_neg(a) == is_neg(b) && is_neg(r) != is_neg(a));
  }
  case SCP_I256_SUB: {
    bool borrow = scp_w256_sub(a, b, r);
    if (!sign) return !borrow;
    return !(is_neg(a) != is_neg(b) && is_neg(r) != is_neg(a));
  }
  case SCP_I256_MUL:
    return mul_checked(a, b, sign, r);
  case SCP_I256_DIV: case SCP_I256_REM_EUCLID: {
    if (is_zero(b)) return false;
    if (!sign) {
      uint64_t q[4], m[4];
      divmod_words(a, b, q, m);
      memcpy(r, op == SCP_I256_DIV ? q : m, sizeof q);
      return true;
    }
    static const uint64_t minus_one[4] = { UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX };
    if (!scp_w256_cmp(a, min_i256) && !scp_w256_cmp(b, minus_one)) return false;
    uint64_t ma[4], mb[4], q[4], m[4];
    abs_words(a, ma);
    abs_words(b, mb);
    divmod_words(ma, mb, q, m);
    if (op == SCP_I256_DIV) {
      if (is_neg(a) != is_neg(b)) negate(q, q);
      memcpy(r, q, sizeof q);
    } else {
      /* truncated remainder takes a's sign; rem_euclid is never negative */
      if (is_neg(a) && !is_zero(m)) scp_w256_sub(mb, m, m);
      memcpy(r, m, sizeof m);
    }
    return true;
  }
  case SCP_I256_POW:
    return pow_checked(a, n, sign, r);
  case SCP_I256_SHL:
    if (n >= 256) return false;
    shl_words(a, n, r);
    return true;
  case SCP_I256_SHR:
    if (n >= 256) return false;
    shr_words(a, n, sign, r);
    return true;
  }
  return false;
}

/* Fits the 56-bit small form (is_small_u256 / is_small_i256). */
bool scp_int256_fits_small(const uint64_t *a, bool sign) {
  if (!sign) return !a[0] && !a[1] && !a[2] && scp_val_u64_fits_small(a[3]);
  uint64_t ext = is_neg(a) ? UINT64_MAX : 0;
  return a[0] == ext && a[1] == ext && a[2] == ext && scp_val_i64_fits_small((int64_t)a[3]);
}

void scp_int256_from_small(uint64_t v, bool sign, uint64_t *r) {
  if (!sign) {
    r[0] = r[1] = r[2] = 0;
    r[3] = scp_val_body(v);
  } else {
    int64_t s = scp_val_signed_body(v);
    r[0] = r[1] = r[2] = s < 0 ? UINT64_MAX : 0;
    r[3] = (uint64_t)s;
  }
}
