/*
 * scp_sol_input.h — the program's input region: how the runtime serializes
 * an instruction's accounts and data into it, and how it reads them back
 * after a successful run (agave program-runtime serialization.rs, with
 * account data copied: one writable region at MM_INPUT).
 *
 * Aligned layout (BPFLoader2 and the upgradeable loader), little-endian:
 *   u64 number of accounts, then per instruction account either
 *     u8 0xff, u8 is_signer, u8 is_writable, u8 executable, 4 zero bytes,
 *     [32] key, [32] owner, u64 lamports, u64 data_len, data,
 *     10 KiB of zeros (realloc space) and zeros to the next multiple of 8,
 *     u64 rent_epoch (always u64::MAX)
 *   or, for an account seen earlier in the instruction,
 *     u8 index of its first occurrence, 7 zero bytes;
 *   u64 instruction data length, the data, [32] program id.
 * Unaligned layout (the deprecated loader): no padding and no realloc
 * space; an account is u8 0xff, u8 is_signer, u8 is_writable, [32] key,
 * u64 lamports, u64 data_len, data, [32] owner, u8 executable,
 * u64 rent_epoch; a duplicate is the one index byte.
 */
#ifndef SCP_SOL_INPUT_H
#define SCP_SOL_INPUT_H

#include "solana/scp_sol.h"

typedef struct scp_sol_input {
  uint8_t *buf;          /* the region's bytes (malloc'd) */
  size_t len;
  size_t ixdata_off;     /* offset of the instruction data: r2 = MM_INPUT + this */
  bool aligned;
  size_t n;              /* instruction accounts */
  size_t *pre_len;       /* each account's data length when serialized */
} scp_sol_input;

/* Serialize instruction accounts ix[0..nix) of accts (the transaction's
 * accounts), the instruction data and the program id.  Returns SCP_OK,
 * SCP_ERR_LIMIT (more than 255 accounts: agave's MaxAccountsExceeded, *ierr
 * set), SCP_ERR_ARG (an index out of range) or SCP_ERR_NOMEM; on failure
 * *in is empty. */
typedef struct scp_sol_ix {
  const scp_sol_ixacct *accts;
  size_t naccts;
  const uint8_t *data;
  size_t len;
  const uint8_t *program_id;   /* 32 bytes */
  scp_sol_loader loader;
} scp_sol_ix;

int scp_sol_input_serialize(const scp_sol_account *accts, size_t ntx,
                            const scp_sol_ix *ix, scp_sol_input *in,
                            scp_sol_ierr *ierr, scp_error *err);

/* Read the region back into accts after a successful run, applying the
 * runtime's checks in its order (per account: lamports, data length within
 * the realloc limit, data, then owner).  Returns SCP_OK, or SCP_ERR_TRAP
 * with *ierr the InstructionError (ReadonlyLamportChange,
 * ExternalAccountLamportSpend, InvalidRealloc, ReadonlyDataModified,
 * ExternalAccountDataModified, AccountDataSizeChanged, ModifiedProgramId);
 * accts may then be partly
 * updated (the caller keeps a copy: a failed instruction commits nothing).
 * SCP_ERR_NOMEM when a grown account's data cannot be allocated. */
int scp_sol_input_deserialize(const scp_sol_input *in, scp_sol_account *accts,
                              const scp_sol_ix *ix, scp_sol_ierr *ierr);

/* The instruction's lamport sum is the same before and after (else the
 * runtime's UnbalancedInstruction, checked when the instruction is popped:
 * after the program's "success" line). */
bool scp_sol_input_balanced(const scp_sol_account *before, const scp_sol_account *after,
                            const scp_sol_ix *ix);

void scp_sol_input_free(scp_sol_input *in);

#endif
