/*
 * crypto_pairing.c — Fp6/Fp12 towers, Miller loops and the final
 * exponentiation for BN254 and BLS12-381 (the optimal ate pairing that
 * arkworks' Bn254 / Bls12_381 compute; the host only compares the result
 * with one, and the reduced pairing does not depend on how its Miller
 * loop is arranged).
 *
 * Lines are computed in affine coordinates on the twist and evaluated at
 * P through the untwisting map psi:
 *   D-type (BN254, b' = b/xi):   psi(x, y) = (x w^2, y w^3), so the line
 *     through T with slope l is  yP - l xP w + (l xT - yT) w^3;
 *   M-type (BLS12-381, b' = b xi): psi(x, y) = (x w^-2, y w^-3); its line
 *     times w^3 is  (l xT - yT) - l xP w^2 + yP w^3.
 * Vertical lines and the w^3 factor lie in proper subfields of Fp12 and
 * vanish under the final exponentiation, so they are dropped.
 * In Fp12 = Fp6[w]/(w^2 - v), w^k sits at c[k % 2].c[k / 2].
 */
#include <pthread.h>
#include <string.h>

#include "crypto/crypto_pairing.h"

static scp_pairing bn_pc, bls_pc;
static pthread_once_t pairing_once = PTHREAD_ONCE_INIT;

/* ---- Fp6 ---- */

static void fe2_one(scp_fe2 *r) {
  memset(r, 0, sizeof *r);
  r->c0.l[0] = 1;
}

static void fe6_add(const scp_ff *f, const scp_fe6 *a, const scp_fe6 *b, scp_fe6 *r) {
  for (int i = 0; i < 3; i++) scp_fe2_add(f, &a->c[i], &b->c[i], &r->c[i]);
}

static void fe6_sub(const scp_ff *f, const scp_fe6 *a, const scp_fe6 *b, scp_fe6 *r) {
  for (int i = 0; i < 3; i++) scp_fe2_sub(f, &a->c[i], &b->c[i], &r->c[i]);
}

static void fe6_neg(const scp_ff *f, const scp_fe6 *a, scp_fe6 *r) {
  for (int i = 0; i < 3; i++) scp_fe2_neg(f, &a->c[i], &r->c[i]);
}

/* Karatsuba over v^3 = xi. */
static void fe6_mul(const scp_pairing *pc, const scp_fe6 *a, const scp_fe6 *b, scp_fe6 *r) {
  const scp_ff *f = pc->f;
  scp_fe2 t0, t1, t2, s, u, c0, c1, c2;
  scp_fe2_mul(f, &a->c[0], &b->c[0], &t0);
  scp_fe2_mul(f, &a->c[1], &b->c[1], &t1);
  scp_fe2_mul(f, &a->c[2], &b->c[2], &t2);
  /* c0 = t0 + xi ((a1 + a2)(b1 + b2) - t1 - t2) */
  scp_fe2_add(f, &a->c[1], &a->c[2], &s);
  scp_fe2_add(f, &b->c[1], &b->c[2], &u);
  scp_fe2_mul(f, &s, &u, &c0);
  scp_fe2_sub(f, &c0, &t1, &c0);
  scp_fe2_sub(f, &c0, &t2, &c0);
  scp_fe2_mul(f, &c0, &pc->xi, &c0);
  scp_fe2_add(f, &c0, &t0, &c0);
  /* c1 = (a0 + a1)(b0 + b1) - t0 - t1 + xi t2 */
  scp_fe2_add(f, &a->c[0], &a->c[1], &s);
  scp_fe2_add(f, &b->c[0], &b->c[1], &u);
  scp_fe2_mul(f, &s, &u, &c1);
  scp_fe2_sub(f, &c1, &t0, &c1);
  scp_fe2_sub(f, &c1, &t1, &c1);
  scp_fe2_mul(f, &t2, &pc->xi, &s);
  scp_fe2_add(f, &c1, &s, &c1);
  /* c2 = (a0 + a2)(b0 + b2) - t0 - t2 + t1 */
  scp_fe2_add(f, &a->c[0], &a->c[2], &s);
  scp_fe2_add(f, &b->c[0], &b->c[2], &u);
  scp_fe2_mul(f, &s, &u, &c2);
  scp_fe2_sub(f, &c2, &t0, &c2);
  scp_fe2_sub(f, &c2, &t2, &c2);
  scp_fe2_add(f, &c2, &t1, &c2);
  r->c[0] = c0;
  r->c[1] = c1;
  r->c[2] = c2;
}

/* a v = xi a2 + a0 v + a1 v^2. */
static void fe6_mul_v(const scp_pairing *pc, const scp_fe6 *a, scp_fe6 *r) {
  scp_fe2 t;
  scp_fe2_mul(pc->f, &a->c[2], &pc->xi, &t);
  r->c[2] = a->c[1];
  r->c[1] = a->c[0];
  r->c[0] = t;
}

/* 1/a = (A, B, C) / (a0 A + xi (a2 B + a1 C)) with A = a0^2 - xi a1 a2,
 * B = xi a2^2 - a0 a1, C = a1^2 - a0 a2. */
static void fe6_inv(const scp_pairing *pc, const scp_fe6 *a, scp_fe6 *r) {
  const scp_ff *f = pc->f;
  const scp_fe2 *a0 = &a->c[0], *a1 = &a->c[1], *a2 = &a->c[2];
  scp_fe2 A, B, C, t, n;
  scp_fe2_mul(f, a0, a0, &A);
  scp_fe2_mul(f, a1, a2, &t);
  scp_fe2_mul(f, &t, &pc->xi, &t);
  scp_fe2_sub(f, &A, &t, &A);
  scp_fe2_mul(f, a2, a2, &B);
  scp_fe2_mul(f, &B, &pc->xi, &B);
  scp_fe2_mul(f, a0, a1, &t);
  scp_fe2_sub(f, &B, &t, &B);
  scp_fe2_mul(f, a1, a1, &C);
  scp_fe2_mul(f, a0, a2, &t);
  scp_fe2_sub(f, &C, &t, &C);
  scp_fe2_mul(f, a2, &B, &n);
  scp_fe2_mul(f, a1, &C, &t);
  scp_fe2_add(f, &n, &t, &n);
  scp_fe2_mul(f, &n, &pc->xi, &n);
  scp_fe2_mul(f, a0, &A, &t);
  scp_fe2_add(f, &n, &t, &n);
  scp_fe2_inv(f, &n, &n);
  scp_fe2_mul(f, &A, &n, &r->c[0]);
  scp_fe2_mul(f, &B, &n, &r->c[1]);
  scp_fe2_mul(f, &C, &n, &r->c[2]);
}

/* ---- Fp12 ---- */

void scp_fe12_one(scp_fe12 *r) {
  memset(r, 0, sizeof *r);
  fe2_one(&r->c[0].c[0]);
}

bool scp_fe12_eq(const scp_pairing *pc, const scp_fe12 *a, const scp_fe12 *b) {
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      if (!scp_fe2_eq(pc->f, &a->c[i].c[j], &b->c[i].c[j])) return false;
  return true;
}

bool scp_fe12_is_one(const scp_pairing *pc, const scp_fe12 *a) {
  scp_fe12 one;
  scp_fe12_one(&one);
  return scp_fe12_eq(pc, a, &one);
}

/* (a0 + a1 w)(b0 + b1 w) = a0 b0 + a1 b1 v + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) w. */
void scp_fe12_mul(const scp_pairing *pc, const scp_fe12 *a, const scp_fe12 *b, scp_fe12 *r) {
  const scp_ff *f = pc->f;
  scp_fe6 t0, t1, s, u;
  fe6_mul(pc, &a->c[0], &b->c[0], &t0);
  fe6_mul(pc, &a->c[1], &b->c[1], &t1);
  fe6_add(f, &a->c[0], &a->c[1], &s);
  fe6_add(f, &b->c[0], &b->c[1], &u);
  fe6_mul(pc, &s, &u, &s);
  fe6_sub(f, &s, &t0, &s);
  fe6_sub(f, &s, &t1, &r->c[1]);
  fe6_mul_v(pc, &t1, &t1);
  fe6_add(f, &t0, &t1, &r->c[0]);
}

/* a^(p^6) = a0 - a1 w. */
static void fe12_conj(const scp_pairing *pc, const scp_fe12 *a, scp_fe12 *r) {
  r->c[0] = a->c[0];
  fe6_neg(pc->f, &a->c[1], &r->c[1]);
}

/* 1/(a0 + a1 w) = (a0 - a1 w) / (a0^2 - a1^2 v). */
void scp_fe12_inv(const scp_pairing *pc, const scp_fe12 *a, scp_fe12 *r) {
  scp_fe6 t0, t1;
  fe6_mul(pc, &a->c[0], &a->c[0], &t0);
  fe6_mul(pc, &a->c[1], &a->c[1], &t1);
  fe6_mul_v(pc, &t1, &t1);
  fe6_sub(pc->f, &t0, &t1, &t0);
  fe6_inv(pc, &t0, &t0);
  scp_fe12 c;
  fe12_conj(pc, a, &c);
  fe6_mul(pc, &c.c[0], &t0, &r->c[0]);
  fe6_mul(pc, &c.c[1], &t0, &r->c[1]);
}

/* (sum a_k w^k)^p = sum conj(a_k) xi^(k (p-1)/6) w^k, since w^6 = xi. */
void scp_fe12_frob(const scp_pairing *pc, const scp_fe12 *a, scp_fe12 *r) {
  for (int k = 0; k < 6; k++) {
    scp_fe2 t;
    scp_fe2_conj(pc->f, &a->c[k % 2].c[k / 2], &t);
    scp_fe2_mul(pc->f, &t, &pc->gamma[k], &r->c[k % 2].c[k / 2]);
  }
}

static void fe12_pow_limbs(const scp_pairing *pc, const scp_fe12 *a, const mp_limb_t *e, int en,
                           scp_fe12 *r) {
  scp_fe12 acc, base = *a;
  scp_fe12_one(&acc);
  bool started = false;
  for (int w = en - 1; w >= 0; w--)
    for (int bit = 63; bit >= 0; bit--) {
      if (started) scp_fe12_mul(pc, &acc, &acc, &acc);
      if ((e[w] >> bit) & 1) {
        scp_fe12_mul(pc, &acc, &base, &acc);
        started = true;
      }
    }
  *r = acc;
}

void scp_fe12_pow(const scp_pairing *pc, const scp_fe12 *a, const uint8_t *k, size_t klen,
                  scp_fe12 *r) {
  scp_fe12 acc, base = *a;
  scp_fe12_one(&acc);
  for (size_t i = 0; i < klen; i++)
    for (int bit = 7; bit >= 0; bit--) {
      scp_fe12_mul(pc, &acc, &acc, &acc);
      if ((k[i] >> bit) & 1) scp_fe12_mul(pc, &acc, &base, &acc);
    }
  *r = acc;
}

/* ---- Miller loop ---- */

/* f *= the line through T with slope l, at P (see the file comment). */
static void mul_line(const scp_pairing *pc, scp_fe12 *fv, const scp_ecp *t, const scp_fe2 *l,
                     const scp_ecp *p) {
  const scp_ff *f = pc->f;
  scp_fe12 ln;
  scp_fe2 a, b;
  memset(&ln, 0, sizeof ln);
  scp_fe2_mul(f, l, &t->x, &a);           /* l xT - yT */
  scp_fe2_sub(f, &a, &t->y, &a);
  scp_fe2_mul_fe(f, l, &p->x.c0, &b);     /* -l xP */
  scp_fe2_neg(f, &b, &b);
  if (pc->m_twist) {
    ln.c[0].c[0] = a;                     /* w^0 */
    ln.c[0].c[1] = b;                     /* w^2 */
    ln.c[1].c[1] = p->y;                  /* w^3 */
  } else {
    ln.c[0].c[0] = p->y;                  /* w^0 */
    ln.c[1].c[0] = b;                     /* w^1 */
    ln.c[1].c[1] = a;                     /* w^3 */
  }
  scp_fe12_mul(pc, fv, &ln, fv);
}

/* T = 2T, f *= its tangent at P.  T is never of order 2 here. */
static void dbl_step(const scp_pairing *pc, scp_fe12 *fv, scp_ecp *t, const scp_ecp *p) {
  const scp_ff *f = pc->f;
  scp_fe2 l, n, d, x3, y3;
  scp_fe2_mul(f, &t->x, &t->x, &n);       /* l = 3 x^2 / (2 y) */
  scp_fe2_add(f, &n, &n, &d);
  scp_fe2_add(f, &n, &d, &n);
  scp_fe2_add(f, &t->y, &t->y, &d);
  scp_fe2_inv(f, &d, &d);
  scp_fe2_mul(f, &n, &d, &l);
  mul_line(pc, fv, t, &l, p);
  scp_fe2_mul(f, &l, &l, &x3);            /* x3 = l^2 - 2 x */
  scp_fe2_sub(f, &x3, &t->x, &x3);
  scp_fe2_sub(f, &x3, &t->x, &x3);
  scp_fe2_sub(f, &t->x, &x3, &y3);        /* y3 = l (x - x3) - y */
  scp_fe2_mul(f, &l, &y3, &y3);
  scp_fe2_sub(f, &y3, &t->y, &y3);
  t->x = x3;
  t->y = y3;
}

/* T = T + Q, f *= the line through them at P.  T = -Q gives a vertical
 * line (dropped) and infinity; T = Q is the tangent. */
static void add_step(const scp_pairing *pc, scp_fe12 *fv, scp_ecp *t, const scp_ecp *q,
                     const scp_ecp *p) {
  const scp_ff *f = pc->f;
  if (t->inf) { *t = *q; return; }
  if (scp_fe2_eq(f, &t->x, &q->x)) {
    if (scp_fe2_eq(f, &t->y, &q->y)) { dbl_step(pc, fv, t, p); return; }
    memset(t, 0, sizeof *t);
    t->inf = true;
    return;
  }
  scp_fe2 l, d, x3, y3;
  scp_fe2_sub(f, &q->y, &t->y, &l);
  scp_fe2_sub(f, &q->x, &t->x, &d);
  scp_fe2_inv(f, &d, &d);
  scp_fe2_mul(f, &l, &d, &l);
  mul_line(pc, fv, t, &l, p);
  scp_fe2_mul(f, &l, &l, &x3);            /* x3 = l^2 - xT - xQ */
  scp_fe2_sub(f, &x3, &t->x, &x3);
  scp_fe2_sub(f, &x3, &q->x, &x3);
  scp_fe2_sub(f, &t->x, &x3, &y3);
  scp_fe2_mul(f, &l, &y3, &y3);
  scp_fe2_sub(f, &y3, &t->y, &y3);
  t->x = x3;
  t->y = y3;
}

/* pi(Q) on the D-type twist: (conj(x) xi^((p-1)/3), conj(y) xi^((p-1)/2)). */
static void twist_frob(const scp_pairing *pc, const scp_ecp *q, scp_ecp *r) {
  scp_fe2 t;
  scp_fe2_conj(pc->f, &q->x, &t);
  scp_fe2_mul(pc->f, &t, &pc->gamma[2], &r->x);
  scp_fe2_conj(pc->f, &q->y, &t);
  scp_fe2_mul(pc->f, &t, &pc->gamma[3], &r->y);
  r->inf = q->inf;
}

void scp_pairing_miller(const scp_pairing *pc, const scp_ecp *p, const scp_ecp *q,
                        scp_fe12 *f) {
  if (p->inf || q->inf) return;
  scp_fe12 m;
  scp_ecp t = *q;
  scp_fe12_one(&m);
  int top = pc->loop_hi ? 64 : 63 - __builtin_clzll(pc->loop);
  for (int i = top - 1; i >= 0; i--) {
    scp_fe12_mul(pc, &m, &m, &m);
    dbl_step(pc, &m, &t, p);
    if ((pc->loop >> i) & 1) add_step(pc, &m, &t, q, p);
  }
  if (pc->loop_neg) fe12_conj(pc, &m, &m);
  if (pc->bn) {
    /* (6x + 2) Q + pi(Q) - pi^2(Q) = O: the last line is vertical */
    scp_ecp q1, q2;
    twist_frob(pc, q, &q1);
    twist_frob(pc, &q1, &q2);
    scp_fe2_neg(pc->f, &q2.y, &q2.y);
    add_step(pc, &m, &t, &q1, p);
    add_step(pc, &m, &t, &q2, p);
  }
  scp_fe12_mul(pc, f, &m, f);
}

/* f^((p^6 - 1)(p^2 + 1)) by Frobenius maps, then f^((p^4 - p^2 + 1)/r). */
void scp_pairing_final_exp(const scp_pairing *pc, const scp_fe12 *f, scp_fe12 *r) {
  scp_fe12 a, b;
  scp_fe12_inv(pc, f, &a);
  fe12_conj(pc, f, &b);
  scp_fe12_mul(pc, &b, &a, &a);
  scp_fe12_frob(pc, &a, &b);
  scp_fe12_frob(pc, &b, &b);
  scp_fe12_mul(pc, &a, &b, &a);
  fe12_pow_limbs(pc, &a, pc->hard, pc->hard_n, r);
}

void scp_pairing_eval(const scp_pairing *pc, const scp_ecp *p, const scp_ecp *q, scp_fe12 *r) {
  scp_fe12 m;
  scp_fe12_one(&m);
  scp_pairing_miller(pc, p, q, &m);
  scp_pairing_final_exp(pc, &m, r);
}

bool scp_pairing_product_is_one(const scp_pairing *pc, const scp_ecp *p, const scp_ecp *q,
                                size_t n) {
  scp_fe12 m, r;
  scp_fe12_one(&m);
  for (size_t i = 0; i < n; i++) scp_pairing_miller(pc, &p[i], &q[i], &m);
  scp_pairing_final_exp(pc, &m, &r);
  return scp_fe12_is_one(pc, &r);
}

bool scp_pairing_g2_in_subgroup(const scp_pairing *pc, const scp_ecp *q) {
  scp_ecp r;
  scp_ec_mul(&pc->g2, q, pc->r_be, sizeof pc->r_be, &r);
  return r.inf;
}

/* ---- the two curves ---- */

static void hex_be(const char *hex, uint8_t *out, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned v = 0;
    for (int j = 0; j < 2; j++) {
      char c = hex[2 * i + (size_t)j];
      v = v << 4 | (unsigned)(c <= '9' ? c - '0' : c - 'a' + 10);
    }
    out[i] = (uint8_t)v;
  }
}

static void mpz_to_limbs(const mpz_t z, mp_limb_t *out, int cap, int *n) {
  memset(out, 0, (size_t)cap * sizeof *out);
  *n = (int)mpz_size(z);
  for (int i = 0; i < *n && i < cap; i++) out[i] = mpz_getlimbn(z, i);
}

/* The parts every curve derives from p, xi and r. */
static void curve_common(scp_pairing *pc, const char *r_hex) {
  const scp_ff *f = pc->f;
  mpz_t p, r, e, q;
  mpz_inits(p, r, e, q, NULL);
  mpz_import(p, (size_t)f->n, -1, sizeof(mp_limb_t), 0, 0, f->p);
  mpz_set_str(r, r_hex, 16);
  hex_be(r_hex, pc->r_be, sizeof pc->r_be);
  /* gamma_k = xi^(k (p - 1) / 6); p = 1 mod 6 for both */
  mp_limb_t el[SCP_FF_LIMBS];
  int en;
  mpz_sub_ui(e, p, 1);
  mpz_divexact_ui(e, e, 6);
  mpz_to_limbs(e, el, SCP_FF_LIMBS, &en);
  fe2_one(&pc->gamma[0]);
  scp_fe2_pow(f, &pc->xi, el, en, &pc->gamma[1]);
  for (int k = 2; k < 6; k++) scp_fe2_mul(f, &pc->gamma[k - 1], &pc->gamma[1], &pc->gamma[k]);
  /* (p^4 - p^2 + 1) / r, exact since r divides the 12th cyclotomic value */
  mpz_pow_ui(e, p, 4);
  mpz_pow_ui(q, p, 2);
  mpz_sub(e, e, q);
  mpz_add_ui(e, e, 1);
  mpz_divexact(e, e, r);
  mpz_to_limbs(e, pc->hard, SCP_PAIR_HARD_LIMBS, &pc->hard_n);
  mpz_clears(p, r, e, q, NULL);
}

static void pairings_setup(void) {
  scp_pairing *pc = &bn_pc;
  memset(pc, 0, sizeof *pc);
  pc->f = scp_ff_bn254();
  pc->g1.f = pc->g2.f = pc->f;
  scp_fe_set_u64(&pc->g1.b.c0, 3);
  scp_fe_set_u64(&pc->xi.c0, 9);          /* xi = 9 + u */
  scp_fe_set_u64(&pc->xi.c1, 1);
  scp_fe2_inv(pc->f, &pc->xi, &pc->g2.b); /* b' = 3 / xi */
  scp_fe2_mul_fe(pc->f, &pc->g2.b, &pc->g1.b.c0, &pc->g2.b);
  pc->bn = true;
  pc->loop_hi = 1;                        /* 6x + 2, x = 0x44e992b44a6909f1 */
  pc->loop = 0x9d797039be763ba8ULL;
  curve_common(pc, "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001");

  pc = &bls_pc;
  memset(pc, 0, sizeof *pc);
  pc->f = scp_ff_bls12_381();
  pc->g1.f = pc->g2.f = pc->f;
  scp_fe_set_u64(&pc->g1.b.c0, 4);
  scp_fe_set_u64(&pc->xi.c0, 1);          /* xi = 1 + u */
  scp_fe_set_u64(&pc->xi.c1, 1);
  scp_fe_set_u64(&pc->g2.b.c0, 4);        /* b' = 4 xi */
  scp_fe_set_u64(&pc->g2.b.c1, 4);
  pc->m_twist = true;
  pc->loop_neg = true;                    /* x = -0xd201000000010000 */
  pc->loop = 0xd201000000010000ULL;
  curve_common(pc, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001");
}

const scp_pairing *scp_pairing_bn254(void) {
  pthread_once(&pairing_once, pairings_setup);
  return &bn_pc;
}

const scp_pairing *scp_pairing_bls12_381(void) {
  pthread_once(&pairing_once, pairings_setup);
  return &bls_pc;
}
