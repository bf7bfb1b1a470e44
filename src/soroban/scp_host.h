/*
 * scp_host.h — the Soroban host: Val objects, host functions and their
 * Budget charges, as rs-soroban-env v28 performs them.
 *
 * The host owns an object table (absolute handles) and a stack of VM
 * frames, each with its relative-handle table (what the guest sees).  The
 * VM glue (sor_vm.c) flushes guest fuel into the budget *before* calling
 * scp_host_dispatch, which then performs, in the reference order:
 * DispatchHostFunction charge -> relative->absolute argument conversion ->
 * the function's own checks and charges -> absolute->relative result.
 */
#ifndef SCP_HOST_H
#define SCP_HOST_H

#include "soroban/scp_budget.h"

typedef struct scp_host scp_host;

/* Host function table: one entry per function of env.json, generated into
 * host_fns.def.  Ids are dense, in env.json order. */
typedef struct scp_hostfn {
  const char *module;    /* WASM import module ("v", "x", ...) */
  const char *field;     /* WASM import field ("_", "0", ...) */
  const char *name;      /* "vec_push_back" */
  uint8_t argc;
  uint8_t min_proto, max_proto;   /* 0 = unbounded */
} scp_hostfn;

unsigned scp_hostfn_count(void);
const scp_hostfn *scp_hostfn_get(unsigned id);      /* NULL if out of range */
/* Id of the import (module, field), or -1 when the host has no such function. */
int scp_hostfn_find(const char *module, const char *field);

typedef struct scp_host_opts {
  uint32_t protocol;          /* 0 = latest in env.json */
  uint32_t ledger_sequence;   /* default 0 */
  uint64_t ledger_timestamp;
} scp_host_opts;

/* Create a host charging into budget b (borrowed).  opts may be NULL.
 * Returns SCP_OK or SCP_ERR_NOMEM. */
int scp_host_create(scp_budget *b, const scp_host_opts *opts, scp_host **out);
void scp_host_destroy(scp_host *h);

/* The calling VM's linear memory, valid for one dispatch. */
typedef struct scp_hostmem {
  uint8_t *base;
  uint64_t len;
} scp_hostmem;

/* Push/pop the relative-handle frame of a contract VM. */
int scp_host_push_frame(scp_host *h);
void scp_host_pop_frame(scp_host *h);

/* Run host function fn with raw Val args (relative handles).  On SCP_OK
 * *ret is the result Val (relative).  On failure: SCP_ERR_BUDGET (limit
 * crossed), SCP_ERR_HOST (*ret holds the Error Val the reference raises,
 * err the message), SCP_ERR_NOMEM. */
int scp_host_dispatch(scp_host *h, unsigned fn, const uint64_t *args,
                      scp_hostmem *mem, uint64_t *ret, scp_error *err);

/* Turn a CLI argument into a Val for a contract call in the current frame,
 * creating and charging host objects the way the reference host converts
 * ScVal arguments.  Returns SCP_OK, SCP_ERR_BUDGET, SCP_ERR_ARG. */
int scp_host_arg_to_val(scp_host *h, const scp_arg *a, uint64_t *val,
                        scp_error *err);

/* Human-readable rendering of a Val ("u32:7", "Vec[u32:1, u32:2]"). */
void scp_host_val_format(scp_host *h, uint64_t val, scp_buf *b);

/* Events emitted so far (contract + diagnostic), for the report. */
size_t scp_host_event_count(const scp_host *h);

#endif
