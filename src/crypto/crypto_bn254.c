/*
 * crypto_bn254.c — BN254 G1 group law.  Inside a computation points are
 * Jacobian (X, Y, Z) so that only the final conversion inverts; results
 * are the unique affine points, so the order of operations does not have
 * to follow arkworks'.  Speed is that of scp_fr_mul (a few thousand field
 * multiplications per scalar multiplication).
 */
#include <string.h>

#include "crypto/crypto_bn254.h"

const uint64_t scp_bn_p[4] = { 0x30644e72e131a029ULL, 0xb85045b68181585dULL,
                               0x97816a916871ca8dULL, 0x3c208c16d87cfd47ULL };
const uint64_t scp_bn_r[4] = { 0x30644e72e131a029ULL, 0xb85045b68181585dULL,
                               0x2833e84879b97091ULL, 0x43e1f593f0000001ULL };

typedef struct jac { uint64_t x[4], y[4], z[4]; } jac;

static void fmul(const uint64_t *a, const uint64_t *b, uint64_t *r) { scp_fr_mul(a, b, scp_bn_p, r); }
static void fadd(const uint64_t *a, const uint64_t *b, uint64_t *r) { scp_fr_add(a, b, scp_bn_p, r); }
static void fsub(const uint64_t *a, const uint64_t *b, uint64_t *r) { scp_fr_sub(a, b, scp_bn_p, r); }
static bool fzero(const uint64_t *a) { return !(a[0] | a[1] | a[2] | a[3]); }
static bool feq(const uint64_t *a, const uint64_t *b) { return !memcmp(a, b, 32); }

/* a^(p-2) (Fermat); a != 0. */
static void finv(const uint64_t *a, uint64_t *r) {
  uint64_t e[4];
  const uint64_t two[4] = { 0, 0, 0, 2 };
  uint64_t m2[4];
  scp_fr_sub(scp_bn_p, two, scp_bn_p, m2);   /* p - 2, already < p */
  for (int i = 0; i < 4; i++) e[i] = m2[3 - i];
  scp_fr_pow(a, e, 4, scp_bn_p, r);
}

bool scp_bn_fp_from_be(const uint8_t *b, uint64_t *x) {
  for (int i = 0; i < 4; i++) {
    uint64_t w = 0;
    for (int j = 0; j < 8; j++) w = w << 8 | b[8 * i + j];
    x[i] = w;
  }
  for (int i = 0; i < 4; i++)
    if (x[i] != scp_bn_p[i]) return x[i] < scp_bn_p[i];
  return false;
}

void scp_bn_fp_to_be(const uint64_t *x, uint8_t *b) {
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 8; j++) b[8 * i + j] = (uint8_t)(x[i] >> (56 - 8 * j));
}

bool scp_bn_g1_on_curve(const scp_bn_g1 *p) {
  if (p->inf) return true;
  uint64_t l[4], r[4];
  const uint64_t three[4] = { 0, 0, 0, 3 };
  fmul(p->y, p->y, l);
  fmul(p->x, p->x, r);
  fmul(r, p->x, r);
  fadd(r, three, r);
  return feq(l, r);
}

static void to_jac(const scp_bn_g1 *a, jac *j) {
  static const uint64_t one[4] = { 0, 0, 0, 1 };
  if (a->inf) { memset(j, 0, sizeof *j); memcpy(j->y, one, 32); return; }
  memcpy(j->x, a->x, 32);
  memcpy(j->y, a->y, 32);
  memcpy(j->z, one, 32);
}

static void from_jac(const jac *j, scp_bn_g1 *a) {
  memset(a, 0, sizeof *a);
  if (fzero(j->z)) { a->inf = true; return; }
  uint64_t zi[4], zi2[4], zi3[4];
  finv(j->z, zi);
  fmul(zi, zi, zi2);
  fmul(zi2, zi, zi3);
  fmul(j->x, zi2, a->x);
  fmul(j->y, zi3, a->y);
}

/* dbl-2009-l (a = 0). */
static void jdbl(const jac *p, jac *r) {
  if (fzero(p->z)) { *r = *p; return; }
  uint64_t A[4], B[4], C[4], D[4], E[4], F[4], t[4], x3[4], y3[4], z3[4];
  fmul(p->x, p->x, A);
  fmul(p->y, p->y, B);
  fmul(B, B, C);
  fadd(p->x, B, t);
  fmul(t, t, t);
  fsub(t, A, t);
  fsub(t, C, t);
  fadd(t, t, D);
  fadd(A, A, E);
  fadd(E, A, E);
  fmul(E, E, F);
  fsub(F, D, x3);
  fsub(x3, D, x3);
  fsub(D, x3, t);
  fmul(E, t, y3);
  fadd(C, C, C);
  fadd(C, C, C);
  fadd(C, C, C);
  fsub(y3, C, y3);
  fmul(p->y, p->z, z3);
  fadd(z3, z3, z3);
  memcpy(r->x, x3, 32);
  memcpy(r->y, y3, 32);
  memcpy(r->z, z3, 32);
}

/* add-2007-bl, with the doubling and inverse cases. */
static void jadd(const jac *p, const jac *q, jac *r) {
  if (fzero(p->z)) { *r = *q; return; }
  if (fzero(q->z)) { *r = *p; return; }
  uint64_t z1z1[4], z2z2[4], u1[4], u2[4], s1[4], s2[4], h[4], i[4], j[4], rr[4], v[4], t[4];
  fmul(p->z, p->z, z1z1);
  fmul(q->z, q->z, z2z2);
  fmul(p->x, z2z2, u1);
  fmul(q->x, z1z1, u2);
  fmul(p->y, q->z, s1);
  fmul(s1, z2z2, s1);
  fmul(q->y, p->z, s2);
  fmul(s2, z1z1, s2);
  if (feq(u1, u2)) {
    if (feq(s1, s2)) { jdbl(p, r); return; }
    memset(r, 0, sizeof *r);
    r->y[3] = 1;
    return;
  }
  jac out;
  fsub(u2, u1, h);
  fadd(h, h, i);
  fmul(i, i, i);
  fmul(h, i, j);
  fsub(s2, s1, rr);
  fadd(rr, rr, rr);
  fmul(u1, i, v);
  fmul(rr, rr, out.x);
  fsub(out.x, j, out.x);
  fsub(out.x, v, out.x);
  fsub(out.x, v, out.x);
  fsub(v, out.x, t);
  fmul(rr, t, out.y);
  fmul(s1, j, t);
  fadd(t, t, t);
  fsub(out.y, t, out.y);
  fadd(p->z, q->z, t);
  fmul(t, t, t);
  fsub(t, z1z1, t);
  fsub(t, z2z2, t);
  fmul(t, h, out.z);
  *r = out;
}

void scp_bn_g1_add(const scp_bn_g1 *a, const scp_bn_g1 *b, scp_bn_g1 *r) {
  jac ja, jb;
  to_jac(a, &ja);
  to_jac(b, &jb);
  jadd(&ja, &jb, &ja);
  from_jac(&ja, r);
}

void scp_bn_g1_mul(const scp_bn_g1 *a, const uint64_t *k, scp_bn_g1 *r) {
  jac base, acc;
  scp_bn_g1 inf = { .inf = true };
  to_jac(a, &base);
  to_jac(&inf, &acc);
  for (int w = 0; w < 4; w++)
    for (int bit = 63; bit >= 0; bit--) {
      jdbl(&acc, &acc);
      if ((k[w] >> bit) & 1) jadd(&acc, &base, &acc);
    }
  from_jac(&acc, r);
}
