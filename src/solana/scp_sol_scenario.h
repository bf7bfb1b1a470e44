/*
 * scp_sol_scenario.h — a Solana scenario file: programs, accounts and a
 * sequence of instructions run one after the other on the same accounts
 * (an instruction that fails changes nothing), some of them profiled.
 *
 *   {"programs": [{"name": "token", "elf": "token.so",
 *                  "id": "Tokenkeg...", "loader": "v3"}],
 *    "accounts": [{"pubkey": "...", "lamports": 1461600, "owner": "...",
 *                  "data": "hex | b64:... | @file", "executable": false}],
 *    "instructions": [{"program": "token", "data": "07...",
 *                      "accounts": [{"pubkey": "...", "signer": true,
 *                                    "writable": true}],
 *                      "cu_limit": 200000, "heap": 32768,
 *                      "profile": true, "label": "mint_to"}]}
 *
 * Instead of "instructions", "transactions": [{"label": "...",
 * "fee_payer": "PUBKEY", "instructions": [...]}] runs each transaction's
 * instructions as one transaction (scp_sol_tx.h); there "program" may
 * also be "system" or "compute_budget".  With "fee_payer" (an account of
 * "accounts") the transaction is compiled into a legacy message with that
 * payer first and runs as a wire transaction does (scp_sol_wire.h): the
 * fee is charged and the accounts after it are reported.
 *
 * "sysvars": {"clock": {"slot": N, "unix_timestamp": T, ...}, "rent": {...},
 * "epoch_schedule": {...}, "epoch_rewards": {...}, "slot_hashes": [[slot,
 * "hash"], ...], "stake_history": [[epoch, effective, activating,
 * deactivating], ...], "last_restart_slot": N} sets the sysvars by field;
 * "features": {"NAME|ID": true|false} the feature gates (scp_sol_feature.h).
 *
 * An entry of "accounts" may also be any form of scp_sol_state.h, or a
 * string naming account files ([ADDR,...=]PATH, as --accounts).  Every
 * object's keys are checked (an unknown one is refused with the nearest
 * known key), every message names the JSON path.
 *
 * "program" may be the id of a program deployed in "accounts" (program
 * SIZE_MAX, program_id its id; the caller finds its ELF there when the
 * instruction runs, scp_sol_program_in).
 *
 * Paths are relative to the scenario file.  "id" defaults to the
 * ScprofProgram111... id, "loader" to v3, "profile" to true; an account an
 * instruction names but "accounts" does not is an empty system account.
 */
#ifndef SCP_SOL_SCENARIO_H
#define SCP_SOL_SCENARIO_H

#include "solana/scp_sol.h"
#include "solana/scp_sol_sysvar.h"
#include "solana/scp_sol_feature.h"

typedef struct scp_sol_scn_program {
  char *name;
  char *path;
  uint8_t *elf;                /* the first program of this path's, shared */
  size_t len;
  size_t same_file;            /* that program's index (its own: the owner) */
  uint8_t id[32];
  scp_sol_loader loader;
} scp_sol_scn_program;

typedef struct scp_sol_scn_ix {
  size_t program;              /* index into programs */
  uint8_t *data;
  size_t len;
  scp_sol_ixacct *accts;       /* indexes into the scenario's accounts */
  size_t naccts;
  uint64_t cu_limit;           /* 0: default */
  uint32_t heap;               /* 0: default */
  bool profile;
  char *label;                 /* "NN-label" names its folder */
  bool label_given;            /* the file gave it ("label"): in a transaction
                                * it names the "instruction #k" node too */
  /* in a scenario of "transactions": the transaction it belongs to (from 0),
   * and its program's id; program is SIZE_MAX for the builtins "system" and
   * "compute_budget" */
  size_t tx;
  uint8_t program_id[32];
} scp_sol_scn_ix;

typedef struct scp_sol_scenario {
  scp_sol_scn_program *programs;
  size_t nprograms;
  scp_sol_account *accounts;   /* the state the instructions carry along */
  size_t naccounts;
  scp_sol_scn_ix *ixs;
  size_t nixs;
  char **tx_labels;            /* "transactions": one label each */
  uint8_t (*tx_fee_payer)[32]; /* "fee_payer" of each, where tx_has_fee_payer */
  bool *tx_has_fee_payer;
  size_t ntx;                  /* 0: "instructions", each on its own */
  /* the sysvar cache: litesvm's, then the sysvar accounts of "accounts",
   * then "sysvars" (scp_sol_sysvar.h); the sysvar accounts match it */
  scp_sol_sysvars sysvars;
  /* the feature gates: litesvm's, then "features" */
  scp_sol_features features;
} scp_sol_scenario;

/* Load a scenario file and the programs it names.  Returns SCP_OK;
 * SCP_ERR_IO (a file), SCP_ERR_MALFORMED (not JSON or a wrong shape: err
 * names the file and the key), SCP_ERR_NOMEM; on failure *out is NULL. */
int scp_sol_scenario_load(const char *path, scp_sol_scenario **out, scp_error *err);
void scp_sol_scenario_free(scp_sol_scenario *s);

/* Whether a JSON file is a Solana scenario (has "programs"); it is read
 * and parsed, then freed.  A file that cannot be read, is over the limit
 * or is not JSON is not one (the Soroban loader then says why). */
bool scp_sol_scenario_is(const char *path);

/* A scenario file as scp_sol_scenario_probe parsed it, owned by the
 * caller: handed to scp_sol_scenario_load_parsed, the file is not read
 * and parsed a second time. */
typedef struct scp_sol_scenario_file scp_sol_scenario_file;

/* scp_sol_scenario_is, and when the answer is yes and out is not NULL,
 * *out is the parsed file (NULL otherwise, or when memory for it ran
 * out: the load then reads the file); free it with
 * scp_sol_scenario_file_free. */
bool scp_sol_scenario_probe(const char *path, scp_sol_scenario_file **out);
void scp_sol_scenario_file_free(scp_sol_scenario_file *f);

/* scp_sol_scenario_load from f's parse when f is the probe of the same
 * path; with f NULL or of another path, the file is read.  f stays the
 * caller's (it may be freed right after); the result does not point into
 * it. */
int scp_sol_scenario_load_parsed(const char *path, const scp_sol_scenario_file *f, scp_sol_scenario **out,
                                 scp_error *err);

#endif
