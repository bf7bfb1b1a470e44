/*
 * scp_sol.h — the Solana runtime around the sBPF engine: accounts, the
 * instruction errors a program run ends with, public keys in base58.
 *
 * Which runtime features are on follows litesvm 1.5.0's defaults (agave 4.3,
 * ../shared/spec/sbpf/runtime-features.txt; the gates a run may change are
 * in scp_sol_feature.h): account data is copied into the
 * input region (no direct mapping), rent_epoch is serialized as u64::MAX, r2
 * holds the address of the instruction data, a failing VM depletes the
 * meter unless a syscall failed.
 */
#ifndef SCP_SOL_H
#define SCP_SOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "scprof.h"

#define SCP_SOL_MAX_PERMITTED_DATA_INCREASE (10u * 1024)
#define SCP_SOL_MAX_PERMITTED_DATA_LENGTH   (10u * 1024 * 1024)
#define SCP_SOL_MAX_IX_ACCOUNTS 255u

/* One account of the transaction.  data is malloc'd and owned by whoever
 * owns the account array (scp_sol_account_free releases it). */
typedef struct scp_sol_account {
  uint8_t key[32];
  uint8_t owner[32];
  uint64_t lamports;
  uint8_t *data;
  size_t len;
  bool executable;
} scp_sol_account;

void scp_sol_account_free(scp_sol_account *a);
/* Deep copy; SCP_OK or SCP_ERR_NOMEM (dst untouched). */
int scp_sol_account_copy(scp_sol_account *dst, const scp_sol_account *src);

/* One account of an instruction: its index in the transaction's accounts
 * and the privileges the message gives that account (the same for every
 * occurrence of one account: the message merges them). */
typedef struct scp_sol_ixacct {
  uint16_t index;
  bool signer, writable;
} scp_sol_ixacct;

/* The loader that owns a program decides the input layout: the deprecated
 * loader (v1) the unaligned one, BPFLoader2 and the upgradeable loader
 * (v2, v3) the aligned one. */
typedef enum scp_sol_loader {
  SCP_SOL_LOADER_V1 = 1, SCP_SOL_LOADER_V2 = 2, SCP_SOL_LOADER_V3 = 3
} scp_sol_loader;

/* ---- instruction errors (agave's InstructionError) -------------------- */
typedef enum scp_sol_ierr_kind {
  SCP_SOL_IERR_NONE = 0,
#define X(id, name, code, text) SCP_SOL_IERR_##id,
#include "solana/sol_ierr.def"
#undef X
  SCP_SOL_IERR_COUNT
} scp_sol_ierr_kind;

typedef struct scp_sol_ierr {
  scp_sol_ierr_kind kind;
  uint32_t custom;       /* the code of SCP_SOL_IERR_CUSTOM */
} scp_sol_ierr;

/* What a program's nonzero r0 means (InstructionError::from(u64)). */
scp_sol_ierr scp_sol_ierr_from_u64(uint64_t r0);
/* {:?}: "Custom(1)", "MissingRequiredSignature"; "" for NONE. */
void scp_sol_ierr_name(scp_sol_ierr e, char *buf, size_t cap);
/* Display: "custom program error: 0x1", "missing required signature ...". */
void scp_sol_ierr_text(scp_sol_ierr e, char *buf, size_t cap);

/* ---- base58 public keys ------------------------------------------------ */
#define SCP_SOL_B58_KEY_MAX 45   /* 44 characters and the NUL */
/* The base58 text of 32 bytes. */
void scp_sol_key_str(const uint8_t key[32], char out[SCP_SOL_B58_KEY_MAX]);
/* Parse base58 text that decodes to exactly 32 bytes. */
bool scp_sol_key_parse(const char *text, size_t len, uint8_t key[32]);
/* Base58 text of any length into bytes (util's codec): SCP_OK with *out
 * malloc'd (the caller frees it) and *n its length; SCP_ERR_MALFORMED (a
 * character outside the alphabet), SCP_ERR_NOMEM; *out is NULL on failure. */
int scp_sol_b58_decode(const char *text, size_t len, uint8_t **out, size_t *n);

#endif
