/*
 * cli_ledger.h — the ledger of a command-line call in the network context
 * (cli_ledger.c): the scenario files' ledger, made for --account and
 * --trustline, or for contracts that export __constructor.  From protocol
 * 22 every contract creation runs __constructor when the Wasm exports it,
 * so such contracts are deployed as a scenario's set-up deploys them.
 */
#ifndef CLI_LEDGER_H
#define CLI_LEDGER_H

#include <stddef.h>
#include <stdint.h>

#include "soroban/run/scp_scenario.h"

/* --constructor-args JSON: the called contract's constructor arguments,
 * as a scenario's "constructor_args" (an object by parameter name, typed
 * by the contract's spec, or an array of "type:value" strings); the
 * other fields hold what the arguments point into, until
 * cli_ctor_args_free. */
struct json_t;
typedef struct cli_ctor_args {
  const char *json;            /* the option's text; NULL: not given */
  struct json_t *root;
  scp_spec *spec;
  scp_arg *args;
  size_t nargs;
  char **texts;                /* JSON values other than strings, as text */
  size_t ntexts;
} cli_ctor_args;

void cli_ctor_args_free(cli_ctor_args *ca);

/* The deploys of files (the called contract first, then each --contract)
 * on a ledger of protocol (0: the newest): *out NULL when none exports
 * __constructor, or before protocol 22 (no creation ran one then); else
 * one per file, from the deployer zero with salt i as the plain deploy's,
 * each that exports __constructor run, the called contract's with ca's
 * arguments, the others' with none.  A constructor with parameters and no
 * arguments is refused, as are arguments for none or of the wrong count.
 * Returns 0 or the exit status of the error it printed. */
int cli_ctor_deploys(const scp_contract_file *files, size_t n, uint32_t protocol, cli_ctor_args *ca,
                     scp_ledger_deploy **out);

/* so's contracts (its Wasm first, then ledger.contracts: the same ids as
 * the plain deploy's, salts 0, 1, ...) in a ledger with the accounts and
 * trustlines, made only when there are any or when a contract has a
 * constructor to run (not in the sdk-test context, whose e.register runs
 * it); else *ledger stays NULL (the plain deploy).  Sets so's session
 * (sess) to it.  *files is the ledger's file list and *deploys its deploys:
 * the caller frees all three, even on failure, and ca after the run.
 * Returns 0 or the exit status of the error it printed. */
int cli_ledger_open(scp_soroban_opts *so, const scp_ledger_account *accounts, size_t naccounts,
                    const scp_ledger_trustline *trustlines, size_t ntrustlines, cli_ctor_args *ca,
                    scp_sor_session *sess, scp_ledger **ledger, scp_contract_file **files,
                    scp_ledger_deploy **deploys);

#endif
