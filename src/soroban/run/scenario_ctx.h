/*
 * scenario_ctx.h — what reading a scenario file (scenario.c) shares with
 * the typing of its arguments (scenario_args.c).  Hidden internals.
 */
#ifndef SCENARIO_CTX_H
#define SCENARIO_CTX_H

#include <jansson.h>

#include "soroban/core/scp_host.h"
#include "soroban/run/scp_scenario.h"
#include "util/scp_util.h"

/* Every lookup of a name or key goes through a map: a scenario of 100,000
 * contracts, accounts or trustlines would take hours to check against all
 * the earlier ones one by one. */
typedef struct scp_scenario_ctx {
  const char *path;
  scp_error *err;
  scp_scenario *s;
  scp_host *ids_host;          /* derives contract ids with the ledger's network id */
  size_t nids;                 /* contracts whose id is known so far */
  scp_bmap names;              /* contract and asset names: index * 2, + 1 for an asset */
  scp_bmap ids;                /* contract ids */
  scp_bmap assets;             /* "assets" texts */
  scp_bmap accounts;           /* "accounts" ids */
  scp_bmap trustlines;         /* "trustlines": account id and asset text */
  scp_bmap files;              /* WASM files read: the first contract of each */
  /* "@NAME" code references: those of the call being read, and per
   * contract the code earlier calls gave it (it may have upgraded to it) */
  size_t refs[8], nrefs;
  struct given { size_t contract, code; } *given;
  size_t ngiven, capgiven;
  /* SIZE_MAX, or the contract whose code's spec alone types the arguments
   * being read (a code an earlier call gave the called contract) */
  size_t code_as;
  uint8_t (*hashes)[32];       /* every contract's code hash, once a call
                                  gives code (NULL before) */
} scp_scenario_ctx;

/* (scenario.c) The error "FILE: WHERE: WHAT" with code. */
SCP_HIDDEN int scp_scenario_bad(scp_scenario_ctx *c, int code, const char *where, const char *what);
/* (scenario.c) text kept by the scenario; NULL when out of memory. */
SCP_HIDDEN const char *scp_scenario_keep(scp_scenario_ctx *c, const char *text);
/* (scenario.c) The contract or asset contract called name, as a strkey:
 * false when there is none (or its id is not known yet). */
SCP_HIDDEN bool scp_scenario_named(scp_scenario_ctx *c, const char *name, char sk[57]);

/* (scenario_args.c) A "type:value" text with a contract's name in place
 * of an address, or "@NAME" in place of a code hash, rewritten. */
SCP_HIDDEN const char *scp_scenario_arg_text(scp_scenario_ctx *c, const char *t);

/* (scenario_args.c) "args": {"name": value, ...} typed by the spec, or
 * ["type:value" or a JSON value, ...]; *out (malloc'd) receives them.
 * contract SIZE_MAX: an asset contract. */
SCP_HIDDEN int scp_scenario_load_args(scp_scenario_ctx *c, size_t contract, const char *function,
                                      json_t *args, const char *where, scp_arg **out,
                                      size_t *nout);

/* (scenario_args.c) Call i's arguments typed also by the spec of each
 * code earlier calls gave its contract (call->retyped), rc0 the typing by
 * its own code's (SCP_OK, or its error in c->err).  SCP_OK when one of
 * them types the arguments, else rc0 with its error. */
SCP_HIDDEN int scp_scenario_retype(scp_scenario_ctx *c, size_t i, json_t *args, const char *where,
                                   int rc0);

#endif
