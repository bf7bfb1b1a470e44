/*
 * scp_sortx.h — a Soroban transaction as the network runs it: a
 * TransactionEnvelope (v1, or a fee bump wrapping one) holding one
 * InvokeHostFunctionOp that invokes a contract, and what the network
 * recorded for it (TransactionMeta v3/v4, alone or inside an RPC
 * getTransaction response).  Each file in any of the three encodings:
 * binary XDR, base64, stellar-xdr JSON.
 *
 * The envelope becomes a run (sor_run.c through scp_sor_session.tx): its
 * contract, function and arguments, its source account, its authorization
 * entries set as they are (signatures checked, nonces, expiration), its
 * footprint enforced, its declared instructions the CPU limit.
 * Internal to libscprof (not installed).
 */
#ifndef SCP_SORTX_H
#define SCP_SORTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scprof.h"
#include "util/scp_util.h"
#include "soroban/fee/scp_fee.h"

struct scp_fentry;

typedef struct scp_sortx {
  bool fee_bump;               /* the envelope wraps the transaction in a fee bump */
  int64_t fee;                 /* the transaction's fee (a fee bump's: the outer one) */
  uint8_t source[32];          /* the (inner) transaction's source account */
  uint8_t contract[32];        /* the invoked contract */
  char contract_strkey[57];
  char function[33];
  scp_arg *args;               /* SCP_ARG_SCVAL, data in arg_imgs */
  size_t nargs;
  uint8_t **arg_imgs;
  uint8_t **auth;              /* SorobanAuthorizationEntry XDR images */
  size_t *auth_lens;
  size_t nauth;
  struct scp_fentry *foot;     /* the footprint, read-only keys first */
  size_t nfoot;
  uint32_t nro, nrw;
  uint32_t instructions, disk_read_bytes, write_bytes;
  int64_t resource_fee;
  uint32_t *archived;          /* the read-write entries it restores (v1 extension) */
  size_t narchived;
  size_t bytes;                /* the envelope's XDR size (a fee bump's inner
                                  transaction's, as an envelope of its own) */
  size_t resources_len;        /* SorobanResources XDR, as the network decodes it */
  size_t host_fn_len;          /* HostFunction XDR */
  uint32_t *entry_lens;        /* per footprint key: its LedgerEntry's XDR length
                                  in the snapshot, 0: none (scp_sortx_entry_lens) */
} scp_sortx;

/* Read the envelope at path.  SCP_OK, or (err one line "PATH: JSON-PATH:
 * problem") SCP_ERR_IO, SCP_ERR_MALFORMED (not a TransactionEnvelope in
 * any encoding), SCP_ERR_UNSUPPORTED (not one contract invocation: a v0
 * envelope, several operations, another host function, a muxed or
 * per-operation source), SCP_ERR_NOMEM.  *out is freed with
 * scp_sortx_free either way. */
int scp_sortx_load(const char *path, scp_sortx **out, scp_error *err);
void scp_sortx_free(scp_sortx *t);

/* The footprint's archived entries (persistent ones whose live-until
 * ledger is before h's sequence, in h's snapshot source) are those t
 * restores: SCP_OK, or SCP_ERR_HOST naming the first that is not, as
 * stellar-core refuses the call (INVOKE_HOST_FUNCTION_ENTRY_ARCHIVED)
 * before the host runs.  The ones it restores the storage restores as
 * recording mode does (the entry live again from the ledger's minimum
 * persistent TTL). */
struct scp_host;
int scp_sortx_check_archived(const scp_sortx *t, struct scp_host *h, scp_error *err);

/* Each footprint key's encoded LedgerEntry length in snapshot s (0 when
 * s has no entry), what the network passes the host.  SCP_OK, or
 * SCP_ERR_UNSUPPORTED (err names the key) for an entry s holds but not
 * as the ledger's (a stand-in's code), SCP_ERR_NOMEM. */
struct scp_snapshot;
int scp_sortx_entry_lens(scp_sortx *t, const struct scp_snapshot *s, scp_error *err);

/* (sor_tx_enforce.c) The network's set-up of the invocation, charged and
 * booked as its own top-level frame tx:decode (host_enforce.c): the
 * footprint and storage map built, the storage enforcing from then on.
 * A Budget or host failure is the run's (*run_rc, run_err); SCP_OK or
 * SCP_ERR_NOMEM otherwise. */
struct sor_vm;
int scp_sortx_enforce(struct sor_vm *vm, const scp_sortx *t, int *run_rc, scp_error *run_err, scp_error *err);

/* (sor_tx_enforce.c) The network's teardown after the call (the events
 * externalized; when the call succeeded, call_ok, its result, the ledger
 * changes and the events encoded: host_teardown.c), charged and booked as
 * its own top-level frame tx:encode.  Only after scp_sortx_enforce's
 * set-up succeeded and the call ran.  A Budget or host failure there
 * fails the transaction: the run's (*run_rc, run_err) unless it failed
 * already; SCP_OK or SCP_ERR_NOMEM otherwise. */
int scp_sortx_teardown(struct sor_vm *vm, const scp_sortx *t, bool call_ok, uint64_t result, int *run_rc,
                       scp_error *run_err, scp_error *err);

/* What the network recorded: the SorobanTransactionMeta v1 extension's
 * charges and, from an RPC response's TransactionResult, the fee
 * charged. */
typedef struct scp_sortx_meta {
  unsigned version;            /* TransactionMeta 3 or 4 */
  bool has_charges;            /* the v1 extension is there */
  int64_t non_refundable, refundable, rent;
  bool has_fee_charged;
  int64_t fee_charged;
} scp_sortx_meta;

/* Read a TransactionMeta (v3 or v4) at path, or an RPC getTransaction
 * response (the JSON-RPC envelope or its result) holding one as
 * resultMetaXdr (and resultXdr).  Errors as scp_sortx_load. */
int scp_sortx_meta_load(const char *path, scp_sortx_meta *out, scp_error *err);

/* What scprof computed for the run: its CPU, and with a network (cfg
 * set) the resources the run used and what it leaves to the refundable
 * charge: its events' and return value's bytes, its rent. */
typedef struct scp_sortx_computed {
  uint64_t instructions;
  const scp_fee_config *cfg;   /* the network's rates; NULL: no network */
  uint32_t nro, nrw;
  uint64_t disk_read_bytes, write_bytes;
  uint32_t events_bytes;
  int64_t rent;
} scp_sortx_computed;

/* What the network charges for transaction t whose run used c (as
 * stellar-core does): the non-refundable part from the declared
 * resources (instructions, the footprint's classic entries and restored
 * archived entries as disk reads, its read-write entries as writes, the
 * declared bytes) and the envelope's size; the refundable part from the
 * events the run emitted and its rent.  c->cfg must be set. */
typedef struct scp_sortx_charge {
  int64_t non_refundable, refundable, rent, total;
} scp_sortx_charge;
void scp_sortx_charge_of(const scp_sortx *t, const scp_sortx_computed *c, scp_sortx_charge *out);

/* (sor_run.c) The signed authorization entries an enforcing run of o
 * sets (o->auth: signers, signatures, expiration), from the recording run
 * simulation makes: what a wallet puts in the envelope.  plan is freed
 * with scp_authplan_free either way.  Errors as scp_soroban_profile. */
struct scp_authplan;
int scp_sortx_simulate_auth(const scp_soroban_opts *o, struct scp_authplan *plan, scp_error *err);

struct scp_profile;
/* (sor_tx_report.c) The resources table as metadata lines "tx ...",
 * each "declared D | scprof S | network N" ("-" where there is none):
 * the resources the envelope declared next to those the run used, then
 * the fee the network charges as scprof computes it (scp_sortx_charge_of)
 * next to what the meta (may be NULL) recorded.  A difference between
 * two cells of a row is marked "DIFFERS"; then "tx differences": "none"
 * or how many and which; then "tx invocation": what of the network's
 * invocation the run charges.  SCP_OK or SCP_ERR_NOMEM. */
int scp_sortx_describe(const scp_sortx *t, const scp_sortx_meta *meta, const scp_sortx_computed *c,
                       struct scp_profile *p);

#endif
