/*
 * sor_auth.h — the signed authorization entries of an enforcing-mode
 * profile (sor_auth.c; scp_soroban_opts.auth.enforce).
 */
#ifndef SCP_SOR_AUTH_H
#define SCP_SOR_AUTH_H

#include "scprof.h"
#include "soroban/core/scp_host.h"

typedef struct scp_authplan {
  uint8_t **entries;        /* SorobanAuthorizationEntry XDR images */
  size_t *lens;
  size_t n, cap;
  uint8_t (*accounts)[32];  /* the accounts that sign (seeded when missing) */
  size_t naccounts;
} scp_authplan;

/* From the recording run's host h (its trackers), one signed entry per
 * address into p.  Returns SCP_OK; SCP_ERR_ARG (a bad --signer /
 * --auth-signature, an account with no signer), SCP_ERR_UNSUPPORTED,
 * SCP_ERR_NOMEM; err says why.  p is freed by scp_authplan_free either
 * way. */
SCP_HIDDEN int scp_authplan_collect(scp_host *h, const scp_soroban_opts *o, scp_authplan *p,
                                scp_error *err);
/* Set-up, uncharged: the default account entry for each signing account
 * the ledger lacks. */
SCP_HIDDEN int scp_authplan_seed_accounts(scp_host *h, const scp_authplan *p, scp_error *err);
/* Host::set_authorization_entries (charged). */
SCP_HIDDEN int scp_authplan_apply(scp_host *h, const scp_authplan *p, scp_error *err);
SCP_HIDDEN void scp_authplan_free(scp_authplan *p);
/* The authorization entries simulation returns after recording run h (one
 * per tracker; address credentials carry a Void signature), as XDR bytes
 * summed, and their count: the transaction-size input of the fee.
 * SCP_OK, SCP_ERR_NOMEM or the error of an argument with no XDR form. */
SCP_HIDDEN int scp_authplan_recorded_size(scp_host *h, uint64_t *bytes, uint32_t *n,
                                          scp_error *err);

#endif
