/*
 * cli_sortx.c — the command line of a transaction run (cli_sortx.h).
 */
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_sortx.h"
#include "soroban/run/scp_scenario.h"
#include "soroban/run/scp_snapshot.h"

int cli_sortx_option(int argc, char **argv, int *i, cli_sortx *x) {
  const char *a = argv[*i], *val;
  if (strcmp(a, "--tx") && strcmp(a, "--meta")) return -1;
  bool tx = !strcmp(a, "--tx");
  if (!(val = cli_option_value(argc, argv, i, tx ? "a TransactionEnvelope file" : "a TransactionMeta file")))
    return scp_exit_status(SCP_ERR_USAGE);
  if (tx) x->tx_path = val;
  else x->meta_path = val;
  return 0;
}

int cli_sortx_load(cli_sortx *x, const char *given, const char *snapshot) {
  if (x->meta_path && !x->tx_path) return cli_die(SCP_ERR_USAGE, "--meta goes with --tx");
  if (!snapshot) return cli_die(SCP_ERR_USAGE, "--tx runs on a ledger: give it with --snapshot FILE.json");
  if (given)
    return cli_die(SCP_ERR_USAGE, "--tx: the transaction names %s itself: give none on the command line", given);
  scp_error err = {0};
  if (scp_sortx_load(x->tx_path, &x->tx, &err)) return cli_die(err.code, "%s", err.msg);
  if (x->meta_path) {
    if (scp_sortx_meta_load(x->meta_path, &x->meta, &err)) return cli_die(err.code, "%s", err.msg);
    x->has_meta = true;
  }
  return 0;
}

int cli_sortx_entries(cli_sortx *x, const scp_snapshot *snap) {
  scp_error err = {0};
  if (x->tx && scp_sortx_entry_lens(x->tx, snap, &err)) return cli_die(err.code, "%s", err.msg);
  return 0;
}

void cli_sortx_apply(const cli_sortx *x, scp_soroban_opts *so, scp_sor_session *sess) {
  const scp_sortx *tx = x->tx;
  if (!tx) return;
  so->args = tx->args;
  so->nargs = tx->nargs;
  so->auth.has_source_account = true;
  memcpy(so->auth.source_account, tx->source, 32);
  so->limits.cpu = tx->instructions;
  sess->tx = tx;
  sess->tx_meta = x->has_meta ? &x->meta : NULL;
}

void cli_sortx_free(cli_sortx *x) {
  scp_sortx_free(x->tx);
  x->tx = NULL;
}
