/* sol_bn254.c — alt_bn128 as solana-bn254 3.2.1 computes it for
 * sol_alt_bn128_group_op and sol_alt_bn128_compression: arkworks'
 * encodings (little-endian field elements, two flag bits in the top of the
 * last byte: 0x40 infinity, 0x80 "y is the larger root"), the big-endian
 * forms as byte-reversed field elements (G1: each 32 bytes; G2: each
 * 64-byte Fp2 element, so c1 comes first), and each operation's length and
 * validity rules.  The arithmetic is crypto/'s. */
#include <stdlib.h>
#include <string.h>
#include "crypto/crypto_pairing.h"
#include "solana/sol_sys.h"

enum { FP = 32, G1 = 64, G2 = 128 };

static const scp_pairing *pc(void) { return scp_pairing_bn254(); }

static void reverse_chunks(const uint8_t *in, size_t n, size_t chunk, uint8_t *out) {
  for (size_t c = 0; c < n; c += chunk)
    for (size_t i = 0; i < chunk; i++) out[c + i] = in[c + chunk - 1 - i];
}

static bool all_zero(const uint8_t *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (b[i]) return false;
  return true;
}

/* An Fp from 32 little-endian bytes; false when >= p. */
static bool fp_le(const uint8_t *b, scp_fe *r) {
  uint8_t be[FP];
  reverse_chunks(b, FP, FP, be);
  return scp_fe_from_be(pc()->f, be, r);
}

static void fp_to_le(const scp_fe *a, uint8_t *b) {
  uint8_t be[FP];
  scp_fe_to_be(pc()->f, a, be);
  reverse_chunks(be, FP, FP, b);
}

/* An Fp2 (c0 || c1, little-endian); the last byte's top two bits are the
 * flags when flags is not NULL.  False on flags 0xc0 or a part >= p. */
static bool fq_le(const uint8_t *b, bool fp2, scp_fe2 *r, unsigned *flags) {
  size_t n = fp2 ? 2 * FP : FP;
  uint8_t t[2 * FP];
  memcpy(t, b, n);
  if (flags) {
    *flags = t[n - 1] >> 6;
    if (*flags == 3) return false;
    t[n - 1] &= 0x3f;
  }
  memset(r, 0, sizeof *r);
  return fp_le(t, &r->c0) && (!fp2 || fp_le(t + FP, &r->c1));
}

static void fq_to_le(const scp_fe2 *a, bool fp2, uint8_t *b) {
  fp_to_le(&a->c0, b);
  if (fp2) fp_to_le(&a->c1, b + FP);
}

/* arkworks' y > -y: canonical values compared, Fp2 by c1 then c0. */
static bool fq_is_larger(const scp_fe2 *y, bool fp2) {
  const scp_ff *f = pc()->f;
  scp_fe2 n;
  uint8_t a[FP], b[FP];
  scp_fe2_neg(f, y, &n);
  int c = 0;
  if (fp2) {
    scp_fe_to_be(f, &y->c1, a);
    scp_fe_to_be(f, &n.c1, b);
    c = memcmp(a, b, FP);
  }
  if (c == 0) {
    scp_fe_to_be(f, &y->c0, a);
    scp_fe_to_be(f, &n.c0, b);
    c = memcmp(a, b, FP);
  }
  return c > 0;
}

/* Uncompressed arkworks point (x || y); all zeros is infinity.  curve:
 * reject points off the curve; subgroup: and outside G2's order-r group. */
static bool pt_decode(const uint8_t *b, bool g2, bool curve, bool subgroup, scp_ecp *p) {
  size_t n = g2 ? G2 : G1;
  unsigned flags;
  memset(p, 0, sizeof *p);
  if (all_zero(b, n)) { p->inf = true; return true; }
  if (!fq_le(b, g2, &p->x, NULL) || !fq_le(b + n / 2, g2, &p->y, &flags)) return false;
  if (flags & 1) { memset(p, 0, sizeof *p); p->inf = true; return true; }
  const scp_ec *c = g2 ? &pc()->g2 : &pc()->g1;
  if (curve && !scp_ec_on_curve(c, p)) return false;
  return !subgroup || scp_pairing_g2_in_subgroup(pc(), p);
}

static void pt_encode(const scp_ecp *p, bool g2, uint8_t *b) {
  size_t n = g2 ? G2 : G1;
  memset(b, 0, n);
  if (p->inf) return;
  fq_to_le(&p->x, g2, b);
  fq_to_le(&p->y, g2, b + n / 2);
}

/* The input in arkworks' byte order. */
static void to_le(const uint8_t *in, size_t n, bool g2, bool le, uint8_t *out) {
  if (le) memcpy(out, in, n);
  else reverse_chunks(in, n, g2 ? 2 * FP : FP, out);
}

bool sol_bn_add(const uint8_t *in, size_t len, bool g2, bool le, uint8_t *out) {
  size_t n = g2 ? G2 : G1;
  uint8_t buf[2 * G2] = {0}, t[2 * G2];
  /* G1 big-endian input may be short (zero-padded); the rest are exact */
  if (g2 || le ? len != 2 * n : len > 2 * n) return false;
  if (len) memcpy(buf, in, len);
  to_le(buf, 2 * n, g2, le, t);
  scp_ecp p, q, r;
  /* G2 addition checks the curve but not the subgroup */
  if (!pt_decode(t, g2, true, false, &p) || !pt_decode(t + n, g2, true, false, &q)) return false;
  scp_ec_add_affine(g2 ? &pc()->g2 : &pc()->g1, &p, &q, &r);
  pt_encode(&r, g2, t);
  to_le(t, n, g2, le, out);
  return true;
}

bool sol_bn_mul(const uint8_t *in, size_t len, bool g2, bool le, uint8_t *out) {
  size_t n = g2 ? G2 : G1;
  uint8_t buf[G2 + FP] = {0}, t[G2], k[FP];
  if (g2 || le ? len != n + FP : len > n + FP) return false;
  if (len) memcpy(buf, in, len);
  to_le(buf, n, g2, le, t);
  scp_ecp p, r;
  if (!pt_decode(t, g2, true, g2, &p)) return false;
  /* the scalar: any 256-bit value, unreduced */
  if (le) reverse_chunks(buf + n, FP, FP, k);
  else memcpy(k, buf + n, FP);
  scp_ec_mul(g2 ? &pc()->g2 : &pc()->g1, &p, k, FP, &r);
  pt_encode(&r, g2, t);
  to_le(t, n, g2, le, out);
  return true;
}

bool sol_bn_pairing(const uint8_t *in, size_t len, bool le, bool exact, uint8_t out[32]) {
  enum { PAIR = G1 + G2 };
  if (exact && len % PAIR) return false;
  size_t n = len / PAIR;
  scp_ecp *p = calloc(n ? n : 1, sizeof *p), *q = calloc(n ? n : 1, sizeof *q);
  bool ok = p && q;
  for (size_t i = 0; ok && i < n; i++) {
    uint8_t t[G2];
    to_le(in + PAIR * i, G1, false, le, t);
    ok = pt_decode(t, false, true, false, &p[i]);
    to_le(in + PAIR * i + G1, G2, true, le, t);
    ok = ok && pt_decode(t, true, true, true, &q[i]);
  }
  if (ok) {
    memset(out, 0, 32);
    out[le ? 0 : 31] = scp_pairing_product_is_one(pc(), p, q, n);
  }
  free(p);
  free(q);
  return ok;
}

/* Compressed: x with the flags; all-zero input and output stand for
 * infinity (checked before any decoding). */
bool sol_bn_compress(const uint8_t *in, size_t len, bool g2, bool le, uint8_t *out) {
  size_t n = g2 ? G2 : G1;
  uint8_t t[G2];
  if (len != n) return false;
  memset(out, 0, n / 2);
  if (all_zero(in, n)) return true;
  to_le(in, n, g2, le, t);
  scp_ecp p;
  /* no curve check: any pair of field elements compresses */
  if (!pt_decode(t, g2, false, false, &p)) return false;
  uint8_t c[G2 / 2] = {0};
  if (p.inf) c[n / 2 - 1] = 0x40;
  else {
    fq_to_le(&p.x, g2, c);
    if (fq_is_larger(&p.y, g2)) c[n / 2 - 1] |= 0x80;
  }
  to_le(c, n / 2, g2, le, out);
  return true;
}

bool sol_bn_decompress(const uint8_t *in, size_t len, bool g2, bool le, uint8_t *out) {
  size_t n = g2 ? G2 : G1;
  const scp_ff *f = pc()->f;
  uint8_t t[G2 / 2];
  unsigned flags;
  if (len != n / 2) return false;
  memset(out, 0, n);
  if (all_zero(in, n / 2)) return true;
  to_le(in, n / 2, g2, le, t);
  scp_ecp p = {0};
  if (!fq_le(t, g2, &p.x, &flags)) return false;
  if (flags & 1) return true;             /* infinity: zeros */
  const scp_ec *c = g2 ? &pc()->g2 : &pc()->g1;
  scp_fe2 rhs;
  scp_fe2_mul(f, &p.x, &p.x, &rhs);
  scp_fe2_mul(f, &rhs, &p.x, &rhs);
  scp_fe2_add(f, &rhs, &c->b, &rhs);
  bool ok = g2 ? scp_fe2_sqrt(f, &rhs, &p.y) : scp_fe_sqrt(f, &rhs.c0, &p.y.c0);
  if (!ok) return false;
  /* flag 0x80 picks the larger root */
  if (fq_is_larger(&p.y, g2) != ((flags & 2) != 0)) scp_fe2_neg(f, &p.y, &p.y);
  uint8_t u[G2];
  pt_encode(&p, g2, u);
  to_le(u, n, g2, le, out);
  return true;
}
