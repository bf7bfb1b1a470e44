/*
 * cli_solkind.c — whether `scprof profile`'s arguments are a Solana run
 * (cli.h), decided before the options are parsed.  A Solana --scenario
 * is parsed here once and its parse handed to cmd_profile_sol, so a large
 * scenario is not parsed twice and no parse is kept behind the caller.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "solana/scp_sol_scenario.h"

bool cli_is_sbpf_program(int argc, char **argv, scp_sol_scenario_file **probe) {
  *probe = NULL;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--scenario") && i + 1 < argc) return scp_sol_scenario_probe(argv[i + 1], probe);
    /* --tx: a Solana wire transaction, or with --snapshot (the Soroban
     * ledger) a Soroban envelope */
    if (!strcmp(argv[i], "--tx")) {
      for (int k = 0; k < argc; k++)
        if (!strcmp(argv[k], "--snapshot")) return false;
      return true;
    }
    /* options only a Solana run has: the program may come from them */
    if (!strcmp(argv[i], "--program") || !strcmp(argv[i], "--accounts")) return true;
    if (argv[i][0] == '-') continue;
    size_t len = strlen(argv[i]);
    if (len > 3 && !strcmp(argv[i] + len - 3, ".so")) return true;
    FILE *f = fopen(argv[i], "rb");
    if (!f) continue;
    char m[4] = {0};
    size_t n = fread(m, 1, 4, f);
    fclose(f);
    if (n == 4 && !memcmp(m, "\177ELF", 4)) return true;
  }
  return false;
}
