/*
 * sor_run.c — one profiled Soroban invocation, as a few named steps:
 * deploy the contracts, check the entry point, set the authorization
 * entries (enforcing mode), run the call in its HostFunction frame, settle
 * the run (refunds, ledger), and build the profile with its metadata
 * through the run core (which checks the invariant).  Contract frames
 * themselves are sor_vm.c's.
 *
 * The whole invocation (rs-soroban-env v28 host/frame.rs call_n_internal,
 * call_contract_fn, instantiate_vm, vm.rs):
 *   0. ledger set-up, uncharged (the reference's snapshot): the code and
 *      instance entries of the called contract and of every extra contract
 *      (scp_host_deploy); or, with a scp_ledger (scenario files), the
 *      entries the earlier runs left, saved again after the run (a failed
 *      run changes nothing, as a failed transaction; sor_ledger.c, which
 *      sets that ledger up with its set-up transactions)
 *   1. Host::set_base_prng_seed: 2 x ComputeSha256Hash(64) = 14,285 CPU
 *                                                           -> the root node
 *   2. the HostFunction frame: push_context's charges, the function name
 *      as a Symbol, argument conversion (ScVal -> Val)     -> the root node
 *   3. call_n_internal: the contract's instance and code read from storage
 *      (host_contract.c)                                   -> the root node
 *   4-7. the contract's VM and frame (sor_vm.c)
 *
 * The invariant checked after every run: Σ self == the meter's total for
 * every metric, i.e. Σ self CPU == Budget CPU and Σ self memory == Budget
 * memory + refunded (sor_vm.c's meter).  The storage metrics appear in the
 * profile only when the run touched temporary or persistent storage.
 */
#include "soroban/run/sor_vm.h"
#include "soroban/run/sor_entries.h"
#include "soroban/run/scp_scenario.h"
#include "soroban/run/sor_auth.h"
#include "soroban/run/sor_ledger.h"
#include "soroban/run/sac_setup.h"
#include "soroban/run/sor_testenv.h"
#include "soroban/run/scp_sortx.h"
#include "soroban/core/scp_val.h"

#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include <openssl/sha.h>

/* One profiled run: what the steps hand each other. */
typedef struct sor_run {
  sor_vm vm;
  const scp_soroban_opts *o;
  const char *path;            /* the called contract's file, for messages */
  uint8_t main_id[32];
  bool sac_main;               /* the call is to an asset contract */
  uint32_t nr;                 /* results of the called function */
  uint64_t *vals;              /* the arguments as Vals */
  uint64_t result_val;         /* the call's return Val */
  bool called;                 /* the call ran (its set-up did not fail) */
  bool hf_frame;               /* the HostFunction frame is pushed */
  scp_buf title, argtext, result, line;
  int run_rc;                  /* how the call ended */
  scp_error run_err;           /* and its message */
  scp_storage_stats st;
  /* --context sdk-test: the map at Host::call's start, and what
   * cost_estimate() reports */
  scp_sentry *init_map;
  size_t ninit;
  bool sdk_done;
  scp_fee_sdk_resources sdk_res;
  scp_fee_sdk_fee sdk_fee;
} sor_run;

static int oom(scp_error *err) { return scp_fail(err, SCP_ERR_NOMEM, "out of memory"); }

/* ---- deploy ----------------------------------------------------------------------------- */

/* The ledger's entries as the snapshot source (set up by the first run);
 * modules with the called one first. */
static int ledger_setup(sor_vm *vm, const scp_soroban_opts *o, uint8_t main_id[32], scp_error *err) {
  scp_ledger *l = scp_sor_session_ledger(o);
  int rc = SCP_OK;
  size_t nmain = o->session->main_asset ? l->nassets : l->nfiles;
  if (o->session->main >= nmain) return scp_fail(err, SCP_ERR_INTERNAL, "ledger: no contract %zu", o->session->main);
  if ((rc = scp_ledger_setup(l, o, err))) return rc;
  if (scp_sor_ledger_give(l, vm->host)) return oom(err);
  vm->host->v0_code = (const uint8_t (*)[32])l->v0_code;
  vm->host->nv0_code = l->nv0_code;
  memcpy(main_id, o->session->main_asset ? l->asset_ids[o->session->main] : l->ids[o->session->main], 32);
  uint32_t mi;
  /* the code each runs now, which an upgrade may have changed */
  size_t *code = malloc((l->nfiles + 1) * sizeof *code);
  if (!code || scp_sor_ledger_code_files(l, code)) {
    free(code);
    return oom(err);
  }
  for (size_t k = 0; k <= l->nfiles && !rc; k++) {
    size_t i = k == 0 ? o->session->main : k - 1;
    if (k == 0 && o->session->main_asset) continue;
    if (k && i == o->session->main && !o->session->main_asset) continue;
    size_t fi = code[i];
    const scp_contract_file *f = &l->files[fi];
    const char *cp = f->path ? f->path : "contract.wasm";
    rc = scp_sor_add_file_module(vm, fi, l->ids[i], f->wasm, f->len, cp, &mi, err);
  }
  free(code);
  return rc;
}

/* The called contract (salt 0) and every extra one (salt i + 1), from the
 * deployer zero. */
static int deploy_files(sor_run *r, scp_error *err) {
  static const uint8_t zero[32];
  const scp_soroban_opts *o = r->o;
  uint8_t id[32], salt[32];
  uint32_t mi;
  int rc;
  scp_sor_salt(0, salt);
  if ((rc = scp_host_deploy(r->vm.host, o->wasm, o->wasm_len, zero, salt, id))) return scp_fail(err, rc, "out of memory");
  if ((rc = scp_sor_add_module(&r->vm, id, o->wasm, o->wasm_len, r->path, &mi, err))) return rc;
  memcpy(r->main_id, id, 32);
  for (size_t i = 0; i < o->ledger.ncontracts; i++) {
    const scp_contract_file *c = &o->ledger.contracts[i];
    const char *cp = c->path ? c->path : "callee.wasm";
    scp_sor_salt(i + 1, salt);
    if ((rc = scp_host_deploy(r->vm.host, c->wasm, c->len, zero, salt, id))) return scp_fail(err, rc, "out of memory");
    if ((rc = scp_sor_add_module(&r->vm, id, c->wasm, c->len, cp, &mi, err))) return rc;
  }
  return SCP_OK;
}

/* A contract the test Env can hold: e.register(WASM, args) from the
 * generator's next address, nothing else about it given (its constructor
 * arguments are register's: sor_testenv.c).  One contract may have the
 * network's default deploy (its id is then the test's anyway); several
 * need the ids a sdk-test scenario gave them. */
static bool test_registered(const scp_ledger *l, size_t i) {
  static const uint8_t zero[32];
  const scp_ledger_deploy *d = l->deploys ? &l->deploys[i] : NULL;
  if (!d) return l->nfiles == 1;
  if (d->by_contract || d->has_live_until || d->upload_only || memcmp(d->deployer, zero, 32) ||
      memcmp(d->salt, zero, 32))
    return false;
  return l->nfiles == 1 || d->test_gen == i + 1;
}

/* The soroban-sdk test Env's state after its e.register(WASM, ()) calls,
 * in the scenario's order (the called contract's module first). */
static int deploy_test_env(sor_run *r, scp_error *err) {
  const scp_soroban_opts *o = r->o;
  uint32_t mi;
  scp_ledger *l = scp_sor_session_ledger(o);
  bool ok = !l || (l->nfiles && !l->nassets && !l->naccounts && !l->ntrustlines && !l->nseeds);
  for (size_t i = 0; l && ok && i < l->nfiles; i++) ok = test_registered(l, i);
  if (!ok)
    return scp_fail(err, SCP_ERR_UNSUPPORTED,
                    "context sdk-test: a scenario of contracts with no deployer, salt, "
                    "live_until or upload_only (the test Env's e.register calls), and no assets, accounts, "
                    "trustlines or storage; several contracts need \"context\": \"sdk-test\" in the file");
  size_t n = l ? l->nfiles : 1, main = l ? o->session->main : 0;
  int rc = scp_host_deploy_test_env(r->vm.host, o->wasm, o->wasm_len, (uint32_t)main + 1, r->main_id);
  if (rc == SCP_OK) rc = scp_sor_add_module(&r->vm, r->main_id, o->wasm, o->wasm_len, r->path, &mi, err);
  for (size_t i = 0; !rc && i < n; i++) {
    if (i == main) continue;
    const scp_contract_file *f = &l->files[i];
    uint8_t id[32];
    if ((rc = scp_host_deploy_test_env(r->vm.host, f->wasm, f->len, (uint32_t)i + 1, id))) break;
    rc = scp_sor_add_module(&r->vm, id, f->wasm, f->len, f->path ? f->path : "callee.wasm", &mi, err);
  }
  if (rc == SCP_ERR_NOMEM) return scp_fail(err, rc, "out of memory");
  return rc;
}

static int seed_test_map(scp_host *h, const scp_sentry *m, size_t n) {
  int rc = SCP_OK;
  for (size_t i = 0; !rc && i < n; i++)
    rc = scp_storage_seed_map(h, &m[i].k, m[i].present ? m[i].val : NULL, m[i].vallen, m[i].live_until);
  return rc;
}

/* The test Env's map beyond the registers' four entries each: what their
 * constructors left (sor_testenv.c), then the earlier calls' map, which
 * holds all of that as they left it. */
static int test_env_state(sor_run *r, const scp_host_opts *ho, scp_error *err) {
  scp_ledger *l = scp_sor_session_ledger(r->o);
  scp_sentry *m = NULL;
  size_t n = 0;
  int rc = scp_sor_testenv_constructed(r->o, ho, &m, &n, err);
  if (!rc) rc = seed_test_map(r->vm.host, m, n);
  scp_storage_snapshot_free(m, n);
  if (!rc && l) rc = seed_test_map(r->vm.host, l->test_map, l->ntest_map);
  if (rc == SCP_ERR_NOMEM && !err->msg[0]) return scp_fail(err, rc, "out of memory");
  return rc;
}

/* 0. the contracts in the ledger before the call, the --asset contracts
 * created as set-up, and the protocol checks the reference's module parse
 * makes: a contract newer than the ledger is refused
 * (check_contract_interface_version), as is an import its protocol or the
 * ledger's does not have. */
static int deploy(sor_run *r, const scp_host_opts *ho, scp_error *err) {
  const scp_soroban_opts *o = r->o;
  sor_vm *vm = &r->vm;
  uint8_t id[32];
  int rc = o->sdk_test ? deploy_test_env(r, err)
         : scp_sor_session_ledger(o) ? ledger_setup(vm, o, r->main_id, err) : deploy_files(r, err);
  for (size_t i = 0; i < o->ledger.nassets && !rc; i++) rc = scp_sac_setup_text(vm->host, o->ledger.assets[i], id, err);
  if (rc) return rc;
  for (size_t i = 0; i < vm->nmods && o->ledger.protocol; i++) {
    uint32_t cp = scp_sor_module_protocol(vm->mods[i].mod);
    if (cp != UINT32_MAX && cp > o->ledger.protocol)
      return scp_fail(err, SCP_ERR_UNSUPPORTED, "%s: built for protocol %u, newer than the ledger's protocol %u",
                      vm->mods[i].label + strlen("contract:"), cp, o->ledger.protocol);
  }
  for (size_t i = 0; i < vm->nmods; i++)
    if ((rc = scp_sor_check_import_protocols(&vm->mods[i], o->ledger.protocol ? o->ledger.protocol : SCP_SOR_MAX_PROTOCOL, err)))
      return rc;
  return o->sdk_test ? test_env_state(r, ho, err) : SCP_OK;
}

/* The called function: exported, as many parameters as arguments, all i64
 * Vals.  An asset contract called directly (a scenario's asset) has no Wasm
 * to check: the native contract checks its own arguments.  Also names the
 * root node. */
static int check_entry(sor_run *r, scp_error *err) {
  const scp_soroban_opts *o = r->o;
  const char *path = r->path;
  r->sac_main = scp_sor_session_ledger(o) && o->session->main_asset;
  const scp_wasm_module *mainmod = r->sac_main ? NULL : r->vm.mods[0].mod;
  uint8_t kind;
  uint32_t fidx;
  if (!o->function || (!r->sac_main && (!scp_wasm_export_find(mainmod, o->function, strlen(o->function), &kind, &fidx) ||
      kind != SCP_EXT_FUNC)))
    return scp_fail(err, SCP_ERR_NOTFOUND, "%s: no exported function '%s'", path, o->function ? o->function : "");
  const uint8_t *ps = NULL, *rs;
  uint32_t np = (uint32_t)o->nargs;
  r->nr = 1;
  if (!r->sac_main) scp_wasm_func_sig(mainmod, fidx, &ps, &np, &rs, &r->nr);
  if (np != o->nargs)
    return scp_fail(err, SCP_ERR_ARG, "%s: function '%s' takes %u argument%s, %zu given", path, o->function,
                    np, np == 1 ? "" : "s", o->nargs);
  for (uint32_t i = 0; ps && i < np; i++)
    if (ps[i] != SCP_WASM_I64)
      return scp_fail(err, SCP_ERR_INVALID, "%s: function '%s' parameter %u is not an i64 Val", path, o->function, i);
  /* a contract upgraded by an earlier call is named by the code it runs */
  uint8_t h[32];
  if (!r->sac_main) SHA256(o->wasm, o->wasm_len, h);
  if (!r->sac_main && memcmp(h, r->vm.mods[0].code_hash, 32))
    scp_buf_puts(&r->title, r->vm.mods[0].label);
  else
    scp_buf_printf(&r->title, r->sac_main ? "contract:SAC(%s)" : "contract:%s", scp_sor_basename(path));
  if (r->title.oom) return oom(err);
  r->vm.title = r->title.data;
  return SCP_OK;
}

/* ---- run the call ------------------------------------------------------------------------- */

/* 0b. enforcing mode: the signing accounts' entries (set-up), then
 * Host::set_authorization_entries, charged in its own frame (auth:entries).
 * Its Host or Budget failure is the run's; any other stops here. */
static int set_auth_entries(sor_run *r, const scp_authplan *plan, scp_error *err) {
  sor_vm *vm = &r->vm;
  int rc = scp_authplan_seed_accounts(vm->host, plan, err);
  if (rc) return rc;
  scp_run_book(vm->run, 0);
  scp_error ae = {0};
  int arc = scp_authplan_apply(vm->host, plan, &ae);
  uint32_t node;
  if (scp_sor_book_root_child(vm, SOR_AUTH_ENTRIES, false, &node)) return oom(err);
  if (arc != SCP_OK && arc != SCP_ERR_HOST && arc != SCP_ERR_BUDGET) {
    *err = ae;
    return arc;
  }
  r->run_rc = arc;
  if (arc) r->run_err = ae;
  return SCP_OK;
}

static int describe_args(sor_vm *vm, const scp_soroban_opts *o, const uint64_t *vals, scp_buf *b) {
  for (size_t i = 0; i < o->nargs; i++) {
    if (i) scp_buf_puts(b, ", ");
    scp_host_val_format(vm->host, vals[i], b);
  }
  return b->oom ? SCP_ERR_NOMEM : SCP_OK;
}

/* A soroban-sdk test's call: the base PRNG seed (Env::default) and the
 * arguments' Vals (the client) before the measured span, on a throwaway
 * budget; at Host::call the footprint starts empty (invocation metering's
 * reset).  No HostFunction frame.  The recording-auth nonce PRNG is the
 * Env's, seeded once: each e.register drew one nonce (its deployer's),
 * the earlier calls of a scenario theirs. */
static int open_test_call(sor_run *r, scp_error *err) {
  const scp_soroban_opts *o = r->o;
  scp_host *h = r->vm.host;
  static const uint8_t seed[32];
  scp_budget *real = h->budget, outside;
  scp_budget_init(&outside, UINT64_MAX, UINT64_MAX);
  h->budget = &outside;
  int rc = scp_host_set_base_prng_seed(h, seed);
  scp_ledger *l = scp_sor_session_ledger(o);
  scp_host_skip_recording_nonces(h, (l ? l->nfiles + l->test_nonces : 1));
  if (rc == SCP_OK) rc = scp_host_args_to_vals(h, o->args, o->nargs, r->vals, &r->run_err);
  h->budget = real;
  if (rc == SCP_ERR_ARG) {
    *err = r->run_err;
    return rc;
  }
  if (rc == SCP_OK) describe_args(&r->vm, o, r->vals, &r->argtext);
  scp_storage_footprint_clear(h);
  if (scp_storage_snapshot(h, &r->init_map, &r->ninit)) return oom(err);
  r->run_rc = rc;
  return SCP_OK;
}

/* 1. the base PRNG seed; 2. the HostFunction frame and the arguments.  A
 * scenario's simulation (the recording run of an enforcing call) seeds
 * with its ordinal from 1, so its nonces are fresh ones, not the ones
 * earlier signed calls consumed or recording mode's (seed 0).  A failure
 * is the run's, except a bad argument, which stops here. */
static int open_host_fn_frame(sor_run *r, bool simulation, scp_error *err) {
  const scp_soroban_opts *o = r->o;
  sor_vm *vm = &r->vm;
  if (!(r->vals = calloc(o->nargs + 1, sizeof *r->vals))) return oom(err);
  if (o->sdk_test) return open_test_call(r, err);
  uint8_t seed[32] = { 0 };
  if (simulation && scp_sor_session_ledger(o)) {
    uint32_t k = ++o->session->ledger->simulations;
    for (int b = 0; b < 4; b++) seed[28 + b] = (uint8_t)(k >> (24 - 8 * b));
  }
  int rc = r->run_rc;
  if (rc == SCP_OK) rc = scp_host_set_base_prng_seed(vm->host, seed);
  if (rc == SCP_OK) rc = scp_host_charge_push_context(vm->host, NULL);
  if (rc == SCP_OK) {
    rc = scp_host_push_frame(vm->host);
    r->hf_frame = rc == SCP_OK;
  }
  uint64_t fn_sym;
  if (rc == SCP_OK) rc = scp_host_symbol_val(vm->host, o->function, &fn_sym);
  if (rc == SCP_OK) rc = scp_host_args_to_vals(vm->host, o->args, o->nargs, r->vals, &r->run_err);
  if (rc == SCP_ERR_ARG) {
    *err = r->run_err;
    return rc;
  }
  if (rc == SCP_OK) describe_args(vm, o, r->vals, &r->argtext);
  scp_run_book(vm->run, 0);
  r->run_rc = rc;
  return SCP_OK;
}

/* 3-7. the call, its result formatted. */
static void call(sor_run *r) {
  sor_vm *vm = &r->vm;
  if (r->run_rc) return;
  scp_error e = {0};
  uint64_t result_val = SCP_VAL_VOID;
  r->called = true;
  if (r->o->sdk_test)
    r->run_rc = scp_host_test_call(vm->host, r->main_id, r->o->function, r->vals, (uint32_t)r->o->nargs,
                                   &result_val, &e);
  else
    r->run_rc = scp_host_invoke_contract(vm->host, r->main_id, r->o->function, r->vals, (uint32_t)r->o->nargs,
                                         &result_val, &e);
  r->result_val = result_val;
  if (r->run_rc) {
    r->run_err = vm->run_err.msg[0] ? vm->run_err : e;
    r->run_err.code = r->run_rc;
  } else if (r->nr == 1) {
    scp_host_val_format(vm->host, result_val, &r->result);
  }
}

/* Popping the last frame runs recording mode's emulated authentication
 * (host_auth_emul.c): its own node under the root, when it charged any. */
static int close_host_fn_frame(sor_run *r, scp_error *err) {
  sor_vm *vm = &r->vm;
  if (!r->hf_frame) return SCP_OK;
  scp_run_book(vm->run, 0);
  vm->emulating = true;
  scp_host_pop_frame(vm->host);
  vm->emulating = false;
  uint32_t node;
  if (scp_sor_book_root_child(vm, SOR_AUTH_EMULATE, true, &node)) return oom(err);
  scp_fee_track_remap(&vm->fee.track, SCP_FEE_NODE_PENDING, node);
  scp_error ee = { 0 };
  int erc = scp_host_take_auth_emulation_rc(vm->host, &ee);
  if (erc != SCP_OK && r->run_rc == SCP_OK) {
    r->run_rc = erc;
    r->run_err = ee;
  }
  return SCP_OK;
}

/* The fee of the call, as simulation would have declared it, on the nodes
 * that caused it; the meter's Fee becomes its total and the cursor moves
 * past it (the shares are booked already).  A call over a network limit
 * ends as SCP_ERR_LIMIT, naming the limit and the excess. */
static int book_fee(sor_run *r, const scp_authplan *plan, scp_error *err) {
  sor_vm *vm = &r->vm;
  scp_fee_call fc = {.contract_id = r->main_id, .function = r->o->function, .args = r->vals,
                     .nargs = r->o->nargs, .result = r->result_val,
                     .instructions = vm->budget.cpu, .memory = vm->budget.mem,
                     .cpu_metric = SOR_METRIC_CPU, .fee_metric = SOR_METRIC_FEE};
  int rc;
  if (plan) {
    for (size_t i = 0; i < plan->n; i++) fc.auth_bytes += plan->lens[i];
    fc.nauth = (uint32_t)plan->n;
  } else if ((rc = scp_authplan_recorded_size(vm->host, &fc.auth_bytes, &fc.nauth, err))) {
    return rc;
  }
  if ((rc = scp_fee_run_finish(&vm->fee, vm->host, &fc, scp_run_tree(vm->run), err))) return rc;
  vm->fee_total = (uint64_t)vm->fee.tx.total;
  scp_run_skip(vm->run);
  if (vm->fee.tx.nexcess) {
    r->run_rc = scp_fee_run_over(&vm->fee, &r->run_err);
    if (r->run_rc == SCP_ERR_NOMEM) return oom(err);
  }
  return SCP_OK;
}

/* After the call: a recording run's trees signed (collect), the linear
 * memory charged to the HostFunction frame refunded, the ledger saved (not
 * by a simulation), and the run's status given its message.  An error the
 * run cannot be profiled with (bad code, out of memory) stops here. */
static int settle(sor_run *r, const scp_authplan *plan, scp_authplan *collect, scp_error *err) {
  const scp_soroban_opts *o = r->o;
  sor_vm *vm = &r->vm;
  int rc;
  if (collect) {
    if (r->run_rc) {
      *err = r->run_err;
      scp_error_prefix(err, "the recording run (for the authorization entries)");
      return r->run_rc;
    }
    if ((rc = scp_authplan_collect(vm->host, o, collect, err))) return rc;
  }
  /* a test's Host::call has no frame below the contract's: no refund */
  if (vm->late_refund && !o->sdk_test) {
    scp_budget_refund_mem(&vm->budget, vm->late_refund);
    vm->refunded += vm->late_refund;
  }
  scp_run_book(vm->run, 0);
  if (vm->fee.on && r->run_rc == SCP_OK && (rc = book_fee(r, plan, err))) return rc;
  if (!vm->fee.on && r->run_rc == SCP_OK && !collect && (rc = scp_sor_entries_collect(vm, err))) return rc;
  /* a call over a network limit is refused: its writes are dropped */
  bool refused = vm->fee.done && vm->fee.tx.nexcess;
  scp_ledger *l = scp_sor_session_ledger(o);
  if (o->sdk_test && r->run_rc == SCP_OK) {
    r->sdk_res.instructions = (int64_t)vm->budget.cpu;
    r->sdk_res.mem_bytes = (int64_t)vm->budget.mem_peak;
    if ((rc = scp_fee_sdk_measure(vm->host, r->init_map, r->ninit, &r->sdk_res)))
      return scp_fail(err, rc, "%s: sizing the events: %s", r->path, vm->host->errmsg);
    scp_fee_sdk_estimate(&r->sdk_res, &scp_fee_sdk_test_config, &r->sdk_fee);
    r->sdk_done = true;
  }
  if (l && o->sdk_test) l->test_nonces += scp_host_recording_nonces(vm->host);
  if (l && o->sdk_test && r->run_rc == SCP_OK) {
    scp_storage_snapshot_free(l->test_map, l->ntest_map);
    l->test_map = NULL;
    l->ntest_map = 0;
    if ((rc = scp_storage_snapshot(vm->host, &l->test_map, &l->ntest_map))) return oom(err);
  }
  if (l && !o->sdk_test && !collect &&
      (rc = scp_sor_ledger_save(l, vm->host, r->run_rc == SCP_OK && !refused, plan != NULL)))
    return scp_fail(err, rc, "out of memory");
  int run_rc = r->run_rc;
  if (run_rc == SCP_ERR_BUDGET && !strstr(r->run_err.msg, "ExceededLimit")) scp_sor_budget_message(vm, &r->run_err);
  if (run_rc && !r->run_err.msg[0])
    scp_fail(&r->run_err, run_rc, "invoking '%s' failed: %s", o->function, scp_strerror(run_rc));
  if (run_rc == SCP_ERR_MALFORMED || run_rc == SCP_ERR_INVALID || run_rc == SCP_ERR_UNSUPPORTED ||
      run_rc == SCP_ERR_NOMEM || run_rc == SCP_ERR_INTERNAL) {
    *err = r->run_err;
    if (!strstr(err->msg, r->path)) scp_error_prefix(err, r->path);
    return run_rc;
  }
  return SCP_OK;
}

/* ---- the profile ---------------------------------------------------------------------------- */

static int meta_u64(scp_profile *p, const char *key, uint64_t v) {
  char num[32];
  snprintf(num, sizeof num, "%llu", (unsigned long long)v);
  return scp_prof_meta(p, key, num);
}

/* A metadata line whose value is r->line, written by the caller. */
static int meta_line(sor_run *r, scp_profile *p, const char *key) {
  return r->line.oom ? SCP_ERR_NOMEM : scp_prof_meta(p, key, r->line.data);
}

/* "contract id i" for every contract when there is more than one, then
 * "asset contract i" for a scenario's assets and the --asset ones. */
static int meta_ids(sor_run *r, scp_profile *p) {
  const scp_soroban_opts *o = r->o;
  sor_vm *vm = &r->vm;
  char sk[57], key[48];
  int rc = SCP_OK;
  for (size_t i = 0; (o->ledger.ncontracts || vm->nmods > 1 || scp_sor_session_ledger(o)) && i < vm->nmods && !rc; i++) {
    scp_host_contract_strkey(vm->mods[i].id, sk);
    snprintf(key, sizeof key, "contract id %zu", i);
    scp_buf_free(&r->line);
    scp_buf_printf(&r->line, "%s = %s", vm->mods[i].label + strlen("contract:"), sk);
    rc = meta_line(r, p, key);
  }
  for (size_t i = 0; scp_sor_session_ledger(o) && i < o->session->ledger->nassets && !rc; i++) {
    scp_host_contract_strkey(o->session->ledger->asset_ids[i], sk);
    snprintf(key, sizeof key, "asset contract %zu", i);
    scp_buf_free(&r->line);
    scp_buf_printf(&r->line, "SAC(%s) = %s", o->session->ledger->assets[i], sk);
    rc = meta_line(r, p, key);
  }
  for (size_t i = 0; i < o->ledger.nassets && !rc; i++) {
    scp_sac_asset asset;
    const char *why;
    uint8_t id[32];
    if (scp_sac_asset_parse(o->ledger.assets[i], &asset, &why)) continue;
    scp_sac_contract_id(vm->host->opts.network_id, &asset, id);
    scp_host_contract_strkey(id, sk);
    snprintf(key, sizeof key, "asset contract %zu", i);
    scp_buf_free(&r->line);
    scp_buf_printf(&r->line, "SAC(%s) = %s", o->ledger.assets[i], sk);
    rc = meta_line(r, p, key);
  }
  return rc;
}

/* The guest backtrace of the trap that failed the run: one "backtrace"
 * line per frame, innermost first. */
static int meta_backtrace(const sor_vm *vm, scp_profile *p) {
  int rc = SCP_OK;
  for (const char *l = vm->trap_trace; !rc && *l;) {
    size_t n = strcspn(l, "\n");
    char line[400];
    snprintf(line, sizeof line, "%.*s", (int)(n < 399 ? n : 399), l);
    rc = scp_prof_meta(p, "backtrace", line);
    l += n + (l[n] == '\n');
  }
  return rc;
}

/* The Budget by cost type, as soroban-sdk's cost_estimate().budget()
 * prints it: for every cost type charged, its iterations, the sum of its
 * inputs (0 for a constant-cost type), its CPU and its memory.  Every
 * charge lands in one row, so the CPU column sums to the Budget's CPU (the
 * profile's CPU) and the memory column to the memory charged (the Budget's
 * plus what was refunded: the profile's memory); checked here. */
static int budget_table(const sor_vm *vm, scp_profile *p, scp_error *err) {
  static const char *const cols[] = {"iterations", "input", "CPU", "memory"};
  static const int col_metric[] = {-1, -1, SOR_METRIC_CPU, SOR_METRIC_MEM};
  int rc = scp_prof_table_begin(p, "Budget by cost type", "cost type", 4, cols, col_metric);
  uint64_t cpu = 0, mem = 0;
  for (int t = 0; t < SCP_COST_COUNT && !rc; t++) {
    const scp_cost_tracker *k = &vm->budget.tracker[t];
    if (!k->iterations && !k->cpu && !k->mem) continue;
    const uint64_t v[] = {k->iterations, k->inputs, k->cpu, k->mem};
    rc = scp_prof_table_row(p, scp_cost_type_name((scp_cost_type)t), v);
    cpu += k->cpu;
    mem += k->mem;
  }
  if (rc) return rc == SCP_ERR_NOMEM ? oom(err) : scp_fail(err, rc, "internal error: the budget table");
  if (cpu != vm->budget.cpu || mem != vm->budget.mem + vm->refunded)
    return scp_fail(err, SCP_ERR_INTERNAL,
                    "internal error: the cost types' CPU %llu and memory %llu differ from the Budget's %llu and %llu",
                    (unsigned long long)cpu, (unsigned long long)mem, (unsigned long long)vm->budget.cpu,
                    (unsigned long long)(vm->budget.mem + vm->refunded));
  return SCP_OK;
}

/* cost_estimate().resources() and .fee(), field by field as the SDK
 * prints them. */
static int meta_sdk(sor_run *r, scp_profile *p) {
  const scp_fee_sdk_resources *s = &r->sdk_res;
  const scp_fee_sdk_fee *f = &r->sdk_fee;
  scp_buf_free(&r->line);
  scp_buf_printf(&r->line,
                 "instructions %lld, mem_bytes %lld, disk_read_entries %u, memory_read_entries %u, "
                 "write_entries %u, disk_read_bytes %u, write_bytes %u, contract_events_size_bytes %u, "
                 "persistent_rent_ledger_bytes %lld, persistent_entry_rent_bumps %u, "
                 "temporary_rent_ledger_bytes %lld, temporary_entry_rent_bumps %u",
                 (long long)s->instructions, (long long)s->mem_bytes, s->disk_read_entries,
                 s->memory_read_entries, s->write_entries, s->disk_read_bytes, s->write_bytes,
                 s->contract_events_size_bytes, (long long)s->persistent_rent_ledger_bytes,
                 s->persistent_entry_rent_bumps, (long long)s->temporary_rent_ledger_bytes,
                 s->temporary_entry_rent_bumps);
  int rc = meta_line(r, p, "sdk resources");
  scp_buf_free(&r->line);
  scp_buf_printf(&r->line,
                 "total %lld = instructions %lld + disk_read_entries %lld + write_entries %lld + "
                 "disk_read_bytes %lld + write_bytes %lld + contract_events %lld + "
                 "persistent_entry_rent %lld + temporary_entry_rent %lld",
                 (long long)f->total, (long long)f->instructions, (long long)f->disk_read_entries,
                 (long long)f->write_entries, (long long)f->disk_read_bytes, (long long)f->write_bytes,
                 (long long)f->contract_events, (long long)f->persistent_entry_rent,
                 (long long)f->temporary_entry_rent);
  if (!rc) rc = meta_line(r, p, "sdk fee estimate");
  return rc;
}

/* The called contract's code hash: `diff` warns when two profiles come
 * from different Wasm files. */
static int meta_wasm_hash(const sor_vm *vm, scp_profile *p) {
  char hex[65];
  sodium_bin2hex(hex, sizeof hex, vm->mods[0].code_hash, 32);
  return scp_prof_meta(p, "wasm sha256", hex);
}

/* A transaction's resources: declared, computed, recorded. */
static int describe_tx(sor_run *r, scp_profile *p) {
  const sor_vm *vm = &r->vm;
  scp_sortx_computed c = {.instructions = vm->budget.cpu};
  if (vm->fee.done) {
    const scp_fee_tx *t = &vm->fee.tx;
    c.cfg = &vm->fee.net.fee;
    c.nro = t->footprint_ro;
    c.nrw = t->footprint_rw;
    c.disk_read_bytes = t->res.disk_read_bytes;
    c.write_bytes = t->res.write_bytes;
    c.events_bytes = t->res.contract_events_size_bytes;
    c.rent = t->rent.total;
  }
  return scp_sortx_describe(r->o->session->tx, r->o->session->tx_meta, &c, p);
}

/* Memory as the host enforces it.  The Budget's count goes up with every
 * charge and down when a contract VM's frame ends and its linear memory is
 * refunded; the limit is checked against that count at each charge, so a
 * run stays within it exactly when the count's peak does.  The Budget table
 * and `check --max-mem` show that peak; the call tree books everything
 * charged (the refunds included), which this one line reconciles. */
static int meta_memory(sor_run *r, scp_profile *p) {
  const scp_budget *b = &r->vm.budget;
  int rc = scp_prof_enforced(p, SOR_METRIC_MEM, b->mem_peak);
  if (rc) return rc;
  scp_buf_free(&r->line);
  scp_buf_puts(&r->line, "peak ");
  scp_buf_put_grouped(&r->line, b->mem_peak);
  scp_buf_puts(&r->line, " of the limit ");
  scp_buf_put_grouped(&r->line, b->mem_limit);
  scp_buf_puts(&r->line, " (the Budget's count, lowered by refunds); charged ");
  scp_buf_put_grouped(&r->line, b->mem + r->vm.refunded);
  if (r->vm.refunded) {
    scp_buf_puts(&r->line, " - refunded ");
    scp_buf_put_grouped(&r->line, r->vm.refunded);
    scp_buf_puts(&r->line, " (ended VMs' linear memory) = net ");
    scp_buf_put_grouped(&r->line, b->mem);
  } else {
    scp_buf_puts(&r->line, ", nothing refunded");
  }
  return meta_line(r, p, "memory");
}

/* The run's metadata lines, in the order the report shows them. */
static int add_meta(void *ctx, scp_profile *p, scp_error *err) {
  sor_run *r = ctx;
  const scp_soroban_opts *o = r->o;
  sor_vm *vm = &r->vm;
  const char *cx = o->sdk_test ? "sdk-test (soroban-sdk cost_estimate(): Host::call in a test Env)"
                 : o->session && o->session->tx ? "transaction (its authorization entries and footprint enforced)"
                 : "network (the recording-mode invocation simulation runs)";
  int rc = scp_prof_meta(p, "context", cx);
  if (!rc) rc = scp_prof_meta(p, "contract", r->path);
  if (!rc && !r->sac_main && vm->nmods) rc = meta_wasm_hash(vm, p);
  if (!rc) rc = scp_prof_meta(p, "function", o->function);
  if (!rc) rc = scp_prof_meta(p, "arguments", r->argtext.data ? r->argtext.data : "");
  if (!rc && r->run_rc == SCP_OK) rc = scp_prof_meta(p, "result", r->result.data ? r->result.data : "void");
  if (!rc && r->run_rc) rc = scp_prof_meta(p, "status", r->run_err.msg);
  if (!rc && r->run_rc) rc = meta_backtrace(vm, p);
  if (!rc) rc = meta_memory(r, p);
  if (!rc) rc = meta_u64(p, "events", scp_host_event_count(vm->host));
  if (!rc && !(o->session && o->session->totals_only)) rc = meta_ids(r, p);
  if (!rc && (r->st.reads || r->st.writes)) {
    scp_buf_free(&r->line);
    scp_buf_printf(&r->line, "%llu reads (%llu bytes), %llu writes (%llu bytes): host storage calls and their "
                   "value bytes, not ledger entries",
                   (unsigned long long)r->st.reads, (unsigned long long)r->st.bytes_read,
                   (unsigned long long)r->st.writes, (unsigned long long)r->st.bytes_written);
    rc = meta_line(r, p, "storage");
  }
  for (size_t i = 0; !rc && i < scp_host_auth_count(vm->host); i++) {
    char key[32];
    snprintf(key, sizeof key, "auth %zu", i + 1);
    scp_buf_free(&r->line);
    scp_host_auth_format(vm->host, i, &r->line);
    rc = meta_line(r, p, key);
  }
  if (!rc && vm->fee.done) rc = scp_fee_run_describe(&vm->fee, p, SOR_METRIC_FEE);
  if (!rc && o->session && o->session->tx) rc = describe_tx(r, p);
  if (!rc && r->sdk_done) rc = meta_sdk(r, p);
  if (!rc && !r->sac_main && vm->mods[0].sym && scp_sym_warning(vm->mods[0].sym)[0])
    rc = scp_prof_meta(p, "debug info", scp_sym_warning(vm->mods[0].sym));
  for (size_t i = 0; !rc && i < vm->nmods; i++) {
    if (!vm->mods[i].sym || scp_sym_has_dwarf(vm->mods[i].sym)) continue;
    scp_buf_free(&r->line);
    scp_buf_printf(&r->line, "%s: " SCP_SYM_NO_DWARF_NOTE, vm->mods[i].label);
    rc = meta_line(r, p, "source lines");
  }
  if (rc) return oom(err);
  rc = budget_table(vm, p, err);
  if (!rc) rc = scp_sor_costs_table(&vm->costs, p, SOR_METRIC_CPU, SOR_METRIC_MEM, err);
  return rc ? rc : scp_sor_entries_table(vm, p, err);
}

/* The profile, through the run core: the invariant, the tree symbolized,
 * "demo.wasm run(u32:200)" as its heading (the flamegraph's, diff's column
 * names), the metadata.  The storage metrics only when storage was used. */
static int build_profile(sor_run *r, scp_profile **out, scp_error *err) {
  const scp_soroban_opts *o = r->o;
  scp_host_storage_stats(r->vm.host, &r->st);
  scp_buf heading = {0};
  scp_buf_printf(&heading, r->sac_main ? "SAC(%s) %s(%s)" : "%s %s(%s)", scp_sor_basename(r->path), o->function,
                 r->argtext.data ? r->argtext.data : "");
  if (heading.oom) {
    scp_buf_free(&heading);
    return oom(err);
  }
  scp_resolver res;
  scp_sor_resolver(&r->vm, &res);
  /* with a fee: CPU, memory, Fee, then the storage metrics */
  bool storage = r->st.reads || r->st.writes;
  unsigned fee = r->vm.fee.on;
  scp_run_report rep = {.nmetrics = (storage ? SOR_NMETRICS : 2) + fee, .title = heading.data,
                        .status = r->run_rc, .status_msg = r->run_err.msg, .resolver = &res,
                        .add_meta = add_meta, .ctx = r};
  int rc = scp_run_build(r->vm.run, &rep, out, err);
  scp_buf_free(&heading);
  if (rc == SCP_ERR_INTERNAL) scp_error_prefix(err, r->path);
  return rc;
}

/* What the sdk-test context cannot honour: the network's fee and ledger,
 * signed auth, contracts or ledger state beyond the one e.register. */
static int check_sdk_test(const scp_soroban_opts *o, scp_error *err) {
  const char *what = o->network || o->network_config ? "a network (its fee is the SDK's estimate)"
                   : o->auth.enforce ? "--auth enforce (a test enforces with no entries)"
                   : o->ledger.ncontracts ? "extra contracts"
                   : o->ledger.nassets ? "asset contracts"
                   : o->ledger.protocol && o->ledger.protocol != 28 ? "a protocol other than 28"
                   : o->ledger.sequence || o->ledger.timestamp || o->ledger.has_network_id
                     ? "ledger settings (a test Env's ledger is sequence 0, timestamp 0, network id zero)"
                   : o->auth.has_source_account ? "a source account" : NULL;
  if (!what) return SCP_OK;
  return scp_fail(err, SCP_ERR_ARG, "context sdk-test: %s cannot be given", what);
}

/* soroban-sdk's test Env (env.rs new_for_testutils): protocol 28, ledger
 * sequence 0, network id zero, minimum TTLs 4,096 / 16, maximum
 * 6,312,000, enforcing auth with no entries, the module cache.  A test
 * that mocks auths switches to recording mode (Host::
 * switch_to_recording_auth, uncharged and before the span):
 * mock_all_auths() with disable_non_root_auth, the _allowing_non_root_auth
 * variant without; no source account either way. */
static void sdk_test_host_opts(scp_host_opts *ho, int mock) {
  memset(ho, 0, sizeof *ho);
  ho->protocol = 28;
  ho->min_persistent_entry_ttl = 4096;
  ho->min_temp_entry_ttl = 16;
  ho->max_entry_ttl = 6312000;
  ho->auth_enforcing = mock == SCP_AUTH_MOCK_NONE;
  ho->auth_disable_non_root = mock == SCP_AUTH_MOCK_ALL;
  ho->module_cache = true;
  ho->lazy_read_through = true;
}

/* One run: with plan, its entries are set (enforcing mode) before the
 * call; with collect, the recording run's trackers are turned into signed
 * entries after it (sor_auth.c), and no profile is kept. */
static int run_profile(const scp_soroban_opts *o, const scp_authplan *plan, scp_authplan *collect,
                       scp_profile **out, scp_error *err) {
  *out = NULL;
  sor_run r;
  memset(&r, 0, sizeof r);
  r.o = o;
  r.path = o->wasm_path ? o->wasm_path : "contract.wasm";
  scp_host_opts ho;
  scp_sor_host_opts(o, &ho);
  if (o->sdk_test) sdk_test_host_opts(&ho, o->auth.mock);
  /* stellar-core hands the host its module cache */
  if (o->session && o->session->tx) ho.module_cache = true;
  int rc = SCP_OK;
  if (o->auth.mock && !o->sdk_test)
    rc = scp_fail(err, SCP_ERR_ARG, "mocked auths are a soroban-sdk test's (context sdk-test)");
  if (!rc && o->ledger.protocol && (o->ledger.protocol < SCP_SOR_MIN_PROTOCOL || o->ledger.protocol > SCP_SOR_MAX_PROTOCOL))
    rc = scp_fail(err, SCP_ERR_ARG, "protocol %u: this host runs protocols %d to %d", o->ledger.protocol,
                  SCP_SOR_MIN_PROTOCOL, SCP_SOR_MAX_PROTOCOL);
  if (!rc && o->sdk_test) rc = check_sdk_test(o, err);
  /* the network's fee (its TTLs into ho), not for a simulation's run */
  scp_fee_run fee;
  if (!rc) rc = scp_fee_run_init(&fee, o, &ho, err);
  else memset(&fee, 0, sizeof fee);
  if (collect) fee.on = false;
  uint64_t cpu_limit, mem_limit;
  scp_fee_budget_limits(o, &cpu_limit, &mem_limit);
  if (!rc) rc = scp_sor_vm_open(&r.vm, cpu_limit, mem_limit, &ho, err);
  r.vm.fee = fee;
  if (!rc && fee.on) rc = scp_sor_vm_fee(&r.vm, err);
  if (!rc) scp_run_set_shape(r.vm.run, &o->shape);
  r.vm.test_env = o->sdk_test;
  r.vm.symbols = o->symbols;
  r.vm.nsymbols = o->nsymbols;
  if (scp_sor_session_ledger(o)) r.vm.cache = scp_sor_session_ledger(o)->modcache;
  if (!rc) rc = deploy(&r, &ho, err);
  if (!rc) rc = check_entry(&r, err);
  const scp_sortx *tx = o->session ? o->session->tx : NULL;
  /* stellar-core refuses an archived entry it does not restore before the host runs */
  if (!rc && tx) r.run_rc = scp_sortx_check_archived(tx, r.vm.host, &r.run_err);
  if (!rc && tx && !r.run_rc) rc = scp_sortx_enforce(&r.vm, tx, &r.run_rc, &r.run_err, err);
  if (!rc && plan && !r.run_rc) rc = set_auth_entries(&r, plan, err);
  if (!rc) rc = open_host_fn_frame(&r, collect != NULL, err);
  if (!rc) call(&r);
  if (!rc) rc = close_host_fn_frame(&r, err);
  if (!rc && tx && r.called)
    rc = scp_sortx_teardown(&r.vm, tx, r.run_rc == SCP_OK, r.result_val, &r.run_rc, &r.run_err, err);
  if (!rc) rc = settle(&r, plan, collect, err);
  if (!rc) rc = build_profile(&r, out, err);
  if (!rc && (rc = r.run_rc)) {
    *err = r.run_err;
    if (!strstr(err->msg, r.path)) scp_error_prefix(err, r.path);
  }
  free(r.vals);
  scp_storage_snapshot_free(r.init_map, r.ninit);
  scp_buf_free(&r.title);
  scp_buf_free(&r.argtext);
  scp_buf_free(&r.result);
  scp_buf_free(&r.line);
  scp_sor_vm_close(&r.vm);
  return rc;
}

int scp_soroban_profile(const scp_soroban_opts *o, scp_profile **out, scp_error *err) {
  const scp_sortx *tx = o->session ? o->session->tx : NULL;
  if (tx) {
    /* a transaction: its own entries, as they are (enforcing mode) */
    scp_authplan plan = {.entries = tx->auth, .lens = tx->auth_lens, .n = tx->nauth};
    return run_profile(o, &plan, NULL, out, err);
  }
  if (!o->auth.enforce) return run_profile(o, NULL, NULL, out, err);
  *out = NULL;
  /* simulation first (recording mode, unprofiled), then the signed call */
  scp_soroban_opts rec = *o;
  rec.auth.enforce = false;
  scp_authplan plan = {0};
  scp_profile *p = NULL;
  int rc = run_profile(&rec, NULL, &plan, &p, err);
  scp_profile_destroy(p);
  if (rc == SCP_OK) rc = run_profile(o, &plan, NULL, out, err);
  scp_authplan_free(&plan);
  return rc;
}

int scp_sortx_simulate_auth(const scp_soroban_opts *o, scp_authplan *plan, scp_error *err) {
  scp_soroban_opts rec = *o;
  rec.auth.enforce = false;
  scp_profile *p = NULL;
  int rc = run_profile(&rec, NULL, plan, &p, err);
  scp_profile_destroy(p);
  return rc;
}
