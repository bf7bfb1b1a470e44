/*
 * sor_vm.c — run one contract function the way the Soroban host does, with
 * every Budget charge attributed to a calling-context node.
 *
 * Order (rs-soroban-env v28, vm.rs / vm/dispatch.rs / fuel_refillable.rs;
 * ../shared/spec/soroban/metering.txt):
 *   1. parse + instantiate the module: ParseWasm* then InstantiateWasm*
 *      cost types from the module's cost inputs, and MemAlloc for the
 *      initial linear memory (wasmi's limiter)      -> node "vm:instantiate"
 *   2. argument conversion (ScVal -> Val objects), the Vec<wasmi::Value>
 *      copy, relative handles, InvokeVmFunction    -> the root node
 *   3. guest execution with fuel = cpu_remaining / 4; at every host call:
 *      flush consumed fuel as WasmInsnExec (guest work, counted by region
 *      entries, NOT the host node), then the host node's own delta
 *      (DispatchHostFunction + the function's charges), then refuel.
 *   4. the final flush when the call returns or traps.
 * After the run, Σ self over the tree must equal the Budget's CPU and
 * memory; a mismatch is an internal error.
 */
#include "soroban/scp_host.h"
#include "soroban/scp_val.h"
#include "wasm/scp_wasm.h"
#include "symbols/scp_sym.h"
#include "profile/scp_prof.h"

#include <stdlib.h>
#include <string.h>

enum { METRIC_CPU, METRIC_MEM, NMETRICS };

typedef struct sor_vm {
  scp_budget budget;
  scp_host *host;
  scp_tree tree;
  scp_wasm_module *mod;
  scp_wasm_instance *inst;
  int *import_fn;              /* host function id per import */
  uint64_t fuel_flushed;       /* fuel already charged as WasmInsnExec */
  uint32_t vm_node;            /* vm:instantiate */
  bool instantiating;
  scp_sym *sym;
  const char *title;
  char frame_name[160];
} sor_vm;

/* Charge the fuel consumed since the last flush as WasmInsnExec. */
static int flush_fuel(sor_vm *vm) {
  uint64_t consumed = scp_wasm_fuel_consumed(vm->inst) - vm->fuel_flushed;
  if (!consumed) return SCP_OK;
  vm->fuel_flushed += consumed;
  return scp_budget_charge(&vm->budget, SCP_COST_WasmInsnExec, consumed, -1);
}

static void refuel(sor_vm *vm) {
  uint64_t per = vm->budget.model[SCP_COST_WasmInsnExec].cpu_const;
  scp_wasm_set_fuel(vm->inst, scp_budget_cpu_remaining(&vm->budget) / (per ? per : 1));
}

static void add_delta(sor_vm *vm, uint32_t node, uint64_t cpu0, uint64_t mem0) {
  scp_tree_add(&vm->tree, node, METRIC_CPU, vm->budget.cpu - cpu0);
  scp_tree_add(&vm->tree, node, METRIC_MEM, vm->budget.mem - mem0);
}

static int on_host_call(void *ctx, scp_wasm_instance *inst, uint32_t import_index,
                        uint64_t *args, scp_error *err) {
  sor_vm *vm = ctx;
  int fn = vm->import_fn[import_index];
  int rc = flush_fuel(vm);
  if (rc) return scp_fail(err, rc, "budget exceeded flushing guest fuel");
  uint32_t node = scp_tree_enter(&vm->tree, scp_wasm_current_node(inst), scp_wasm_current_pc(inst),
                                 SCP_KIND_HOST, 0, (uint32_t)fn);
  if (node == SCP_NODE_NONE) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  uint64_t cpu0 = vm->budget.cpu, mem0 = vm->budget.mem;
  scp_hostmem mem;
  mem.base = scp_wasm_memory(inst, &mem.len);
  uint64_t ret = SCP_VAL_VOID;
  rc = scp_host_dispatch(vm->host, (unsigned)fn, args, &mem, &ret, err);
  add_delta(vm, node, cpu0, mem0);
  if (rc) return rc;
  args[0] = ret;
  refuel(vm);
  return SCP_OK;
}

/* wasmi's ResourceLimiter::memory_growing: Soroban charges MemAlloc for the
 * growth (budget/wasmi_helper.rs); at instantiation this is the initial
 * memory (charged to vm:instantiate), later it books at the grow's pc. */
static int on_grow(void *ctx, scp_wasm_instance *inst, uint64_t cur, uint64_t desired) {
  sor_vm *vm = ctx;
  uint64_t delta = desired - cur;
  uint64_t cpu0 = vm->budget.cpu, mem0 = vm->budget.mem;
  int rc = scp_budget_charge(&vm->budget, SCP_COST_MemAlloc, 1, (int64_t)delta);
  uint64_t cost[SCP_MAX_METRICS] = {0};
  cost[METRIC_CPU] = vm->budget.cpu - cpu0;
  cost[METRIC_MEM] = vm->budget.mem - mem0;
  if (vm->instantiating) {
    add_delta(vm, vm->vm_node, cpu0, mem0);
  } else if (!scp_tree_add_pc(&vm->tree, scp_wasm_current_node(inst), scp_wasm_current_pc(inst), cost)) {
    return SCP_ERR_NOMEM;
  }
  if (!vm->instantiating && rc == SCP_OK) refuel(vm);
  return rc;
}

/* Module cost inputs -> ParseWasm* and InstantiateWasm* charges
 * (vm/parsed_module.rs: VersionedContractCodeCostInputs::charge_for_parsing
 * and charge_for_instantiation). */
static int charge_instantiation(sor_vm *vm) {
  scp_wasm_cost_inputs ci;
  scp_wasm_cost_inputs_get(vm->mod, &ci);
  const struct { scp_cost_type t; int64_t n; } parse[] = {
    {SCP_COST_ParseWasmInstructions, ci.n_instructions},
    {SCP_COST_ParseWasmFunctions, ci.n_functions},
    {SCP_COST_ParseWasmGlobals, ci.n_globals},
    {SCP_COST_ParseWasmTableEntries, ci.n_table_entries},
    {SCP_COST_ParseWasmTypes, ci.n_types},
    {SCP_COST_ParseWasmDataSegments, ci.n_data_segments},
    {SCP_COST_ParseWasmElemSegments, ci.n_elem_segments},
    {SCP_COST_ParseWasmImports, ci.n_imports},
    {SCP_COST_ParseWasmExports, ci.n_exports},
    {SCP_COST_ParseWasmDataSegmentBytes, ci.n_data_segment_bytes},
    {SCP_COST_InstantiateWasmInstructions, -1},
    {SCP_COST_InstantiateWasmFunctions, ci.n_functions},
    {SCP_COST_InstantiateWasmGlobals, ci.n_globals},
    {SCP_COST_InstantiateWasmTableEntries, ci.n_table_entries},
    {SCP_COST_InstantiateWasmTypes, -1},
    {SCP_COST_InstantiateWasmDataSegments, ci.n_data_segments},
    {SCP_COST_InstantiateWasmElemSegments, ci.n_elem_segments},
    {SCP_COST_InstantiateWasmImports, ci.n_imports},
    {SCP_COST_InstantiateWasmExports, ci.n_exports},
    {SCP_COST_InstantiateWasmDataSegmentBytes, ci.n_data_segment_bytes},
  };
  for (size_t i = 0; i < SCP_ARRAY_LEN(parse); i++) {
    int rc = scp_budget_charge(&vm->budget, parse[i].t, 1, parse[i].n);
    if (rc) return rc;
  }
  return SCP_OK;
}

/* Resolve every import against the host's function table. */
static int link_imports(sor_vm *vm, const char *path, scp_error *err) {
  uint32_t n = scp_wasm_import_count(vm->mod);
  vm->import_fn = calloc(n + 1, sizeof *vm->import_fn);
  if (!vm->import_fn) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  for (uint32_t i = 0; i < n; i++) {
    const scp_wasm_import *im = scp_wasm_import_get(vm->mod, i);
    if (im->kind != SCP_EXT_FUNC)
      return scp_fail(err, SCP_ERR_INVALID, "%s: import %s.%s is not a function; the Soroban host provides only functions",
                      path, im->module, im->field);
    int fn = scp_hostfn_find(im->module, im->field);
    if (fn < 0)
      return scp_fail(err, SCP_ERR_INVALID, "%s: unknown import %s.%s: no such Soroban host function",
                      path, im->module, im->field);
    const scp_hostfn *hf = scp_hostfn_get((unsigned)fn);
    const uint8_t *ps, *rs;
    uint32_t np, nr;
    scp_wasm_func_sig(vm->mod, i, &ps, &np, &rs, &nr);
    bool ok = np == hf->argc && nr == 1 && rs[0] == SCP_WASM_I64;
    for (uint32_t k = 0; k < np; k++) ok = ok && ps[k] == SCP_WASM_I64;
    if (!ok)
      return scp_fail(err, SCP_ERR_INVALID, "%s: import %s.%s (%s) has the wrong signature: expected %u i64 params and an i64 result",
                      path, im->module, im->field, hf->name, hf->argc);
    vm->import_fn[i] = fn;
  }
  return SCP_OK;
}

/* ---- naming for the profile --------------------------------------------- */

static int node_frame(void *ctx, const scp_tree_node *n, scp_frame_info *out) {
  sor_vm *vm = ctx;
  switch (n->kind) {
  case SCP_KIND_ROOT:
    out->name = vm->title;
    return SCP_OK;
  case SCP_KIND_VM:
    out->name = "vm:instantiate";
    return SCP_OK;
  case SCP_KIND_HOST: {
    const scp_hostfn *hf = scp_hostfn_get(n->callee);
    snprintf(vm->frame_name, sizeof vm->frame_name, "host:%s", hf ? hf->name : "?");
    out->name = vm->frame_name;
    return SCP_OK;
  }
  case SCP_KIND_GUEST:
    if (vm->sym && scp_sym_function(vm->sym, n->callee, out) == SCP_OK) return SCP_OK;
    snprintf(vm->frame_name, sizeof vm->frame_name, "func[%u]", n->callee);
    out->name = vm->frame_name;
    out->source = SCP_SRC_RAW;
    return SCP_OK;
  default:
    out->name = scp_kind_name((scp_kind)n->kind);
    return SCP_OK;
  }
}

static size_t pc_chain(void *ctx, uint32_t module, uint64_t pc, const scp_frame_info **chain) {
  sor_vm *vm = ctx;
  (void)module;
  return vm->sym ? scp_sym_chain(vm->sym, pc, chain) : 0;
}

static const char *basename_of(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* ---- the whole invocation -------------------------------------------------- */

static int describe_args(sor_vm *vm, const scp_soroban_opts *o, const uint64_t *vals,
                         scp_buf *b) {
  for (size_t i = 0; i < o->nargs; i++) {
    if (i) scp_buf_puts(b, ", ");
    scp_host_val_format(vm->host, vals[i], b);
  }
  return b->oom ? SCP_ERR_NOMEM : SCP_OK;
}

int scp_soroban_profile(const scp_soroban_opts *o, scp_profile **out, scp_error *err) {
  *out = NULL;
  const char *path = o->wasm_path ? o->wasm_path : "contract.wasm";
  sor_vm vm;
  memset(&vm, 0, sizeof vm);
  scp_budget_init(&vm.budget, o->cpu_limit, o->mem_limit);
  uint64_t *vals = NULL;
  scp_profile *p = NULL;
  scp_buf title = {0}, argtext = {0}, result = {0};
  int rc, run_rc = SCP_OK;
  scp_error run_err = {0};

  if ((rc = scp_tree_init(&vm.tree, NMETRICS))) { rc = scp_fail(err, rc, "out of memory"); goto done; }
  if ((rc = scp_host_create(&vm.budget, NULL, &vm.host))) { rc = scp_fail(err, rc, "out of memory"); goto done; }
  if ((rc = scp_wasm_load(o->wasm, o->wasm_len, &vm.mod, err))) { scp_error_prefix(err, path); goto done; }
  if ((rc = link_imports(&vm, path, err))) goto done;
  uint8_t kind;
  uint32_t fidx;
  if (!o->function || !scp_wasm_export_find(vm.mod, o->function, strlen(o->function), &kind, &fidx) ||
      kind != SCP_EXT_FUNC) {
    rc = scp_fail(err, SCP_ERR_NOTFOUND, "%s: no exported function '%s'", path, o->function ? o->function : "");
    goto done;
  }
  const uint8_t *ps, *rs;
  uint32_t np, nr;
  scp_wasm_func_sig(vm.mod, fidx, &ps, &np, &rs, &nr);
  if (np != o->nargs) {
    rc = scp_fail(err, SCP_ERR_ARG, "%s: function '%s' takes %u argument%s, %zu given", path, o->function,
                  np, np == 1 ? "" : "s", o->nargs);
    goto done;
  }
  for (uint32_t i = 0; i < np; i++)
    if (ps[i] != SCP_WASM_I64) {
      rc = scp_fail(err, SCP_ERR_INVALID, "%s: function '%s' parameter %u is not an i64 Val", path, o->function, i);
      goto done;
    }
  scp_sym_open_wasm(o->wasm, o->wasm_len, NULL, &vm.sym, NULL);   /* no symbols: fall back */

  scp_buf_printf(&title, "contract:%s", basename_of(path));
  if (title.oom) { rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory"); goto done; }
  vm.title = title.data;

  /* 1. instantiation */
  vm.vm_node = scp_tree_enter(&vm.tree, 0, 0, SCP_KIND_VM, 0, 0);
  if (vm.vm_node == SCP_NODE_NONE) { rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory"); goto done; }
  uint64_t cpu0 = vm.budget.cpu, mem0 = vm.budget.mem;
  run_rc = charge_instantiation(&vm);
  add_delta(&vm, vm.vm_node, cpu0, mem0);
  if (run_rc == SCP_OK) {
    scp_wasm_env env = {on_host_call, on_grow, &vm, NULL};
    vm.instantiating = true;
    run_rc = scp_wasm_instantiate(vm.mod, &env, &vm.inst, &run_err);
    vm.instantiating = false;
    if (run_rc && run_rc != SCP_ERR_BUDGET) { rc = run_rc; *err = run_err; scp_error_prefix(err, path); goto done; }
  }

  /* 2. arguments and the invocation itself, on the root node */
  vals = calloc(o->nargs + 1, sizeof *vals);
  if (!vals) { rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory"); goto done; }
  uint64_t result_val = SCP_VAL_VOID;
  if (run_rc == SCP_OK) {
    cpu0 = vm.budget.cpu; mem0 = vm.budget.mem;
    run_rc = scp_host_push_frame(vm.host);
    if (!run_rc) run_rc = scp_host_args_to_vals(vm.host, o->args, o->nargs, vals, &run_err);
    if (run_rc == SCP_ERR_ARG) { rc = run_rc; *err = run_err; goto done; }
    if (!run_rc) describe_args(&vm, o, vals, &argtext);
    /* vm.rs invoke_function_raw: the Vec<wasmi::Value> copy, relative
     * handles per argument, then InvokeVmFunction */
    if (!run_rc) run_rc = scp_budget_charge(&vm.budget, SCP_COST_MemCpy, 1, 24);
    if (!run_rc) run_rc = scp_budget_charge(&vm.budget, SCP_COST_MemAlloc, 1, (int64_t)(16 * o->nargs));
    if (!run_rc) run_rc = scp_budget_charge(&vm.budget, SCP_COST_MemCpy, 1, (int64_t)(16 * o->nargs));
    for (size_t i = 0; i < o->nargs && !run_rc; i++) run_rc = scp_host_to_relative(vm.host, vals[i], &vals[i]);
    if (!run_rc) run_rc = scp_budget_charge(&vm.budget, SCP_COST_InvokeVmFunction, 1, -1);
    add_delta(&vm, 0, cpu0, mem0);
    if (run_rc && run_rc != SCP_ERR_BUDGET && !run_err.msg[0])
      scp_fail(&run_err, run_rc, "invoking '%s' failed: %s", o->function, scp_strerror(run_rc));
  }

  /* 3. run */
  if (run_rc == SCP_OK) {
    scp_wasm_attach(vm.inst, &vm.tree, 0, 0,
                    (unsigned)vm.budget.model[SCP_COST_WasmInsnExec].cpu_const);
    refuel(&vm);
    vm.fuel_flushed = scp_wasm_fuel_consumed(vm.inst);
    uint64_t r = 0;
    run_rc = scp_wasm_call(vm.inst, fidx, vals, &r, &run_err);
    /* 4. final flush; guest nodes get the same fuel through settling */
    int frc = flush_fuel(&vm);
    if (!run_rc && frc) run_rc = frc;
    if (run_rc == SCP_ERR_TRAP) {
      scp_trap t = scp_wasm_last_trap(vm.inst);
      if (t == SCP_TRAP_OUT_OF_FUEL ||
          (t == SCP_TRAP_HOST && scp_wasm_host_status(vm.inst) == SCP_ERR_BUDGET)) {
        run_rc = SCP_ERR_BUDGET;
        scp_fail(&run_err, SCP_ERR_BUDGET, "Error(Budget, ExceededLimit): CPU %llu of %llu, memory %llu of %llu",
                 (unsigned long long)vm.budget.cpu, (unsigned long long)vm.budget.cpu_limit,
                 (unsigned long long)vm.budget.mem, (unsigned long long)vm.budget.mem_limit);
      }
    }
    if (run_rc == SCP_OK && nr == 1) {
      result_val = r;
      scp_host_val_format(vm.host, result_val, &result);
    }
    if ((rc = scp_wasm_settle(vm.inst))) { rc = scp_fail(err, rc, "out of memory"); goto done; }
  } else if (run_rc == SCP_ERR_BUDGET) {
    scp_fail(&run_err, SCP_ERR_BUDGET, "Error(Budget, ExceededLimit) before the contract ran: CPU %llu of %llu, memory %llu of %llu",
             (unsigned long long)vm.budget.cpu, (unsigned long long)vm.budget.cpu_limit,
             (unsigned long long)vm.budget.mem, (unsigned long long)vm.budget.mem_limit);
  }

  /* the invariant: every unit the Budget charged sits on exactly one node */
  uint64_t tree_cpu = scp_tree_total(&vm.tree, METRIC_CPU), tree_mem = scp_tree_total(&vm.tree, METRIC_MEM);
  if (tree_cpu != vm.budget.cpu || tree_mem != vm.budget.mem) {
    rc = scp_fail(err, SCP_ERR_INTERNAL,
                  "%s: internal error: profile sums (CPU %llu, memory %llu) differ from the Budget (CPU %llu, memory %llu)",
                  path, (unsigned long long)tree_cpu, (unsigned long long)tree_mem,
                  (unsigned long long)vm.budget.cpu, (unsigned long long)vm.budget.mem);
    goto done;
  }

  scp_metric metrics[NMETRICS] = {
    {"CPU", "instructions", vm.budget.cpu_limit},
    {"Memory", "bytes", vm.budget.mem_limit},
  };
  scp_resolver res = {&vm, node_frame, pc_chain};
  if ((rc = scp_prof_build(&vm.tree, metrics, &res, &p, err))) goto done;
  p->status = run_rc;
  char num[64];
  int mrc = scp_prof_meta(p, "contract", path);
  if (!mrc) mrc = scp_prof_meta(p, "function", o->function);
  if (!mrc) mrc = scp_prof_meta(p, "arguments", argtext.data ? argtext.data : "");
  if (!mrc && run_rc == SCP_OK) mrc = scp_prof_meta(p, "result", result.data ? result.data : "void");
  if (!mrc && run_rc) mrc = scp_prof_meta(p, "status", run_err.msg);
  snprintf(num, sizeof num, "%llu", (unsigned long long)vm.budget.mem_peak);
  if (!mrc) mrc = scp_prof_meta(p, "memory peak", num);
  snprintf(num, sizeof num, "%zu", scp_host_event_count(vm.host));
  if (!mrc) mrc = scp_prof_meta(p, "events", num);
  if (!mrc && vm.sym && scp_sym_warning(vm.sym)[0]) mrc = scp_prof_meta(p, "debug info", scp_sym_warning(vm.sym));
  if (!mrc && run_rc) {
    uint32_t id = scp_strtab_intern(&p->strs, run_err.msg);
    if (id == UINT32_MAX) mrc = SCP_ERR_NOMEM;
    else p->status_msg = id;
  }
  if (mrc) { rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory"); goto done; }
  if (!scp_prof_check(p)) {
    rc = scp_fail(err, SCP_ERR_INTERNAL, "%s: internal error: inclusive costs do not add up", path);
    goto done;
  }
  *out = p;
  p = NULL;
  rc = run_rc;
  if (rc) {
    *err = run_err;
    scp_error_prefix(err, path);
  }
done:
  scp_profile_destroy(p);
  free(vals);
  scp_buf_free(&title);
  scp_buf_free(&argtext);
  scp_buf_free(&result);
  scp_sym_destroy(vm.sym);
  scp_wasm_instance_free(vm.inst);
  scp_wasm_module_free(vm.mod);
  free(vm.import_fn);
  scp_host_destroy(vm.host);
  scp_tree_free(&vm.tree);
  return rc;
}
