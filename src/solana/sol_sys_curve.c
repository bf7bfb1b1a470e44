/* sol_sys_curve.c — the curve syscalls (agave syscalls lib.rs
 * SyscallCurvePointValidation, SyscallCurveGroupOps,
 * SyscallCurveMultiscalarMultiplication, SyscallCurveDecompress,
 * SyscallCurvePairingMap) for curve25519's Edwards (curve 0) and Ristretto
 * (1) groups as solana-curve25519 computes them on curve25519-dalek; the
 * arithmetic is crypto/crypto_ed25519's.  A curve or operation they do not
 * know is InvalidAttribute before any charge (abort_on_invalid_curve); the
 * BLS12-381 ids (5 G1, 6 G2, each | 0x80 big-endian; 4 the pairing) go to
 * sol_sys_bls.c, and multiscalar has none of them.  Inputs that do not decode, and
 * scalars not below the group order, return r0 1 and leave the result
 * alone; the result is translated only after a success. */
#include <string.h>
#include "crypto/crypto_ed25519.h"
#include "solana/sol_sys.h"

/* SVMTransactionExecutionCost::default, [Edwards, Ristretto] */
static const uint64_t VALIDATE[2] = { 159, 169 };
static const uint64_t GROUP_OP[2][3] = { { 473, 475, 2177 }, { 521, 519, 2208 } };  /* ADD SUB MUL */
static const uint64_t MSM_BASE[2] = { 2273, 2303 };
static const uint64_t MSM_INCR[2] = { 758, 788 };
/* more points than this is InvalidLength before anything else */
#define MSM_MAX 512u

static bool bls_id(uint64_t id, uint64_t base) { return id == base || id == (base | 0x80); }

static int curve_unknown(scp_error *err) { return scp_fail(err, SCP_ERR_TRAP, "InvalidAttribute"); }

/* the 32-byte result, written only after the operation succeeded */
static int put_result(sol_ctx *c, const sol_io *io, uint64_t va, bool ok, const uint8_t res[32],
                      uint64_t *r0, scp_error *err) {
  *r0 = ok ? 0 : 1;
  if (!ok) return SCP_OK;
  uint8_t *out;
  int rc = sol_map(c, io, va, 32, 1, 1, true, &out, err);
  if (rc) return rc;
  memcpy(out, res, 32);
  return SCP_OK;
}

/* sol_curve_validate_point(curve, point, _) */
int sol_sys_curve_validate(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  if (bls_id(a[0], 5) || bls_id(a[0], 6)) return sol_bls_validate(c, io, a, r0, err);
  if (a[0] > 1) return curve_unknown(err);
  bool rist = a[0] == 1;
  uint8_t *p;
  int rc;
  if ((rc = sol_charge(c, io, VALIDATE[rist], err)) || (rc = sol_map(c, io, a[1], 32, 1, 1, false, &p, err)))
    return rc;
  *r0 = scp_ed_valid(rist, p) ? 0 : 1;
  return SCP_OK;
}

/* sol_curve_group_op(curve, op, left, right, result): ops 0 ADD, 1 SUB, 2
 * MUL (left is then the scalar, right the point) */
int sol_sys_curve_group_op(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  if (bls_id(a[0], 5) || bls_id(a[0], 6)) return sol_bls_group_op(c, io, a, r0, err);
  if (a[0] > 1 || a[1] > 2) return curve_unknown(err);
  bool rist = a[0] == 1;
  uint8_t *l, *r, res[32];
  int rc;
  if ((rc = sol_charge(c, io, GROUP_OP[rist][a[1]], err)) ||
      (rc = sol_map(c, io, a[2], 32, 1, 1, false, &l, err)) ||
      (rc = sol_map(c, io, a[3], 32, 1, 1, false, &r, err)))
    return rc;
  bool ok = a[1] == 2 ? scp_ed_mul(rist, l, r, res) : scp_ed_add(rist, l, r, a[1] == 1, res);
  return put_result(c, io, a[4], ok, res, r0, err);
}

/* sol_curve_multiscalar_mul(curve, scalars, points, n, result): base + incr
 * (n - 1) CU (base for n 0, whose sum is the identity) */
int sol_sys_curve_msm(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  uint64_t n = a[3];
  if (n > MSM_MAX) return scp_fail(err, SCP_ERR_TRAP, "InvalidLength");
  if (a[0] > 1) return curve_unknown(err);
  bool rist = a[0] == 1;
  uint8_t *s, *p, res[32];
  int rc;
  if ((rc = sol_charge(c, io, MSM_BASE[rist] + MSM_INCR[rist] * (n ? n - 1 : 0), err)) ||
      (rc = sol_map(c, io, a[1], n, 32, 1, false, &s, err)) ||
      (rc = sol_map(c, io, a[2], n, 32, 1, false, &p, err)))
    return rc;
  bool ok = scp_ed_msm(rist, s, p, (size_t)n, res);
  return put_result(c, io, a[4], ok, res, r0, err);
}

int sol_sys_curve_decompress(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  if (!bls_id(a[0], 5) && !bls_id(a[0], 6)) return curve_unknown(err);
  return sol_bls_decompress(c, io, a, r0, err);
}

int sol_sys_curve_pairing_map(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  if (!bls_id(a[0], 4)) return curve_unknown(err);
  return sol_bls_pairing(c, io, a, r0, err);
}
