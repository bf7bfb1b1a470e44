/* sol_sys_bls.c — the BLS12-381 curve ids of the curve syscalls (SIMD-0388,
 * agave syscalls lib.rs on the agave_bls12_381 crate, which decodes with
 * blstrs/blst).  Ids: 4 the pairing, 5 G1, 6 G2, little-endian; | 0x80 the
 * same big-endian.  Big-endian points are the Zcash encoding: each Fp 48
 * bytes big-endian, Fp2 imaginary part first, the flags in the top three
 * bits of byte 0 (0x80 compressed, 0x40 infinity, 0x20 the larger y).
 * Little-endian reverses every 48-byte Fp and puts Fp2's real part first;
 * the flags then sit in the last byte of the first element.
 *
 * An uncompressed point must have the compression and sort flags clear;
 * the infinity flag only with every other bit zero; coordinates below p;
 * on the curve; x = 0 refused (blst's deserializer calls (0, ±2) not in
 * the group).  ADD and SUB skip the subgroup check, MUL, validation,
 * decompression and the pairing do it.  A scalar must be below r.  Any of
 * these failing is r0 1 with the result left alone; the result is
 * translated only after a success.  The arithmetic is crypto_ff's and
 * crypto_pairing's. */
#include <string.h>

#include "crypto/crypto_pairing.h"
#include "solana/sol_sys.h"

enum { FP = 48, G1 = 96, G2 = 192, GT = 576, SCALAR = 32 };

/* SVMTransactionExecutionCost::default, [G1, G2] */
static const uint64_t VALIDATE[2] = { 1565, 1968 };
static const uint64_t DECOMPRESS[2] = { 2100, 3050 };
static const uint64_t GROUP_OP[2][3] = { { 128, 129, 4627 }, { 203, 204, 8255 } };  /* ADD SUB MUL */
#define PAIR_ONE 25445u
#define PAIR_MORE 13023u

static const scp_pairing *pc(void) { return scp_pairing_bls12_381(); }
static const scp_ec *curve(bool g2) { return g2 ? &pc()->g2 : &pc()->g1; }

/* The Zcash big-endian form of n bytes in endianness le, and back (the
 * swap is its own inverse). */
static void to_be(bool le, bool g2, const uint8_t *in, size_t n, uint8_t *out) {
  memcpy(out, in, n);
  if (!le) return;
  for (size_t at = 0; at < n; at += FP)
    for (size_t i = 0; i < FP; i++) out[at + i] = in[at + FP - 1 - i];
  if (!g2) return;
  for (size_t at = 0; at + 2 * FP <= n; at += 2 * FP) {
    uint8_t t[FP];
    memcpy(t, out + at, FP);
    memmove(out + at, out + at + FP, FP);
    memcpy(out + at + FP, t, FP);
  }
}

/* Fp elements of one coordinate in Zcash order: G1 x; G2 x.c1, x.c0 */
static bool read_fe2(bool g2, const uint8_t *b, scp_fe2 *r) {
  const scp_ff *f = pc()->f;
  memset(r, 0, sizeof *r);
  if (!g2) return scp_fe_from_be(f, b, &r->c0);
  return scp_fe_from_be(f, b, &r->c1) && scp_fe_from_be(f, b + FP, &r->c0);
}

static bool in_subgroup(bool g2, const scp_ecp *p) {
  if (p->inf) return true;
  scp_ecp t;
  scp_ec_mul(curve(g2), p, pc()->r_be, sizeof pc()->r_be, &t);
  return t.inf;
}

/* blst's rule for the infinity flag: nothing else set anywhere */
static bool infinity_ok(const uint8_t *b, size_t n) {
  if (b[0] & 0x3f) return false;
  for (size_t i = 1; i < n; i++)
    if (b[i]) return false;
  return true;
}

/* PodG1Point/PodG2Point::to_affine(_subgroup_unchecked) */
static bool decode(bool le, bool g2, bool subgroup, const uint8_t *in, scp_ecp *p) {
  size_t n = g2 ? G2 : G1, half = n / 2;
  uint8_t b[G2];
  to_be(le, g2, in, n, b);
  memset(p, 0, sizeof *p);
  if (b[0] & 0xa0) return false;
  if (b[0] & 0x40) {
    p->inf = true;
    return infinity_ok(b, n);
  }
  if (!read_fe2(g2, b, &p->x) || !read_fe2(g2, b + half, &p->y)) return false;
  if (!scp_ec_on_curve(curve(g2), p) || scp_fe2_is_zero(pc()->f, &p->x)) return false;
  return !subgroup || in_subgroup(g2, p);
}

/* y is the larger of y and -y: canonical big-endian values compared,
 * Fp2's imaginary part deciding unless it is zero */
static bool larger(bool g2, const scp_fe2 *y) {
  const scp_ff *f = pc()->f;
  scp_fe2 ny;
  uint8_t a[2 * FP], b[2 * FP];
  scp_fe2_neg(f, y, &ny);
  scp_fe_to_be(f, &y->c1, a);
  scp_fe_to_be(f, &y->c0, a + FP);
  scp_fe_to_be(f, &ny.c1, b);
  scp_fe_to_be(f, &ny.c0, b + FP);
  if (!g2) return memcmp(a + FP, b + FP, FP) > 0;
  return memcmp(a, b, 2 * FP) > 0;
}

/* from_compressed_unchecked, then is_torsion_free */
static bool decompress(bool le, bool g2, const uint8_t *in, scp_ecp *p) {
  size_t n = g2 ? G1 : FP;
  uint8_t b[G1];
  to_be(le, g2, in, n, b);
  memset(p, 0, sizeof *p);
  if (!(b[0] & 0x80)) return false;
  if (b[0] & 0x40) {
    p->inf = true;
    return infinity_ok(b, n);
  }
  bool sort = b[0] & 0x20;
  b[0] &= 0x1f;
  if (!read_fe2(g2, b, &p->x)) return false;
  const scp_ec *c = curve(g2);
  scp_fe2 rhs;
  scp_fe2_mul(c->f, &p->x, &p->x, &rhs);
  scp_fe2_mul(c->f, &rhs, &p->x, &rhs);
  scp_fe2_add(c->f, &rhs, &c->b, &rhs);
  bool ok = g2 ? scp_fe2_sqrt(c->f, &rhs, &p->y) : scp_fe_sqrt(c->f, &rhs.c0, &p->y.c0);
  if (!ok) return false;
  if (larger(g2, &p->y) != sort) scp_fe2_neg(c->f, &p->y, &p->y);
  return in_subgroup(g2, p);
}

/* to_uncompressed, in endianness le */
static void encode(bool le, bool g2, const scp_ecp *p, uint8_t *out) {
  const scp_ff *f = pc()->f;
  size_t n = g2 ? G2 : G1;
  uint8_t b[G2];
  memset(b, 0, n);
  if (p->inf) {
    b[0] = 0x40;
  } else if (g2) {
    scp_fe_to_be(f, &p->x.c1, b);
    scp_fe_to_be(f, &p->x.c0, b + FP);
    scp_fe_to_be(f, &p->y.c1, b + 2 * FP);
    scp_fe_to_be(f, &p->y.c0, b + 3 * FP);
  } else {
    scp_fe_to_be(f, &p->x.c0, b);
    scp_fe_to_be(f, &p->y.c0, b + FP);
  }
  to_be(le, g2, b, n, out);
}

/* serialize_gt: little-endian is every Fp little-endian, lowest
 * coefficient first (c0 c1 of each Fp2, the three of each Fp6, the two
 * Fp6); big-endian is those 576 bytes reversed */
static void encode_gt(bool le, const scp_fe12 *g, uint8_t out[GT]) {
  const scp_ff *f = pc()->f;
  uint8_t *o = out, t[FP];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 2; k++) {
        scp_fe_to_be(f, k ? &g->c[i].c[j].c1 : &g->c[i].c[j].c0, t);
        for (int m = 0; m < FP; m++) *o++ = t[FP - 1 - m];
      }
  if (le) return;
  for (int m = 0; m < GT / 2; m++) {
    uint8_t x = out[m];
    out[m] = out[GT - 1 - m];
    out[GT - 1 - m] = x;
  }
}

static int write_result(sol_ctx *c, const sol_io *io, uint64_t va, const uint8_t *res, size_t n,
                        scp_error *err) {
  uint8_t *out;
  int rc = sol_map(c, io, va, n, 1, 1, true, &out, err);
  if (rc) return rc;
  memcpy(out, res, n);
  return SCP_OK;
}

int sol_bls_validate(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  bool g2 = (a[0] & 0x7f) == 6, le = !(a[0] & 0x80);
  uint8_t *p;
  int rc;
  if ((rc = sol_charge(c, io, VALIDATE[g2], err)) || (rc = sol_map(c, io, a[1], g2 ? G2 : G1, 1, 1, false, &p, err)))
    return rc;
  scp_ecp pt;
  *r0 = decode(le, g2, true, p, &pt) ? 0 : 1;
  return SCP_OK;
}

int sol_bls_decompress(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  bool g2 = (a[0] & 0x7f) == 6, le = !(a[0] & 0x80);
  uint8_t *p, res[G2];
  int rc;
  if ((rc = sol_charge(c, io, DECOMPRESS[g2], err)) ||
      (rc = sol_map(c, io, a[1], g2 ? G1 : FP, 1, 1, false, &p, err)))
    return rc;
  scp_ecp pt;
  *r0 = 1;
  if (!decompress(le, g2, p, &pt)) return SCP_OK;
  encode(le, g2, &pt, res);
  *r0 = 0;
  return write_result(c, io, a[2], res, g2 ? G2 : G1, err);
}

/* ops 0 ADD, 1 SUB, 2 MUL (left the scalar, right the point); another op
 * is InvalidAttribute before any charge */
int sol_bls_group_op(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  bool g2 = (a[0] & 0x7f) == 6, le = !(a[0] & 0x80);
  size_t n = g2 ? G2 : G1;
  if (a[1] > 2) return scp_fail(err, SCP_ERR_TRAP, "InvalidAttribute");
  uint8_t *l, *r, res[G2];
  int rc;
  if ((rc = sol_charge(c, io, GROUP_OP[g2][a[1]], err)) ||
      (rc = sol_map(c, io, a[2], a[1] == 2 ? SCALAR : n, 1, 1, false, &l, err)) ||
      (rc = sol_map(c, io, a[3], n, 1, 1, false, &r, err)))
    return rc;
  const scp_ec *cv = curve(g2);
  scp_ecp x, y, z;
  *r0 = 1;
  if (a[1] == 2) {
    uint8_t k[SCALAR];
    for (int i = 0; i < SCALAR; i++) k[i] = le ? l[SCALAR - 1 - i] : l[i];
    if (!decode(le, g2, true, r, &x) || memcmp(k, pc()->r_be, SCALAR) >= 0) return SCP_OK;
    scp_ec_mul(cv, &x, k, SCALAR, &z);
  } else {
    if (!decode(le, g2, false, l, &x) || !decode(le, g2, false, r, &y)) return SCP_OK;
    if (a[1] == 1) scp_ec_neg(cv, &y, &y);
    scp_ec_add_affine(cv, &x, &y, &z);
  }
  encode(le, g2, &z, res);
  *r0 = 0;
  return write_result(c, io, a[4], res, n, err);
}

/* sol_curve_pairing_map(curve, n, g1s, g2s, result): one-pair cost plus
 * the additional-pair cost for each pair after the first */
int sol_bls_pairing(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  bool le = !(a[0] & 0x80);
  uint64_t n = a[1], more = n ? n - 1 : 0;
  uint64_t cost = more > (UINT64_MAX - PAIR_ONE) / PAIR_MORE ? UINT64_MAX : PAIR_ONE + PAIR_MORE * more;
  uint8_t *g1s, *g2s, res[GT];
  int rc;
  if ((rc = sol_charge(c, io, cost, err)) || (rc = sol_map(c, io, a[2], n, G1, 1, false, &g1s, err)) ||
      (rc = sol_map(c, io, a[3], n, G2, 1, false, &g2s, err)))
    return rc;
  scp_fe12 f, g;
  scp_fe12_one(&f);
  *r0 = 1;
  for (uint64_t i = 0; i < n; i++) {
    scp_ecp p, q;
    if (!decode(le, false, true, g1s + i * G1, &p) || !decode(le, true, true, g2s + i * G2, &q))
      return SCP_OK;
    scp_pairing_miller(pc(), &p, &q, &f);
  }
  scp_pairing_final_exp(pc(), &f, &g);
  /* blst's final exponentiation (the fast hard part) raises to 3 (p^12 - 1)
   * / r: the value it returns is the reduced pairing cubed */
  scp_fe12 g2;
  scp_fe12_mul(pc(), &g, &g, &g2);
  scp_fe12_mul(pc(), &g2, &g, &g);
  encode_gt(le, &g, res);
  *r0 = 0;
  return write_result(c, io, a[4], res, GT, err);
}
