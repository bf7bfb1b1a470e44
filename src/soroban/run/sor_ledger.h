/*
 * sor_ledger.h — private to src/soroban: what sor_run.c (the profiled run,
 * over sor_vm.c's VM glue) and sor_ledger.c (a scenario's ledger: set up once,
 * then the entries each run leaves) need of each other.
 */
#ifndef SCP_SOR_LEDGER_H
#define SCP_SOR_LEDGER_H

#include "soroban/core/scp_host.h"
#include "soroban/run/scp_scenario.h"
#include "util/scp_util.h"

/* The protocols this host runs: Soroban's first (20) to env.json's newest;
 * the reference refuses a ledger newer than its interface version. */
#define SCP_SOR_MIN_PROTOCOL 20
#define SCP_SOR_MAX_PROTOCOL 28

/* ---- sor_run.c ---- */

/* o's ledger info and source account as host options (the rest zero). */
SCP_HIDDEN void scp_sor_host_opts(const scp_soroban_opts *o, scp_host_opts *ho);

/* The default salt of the i-th contract: i, big-endian, in 32 bytes. */
SCP_HIDDEN void scp_sor_salt(size_t i, uint8_t salt[32]);

/* A set-up transaction (a deploy with its constructor): run(h, inner, ctx,
 * err) on a fresh host with a Budget of cpu_limit / mem_limit and ledger
 * info ho, whose contract calls run in VMs as a profiled run's do (nothing
 * attributed, nothing written), with the contract (id, wasm) loaded.
 * *inner is the innermost failure of a contract call during run, for its
 * message. */
typedef struct scp_sor_setup {
  uint64_t cpu_limit, mem_limit;
  const scp_host_opts *ho;
  const uint8_t *id, *wasm;    /* the contract to load: its id and code */
  size_t len;
  const char *path;            /* names it in errors */
  int (*run)(scp_host *h, const scp_error *inner, void *ctx, scp_error *err);
  void *ctx;
} scp_sor_setup;

/* What run returns; SCP_ERR_NOMEM, or the module's load error (err names
 * path), before it runs. */
SCP_HIDDEN int scp_sor_setup_run(const scp_sor_setup *s, scp_error *err);

/* ---- sor_ledger.c ---- */

/* The ledger after a run on h: the entries it started with and, when the
 * run succeeded (ok), its writes and deletions on top (a signed run's
 * nonces too).  SCP_OK, or
 * SCP_ERR_NOMEM (the ledger unchanged). */
SCP_HIDDEN int scp_sor_ledger_save(scp_ledger *l, const scp_host *h, bool ok, bool signed_run);

/* The ledger's entries into h's snapshot source.  SCP_OK or SCP_ERR_NOMEM. */
SCP_HIDDEN int scp_sor_ledger_give(const scp_ledger *l, scp_host *h);

/* out[i] (l->nfiles entries): the file whose code contract i of l runs
 * now: its instance's Wasm (update_current_contract_wasm may have changed
 * it), found among l's files; i when it has no instance, or its code is
 * none of them.  SCP_OK or SCP_ERR_NOMEM. */
SCP_HIDDEN int scp_sor_ledger_code_files(scp_ledger *l, size_t *out);

#endif
