/*
 * cli_solsyms.h — `--symbols [ID=]FILE` and `--symbols-dir DIR` for a
 * Solana run: symbols of a stripped program from its unstripped build or
 * its split debug file, for every program of the run (CPI callees too).
 */
#ifndef SCP_CLI_SOLSYMS_H
#define SCP_CLI_SOLSYMS_H

#include "cli.h"
#include "solana/scp_sol_progs.h"
#include "solana/scp_sol_tx.h"

typedef struct cli_sol_syms {
  const char **specs;          /* the --symbols values, in order */
  size_t nspecs;
  const char *dir;             /* --symbols-dir; NULL: none */
} cli_sol_syms;

/* Read each file and check that it belongs to its program
 * (scp_sym_elf_matches): the program of ID=, else one of the run's
 * programs; in DIR, ID.so, ID.debug, NAME.so or NAME.debug of each program
 * (the first that exists).  The run's programs are progs (NAME: their
 * name) and those deployed in accts (named by id).  Each file is then
 * registered in cache.  Returns 0, or the exit status after one line on
 * stderr naming the file and what does not match. */
int cli_sol_syms_load(const cli_sol_syms *o, const scp_sol_tx_prog *progs, size_t nprogs,
                      const scp_sol_account *accts, size_t naccts, scp_sol_progs *cache);

/* Refuse (one line, exit status) a split debug file given as the program
 * to run: it has no code.  0 when elf is not one. */
int cli_sol_refuse_debug(const char *path, const uint8_t *elf, size_t len);

#endif
