/*
 * cli_sorsyms.h — `--symbols [C...=]FILE.wasm` for a Soroban call: the
 * DWARF of a contract from its build before the debug sections were
 * stripped (wasm-opt --strip-debug, wasm-strip, llvm-strip, stellar
 * contract build), for the called contract or any contract of the run.
 */
#ifndef SCP_CLI_SORSYMS_H
#define SCP_CLI_SORSYMS_H

#include "cli.h"
#include "scprof.h"

typedef struct cli_sor_syms {
  const char **specs;          /* the --symbols values, in order */
  size_t nspecs;
  scp_sym_file *files;         /* read and checked by cli_sor_syms_load */
  size_t nfiles;
} cli_sor_syms;

/* Read each file and check that it belongs (scp_sym_wasm_matches) to the
 * contract C... of snap (that form needs --snapshot), or without an id to
 * the called contract (main) or one of contracts.  Returns 0, or the exit
 * status after one line naming the file and what differs. */
int cli_sor_syms_load(cli_sor_syms *s, const char *main_name, const uint8_t *main, size_t mlen,
                      const scp_contract_file *contracts, size_t ncontracts, struct scp_snapshot *snap);

void cli_sor_syms_free(cli_sor_syms *s);

#endif
