/* sol_sys_hash.c — hashing, secp256k1 recovery and program-derived
 * addresses (agave syscalls lib.rs SyscallHash, SyscallSecp256k1Recover,
 * SyscallCreateProgramAddress, SyscallTryFindProgramAddress). */
#include <stdlib.h>
#include <string.h>
#include <secp256k1.h>
#include <secp256k1_recovery.h>
#include "solana/sol_sys.h"

typedef void (*hash_fn)(const uint8_t *const *parts, const size_t *lens, size_t n, uint8_t out[32]);

/* hash(vals, n, result): base cost, the result mapped, then per slice
 * max(mem_op_base, byte_cost * (len / 2)) charged after the slice maps. */
static int hash_body(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0,
                     scp_error *err, hash_fn h, const char *name) {
  uint8_t *out;
  const uint8_t *f = NULL;
  int rc;
  if (a[1] > SOL_SHA256_MAX_SLICES) {
    sol_log(c, "%s Hashing %llu sequences in one syscall is over the limit %u", name,
            (unsigned long long)a[1], SOL_SHA256_MAX_SLICES);
    return scp_fail(err, SCP_ERR_TRAP, "Hashing too many sequences");
  }
  if ((rc = sol_charge(c, io, SOL_SHA256_BASE, err)) ||
      (rc = sol_map(c, io, a[2], 32, 1, 1, true, &out, err)))
    return rc;
  if (a[1] && (rc = sol_map_slices(c, io, a[0], a[1], &f, err))) return rc;
  const uint8_t **parts = calloc(a[1] ? a[1] : 1, sizeof *parts);
  size_t *lens = calloc(a[1] ? a[1] : 1, sizeof *lens);
  if (!parts || !lens) {
    rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    goto done;
  }
  for (uint64_t i = 0; i < a[1]; i++) {
    uint8_t *p;
    uint64_t len = sol_le64(f + 16 * i + 8);
    if ((rc = sol_map(c, io, sol_le64(f + 16 * i), len, 1, 1, false, &p, err))) goto done;
    uint64_t cost = SOL_SHA256_BYTE * (len / 2);
    if ((rc = sol_charge(c, io, cost > SOL_MEM_OP_BASE ? cost : SOL_MEM_OP_BASE, err))) goto done;
    parts[i] = p;
    lens[i] = len;
  }
  h(parts, lens, a[1], out);
  *r0 = 0;
done:
  free(parts);
  free(lens);
  return rc;
}

int sol_sys_sha256(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  return hash_body(c, io, a, r0, err, sol_sha256, "Sha256");
}
int sol_sys_keccak256(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  return hash_body(c, io, a, r0, err, sol_keccak256, "Keccak256");
}

/* secp256k1_recover(hash, recovery_id, signature, result): 25,000 CU; r0 0
 * with the 64-byte key (no 0x04 prefix), or 1 bad hash, 2 bad recovery id,
 * 3 bad signature (Secp256k1RecoverError). */
int sol_sys_secp256k1_recover(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0,
                              scp_error *err) {
  uint8_t *out, *hash, *sig;
  int rc;
  if ((rc = sol_charge(c, io, SOL_SECP256K1_RECOVER, err)) ||
      (rc = sol_map(c, io, a[3], 64, 1, 1, true, &out, err)) ||
      (rc = sol_map(c, io, a[0], 32, 1, 1, false, &hash, err)) ||
      (rc = sol_map(c, io, a[2], 64, 1, 1, false, &sig, err)))
    return rc;
  if (a[1] > 3) { *r0 = 2; return SCP_OK; }
  secp256k1_context *ctx = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
  if (!ctx) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  secp256k1_ecdsa_recoverable_signature rs;
  secp256k1_pubkey pk;
  uint8_t ser[65];
  size_t sl = sizeof ser;
  *r0 = 3;
  if (secp256k1_ecdsa_recoverable_signature_parse_compact(ctx, &rs, sig, (int)a[1]) &&
      secp256k1_ecdsa_recover(ctx, &pk, &rs, hash) &&
      secp256k1_ec_pubkey_serialize(ctx, ser, &sl, &pk, SECP256K1_EC_UNCOMPRESSED)) {
    memcpy(out, ser + 1, 64);
    *r0 = 0;
  }
  secp256k1_context_destroy(ctx);
  return SCP_OK;
}

#define MAX_SEEDS 16
#define MAX_SEED_LEN 32

/* The seeds (at most 16 of at most 32 bytes) and the program id. */
static int pda_inputs(sol_ctx *c, const sol_io *io, const uint64_t a[5], const uint8_t **seeds,
                      size_t *lens, uint8_t **pid, scp_error *err) {
  const uint8_t *f = NULL;
  int rc;
  if ((rc = sol_map_slices(c, io, a[0], a[1], &f, err))) return rc;
  if (a[1] > MAX_SEEDS)
    return scp_fail(err, SCP_ERR_TRAP, "Could not create program address with signer seeds: "
                                       "Length of the seed is too long for address generation");
  for (uint64_t i = 0; i < a[1]; i++) {
    uint64_t len = sol_le64(f + 16 * i + 8);
    uint8_t *p;
    if (len > MAX_SEED_LEN)
      return scp_fail(err, SCP_ERR_TRAP, "Could not create program address with signer seeds: "
                                         "Length of the seed is too long for address generation");
    if ((rc = sol_map(c, io, sol_le64(f + 16 * i), len, 1, 1, false, &p, err))) return rc;
    seeds[i] = p;
    lens[i] = len;
  }
  return sol_map(c, io, a[2], 1, 32, 1, false, pid, err);
}

/* create_program_address(seeds, n, program_id, address): 1,500 CU; r0 1
 * when the address falls on the curve. */
int sol_sys_create_pda(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  const uint8_t *seeds[MAX_SEEDS + 1];
  size_t lens[MAX_SEEDS + 1];
  uint8_t *pid, *out, addr[32];
  scp_sol_ierr_kind why;
  int rc;
  if ((rc = sol_charge(c, io, SOL_CREATE_PDA_UNITS, err)) ||
      (rc = pda_inputs(c, io, a, seeds, lens, &pid, err)))
    return rc;
  if (!sol_create_pda(seeds, lens, a[1], pid, addr, &why)) { *r0 = 1; return SCP_OK; }
  if ((rc = sol_map(c, io, a[3], 32, 1, 1, true, &out, err))) return rc;
  memcpy(out, addr, 32);
  *r0 = 0;
  return SCP_OK;
}

/* try_find_program_address(seeds, n, program_id, address, bump): 1,500 CU,
 * and 1,500 more after each bump (255 down to 1) that lands on the curve. */
int sol_sys_find_pda(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  const uint8_t *seeds[MAX_SEEDS + 1];
  size_t lens[MAX_SEEDS + 1];
  uint8_t *pid, *out, *bump_out, addr[32], bump = 255;
  scp_sol_ierr_kind why;
  int rc;
  if ((rc = sol_charge(c, io, SOL_CREATE_PDA_UNITS, err)) ||
      (rc = pda_inputs(c, io, a, seeds, lens, &pid, err)))
    return rc;
  seeds[a[1]] = &bump;
  lens[a[1]] = 1;
  for (int i = 0; i < 255; i++) {
    if (sol_create_pda(seeds, lens, a[1] + 1, pid, addr, &why)) {
      if ((rc = sol_map(c, io, a[4], 1, 1, 1, true, &bump_out, err)) ||
          (rc = sol_map(c, io, a[3], 32, 1, 1, true, &out, err)))
        return rc;
      *bump_out = bump;
      memcpy(out, addr, 32);
      *r0 = 0;
      return SCP_OK;
    }
    bump = bump ? bump - 1 : 0;
    if ((rc = sol_charge(c, io, SOL_CREATE_PDA_UNITS, err))) return rc;
  }
  *r0 = 1;
  return SCP_OK;
}
