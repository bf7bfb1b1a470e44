/*
 * scp_scenario.h — scenario files: several calls profiled in one run of
 * `scprof profile --scenario FILE.json` (schema in the README, "Scenario
 * files").
 *
 * The calls run in order on one ledger (scp_ledger), as a sequence of
 * transactions: each with a fresh Budget, each seeing the storage the
 * earlier successful calls left (and the "storage" entries set up before
 * the first).  Keys this cannot honour exactly (deploy ids and salts,
 * constructor arguments, auth, source) are refused with
 * SCP_ERR_UNSUPPORTED.
 */
#ifndef SCP_SCENARIO_H
#define SCP_SCENARIO_H

#include <stdint.h>

#include "scprof.h"
#include "soroban/scp_spec.h"

/* Ledger state carried from one run to the next: the scenario's contracts
 * (deployed by the first run, in file order, salts 0, 1, ...; deployer
 * the all-zero account) and the entries left by the runs that succeeded
 * (struct scp_sentry, host_private.h).  Kept by scp_soroban_profile. */
/* An initial contract-data entry ("storage"): key and value as host
 * values, stored as the host would store them (ScVal XDR).  An instance
 * seed is an entry of the contract's instance storage: the instance entry
 * holds them all as its storage map (keys in the host's order), as a frame
 * that put them would have left it. */
enum { SCP_SEED_INSTANCE = 2 };
typedef struct scp_ledger_seed {
  size_t contract;             /* index into the ledger's files */
  scp_arg key, val;
  uint8_t dur;                 /* SCP_DUR_TEMPORARY 0, SCP_DUR_PERSISTENT 1,
                                  SCP_SEED_INSTANCE */
  bool has_live_until;         /* else sequence + the minimum TTL - 1 (not
                                  for instance seeds: the instance's TTL) */
  uint32_t live_until;
} scp_ledger_seed;

typedef struct scp_ledger {
  const scp_ledger_seed *seeds;   /* put in place with the first deploy */
  size_t nseeds;
  const scp_contract_file *files;
  size_t nfiles;
  uint8_t (*ids)[32];          /* nfiles contract ids */
  bool deployed;
  struct scp_sentry *ents;     /* present entries only */
  size_t nents;
} scp_ledger;

/* Empty ledger for files (borrowed); NULL when out of memory. */
scp_ledger *scp_ledger_new(const scp_contract_file *files, size_t n);
void scp_ledger_free(scp_ledger *l);

typedef struct scp_scenario_contract {
  char *name, *path;           /* path as resolved (relative to the file) */
  uint8_t *wasm;
  size_t len;
  scp_spec *spec;              /* NULL when the contract has none */
} scp_scenario_contract;

typedef struct scp_scenario_call {
  size_t contract;             /* index into contracts */
  char *function;
  scp_arg *args;
  size_t nargs;
  scp_contract_file *others;   /* every other contract, for opts.contracts */
  bool profile;                /* false: a set-up call, run but not written */
} scp_scenario_call;

typedef struct scp_scenario {
  scp_scenario_contract *contracts;
  size_t ncontracts;
  scp_scenario_call *calls;
  size_t ncalls;
  uint64_t cpu_limit, mem_limit;   /* 0: the host defaults */
  /* "ledger": protocol, sequence, timestamp, network id */
  uint32_t protocol, sequence;
  uint64_t timestamp;
  bool has_network_id;
  uint8_t network_id[32];
  bool has_source;             /* (auth2) "source": the transaction's source account */
  uint8_t source[32];
  scp_contract_file *files;    /* every contract in file order (the ledger's) */
  scp_ledger_seed *storage;    /* "storage": initial entries */
  size_t nstorage;
  char **texts;                /* argument texts the scp_args point into */
  size_t ntexts, texts_cap;
} scp_scenario;

/* Read and check the scenario file at path, read every contract, type
 * every argument.  Errors are one line naming the file and the problem:
 * SCP_ERR_IO (unreadable), SCP_ERR_MALFORMED (not JSON, or not the
 * schema), SCP_ERR_UNSUPPORTED (a key this version cannot honour
 * exactly), SCP_ERR_ARG (a bad argument), SCP_ERR_NOTFOUND (a function
 * the contract's spec does not have), SCP_ERR_NOMEM. */
int scp_scenario_load(const char *path, scp_scenario **out, scp_error *err);

/* The options to profile call i (the caller sets the limits it wants). */
void scp_scenario_opts(const scp_scenario *s, size_t i, scp_soroban_opts *o);

void scp_scenario_free(scp_scenario *s);

#endif
