/* sol_sys_crypto.c — the alt_bn128 and Poseidon syscalls (agave syscalls
 * lib.rs SyscallAltBn128, SyscallAltBn128Compression, SyscallPoseidon):
 * argument checks, charges and memory translation in agave's order; the
 * computations are sol_bn254.c's and crypto/'s.  A computation that fails
 * returns r0 1 without writing the result. */
#include <stdlib.h>
#include <string.h>
#include "crypto/crypto_bn254.h"
#include "crypto/crypto_poseidon.h"
#include "solana/sol_sys.h"

/* SVMTransactionExecutionCost::default */
#define BN_G1_ADD        334u
#define BN_G2_ADD        535u
#define BN_G1_MUL       3840u
#define BN_G2_MUL      15670u
#define BN_PAIR_FIRST  36364u
#define BN_PAIR_OTHER  12121u
#define BN_G1_COMPRESS    30u
#define BN_G1_DECOMPRESS 398u
#define BN_G2_COMPRESS    86u
#define BN_G2_DECOMPRESS 13610u
#define POSEIDON_A        61u
#define POSEIDON_C       542u
/* poseidon_enforce_padding: inputs are exactly 32 bytes */
#define POSEIDON_EXACT true

#define LE_FLAG 0x80u

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }
static uint64_t sat_mul(uint64_t a, uint64_t b) {
  return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

static int invalid_attribute(scp_error *err) { return scp_fail(err, SCP_ERR_TRAP, "InvalidAttribute"); }

/* sol_alt_bn128_group_op(op, input, input_size, result): ops 0 G1 add, 2
 * G1 mul, 3 pairing, 4 G2 add, 6 G2 mul, each | 0x80 for little-endian;
 * the subtractions 1 and 5 are not accepted. */
int sol_sys_alt_bn128_group_op(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0,
                               scp_error *err) {
  uint64_t op = a[0], size = a[2], cost, outlen;
  bool le = (op & LE_FLAG) != 0;
  switch (op & ~(uint64_t)LE_FLAG) {
  case 0: cost = BN_G1_ADD; outlen = 64; break;
  case 4: cost = BN_G2_ADD; outlen = 128; break;
  case 2: cost = BN_G1_MUL; outlen = 64; break;
  case 6: cost = BN_G2_MUL; outlen = 128; break;
  case 3:
    cost = sat_add(sat_add(sat_add(sat_add(BN_PAIR_FIRST,
                                           sat_mul(BN_PAIR_OTHER, size / 192 ? size / 192 - 1 : 0)),
                                   SOL_SHA256_BASE),
                           size),
                   32);
    outlen = 32;
    break;
  default: return invalid_attribute(err);
  }
  uint8_t *out, *in;
  int rc;
  if ((rc = sol_charge(c, io, cost, err)) || (rc = sol_map(c, io, a[3], outlen, 1, 1, true, &out, err)) ||
      (rc = sol_map(c, io, a[1], size, 1, 1, false, &in, err)))
    return rc;
  uint8_t res[128];
  bool ok;
  switch (op & ~(uint64_t)LE_FLAG) {
  case 0: case 4: ok = sol_bn_add(in, size, op & 4, le, res); break;
  case 2: case 6: ok = sol_bn_mul(in, size, op & 4, le, res); break;
  default: ok = sol_bn_pairing(in, size, le, true, res); break;
  }
  if (ok) memcpy(out, res, outlen);
  *r0 = ok ? 0 : 1;
  return SCP_OK;
}

/* sol_alt_bn128_compression(op, input, input_size, result): 0 G1
 * compress, 1 G1 decompress, 2 G2 compress, 3 G2 decompress (| 0x80). */
int sol_sys_alt_bn128_compression(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0,
                                  scp_error *err) {
  static const uint64_t costs[4] = { BN_G1_COMPRESS, BN_G1_DECOMPRESS, BN_G2_COMPRESS, BN_G2_DECOMPRESS };
  static const uint64_t outs[4] = { 32, 64, 64, 128 };
  uint64_t op = a[0], k = op & ~(uint64_t)LE_FLAG;
  if (k > 3) return invalid_attribute(err);
  bool le = (op & LE_FLAG) != 0, g2 = k >= 2;
  uint8_t *out, *in;
  int rc;
  if ((rc = sol_charge(c, io, SOL_SYSCALL_BASE + costs[k], err)) ||
      (rc = sol_map(c, io, a[3], outs[k], 1, 1, true, &out, err)) ||
      (rc = sol_map(c, io, a[1], a[2], 1, 1, false, &in, err)))
    return rc;
  uint8_t res[128];
  bool ok = k & 1 ? sol_bn_decompress(in, a[2], g2, le, res) : sol_bn_compress(in, a[2], g2, le, res);
  if (ok) memcpy(out, res, outs[k]);
  *r0 = ok ? 0 : 1;
  return SCP_OK;
}

/* Each input as light-poseidon reads it: 32 bytes (with padding enforced;
 * without, 1..32) of a value below r, in the chosen byte order. */
static bool poseidon_input(const uint8_t *b, uint64_t len, bool le, uint64_t w[4]) {
  if (len == 0 || (POSEIDON_EXACT ? len != 32 : len > 32)) return false;
  uint8_t be[32] = {0};
  for (uint64_t i = 0; i < len; i++) be[32 - len + i] = le ? b[len - 1 - i] : b[i];
  for (int i = 0; i < 4; i++) {
    w[i] = 0;
    for (int j = 0; j < 8; j++) w[i] = w[i] << 8 | be[8 * i + j];
  }
  for (int i = 0; i < 4; i++)
    if (w[i] != scp_bn_r[i]) return w[i] < scp_bn_r[i];
  return false;
}

/* sol_poseidon(parameters, endianness, vals, vals_len, result): parameters
 * 0 (BN254 x^5) and endianness 0 big / 1 little, else the syscall fails;
 * at most 12 inputs; 61 n^2 + 542 CU. */
int sol_sys_poseidon(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  uint64_t n = a[3];
  if (a[0] != 0) return scp_fail(err, SCP_ERR_TRAP, "Invalid parameters.");
  if (a[1] > 1) return scp_fail(err, SCP_ERR_TRAP, "Invalid endianness.");
  if (n > SCP_POSEIDON_MAX_INPUTS) {
    sol_log(c, "Poseidon hashing %llu sequences is not supported", (unsigned long long)n);
    return scp_fail(err, SCP_ERR_TRAP, "InvalidLength");
  }
  uint8_t *out;
  const uint8_t *f = NULL;
  int rc;
  if ((rc = sol_charge(c, io, POSEIDON_A * n * n + POSEIDON_C, err)) ||
      (rc = sol_map(c, io, a[4], 32, 1, 1, true, &out, err)) ||
      (n && (rc = sol_map_slices(c, io, a[2], n, &f, err))))
    return rc;
  uint64_t in[SCP_POSEIDON_MAX_INPUTS][4], h[4];
  bool ok = n > 0;
  for (uint64_t i = 0; i < n; i++) {
    uint8_t *p;
    uint64_t len = sol_le64(f + 16 * i + 8);
    if ((rc = sol_map(c, io, sol_le64(f + 16 * i), len, 1, 1, false, &p, err))) return rc;
    ok = ok && poseidon_input(p, len, a[1] == 1, in[i]);
  }
  ok = ok && scp_poseidon_hash((const uint64_t(*)[4])in, n, h);
  *r0 = ok ? 0 : 1;
  if (!ok) return SCP_OK;
  for (int i = 0; i < 32; i++) {
    uint8_t byte = (uint8_t)(h[i / 8] >> (56 - 8 * (i % 8)));
    out[a[1] == 1 ? 31 - i : i] = byte;
  }
  return SCP_OK;
}
