/*
 * cli_scnargs.c — a scenario call's arguments as the code its contract
 * runs when the call comes (after an upgrade, the new code's spec types
 * them).  A call that spec refuses is not run: the calls are transactions
 * and one that cannot be built changes nothing, so the others run, their
 * profiles are written, and the exit status is the first failure's.
 */
#include "cli.h"
#include "soroban/run/scp_scenario.h"

bool cli_scenario_args(const scp_scenario *sc, size_t i, scp_ledger *l, scp_soroban_opts *so,
                       scp_buf *sum, const char *file, int *first_fail) {
  scp_error err = {0};
  if (!scp_scenario_call_args(sc, i, l, so, &err)) return false;
  scp_buf_printf(sum, "%zu\t%s\t%s\trefused: %s\n", i + 1,
                 sc->contracts[sc->calls[i].contract].name, so->function, err.msg);
  int st = cli_die(err.code, "%s: calls[%zu]: %s", file, i, err.msg);
  if (!*first_fail) *first_fail = st;
  return true;
}
