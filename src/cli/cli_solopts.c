/*
 * cli_solopts.c — options a Solana input cannot honour, refused by name
 * (cli_solopts.h).  The team rule: an option scprof cannot honour is an
 * error, never silently dropped.
 */
#include "cli_solopts.h"
#include "cli.h"

int cli_solopts_list(const cli_optset *seen) {
  static const char *const run_opts[] = {
      "-o", "--out", "-f", "--format", "--top", "--icicle", "--min-width", "--max-nodes", "--fold-recursion",
      "-q", "--quiet", "--ix", "--idl", "--cu-limit", "--heap", "--warp-slot", "--feature", "--loader", NULL};
  const char *x = cli_optset_any(seen, run_opts);
  if (!x) return 0;
  return cli_die(SCP_ERR_USAGE, "%s: --list prints the program's functions and runs nothing (it takes the "
                 "program, --program-id, --accounts and --symbols only)", x);
}

int cli_solopts_tx(const cli_optset *seen, bool scenario, bool has_path) {
  static const char *const state_opts[] = {"--account", "--accounts", "--program", "--program-id", "--loader", NULL};
  static const char *const path_opts[] = {"--program-id", "--loader", NULL};
  const char *x;
  if (scenario && (x = cli_optset_any(seen, state_opts)))
    return cli_die(SCP_ERR_USAGE, "%s: --tx with --scenario takes the programs and accounts from the scenario", x);
  if (!has_path && (x = cli_optset_any(seen, path_opts)))
    return cli_die(SCP_ERR_USAGE, "%s: with --tx it describes PROGRAM.so, and none is given (the transaction names "
                   "its programs' ids; --program ID=FILE.so[:v1|v2|v3] gives one at its id)", x);
  return 0;
}

int cli_solopts_scenario(const cli_optset *seen) {
  static const char *const file_opts[] = {"--program-id", "--loader", "--cu-limit", "--heap", "--list", NULL};
  const char *x = cli_optset_any(seen, file_opts);
  if (!x) return 0;
  return cli_die(SCP_ERR_USAGE, "%s: --scenario takes the programs, their loaders and each instruction's "
                 "\"cu_limit\" and \"heap\" from its file (docs/solana.md)", x);
}

int cli_solopts_one(const cli_optset *seen, bool has_path) {
  static const char *const loader[] = {"--loader", NULL};
  if (has_path || !cli_optset_any(seen, loader)) return 0;
  return cli_die(SCP_ERR_USAGE, "--loader: it describes PROGRAM.so, and none is given (--program "
                 "ID=FILE.so[:v1|v2|v3] takes its own; a program in --accounts has its owner's)");
}
