/* sol_builtin.h — the builtin programs a transaction can call (System,
 * Compute Budget) and the log list a transaction keeps. */
#ifndef SOL_BUILTIN_H
#define SOL_BUILTIN_H

#include "solana/scp_sol.h"
#include "util/scp_util.h"

typedef struct sol_logs {
  char **v;
  size_t n, cap;
  bool oom;
} sol_logs;

void sol_logs_add(sol_logs *l, const char *fmt, ...) SCP_PRINTF(2, 3);
void sol_logs_free(sol_logs *l);

/* One inner instruction (a CPI that ran) as an RPC node records it in
 * meta.innerInstructions: its program and accounts as indexes into the
 * transaction's accounts, its data, the stack height it ran at. */
typedef struct sol_inner {
  long top;                    /* the top-level instruction; -1: not known here */
  unsigned height;             /* stackHeight: 2 for a CPI of a top-level instruction */
  long program;                /* programIdIndex; -1: the program is not in the transaction */
  const unsigned *accts;
  size_t naccts;
  const uint8_t *data;
  size_t len;
} sol_inner;

/* Append in to l as one line, "[index K ]stackHeight H programIdIndex P
 * accounts [A,B] data BASE58": the same bytes for the same instruction
 * whichever side wrote it.  SCP_OK; SCP_ERR_NOMEM (l->oom set). */
int sol_inner_add(sol_logs *l, const sol_inner *in);

/* What the runtime charges and keeps as litesvm 1.5.0 sets it up: its fee
 * structure's lamports per signature (what a nonce records), and rent
 * exemption: (128 + data length) x 6,960 lamports. */
#define SCP_SOL_LAMPORTS_PER_SIGNATURE 5000u
#define SCP_SOL_RENT_PER_BYTE 6960u
#define SCP_SOL_ACCOUNT_OVERHEAD 128u
#define SCP_SOL_NONCE_SIZE 80u

/* One builtin instruction on the transaction's accounts. */
typedef struct sol_bi {
  scp_sol_account *accts;
  const scp_sol_ixacct *ix;    /* merged message flags */
  size_t nix;
  const uint8_t *data;
  size_t len;
  sol_logs *logs;
  const uint8_t *blockhash;    /* the transaction's recent blockhash (32 bytes) */
} sol_bi;

/* The System program's instruction (system_processor): SCP_OK with *ierr
 * set on failure (accounts may be half-changed: the caller rolls back).
 * Every instruction of agave 4's System program is implemented, so err is
 * not used. */
int sol_system_exec(const sol_bi *b, scp_sol_ierr *ierr, scp_error *err);

#endif
