/*
 * scp_fee_tx.h — the resources of one profiled invocation as the network
 * counts them (protocol 23 and later), its fee, and the fee's attribution
 * to the calling-context tree.
 *
 * The run registers a tracker with the host (scp_host.fee_hook): it learns
 * which tree node first touched each ledger key, wrote it and extended its
 * TTL, and which node emitted each event.  After the run, scp_fee_tx_finish
 * reads the host's footprint, the snapshot the run started from and the
 * final storage, builds the transaction's resources the way soroban-
 * simulation does (recording mode, no adjustment factors), computes the
 * fee, and books every stroop to one node.
 */
#ifndef SCP_FEE_TX_H
#define SCP_FEE_TX_H

#include "profile/scp_tree.h"
#include "soroban/fee/scp_fee.h"
#include "soroban/fee/scp_fee_net.h"

struct scp_host;
struct scp_lkey;

typedef struct scp_fee_key {
  struct scp_lkey *k;         /* a copy */
  uint32_t first, write, extend;   /* nodes; SCP_NODE_NONE when never */
} scp_fee_key;

typedef struct scp_fee_track {
  scp_fee_key *keys;
  size_t nkeys, capkeys;
  uint32_t *event_node;       /* by event slot */
  size_t nevents, capevents;
  bool oom;
} scp_fee_track;

/* The host's notes (what: SCP_FEE_HOOK_*; index: the event's slot), each
 * booked to node.  An allocation failure sticks (oom) and fails finish. */
void scp_fee_track_note(scp_fee_track *t, int what, const struct scp_lkey *k, size_t index,
                        uint32_t node);
/* A node that does not exist yet (booked before its node is made); remap
 * gives every note booked to `from` to `to` instead. */
#define SCP_FEE_NODE_PENDING (SCP_NODE_NONE - 1)
void scp_fee_track_remap(scp_fee_track *t, uint32_t from, uint32_t to);
void scp_fee_track_free(scp_fee_track *t);

/* What the transaction carries besides the ledger work. */
typedef struct scp_fee_call {
  const scp_fee_network *net;
  const uint8_t *contract_id;          /* 32 bytes */
  const char *function;
  const uint64_t *args;                /* the arguments' Vals */
  size_t nargs;
  uint64_t result;                     /* the return Val */
  uint64_t auth_bytes;                 /* the auth entries' XDR, summed */
  uint32_t nauth;
  uint64_t instructions;               /* the CPU of the invocation */
  uint64_t memory;
  unsigned cpu_metric, fee_metric;     /* tree metric indices */
} scp_fee_call;

/* A network limit the transaction is over. */
typedef struct scp_fee_excess {
  scp_fee_limit_id id;
  uint64_t value, limit;
} scp_fee_excess;

/* The fee components a ledger entry causes, in the fee table's names:
 * each column of the entries sums to its component (the entries' shares
 * split the way the nodes' are, scp_fee_split). */
enum {
  SCP_FEE_ENTRY_DISK_READ_ENTRIES, SCP_FEE_ENTRY_DISK_READ_BYTES, SCP_FEE_ENTRY_WRITE_ENTRIES,
  SCP_FEE_ENTRY_WRITE_BYTES, SCP_FEE_ENTRY_RENT, SCP_FEE_ENTRY_TTL_WRITES, SCP_FEE_ENTRY_NPARTS
};

/* One footprint entry as the fee saw it. */
typedef struct scp_fee_entry {
  const struct scp_lkey *k;            /* the host's footprint key (lives with the host) */
  bool rw, disk_read, restored;
  uint32_t old_size, new_size;         /* LedgerEntry XDR bytes; 0 when absent */
  uint32_t old_live_until, new_live_until;   /* 0: none (absent, or a classic entry) */
  uint32_t rent_ledgers;               /* ledgers of TTL the rent paid for */
  uint64_t fee[SCP_FEE_ENTRY_NPARTS];
  uint32_t node;                       /* the tree node that wrote it, else first touched it */
} scp_fee_entry;

typedef struct scp_fee_tx {
  scp_fee_resources res;
  scp_fee_breakdown fee;
  scp_fee_rent_breakdown rent;
  int64_t rent_fee_per_1kb;
  uint32_t footprint_ro, footprint_rw, restored, rent_changes;
  uint64_t result_bytes;               /* part of contract_events_size_bytes */
  int64_t total;                       /* non-refundable + refundable + rent */
  scp_fee_excess excess[SCP_FEE_LIM_COUNT + 8];
  size_t nexcess;
  scp_fee_entry *entries;              /* by footprint entry; freed by scp_fee_tx_free */
  size_t nentries;
} scp_fee_tx;

void scp_fee_tx_free(scp_fee_tx *t);

/* Compute the resources and the fee of the finished invocation on host h
 * and add each node's share to tree metric c->fee_metric (the shares sum
 * to out->total), and each footprint entry's part in out->entries.  Returns SCP_OK, SCP_ERR_NOMEM, or SCP_ERR_INTERNAL (a
 * value with no XDR form); err says why.  Charges nothing to the budget. */
int scp_fee_tx_finish(scp_fee_track *t, struct scp_host *h, const scp_fee_call *c,
                      scp_tree *tree, scp_fee_tx *out, scp_error *err);


/* Without a network: out->entries as scp_fee_tx_finish records them but
 * with no fee (their fee parts 0), and the footprint's counts
 * (footprint_ro, footprint_rw, restored, rent.extended); nothing else of
 * out is set, nothing is booked.  SCP_OK or SCP_ERR_NOMEM (err says so). */
int scp_fee_tx_entries(scp_fee_track *t, struct scp_host *h, scp_fee_tx *out, scp_error *err);

/* ---- one profiled run's fee (what sor_vm.c calls) ------------------------- */

struct scp_host_opts;
struct scp_profile;

typedef struct scp_fee_run {
  bool on;                    /* a network was chosen */
  scp_fee_network net;
  scp_fee_track track;
  scp_fee_tx tx;
  bool done;                  /* tx computed */
  bool entries_only;          /* no network: tx holds the entries alone
                                 (scp_fee_tx_entries) */
} scp_fee_run;

/* The network the options name (*on false when none: no fee), from a
 * shipped profile, a settings file and the state size.  SCP_OK,
 * SCP_ERR_ARG, SCP_ERR_MALFORMED, SCP_ERR_IO; err (may be NULL) says why. */
int scp_fee_network_from_opts(const scp_soroban_opts *o, scp_fee_network *net, bool *on,
                              scp_error *err);
/* The Budget's limits for a run with options o: the options' own, else
 * the network's tx_max_instructions and tx_memory_limit when o names a
 * network, else 0 (the host's defaults). */
void scp_fee_budget_limits(const scp_soroban_opts *o, uint64_t *cpu, uint64_t *mem);
/* The network's TTL settings into a ledger's host options. */
void scp_fee_network_ttls(const scp_fee_network *net, struct scp_host_opts *ho);

/* From the options: the network (the profile, the settings file, the
 * state size), and its TTL settings into *ho.  SCP_OK (r->on false when
 * the options name no network), SCP_ERR_ARG, SCP_ERR_MALFORMED, SCP_ERR_IO;
 * err says why.  Free with scp_fee_run_free either way. */
int scp_fee_run_init(scp_fee_run *r, const scp_soroban_opts *o, struct scp_host_opts *ho,
                     scp_error *err);
void scp_fee_run_free(scp_fee_run *r);

/* After a successful run: scp_fee_tx_finish into r->tx (c->net is set
 * here). */
int scp_fee_run_finish(scp_fee_run *r, struct scp_host *h, scp_fee_call *c, scp_tree *tree,
                       scp_error *err);

/* The breakdown (profile parts of metric `metric`) and the metadata lines
 * (the limits the call is over among them).  SCP_OK or SCP_ERR_NOMEM. */
int scp_fee_run_describe(const scp_fee_run *r, struct scp_profile *p, unsigned metric);

/* The "network" metadata line (the profile and the date of its settings,
 * or the settings file and what it was applied on) and, for a shipped
 * profile, "network source".  SCP_OK or SCP_ERR_NOMEM. */
int scp_fee_network_describe(const scp_fee_network *net, struct scp_profile *p);

/* When the call is over a network limit: err filled with SCP_ERR_LIMIT and
 * "the network would refuse this call: LIMIT VALUE over the limit N by
 * EXCESS[; ...]", returning SCP_ERR_LIMIT; SCP_OK when it is within them
 * (SCP_ERR_NOMEM when the text cannot be made). */
int scp_fee_run_over(const scp_fee_run *r, scp_error *err);

/* The storage and event part of soroban-sdk's InvocationResources for the
 * call just made (instructions and mem_bytes are the caller's): the
 * footprint compared between init (the storage map at Host::call's start,
 * ninit entries) and the host's map now; added to *r.  SCP_OK or a
 * Host error of sizing an event. */
struct scp_sentry;
int scp_fee_sdk_measure(struct scp_host *h, const struct scp_sentry *init, size_t ninit,
                        scp_fee_sdk_resources *r);

/* ---- a contract's code: its entry and its upload -------------------------- */

struct scp_budget;

/* entry_size_for_rent of a code entry of xdr bytes holding wasm[0..len):
 * xdr plus the memory the parsed module takes (wasm_module_memory_cost:
 * the ParseWasm* memory costs of its cost inputs in b's model); xdr alone
 * for code that does not load. */
uint32_t scp_fee_code_rent_size(const struct scp_budget *b, const uint8_t *wasm, uint32_t len,
                                uint32_t xdr);

/* An UploadContractWasm transaction of new code, the smallest envelope
 * that carries it (one signature, the code's key as the read-write
 * footprint, no auth): its resources, fee and the rent of the new entry
 * for the network's minimum persistent TTL. */
typedef struct scp_fee_upload_tx {
  uint32_t entry_size;         /* the code entry's LedgerEntry XDR */
  uint32_t rent_size;          /* entry_size plus the parsed module's memory */
  uint32_t tx_size;            /* the envelope */
  uint32_t result_size;        /* the return value (the hash), as event bytes */
  uint32_t ttl;                /* ledgers of rent paid */
  int64_t rent_fee_per_1kb;
  scp_fee_resources res;
  scp_fee_breakdown fee;
  scp_fee_rent_breakdown rent;
  int64_t total;               /* non-refundable + refundable + rent */
} scp_fee_upload_tx;

/* The transaction uploading wasm[0..len) on net, instructions being what
 * the upload host function charges (scp_sor_upload_charges). */
void scp_fee_upload(const scp_fee_network *net, const uint8_t *wasm, uint32_t len,
                    uint64_t instructions, scp_fee_upload_tx *out);

#endif
