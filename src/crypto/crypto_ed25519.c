/* crypto_ed25519.c — curve25519's Edwards group as curve25519-dalek
 * decodes and encodes it, and Ristretto255 through libsodium.  Field
 * elements are five 51-bit limbs; points extended coordinates (X:Y:Z:T)
 * on -x^2 + y^2 = 1 + d x^2 y^2, whose unified addition is complete
 * (small-order points included), so one formula also doubles. */
#include <string.h>
#include <sodium.h>

#include "crypto/crypto_ed25519.h"

typedef struct { uint64_t v[5]; } fe;
typedef struct { fe x, y, z, t; } pt;

#define MASK51 ((UINT64_C(1) << 51) - 1)

static const uint8_t D_BYTES[32] = {
  0xa3, 0x78, 0x59, 0x13, 0xca, 0x4d, 0xeb, 0x75, 0xab, 0xd8, 0x41, 0x41, 0x4d, 0x0a, 0x70, 0x00,
  0x98, 0xe8, 0x79, 0x77, 0x79, 0x40, 0xc7, 0x8c, 0x73, 0xfe, 0x6f, 0x2b, 0xee, 0x6c, 0x03, 0x52};
static const uint8_t SQRTM1_BYTES[32] = {
  0xb0, 0xa0, 0x0e, 0x4a, 0x27, 0x1b, 0xee, 0xc4, 0x78, 0xe4, 0x2f, 0xad, 0x06, 0x18, 0x43, 0x2f,
  0xa7, 0xd7, 0xfb, 0x3d, 0x99, 0x00, 0x4d, 0x2b, 0x0b, 0xdf, 0xc1, 0x4f, 0x80, 0x24, 0x83, 0x2b};
/* the group order l, little-endian */
static const uint8_t L_BYTES[32] = {
  0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10};

/* the low 255 bits, not reduced (dalek's FieldElement::from_bytes) */
static void fe_frombytes(fe *h, const uint8_t s[32]) {
  h->v[0] = scp_le64(s) & MASK51;
  h->v[1] = (scp_le64(s + 6) >> 3) & MASK51;
  h->v[2] = (scp_le64(s + 12) >> 6) & MASK51;
  h->v[3] = (scp_le64(s + 19) >> 1) & MASK51;
  h->v[4] = (scp_le64(s + 24) >> 12) & MASK51;
}

static void fe_carry(fe *h) {
  uint64_t c;
  for (int i = 0; i < 4; i++) {
    c = h->v[i] >> 51;
    h->v[i] &= MASK51;
    h->v[i + 1] += c;
  }
  c = h->v[4] >> 51;
  h->v[4] &= MASK51;
  h->v[0] += 19 * c;
}

/* the canonical encoding: fully reduced mod p */
static void fe_tobytes(uint8_t s[32], const fe *a) {
  fe h = *a;
  fe_carry(&h);
  fe_carry(&h);
  /* h < 2p now; q = 1 exactly when h >= p */
  uint64_t q = (h.v[0] + 19) >> 51;
  for (int i = 1; i < 5; i++) q = (h.v[i] + q) >> 51;
  h.v[0] += 19 * q;
  for (int i = 0; i < 4; i++) {
    h.v[i + 1] += h.v[i] >> 51;
    h.v[i] &= MASK51;
  }
  h.v[4] &= MASK51;
  memset(s, 0, 32);
  for (int bit = 0, i = 0; i < 5; i++, bit += 51)
    for (int k = 0; k < 51; k++)
      if (h.v[i] >> k & 1) s[(bit + k) / 8] |= (uint8_t)(1u << ((bit + k) % 8));
}

static void fe_add(fe *h, const fe *a, const fe *b) {
  for (int i = 0; i < 5; i++) h->v[i] = a->v[i] + b->v[i];
  fe_carry(h);
}

/* a - b + 4p keeps every limb positive */
static void fe_sub(fe *h, const fe *a, const fe *b) {
  h->v[0] = a->v[0] + UINT64_C(0x1FFFFFFFFFFFB4) - b->v[0];
  for (int i = 1; i < 5; i++) h->v[i] = a->v[i] + UINT64_C(0x1FFFFFFFFFFFFC) - b->v[i];
  fe_carry(h);
}

static void fe_neg(fe *h, const fe *a) {
  fe z = {.v = {0}};
  fe_sub(h, &z, a);
}

static void fe_mul(fe *h, const fe *a, const fe *b) {
  typedef unsigned __int128 u128;
  const uint64_t *x = a->v, *y = b->v;
  uint64_t y19[5];
  for (int i = 0; i < 5; i++) y19[i] = 19 * y[i];
  u128 r0 = (u128)x[0] * y[0] + (u128)x[1] * y19[4] + (u128)x[2] * y19[3] + (u128)x[3] * y19[2] +
            (u128)x[4] * y19[1];
  u128 r1 = (u128)x[0] * y[1] + (u128)x[1] * y[0] + (u128)x[2] * y19[4] + (u128)x[3] * y19[3] +
            (u128)x[4] * y19[2];
  u128 r2 = (u128)x[0] * y[2] + (u128)x[1] * y[1] + (u128)x[2] * y[0] + (u128)x[3] * y19[4] +
            (u128)x[4] * y19[3];
  u128 r3 = (u128)x[0] * y[3] + (u128)x[1] * y[2] + (u128)x[2] * y[1] + (u128)x[3] * y[0] +
            (u128)x[4] * y19[4];
  u128 r4 = (u128)x[0] * y[4] + (u128)x[1] * y[3] + (u128)x[2] * y[2] + (u128)x[3] * y[1] +
            (u128)x[4] * y[0];
  r1 += (uint64_t)(r0 >> 51);
  r2 += (uint64_t)(r1 >> 51);
  r3 += (uint64_t)(r2 >> 51);
  r4 += (uint64_t)(r3 >> 51);
  uint64_t c = (uint64_t)(r4 >> 51);
  h->v[0] = ((uint64_t)r0 & MASK51) + 19 * c;
  h->v[1] = (uint64_t)r1 & MASK51;
  h->v[2] = (uint64_t)r2 & MASK51;
  h->v[3] = (uint64_t)r3 & MASK51;
  h->v[4] = (uint64_t)r4 & MASK51;
  fe_carry(h);
}

/* a^e, e little-endian bytes */
static void fe_pow(fe *h, const fe *a, const uint8_t e[32]) {
  fe r = {.v = {1, 0, 0, 0, 0}};
  for (int bit = 255; bit >= 0; bit--) {
    fe_mul(&r, &r, &r);
    if (e[bit / 8] >> (bit % 8) & 1) fe_mul(&r, &r, a);
  }
  *h = r;
}

static void fe_invert(fe *h, const fe *a) {
  uint8_t e[32];
  memset(e, 0xff, 32);
  e[0] = 0xeb;
  e[31] = 0x7f;   /* p - 2 */
  fe_pow(h, a, e);
}

static bool fe_equal(const fe *a, const fe *b) {
  uint8_t x[32], y[32];
  fe_tobytes(x, a);
  fe_tobytes(y, b);
  return memcmp(x, y, 32) == 0;
}

static bool fe_negative(const fe *a) {
  uint8_t s[32];
  fe_tobytes(s, a);
  return s[0] & 1;
}

/* CompressedEdwardsY::decompress: x^2 = (y^2 - 1) / (d y^2 + 1) must have a
 * root; the sign bit picks it (and is ignored for x = 0). */
static bool pt_decode(pt *p, const uint8_t s[32]) {
  fe one = {.v = {1, 0, 0, 0, 0}}, d, yy, u, v, v3, t, x, chk;
  fe_frombytes(&d, D_BYTES);
  fe_frombytes(&p->y, s);
  fe_mul(&yy, &p->y, &p->y);
  fe_sub(&u, &yy, &one);
  fe_mul(&v, &d, &yy);
  fe_add(&v, &v, &one);
  /* x = u v^3 (u v^7)^((p-5)/8) */
  uint8_t e[32];
  memset(e, 0xff, 32);
  e[0] = 0xfd;
  e[31] = 0x0f;
  fe_mul(&v3, &v, &v);
  fe_mul(&v3, &v3, &v);
  fe_mul(&t, &v3, &v3);
  fe_mul(&t, &t, &v);
  fe_mul(&t, &t, &u);
  fe_pow(&t, &t, e);
  fe_mul(&x, &u, &v3);
  fe_mul(&x, &x, &t);
  fe_mul(&chk, &x, &x);
  fe_mul(&chk, &chk, &v);
  if (!fe_equal(&chk, &u)) {
    fe nu, i;
    fe_neg(&nu, &u);
    if (!fe_equal(&chk, &nu)) return false;
    fe_frombytes(&i, SQRTM1_BYTES);
    fe_mul(&x, &x, &i);
  }
  if (fe_negative(&x) != (s[31] >> 7)) fe_neg(&x, &x);
  p->x = x;
  p->z = one;
  fe_mul(&p->t, &p->x, &p->y);
  return true;
}

static void pt_encode(uint8_t s[32], const pt *p) {
  fe zi, x, y;
  fe_invert(&zi, &p->z);
  fe_mul(&x, &p->x, &zi);
  fe_mul(&y, &p->y, &zi);
  fe_tobytes(s, &y);
  s[31] |= (uint8_t)(fe_negative(&x) << 7);
}

static void pt_identity(pt *p) {
  memset(p, 0, sizeof *p);
  p->y.v[0] = 1;
  p->z.v[0] = 1;
}

/* add-2008-hwcd-3 with k = 2d */
static void pt_add(pt *r, const pt *p, const pt *q) {
  fe d2, a, b, c, d, e, f, g, h, t;
  fe_frombytes(&d2, D_BYTES);
  fe_add(&d2, &d2, &d2);
  fe_sub(&a, &p->y, &p->x);
  fe_sub(&t, &q->y, &q->x);
  fe_mul(&a, &a, &t);
  fe_add(&b, &p->y, &p->x);
  fe_add(&t, &q->y, &q->x);
  fe_mul(&b, &b, &t);
  fe_mul(&c, &p->t, &q->t);
  fe_mul(&c, &c, &d2);
  fe_mul(&d, &p->z, &q->z);
  fe_add(&d, &d, &d);
  fe_sub(&e, &b, &a);
  fe_sub(&f, &d, &c);
  fe_add(&g, &d, &c);
  fe_add(&h, &b, &a);
  fe_mul(&r->x, &e, &f);
  fe_mul(&r->y, &g, &h);
  fe_mul(&r->t, &e, &h);
  fe_mul(&r->z, &f, &g);
}

static void pt_neg(pt *r, const pt *p) {
  *r = *p;
  fe_neg(&r->x, &p->x);
  fe_neg(&r->t, &p->t);
}

/* s p for the integer s (double-and-add; s < l here, but any 256 bits work) */
static void pt_mul(pt *r, const uint8_t s[32], const pt *p) {
  pt acc;
  pt_identity(&acc);
  for (int bit = 255; bit >= 0; bit--) {
    pt_add(&acc, &acc, &acc);
    if (s[bit / 8] >> (bit % 8) & 1) pt_add(&acc, &acc, p);
  }
  *r = acc;
}

bool scp_ed_scalar_canonical(const uint8_t s[32]) {
  for (int i = 31; i >= 0; i--)
    if (s[i] != L_BYTES[i]) return s[i] < L_BYTES[i];
  return false;
}

bool scp_ed_valid(bool ristretto, const uint8_t p[32]) {
  pt q;
  return ristretto ? crypto_core_ristretto255_is_valid_point(p) == 1 : pt_decode(&q, p);
}

bool scp_ed_add(bool ristretto, const uint8_t a[32], const uint8_t b[32], bool sub, uint8_t out[32]) {
  uint8_t r[32];
  if (ristretto) {
    if ((sub ? crypto_core_ristretto255_sub(r, a, b) : crypto_core_ristretto255_add(r, a, b)) != 0)
      return false;
  } else {
    pt p, q;
    if (!pt_decode(&p, a) || !pt_decode(&q, b)) return false;
    if (sub) pt_neg(&q, &q);
    pt_add(&p, &p, &q);
    pt_encode(r, &p);
  }
  memcpy(out, r, 32);
  return true;
}

bool scp_ed_mul(bool ristretto, const uint8_t s[32], const uint8_t p[32], uint8_t out[32]) {
  if (!scp_ed_scalar_canonical(s)) return false;
  uint8_t r[32];
  if (ristretto) {
    if (crypto_core_ristretto255_is_valid_point(p) != 1) return false;
    /* -1 here means the identity, whose encoding is 32 zero bytes */
    if (crypto_scalarmult_ristretto255(r, s, p) != 0) memset(r, 0, 32);
  } else {
    pt q;
    if (!pt_decode(&q, p)) return false;
    pt_mul(&q, s, &q);
    pt_encode(r, &q);
  }
  memcpy(out, r, 32);
  return true;
}

bool scp_ed_msm(bool ristretto, const uint8_t *s, const uint8_t *p, size_t n, uint8_t out[32]) {
  for (size_t i = 0; i < n; i++)
    if (!scp_ed_scalar_canonical(s + 32 * i)) return false;
  uint8_t r[32], term[32];
  if (ristretto) {
    memset(r, 0, 32);
    for (size_t i = 0; i < n; i++) {
      if (!scp_ed_mul(true, s + 32 * i, p + 32 * i, term)) return false;
      if (crypto_core_ristretto255_add(r, r, term) != 0) return false;
    }
  } else {
    pt acc, q;
    pt_identity(&acc);
    for (size_t i = 0; i < n; i++) {
      if (!pt_decode(&q, p + 32 * i)) return false;
      pt_mul(&q, s + 32 * i, &q);
      pt_add(&acc, &acc, &q);
    }
    pt_encode(r, &acc);
  }
  memcpy(out, r, 32);
  return true;
}
