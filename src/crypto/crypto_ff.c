/*
 * crypto_ff.c — Fp, Fp2 and the a = 0 group law on GMP's mpn layer.
 * Products are reduced by division (mpn_tdiv_qr) rather than Montgomery
 * form: elements stay canonical everywhere, so equality is memcmp and the
 * byte encodings need no conversion.
 */
#include <pthread.h>
#include <string.h>

#include "crypto/crypto_ff.h"

static scp_ff bls_field, bn_field;
static pthread_once_t fields_once = PTHREAD_ONCE_INIT;

static void field_init(scp_ff *f, const char *hex, size_t bytes) {
  memset(f, 0, sizeof *f);
  f->bytes = bytes;
  f->n = (int)(bytes / 8);
  for (size_t i = 0; hex[i]; i++) {
    int d = hex[i] <= '9' ? hex[i] - '0' : hex[i] - 'a' + 10;
    mpn_lshift(f->p, f->p, f->n, 4);
    f->p[0] |= (mp_limb_t)d;
  }
  mpn_sub_1(f->e_inv, f->p, f->n, 2);
  mpn_add_1(f->e_sqrt, f->p, f->n, 1);
  mpn_rshift(f->e_sqrt, f->e_sqrt, f->n, 2);
  mpn_sub_1(f->e_half, f->p, f->n, 1);
  mpn_rshift(f->e_half, f->e_half, f->n, 1);
  mpn_sub_1(f->e_fp2, f->p, f->n, 3);
  mpn_rshift(f->e_fp2, f->e_fp2, f->n, 2);
}

static void fields_setup(void) {
  field_init(&bls_field,
             "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f624"
             "1eabfffeb153ffffb9feffffffffaaab", 48);
  field_init(&bn_field,
             "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47", 32);
}

const scp_ff *scp_ff_bls12_381(void) {
  pthread_once(&fields_once, fields_setup);
  return &bls_field;
}

const scp_ff *scp_ff_bn254(void) {
  pthread_once(&fields_once, fields_setup);
  return &bn_field;
}

/* ---- Fp ---- */

void scp_fe_zero(scp_fe *r) { memset(r, 0, sizeof *r); }

void scp_fe_set_u64(scp_fe *r, uint64_t v) {
  memset(r, 0, sizeof *r);
  r->l[0] = v;
}

bool scp_fe_is_zero(const scp_ff *f, const scp_fe *a) { return mpn_zero_p(a->l, f->n); }

bool scp_fe_eq(const scp_ff *f, const scp_fe *a, const scp_fe *b) {
  return mpn_cmp(a->l, b->l, f->n) == 0;
}

bool scp_fe_from_be(const scp_ff *f, const uint8_t *b, scp_fe *r) {
  memset(r, 0, sizeof *r);
  for (size_t i = 0; i < f->bytes; i++) {
    size_t bit = 8 * (f->bytes - 1 - i);
    r->l[bit / 64] |= (mp_limb_t)b[i] << (bit % 64);
  }
  return mpn_cmp(r->l, f->p, f->n) < 0;
}

void scp_fe_from_be_reduce(const scp_ff *f, const uint8_t *b, size_t len, scp_fe *r) {
  mp_limb_t t[16] = { 0 }, q[16];
  if (len > 128) len = 128;
  for (size_t i = 0; i < len; i++) {
    size_t bit = 8 * (len - 1 - i);
    t[bit / 64] |= (mp_limb_t)b[i] << (bit % 64);
  }
  int tn = (int)((len + 7) / 8);
  memset(r, 0, sizeof *r);
  if (tn < f->n) { memcpy(r->l, t, (size_t)tn * sizeof *t); return; }
  mpn_tdiv_qr(q, r->l, 0, t, tn, f->p, f->n);
}

void scp_fe_to_be(const scp_ff *f, const scp_fe *a, uint8_t *b) {
  for (size_t i = 0; i < f->bytes; i++) {
    size_t bit = 8 * (f->bytes - 1 - i);
    b[i] = (uint8_t)(a->l[bit / 64] >> (bit % 64));
  }
}

void scp_fe_add(const scp_ff *f, const scp_fe *a, const scp_fe *b, scp_fe *r) {
  mp_limb_t c = mpn_add_n(r->l, a->l, b->l, f->n);
  if (c || mpn_cmp(r->l, f->p, f->n) >= 0) mpn_sub_n(r->l, r->l, f->p, f->n);
}

void scp_fe_sub(const scp_ff *f, const scp_fe *a, const scp_fe *b, scp_fe *r) {
  if (mpn_sub_n(r->l, a->l, b->l, f->n)) mpn_add_n(r->l, r->l, f->p, f->n);
}

void scp_fe_neg(const scp_ff *f, const scp_fe *a, scp_fe *r) {
  if (mpn_zero_p(a->l, f->n)) { memset(r, 0, sizeof *r); return; }
  mpn_sub_n(r->l, f->p, a->l, f->n);
}

void scp_fe_mul(const scp_ff *f, const scp_fe *a, const scp_fe *b, scp_fe *r) {
  mp_limb_t t[2 * SCP_FF_LIMBS], q[SCP_FF_LIMBS + 1];
  mpn_mul_n(t, a->l, b->l, f->n);
  mpn_tdiv_qr(q, r->l, 0, t, 2 * f->n, f->p, f->n);
}

void scp_fe_pow(const scp_ff *f, const scp_fe *a, const mp_limb_t *e, int en, scp_fe *r) {
  scp_fe acc, base = *a;
  scp_fe_set_u64(&acc, 1);
  for (int w = en - 1; w >= 0; w--)
    for (int bit = 63; bit >= 0; bit--) {
      scp_fe_mul(f, &acc, &acc, &acc);
      if ((e[w] >> bit) & 1) scp_fe_mul(f, &acc, &base, &acc);
    }
  *r = acc;
}

void scp_fe_inv(const scp_ff *f, const scp_fe *a, scp_fe *r) {
  scp_fe_pow(f, a, f->e_inv, f->n, r);
}

bool scp_fe_sqrt(const scp_ff *f, const scp_fe *a, scp_fe *r) {
  scp_fe s, chk;
  scp_fe_pow(f, a, f->e_sqrt, f->n, &s);
  scp_fe_mul(f, &s, &s, &chk);
  if (!scp_fe_eq(f, &chk, a)) return false;
  *r = s;
  return true;
}

int scp_fe_sgn0(const scp_fe *a) { return (int)(a->l[0] & 1); }

/* ---- Fp2 ---- */

bool scp_fe2_is_zero(const scp_ff *f, const scp_fe2 *a) {
  return scp_fe_is_zero(f, &a->c0) && scp_fe_is_zero(f, &a->c1);
}

bool scp_fe2_eq(const scp_ff *f, const scp_fe2 *a, const scp_fe2 *b) {
  return scp_fe_eq(f, &a->c0, &b->c0) && scp_fe_eq(f, &a->c1, &b->c1);
}

void scp_fe2_add(const scp_ff *f, const scp_fe2 *a, const scp_fe2 *b, scp_fe2 *r) {
  scp_fe_add(f, &a->c0, &b->c0, &r->c0);
  scp_fe_add(f, &a->c1, &b->c1, &r->c1);
}

void scp_fe2_sub(const scp_ff *f, const scp_fe2 *a, const scp_fe2 *b, scp_fe2 *r) {
  scp_fe_sub(f, &a->c0, &b->c0, &r->c0);
  scp_fe_sub(f, &a->c1, &b->c1, &r->c1);
}

void scp_fe2_neg(const scp_ff *f, const scp_fe2 *a, scp_fe2 *r) {
  scp_fe_neg(f, &a->c0, &r->c0);
  scp_fe_neg(f, &a->c1, &r->c1);
}

void scp_fe2_conj(const scp_ff *f, const scp_fe2 *a, scp_fe2 *r) {
  r->c0 = a->c0;
  scp_fe_neg(f, &a->c1, &r->c1);
}

void scp_fe2_mul(const scp_ff *f, const scp_fe2 *a, const scp_fe2 *b, scp_fe2 *r) {
  scp_fe t0, t1, s0, s1, m;
  scp_fe_mul(f, &a->c0, &b->c0, &t0);
  scp_fe_mul(f, &a->c1, &b->c1, &t1);
  scp_fe_add(f, &a->c0, &a->c1, &s0);
  scp_fe_add(f, &b->c0, &b->c1, &s1);
  scp_fe_mul(f, &s0, &s1, &m);
  scp_fe_sub(f, &m, &t0, &m);
  scp_fe_sub(f, &m, &t1, &r->c1);
  scp_fe_sub(f, &t0, &t1, &r->c0);
}

void scp_fe2_mul_fe(const scp_ff *f, const scp_fe2 *a, const scp_fe *b, scp_fe2 *r) {
  scp_fe_mul(f, &a->c0, b, &r->c0);
  scp_fe_mul(f, &a->c1, b, &r->c1);
}

void scp_fe2_inv(const scp_ff *f, const scp_fe2 *a, scp_fe2 *r) {
  scp_fe n0, n1, ni;
  scp_fe_mul(f, &a->c0, &a->c0, &n0);
  scp_fe_mul(f, &a->c1, &a->c1, &n1);
  scp_fe_add(f, &n0, &n1, &n0);
  scp_fe_inv(f, &n0, &ni);
  scp_fe2 c;
  scp_fe2_conj(f, a, &c);
  scp_fe2_mul_fe(f, &c, &ni, r);
}

void scp_fe2_pow(const scp_ff *f, const scp_fe2 *a, const mp_limb_t *e, int en, scp_fe2 *r) {
  scp_fe2 acc = { 0 }, base = *a;
  acc.c0.l[0] = 1;
  for (int w = en - 1; w >= 0; w--)
    for (int bit = 63; bit >= 0; bit--) {
      scp_fe2_mul(f, &acc, &acc, &acc);
      if ((e[w] >> bit) & 1) scp_fe2_mul(f, &acc, &base, &acc);
    }
  *r = acc;
}

/* p = 3 mod 4 (Adj and Rodriguez-Henriquez, algorithm 9): a1 = a^((p-3)/4),
 * alpha = a1^2 a; alpha = -1 means the root is u * a1 a, else it is
 * (1 + alpha)^((p-1)/2) a1 a.  The result is checked by squaring. */
bool scp_fe2_sqrt(const scp_ff *f, const scp_fe2 *a, scp_fe2 *r) {
  if (scp_fe2_is_zero(f, a)) { memset(r, 0, sizeof *r); return true; }
  scp_fe2 a1, alpha, x0, x, chk, minus1 = { 0 };
  scp_fe one;
  scp_fe_set_u64(&one, 1);
  scp_fe_neg(f, &one, &minus1.c0);
  scp_fe2_pow(f, a, f->e_fp2, f->n, &a1);
  scp_fe2_mul(f, &a1, a, &x0);
  scp_fe2_mul(f, &a1, &x0, &alpha);
  if (scp_fe2_eq(f, &alpha, &minus1)) {
    /* u * (c0 + c1 u) = -c1 + c0 u */
    scp_fe_neg(f, &x0.c1, &x.c0);
    x.c1 = x0.c0;
  } else {
    scp_fe2 b = alpha;
    scp_fe_add(f, &b.c0, &one, &b.c0);
    scp_fe2_pow(f, &b, f->e_half, f->n, &b);
    scp_fe2_mul(f, &b, &x0, &x);
  }
  scp_fe2_mul(f, &x, &x, &chk);
  if (!scp_fe2_eq(f, &chk, a)) return false;
  *r = x;
  return true;
}

int scp_fe2_sgn0(const scp_ff *f, const scp_fe2 *a) {
  int s0 = scp_fe_sgn0(&a->c0), z0 = scp_fe_is_zero(f, &a->c0);
  return s0 | (z0 & scp_fe_sgn0(&a->c1));
}

/* ---- the group law ---- */

bool scp_ec_on_curve(const scp_ec *c, const scp_ecp *p) {
  if (p->inf) return true;
  const scp_ff *f = c->f;
  scp_fe2 l, r;
  scp_fe2_mul(f, &p->y, &p->y, &l);
  scp_fe2_mul(f, &p->x, &p->x, &r);
  scp_fe2_mul(f, &r, &p->x, &r);
  scp_fe2_add(f, &r, &c->b, &r);
  return scp_fe2_eq(f, &l, &r);
}

void scp_ec_to_jac(const scp_ec *c, const scp_ecp *p, scp_ecj *r) {
  (void)c;
  memset(r, 0, sizeof *r);
  if (p->inf) { r->y.c0.l[0] = 1; return; }
  r->x = p->x;
  r->y = p->y;
  r->z.c0.l[0] = 1;
}

void scp_ec_to_affine(const scp_ec *c, const scp_ecj *p, scp_ecp *r) {
  const scp_ff *f = c->f;
  memset(r, 0, sizeof *r);
  if (scp_fe2_is_zero(f, &p->z)) { r->inf = true; return; }
  scp_fe2 zi, zi2, zi3;
  scp_fe2_inv(f, &p->z, &zi);
  scp_fe2_mul(f, &zi, &zi, &zi2);
  scp_fe2_mul(f, &zi2, &zi, &zi3);
  scp_fe2_mul(f, &p->x, &zi2, &r->x);
  scp_fe2_mul(f, &p->y, &zi3, &r->y);
}

/* dbl-2009-l (a = 0). */
void scp_ec_dbl(const scp_ec *c, const scp_ecj *p, scp_ecj *r) {
  const scp_ff *f = c->f;
  if (scp_fe2_is_zero(f, &p->z)) { *r = *p; return; }
  scp_fe2 A, B, C, D, E, F, t;
  scp_ecj o;
  scp_fe2_mul(f, &p->x, &p->x, &A);
  scp_fe2_mul(f, &p->y, &p->y, &B);
  scp_fe2_mul(f, &B, &B, &C);
  scp_fe2_add(f, &p->x, &B, &t);
  scp_fe2_mul(f, &t, &t, &t);
  scp_fe2_sub(f, &t, &A, &t);
  scp_fe2_sub(f, &t, &C, &t);
  scp_fe2_add(f, &t, &t, &D);
  scp_fe2_add(f, &A, &A, &E);
  scp_fe2_add(f, &E, &A, &E);
  scp_fe2_mul(f, &E, &E, &F);
  scp_fe2_sub(f, &F, &D, &o.x);
  scp_fe2_sub(f, &o.x, &D, &o.x);
  scp_fe2_sub(f, &D, &o.x, &t);
  scp_fe2_mul(f, &E, &t, &o.y);
  scp_fe2_add(f, &C, &C, &C);
  scp_fe2_add(f, &C, &C, &C);
  scp_fe2_add(f, &C, &C, &C);
  scp_fe2_sub(f, &o.y, &C, &o.y);
  scp_fe2_mul(f, &p->y, &p->z, &o.z);
  scp_fe2_add(f, &o.z, &o.z, &o.z);
  *r = o;
}

/* add-2007-bl, with the doubling and the inverse cases. */
void scp_ec_add(const scp_ec *c, const scp_ecj *p, const scp_ecj *q, scp_ecj *r) {
  const scp_ff *f = c->f;
  if (scp_fe2_is_zero(f, &p->z)) { *r = *q; return; }
  if (scp_fe2_is_zero(f, &q->z)) { *r = *p; return; }
  scp_fe2 z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t;
  scp_fe2_mul(f, &p->z, &p->z, &z1z1);
  scp_fe2_mul(f, &q->z, &q->z, &z2z2);
  scp_fe2_mul(f, &p->x, &z2z2, &u1);
  scp_fe2_mul(f, &q->x, &z1z1, &u2);
  scp_fe2_mul(f, &p->y, &q->z, &s1);
  scp_fe2_mul(f, &s1, &z2z2, &s1);
  scp_fe2_mul(f, &q->y, &p->z, &s2);
  scp_fe2_mul(f, &s2, &z1z1, &s2);
  if (scp_fe2_eq(f, &u1, &u2)) {
    if (scp_fe2_eq(f, &s1, &s2)) { scp_ec_dbl(c, p, r); return; }
    memset(r, 0, sizeof *r);
    r->y.c0.l[0] = 1;
    return;
  }
  scp_ecj o;
  scp_fe2_sub(f, &u2, &u1, &h);
  scp_fe2_add(f, &h, &h, &i);
  scp_fe2_mul(f, &i, &i, &i);
  scp_fe2_mul(f, &h, &i, &j);
  scp_fe2_sub(f, &s2, &s1, &rr);
  scp_fe2_add(f, &rr, &rr, &rr);
  scp_fe2_mul(f, &u1, &i, &v);
  scp_fe2_mul(f, &rr, &rr, &o.x);
  scp_fe2_sub(f, &o.x, &j, &o.x);
  scp_fe2_sub(f, &o.x, &v, &o.x);
  scp_fe2_sub(f, &o.x, &v, &o.x);
  scp_fe2_sub(f, &v, &o.x, &t);
  scp_fe2_mul(f, &rr, &t, &o.y);
  scp_fe2_mul(f, &s1, &j, &t);
  scp_fe2_add(f, &t, &t, &t);
  scp_fe2_sub(f, &o.y, &t, &o.y);
  scp_fe2_add(f, &p->z, &q->z, &t);
  scp_fe2_mul(f, &t, &t, &t);
  scp_fe2_sub(f, &t, &z1z1, &t);
  scp_fe2_sub(f, &t, &z2z2, &t);
  scp_fe2_mul(f, &t, &h, &o.z);
  *r = o;
}

void scp_ec_neg(const scp_ec *c, const scp_ecp *p, scp_ecp *r) {
  *r = *p;
  if (!p->inf) scp_fe2_neg(c->f, &p->y, &r->y);
}

void scp_ec_mul(const scp_ec *c, const scp_ecp *p, const uint8_t *k, size_t klen, scp_ecp *r) {
  scp_ecj base, acc;
  scp_ecp inf = { .inf = true };
  scp_ec_to_jac(c, p, &base);
  scp_ec_to_jac(c, &inf, &acc);
  for (size_t i = 0; i < klen; i++)
    for (int bit = 7; bit >= 0; bit--) {
      scp_ec_dbl(c, &acc, &acc);
      if ((k[i] >> bit) & 1) scp_ec_add(c, &acc, &base, &acc);
    }
  scp_ec_to_affine(c, &acc, r);
}

void scp_ec_add_affine(const scp_ec *c, const scp_ecp *p, const scp_ecp *q, scp_ecp *r) {
  scp_ecj a, b;
  scp_ec_to_jac(c, p, &a);
  scp_ec_to_jac(c, q, &b);
  scp_ec_add(c, &a, &b, &a);
  scp_ec_to_affine(c, &a, r);
}
