/*
 * scp_snapshot.h — ledger snapshots as the ecosystem writes them, read into
 * the ledger a scenario builds (scp_ledger), so a profile does not depend
 * on the form its state came in.
 *
 * Two writers, one object: soroban-sdk's test snapshots
 * (test_snapshots/<module>/<test>.N.json, the "ledger" member; SDKs before
 * 25 list ledger_entries as [key, [entry, live_until]] pairs, later ones as
 * {"entry", "live_until"} objects) and `stellar snapshot create` (the
 * ledger object alone).  Entries are stellar-xdr JSON (xdr/scp_xdr.h),
 * 64-bit integers as numbers or strings.
 *
 * What is refused, with one line naming the file and the JSON path: a
 * protocol outside the host's range, an entry kind the host has no reader
 * for (offers, data, claimable balances, pools, config settings, TTL
 * entries), a key that does not match its entry, a contract entry without
 * live_until, a Wasm code entry whose cost inputs are not the module's.
 * A code entry without cost inputs (ext v0) is kept as such: the host
 * charges it by its byte length, as the reference does.
 */
#ifndef SCP_SNAPSHOT_H
#define SCP_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "soroban/run/scp_scenario.h"
#include "xdr/scp_xdr.h"

typedef enum {
  SCP_SNAP_WASM,        /* Wasm code in the file */
  SCP_SNAP_NO_CODE,     /* Wasm executable whose code entry is not in the file */
  SCP_SNAP_STUB,        /* a natively registered test contract: empty code or
                           the SDK's test_contract_for_contract_id_ text */
  SCP_SNAP_ASSET,       /* a Stellar Asset Contract */
  SCP_SNAP_OTHER,       /* another executable (an external reference) */
  SCP_SNAP_NO_INSTANCE, /* data entries only (e.g. a generated address's nonces) */
} scp_snap_kind;

typedef struct scp_snap_contract {
  uint8_t id[32];
  char strkey[57];             /* C..., its name in profiles */
  scp_snap_kind kind;
  uint8_t hash[32];            /* the Wasm hash its instance names */
  const uint8_t *wasm;         /* SCP_SNAP_WASM: the code (the snapshot's) */
  size_t len;
  char *stand_in;              /* --wasm: the file standing in, or NULL */
  uint8_t *own_wasm;           /* the stand-in's bytes */
  size_t entries;              /* its persistent and temporary data entries */
  size_t instance_entries;     /* its instance storage map's entries */
  bool instance_storage_null;  /* storage: null (not an empty map) */
} scp_snap_contract;

typedef struct scp_snapshot {
  char *path;
  uint32_t protocol, sequence;
  uint64_t timestamp;
  uint8_t network_id[32];
  uint32_t base_reserve, min_persistent_ttl, min_temp_ttl, max_entry_ttl;
  struct scp_sentry *ents;     /* every entry, as the host keeps them */
  size_t nents;
  scp_snap_contract *contracts;   /* every contract instance, file order */
  size_t ncontracts;
  size_t naccounts, ntrustlines;
  uint8_t (*v0_code)[32];      /* Wasm hashes of code entries without cost inputs */
  size_t nv0_code;
} scp_snapshot;

/* Read the snapshot at path (a test snapshot or the ledger object alone).
 * Errors: SCP_ERR_IO, SCP_ERR_MALFORMED (not JSON, not the format),
 * SCP_ERR_UNSUPPORTED (something this host cannot honour), SCP_ERR_NOMEM;
 * err is one line "PATH: JSON-PATH: problem". */
int scp_snapshot_load(const char *path, scp_snapshot **out, scp_error *err);
void scp_snapshot_free(scp_snapshot *s);

/* The contract with id, or NULL. */
scp_snap_contract *scp_snapshot_contract(scp_snapshot *s, const uint8_t id[32]);

/* The Wasm of contract c for running it: its code, or its stand-in's.
 * SCP_OK, or SCP_ERR_NOTFOUND naming it (a native stub: suggest --wasm,
 * an asset contract, a missing code entry). */
int scp_snapshot_wasm(const scp_snapshot *s, const scp_snap_contract *c, const uint8_t **wasm,
                      size_t *len, scp_error *err);

/* Stand the Wasm file at path in for contract c (--wasm C...=FILE): its
 * instance then names that Wasm's hash and a code entry holds it.
 * SCP_OK, SCP_ERR_IO, SCP_ERR_ARG (an asset contract), SCP_ERR_NOMEM. */
int scp_snapshot_stand_in(scp_snapshot *s, scp_snap_contract *c, const char *path,
                          scp_error *err);

/* The ledger the calls run on: the snapshot's entries (copied), its TTL
 * settings, and as its contracts every one with Wasm to run, contract main
 * first (its index in *files is 0).  *files belongs to the caller (free it
 * after the ledger).  NULL when out of memory. */
scp_ledger *scp_snapshot_ledger(const scp_snapshot *s, const scp_snap_contract *main,
                                scp_contract_file **files);

/* l (new, its contracts set) given s's entries (copied) and TTL
 * settings, as deployed.  SCP_OK or SCP_ERR_NOMEM (l's entries so far
 * freed with it). */
int scp_snapshot_fill(const scp_snapshot *s, scp_ledger *l);

/* The snapshot's ledger info into o (protocol, sequence, timestamp,
 * network id). */
void scp_snapshot_ledger_opts(const scp_snapshot *s, scp_ledger_opts *o);

/* (snapshot_write.c) Ledger l's entries as a soroban-sdk test snapshot
 * (the ledger settings from info; generators, auth and events empty) in
 * the [key, [entry, live_until]] layout (pairs) or the {"entry",
 * "live_until"} one, integers in style; *out is a new string.  SCP_OK,
 * SCP_ERR_NOMEM, or the error of a code entry that is no Wasm module. */
int scp_snapshot_write(const scp_ledger *l, const scp_snapshot *info, bool pairs, scp_xdr_style style,
                       char **out, scp_error *err);

#endif
