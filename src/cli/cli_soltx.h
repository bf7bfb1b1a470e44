/*
 * cli_soltx.h — `scprof profile --tx FILE`: one Solana transaction from a
 * file (wire bytes, base64 or base58, or an RPC getTransaction response)
 * run on the state the other options give (a scenario's programs and
 * accounts, --account, PROGRAM.so), written to the output folder as a
 * scenario transaction is: every format and result.txt.
 */
#ifndef SCP_CLI_SOLTX_H
#define SCP_CLI_SOLTX_H

#include "cli.h"
#include "solana/scp_sol_tx.h"

typedef struct cli_sol_tx {
  const char *path;                      /* the transaction file */
  const scp_sol_tx_prog *progs;          /* borrowed */
  size_t nprogs;
  const scp_sol_account *state;          /* borrowed, not changed */
  size_t nstate;
  const char *out_dir;
  bool quiet, expect_chain, sigverify;
  unsigned top;
  /* the profile in every wanted format into dir (cmd_profile_sol.c) */
  int (*write_outputs)(const scp_profile *p, const void *ctx, const char *dir, const char *shown);
  const void *ctx;
  /* the sysvar cache and feature gates (borrowed; NULL: litesvm's): the
   * programs read them, and the Clock and SlotHashes decide which lookup
   * tables load */
  const struct scp_sol_sysvars *sysvars;
  const struct scp_sol_features *features;
  const struct scp_sol_idls *idls;       /* instruction names (borrowed); NULL: none */
  /* the programs' cache (symbol files registered); NULL: one for the
   * transaction alone */
  struct scp_sol_progs *cache;
  scp_tree_opts shape;                   /* each invocation's call tree (scp_sol_tx_opts.shape) */
} cli_sol_tx;

/* result.txt's "post KEY LAMPORTS OWNER HEX" line of account a */
void cli_sol_post_line(scp_buf *b, const scp_sol_account *a);

/* Run it; the exit status: 0, that of a failing transaction (10), of a
 * chain record that differs under expect_chain, or of bad input. */
int cli_sol_tx_run(const cli_sol_tx *o);

/* A scenario transaction with a "fee_payer": compiled into a legacy
 * message (scp_sol_wire_compile) and run as --tx runs one (the fee
 * charged) on o->accts, the scenario's accounts, which take its changes;
 * the "fee" and "post" lines of result.txt are appended to lines.  SCP_OK
 * with *r filled; else the error in err and *r empty. */
int cli_sol_tx_with_payer(const scp_sol_tx_opts *o, const uint8_t payer[32], scp_sol_tx_result *r, scp_buf *lines,
                          scp_error *err);

#endif
