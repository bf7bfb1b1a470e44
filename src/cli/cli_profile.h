/*
 * cli_profile.h — the options of `scprof profile` for a Soroban call, as
 * cmd_profile.c parses them, and the part of that parsing that reads the
 * contract's functions (cmd_profile_spec.c): its contractspecv0 section
 * for --list and arguments by name, or its exports when it has none.
 * Each function returns 0 or the exit status of the one-line error it
 * printed, unless it says otherwise.
 */
#ifndef SCP_CLI_PROFILE_H
#define SCP_CLI_PROFILE_H

#include "cli.h"
#include "cli_ledger.h"
#include "cli_optset.h"
#include "cli_sorsyms.h"
#include "cli/cli_sortx.h"
#include "soroban/run/scp_snapshot.h"
#include "soroban/run/scp_spec.h"

typedef struct profile_opts {
  const char *out_dir;
  const char *wasm_path, *function;
  scp_arg *args;
  size_t nargs;
  scp_contract_file *contracts;   /* --contract FILE.wasm: callees deployed first */
  cli_ctor_args ctor;         /* --constructor-args JSON: the called contract's */
  const char **assets;            /* --asset native|CODE:G...: asset contracts */
  size_t nassets;
  scp_ledger_account *accounts;   /* --account G...[:BALANCE] */
  size_t naccounts;
  scp_ledger_trustline *trustlines;   /* --trustline G...:CODE:ISSUER[:BALANCE] */
  size_t ntrustlines;
  char **owned;                   /* texts the trustlines point into */
  size_t nowned;
  size_t ncontracts;
  uint64_t cpu_limit, mem_limit, top;
  bool quiet;
  bool strict_debug;          /* damaged DWARF is an error, not a warning */
  scp_tree_opts shape;        /* --max-nodes, --fold-recursion */
  bool want[SCP_FMT_COUNT];   /* formats to write */
  scp_svg_opts svg;           /* metric is set per SVG */
  /* Arguments by name from the contract's contractspecv0 section (loaded
   * when the function name is reached, since the names after it depend on
   * the function's parameters). */
  bool list;                  /* --list: print the contract's functions */
  bool listed;                /* the list was printed: nothing to run */
  uint8_t *wasm;              /* the contract's bytes once read */
  size_t wasm_len;
  bool spec_loaded;
  scp_spec *spec;             /* NULL: the contract has no spec */
  const scp_spec_fn *fn;      /* the function's spec entry, or NULL */
  const char **named;         /* fn's parameters: the text given, or NULL */
  size_t nnamed;              /* how many were given */
  const char *scenario;       /* --scenario FILE.json: several calls instead */
  unsigned jobs;              /* --jobs N: its profiles' writers; 0: not given */
  /* --snapshot FILE.json: the ledger, the contract an id of it (read
   * when the function name is reached), --wasm C...=FILE.wasm */
  const char *snapshot, **wasm_subs;
  size_t nwasm_subs;
  scp_snapshot *snap;
  const scp_snap_contract *snap_main;
  uint32_t protocol;          /* --protocol N; 0: the newest */
  bool has_source;            /* --source G...: the transaction's source account */
  uint8_t source[32];
  /* --auth enforce, --signer, --auth-signature, --auth-expiration */
  bool auth_enforce;
  int auth_mock;              /* --auth mock / mock-non-root (SCP_AUTH_MOCK_*) */
  const char **signers;
  size_t nsigners;
  const char **auth_sigs;
  size_t nauth_sigs;
  uint32_t auth_expiration;
  /* --network NAME, --network-config FILE, --soroban-state-size BYTES */
  const char *network, *network_config;
  uint64_t state_size;
  bool sdk_test;              /* --context sdk-test (default: network) */
  bool context_given;         /* --context given: it wins over a scenario's */
  cli_sor_syms syms;          /* --symbols [C...=]FILE.wasm */
  cli_sortx sortx;            /* --tx ENVELOPE [--meta META] on --snapshot */
  cli_optset seen;            /* the options given, for --list to refuse those it cannot honour */
} profile_opts;

/* --NAME VALUE or --NAME=VALUE after the function name, for a parameter of
 * the function's spec: 1 when argv[*i] was one (consumed), 0 when it is
 * not, or -status after printing an error. */
int cli_prof_named_arg(int argc, char **argv, int *i, profile_opts *o);

/* --NAME after the function that is none of its parameters: the error. */
int cli_prof_unknown_named(profile_opts *o, const char *a);

/* --list: the spec's functions (o->spec set), or the exports' WASM
 * signatures of a contract without a spec; either sets o->listed. */
int cli_prof_list_functions(profile_opts *o);
int cli_prof_list_exports(profile_opts *o);

/* The named arguments (o->fn set) become o->args in parameter order. */
int cli_prof_named_to_args(profile_opts *o);

/* A contract without a spec: FUNCTION must be one of its exports. */
int cli_prof_check_exported(const profile_opts *o);

#endif
