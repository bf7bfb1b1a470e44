/*
 * scp_scenario.h — scenario files: several calls profiled in one run of
 * `scprof profile --scenario FILE.json` (schema in the README, "Scenario
 * files").
 *
 * Each call runs exactly as `scprof profile CALLED.wasm FN ... --contract
 * OTHER.wasm ...` would: a fresh ledger holding every contract of the
 * scenario (the called one deployed first, the others after it in the
 * file's order), so its costs are the reference host's for that call.
 * Ledger state does not carry over from one call to the next yet; keys
 * that would need it (ledger, storage, deploy ids and salts, constructor
 * arguments, unprofiled set-up calls) are refused with SCP_ERR_UNSUPPORTED
 * rather than giving numbers for a different ledger.
 */
#ifndef SCP_SCENARIO_H
#define SCP_SCENARIO_H

#include <stdint.h>

#include "scprof.h"
#include "soroban/scp_spec.h"

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
} scp_scenario_call;

typedef struct scp_scenario {
  scp_scenario_contract *contracts;
  size_t ncontracts;
  scp_scenario_call *calls;
  size_t ncalls;
  uint64_t cpu_limit, mem_limit;   /* 0: the host defaults */
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
