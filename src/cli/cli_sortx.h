/*
 * cli_sortx.h — `scprof profile --snapshot FILE --tx ENVELOPE [--meta META]`:
 * a Soroban transaction envelope run on a snapshot as the network runs it
 * (cli_sortx.c; the reading and the run are soroban/run's scp_sortx.h).
 */
#ifndef CLI_SORTX_H
#define CLI_SORTX_H

#include <stdbool.h>

#include "soroban/run/scp_sortx.h"

typedef struct cli_sortx {
  const char *tx_path, *meta_path;   /* --tx, --meta */
  scp_sortx *tx;
  scp_sortx_meta meta;
  bool has_meta;
} cli_sortx;

/* --tx FILE or --meta FILE at argv[*i] into x.  Returns 0, the exit
 * status of the error it printed, or -1 when argv[*i] is neither. */
int cli_sortx_option(int argc, char **argv, int *i, cli_sortx *x);

/* After the options: the envelope and meta read (x->tx, x->meta).  given:
 * what else the command line gave that a transaction decides itself (a
 * text naming it, or NULL); snapshot: --snapshot's file.  Returns 0 or
 * the exit status of the error it printed. */
int cli_sortx_load(cli_sortx *x, const char *given, const char *snapshot);

/* With a transaction, its footprint's entries looked up in snap (what
 * the network passes the host).  Returns 0 or the exit status of the
 * error it printed. */
struct scp_snapshot;
int cli_sortx_entries(cli_sortx *x, const struct scp_snapshot *snap);

/* The run's options from the transaction (nothing without --tx): its
 * arguments, source account and declared instructions as the CPU limit
 * into so (x must outlive the run), its envelope and meta into sess (the
 * session so runs in). */
struct scp_sor_session;
void cli_sortx_apply(const cli_sortx *x, scp_soroban_opts *so, struct scp_sor_session *sess);

void cli_sortx_free(cli_sortx *x);

#endif
