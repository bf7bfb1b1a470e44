/*
 * cli_solopts.h — which options of a Solana `scprof profile` each input
 * honours, for the ones the option loop cannot refuse alone (the input's
 * kind is known only later).  Each
 * returns 0, or the usage exit status after a one-line error naming the
 * option, why it does nothing there and what does take it.
 */
#ifndef SCP_CLI_SOLOPTS_H
#define SCP_CLI_SOLOPTS_H

#include "cli_optset.h"

#include <stdbool.h>

/* --list prints the ELF's functions and runs nothing. */
int cli_solopts_list(const cli_optset *seen);

/* --tx: with --scenario the state is the scenario's; without, the
 * programs are found by the ids the transaction names (has_path:
 * PROGRAM.so was given, which --program-id and --loader describe). */
int cli_solopts_tx(const cli_optset *seen, bool scenario, bool has_path);

/* --scenario of instructions or transactions: the file gives each
 * instruction's program, budget and heap. */
int cli_solopts_scenario(const cli_optset *seen);

/* One instruction: --loader describes PROGRAM.so only. */
int cli_solopts_one(const cli_optset *seen, bool has_path);

#endif
