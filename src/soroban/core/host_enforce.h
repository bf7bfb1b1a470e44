/*
 * host_enforce.h — a transaction's storage in enforcing mode, built and
 * charged as the network's invocation builds it (host_enforce.c, which
 * lists every charge).  Hidden internals.
 */
#ifndef SCP_HOST_ENFORCE_H
#define SCP_HOST_ENFORCE_H

#include "soroban/core/host_private.h"

/* What e2e_invoke::invoke_host_function decodes before the call. */
typedef struct scp_e2e_setup {
  size_t resources_len;        /* SorobanResources XDR */
  const scp_fentry *foot;      /* the footprint: read-only keys, then read-write */
  size_t nro, nrw;
  const uint32_t *entry_lens;  /* per key: its encoded LedgerEntry's length, 0: none */
  const uint32_t *restored;    /* the read-write indices the transaction restores */
  size_t nrestored;
  const size_t *auth_lens;     /* SorobanAuthorizationEntry XDR lengths */
  size_t nauth;
  size_t host_fn_len;          /* HostFunction XDR */
} scp_e2e_setup;

/* The set-up charges, in the reference's order, up to
 * set_authorization_entries; the declared footprint and the storage map
 * (the snapshot source's entries of the footprint) built, and the storage
 * switched to enforcing mode for good.  SCP_OK, SCP_ERR_BUDGET /
 * SCP_ERR_HOST (the run's), SCP_ERR_NOMEM. */
SCP_HIDDEN int scp_storage_enforce_setup(scp_host *h, const scp_e2e_setup *s);

/* What the network's invocation charges after the call, in its order
 * (host_teardown.c lists it): the events externalized always; with
 * call_ok, the returned Val's conversion first, then the return value,
 * the ledger changes of the footprint s declared and the contract events
 * encoded.  SCP_OK, SCP_ERR_BUDGET / SCP_ERR_HOST (the transaction
 * fails), SCP_ERR_NOMEM. */
SCP_HIDDEN int scp_storage_enforce_teardown(scp_host *h, const scp_e2e_setup *s, bool call_ok, uint64_t result);

/* metered_write_xdr of the value of XDR type `type` ("ScVal",
 * "LedgerKey", ...) whose binary is p[0..len): ValSer(n) per write of
 * stellar-xdr's writer (scp_xdr_writes).  SCP_OK, SCP_ERR_BUDGET,
 * SCP_ERR_HOST (a binary the walker refuses: an internal error). */
SCP_HIDDEN int scp_host_charge_write_xdr(scp_host *h, const char *type, const uint8_t *p, size_t len);

#endif
