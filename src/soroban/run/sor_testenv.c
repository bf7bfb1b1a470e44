/*
 * sor_testenv.c — a soroban-sdk test Env's registrations with constructors.
 *
 * e.register(WASM, args) (soroban-sdk 27.0.5 env.rs
 * register_contract_with_source) uploads the code, then invokes
 * CreateContractV2 from the test generator's next address with a zero salt
 * in recording auth; rs-soroban-env v28 lifecycle.rs
 * create_instance_and_call_constructor writes the instance and always runs
 * call_constructor (a missing __constructor is a no-op without arguments).
 * Invocation metering resets the Budget and the events at each root
 * invocation and keeps the storage map (invocation_metering.rs
 * push_invocation): so what a constructor leaves that a later measured
 * call can see is the map alone, and its own cost is outside every span.
 *
 * scprof's other sdk-test runs put each register's four entries in place
 * directly (scp_host_deploy_test_env).  A constructor's entries are what
 * it runs to: here each constructor runs on a set-up host, in the file's
 * order, right after its own contract's four entries are in place, as the
 * SDK's register does, and the map that host holds at the end is the
 * state the measured call starts from.  Constructors whose effects reach
 * beyond the map are refused: one that requires authorization (recording
 * auth draws a nonce from the Env's stream and writes its entry) or that
 * draws from the base PRNG (which moves the Env's PRNG for later frames).
 */
#include "soroban/run/sor_testenv.h"
#include "soroban/run/sor_vm.h"
#include "soroban/run/scp_scenario.h"
#include "soroban/fee/scp_fee_tx.h"

#include <stdlib.h>
#include <string.h>

/* One e.register of the Env, in order. */
typedef struct testenv_reg {
  const uint8_t *wasm;
  size_t len;
  const char *path;
  const char *where;           /* "contracts[1]" in a scenario, else NULL */
  bool construct;              /* the Wasm exports __constructor */
  const scp_arg *ctor;
  size_t nctor;
} testenv_reg;

/* Whether wasm exports __constructor, and its parameter count. */
static int ctor_export(const testenv_reg *g, bool *has, uint32_t *nparams, scp_error *err) {
  *nparams = 0;
  int rc = scp_ledger_ctor_export(g->wasm, g->len, has, nparams, err);
  if (rc) scp_error_prefix(err, g->path);
  return rc;
}

/* The registers of o: a scenario's contracts with their constructor
 * arguments, else the one file with none (e.register(WASM, ())). */
static int list_regs(const scp_soroban_opts *o, testenv_reg **out, size_t *n, scp_error *err) {
  const scp_ledger *l = scp_sor_session_ledger(o);
  size_t k = l ? l->nfiles : 1;
  testenv_reg *g = calloc(k + 1, sizeof *g);
  if (!g) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < k; i++) {
    const scp_ledger_deploy *d = l && l->deploys ? &l->deploys[i] : NULL;
    g[i].wasm = l ? l->files[i].wasm : o->wasm;
    g[i].len = l ? l->files[i].len : o->wasm_len;
    g[i].path = l ? (l->files[i].path ? l->files[i].path : "contract.wasm")
                  : (o->wasm_path ? o->wasm_path : "contract.wasm");
    g[i].where = d && d->where ? d->where : NULL;
    if (d) {
      g[i].ctor = d->ctor;
      g[i].nctor = d->nctor;
    }
    /* a scenario's contracts were looked at when it was read */
    g[i].construct = d && d->construct;
    uint32_t np = 0;
    int rc = d && !d->construct ? SCP_OK : ctor_export(&g[i], &g[i].construct, &np, err);
    if (!rc && g[i].construct && np != g[i].nctor)
      rc = scp_fail(err, SCP_ERR_ARG, "%s%s%s: context sdk-test: __constructor takes %u argument%s, "
                    "%zu given (e.register's constructor arguments: a scenario's \"constructor_args\")",
                    g[i].where ? g[i].where : "", g[i].where ? ": " : "", g[i].path, np,
                    np == 1 ? "" : "s", g[i].nctor);
    if (rc) {
      free(g);
      return rc;
    }
  }
  *out = g;
  *n = k;
  return SCP_OK;
}

/* A line naming register g: "contracts[1]: ctor.wasm: ...". */
static int reg_fail(const testenv_reg *g, int code, scp_error *err, const char *what, const char *why) {
  return scp_fail(err, code, "%s%s%s: %s%s%s", g->where ? g->where : "", g->where ? ": " : "", g->path, what,
                  why ? ": " : "", why ? why : "");
}

/* Register g (the generator's address gen) on vm's host, then run its
 * constructor, checking it touched nothing but the map. */
static int register_one(sor_vm *vm, const testenv_reg *g, uint32_t gen, scp_error *err) {
  scp_host *h = vm->host;
  uint8_t id[32];
  uint32_t mi;
  int rc = scp_host_deploy_test_env(h, g->wasm, g->len, gen, id);
  if (rc) return scp_fail(err, rc, "out of memory");
  if ((rc = scp_sor_add_module(vm, id, g->wasm, g->len, g->path, &mi, err))) return rc;
  if (!g->construct) return SCP_OK;
  uint64_t *vals = calloc(g->nctor + 1, sizeof *vals);
  if (!vals) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  scp_error e = {0};
  uint64_t nonces = h->nonces_drawn, counter = h->base_prng.counter;
  unsigned index = h->base_prng.index;
  rc = scp_host_args_to_vals(h, g->ctor, g->nctor, vals, &e);
  if (rc == SCP_ERR_ARG) rc = reg_fail(g, rc, err, "constructor arguments", e.msg);
  else if (rc == SCP_OK) rc = scp_host_test_construct(h, id, vals, (uint32_t)g->nctor, &e);
  free(vals);
  if (rc == SCP_ERR_NOMEM) return scp_fail(err, rc, "out of memory");
  if (rc && rc != SCP_ERR_ARG) {
    const char *why = vm->run_err.msg[0] ? vm->run_err.msg : e.msg[0] ? e.msg : scp_strerror(rc);
    return reg_fail(g, SCP_ERR_INVALID, err, "context sdk-test: e.register's constructor failed", why);
  }
  if (rc) return rc;
  if (h->nonces_drawn != nonces)
    return reg_fail(g, SCP_ERR_UNSUPPORTED, err, "context sdk-test: the constructor requires authorization "
                    "(e.register records it, drawing from the Env's nonces): not modelled", NULL);
  if (h->base_prng.counter != counter || h->base_prng.index != index)
    return reg_fail(g, SCP_ERR_UNSUPPORTED, err, "context sdk-test: the constructor draws from the PRNG "
                    "(moving the Env's base PRNG): not modelled", NULL);
  return SCP_OK;
}

int scp_sor_testenv_constructed(const scp_soroban_opts *o, const scp_host_opts *ho,
                                scp_sentry **map, size_t *n, scp_error *err) {
  static const uint8_t zero[32];
  *map = NULL;
  *n = 0;
  testenv_reg *g = NULL;
  size_t k = 0;
  int rc = list_regs(o, &g, &k, err);
  bool any = false;
  for (size_t i = 0; !rc && i < k; i++) any |= g[i].construct;
  if (rc || !any) {
    free(g);
    return rc;
  }
  /* the registers' recording auth records every require_auth, root or not,
   * so a constructor's is seen (and refused) rather than failing */
  scp_host_opts sho = *ho;
  sho.auth_enforcing = false;
  sho.auth_disable_non_root = false;
  uint64_t cpu_limit, mem_limit;
  scp_fee_budget_limits(o, &cpu_limit, &mem_limit);
  sor_vm vm;
  rc = scp_sor_vm_open(&vm, cpu_limit, mem_limit, &sho, err);
  if (!rc) rc = scp_host_set_base_prng_seed(vm.host, zero);
  for (size_t i = 0; !rc && i < k; i++) rc = register_one(&vm, &g[i], (uint32_t)i + 1, err);
  if (!rc && scp_storage_snapshot(vm.host, map, n)) rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  scp_sor_vm_close(&vm);
  free(g);
  return rc;
}
