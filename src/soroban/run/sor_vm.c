/*
 * sor_vm.c — run one contract function the way the Soroban host does a
 * `call` of it, with every Budget charge attributed to a calling-context
 * node, cross-contract calls included (a nested VM per callee).
 *
 * The whole invocation (rs-soroban-env v28 host/frame.rs call_n_internal,
 * call_contract_fn, instantiate_vm, vm.rs):
 *   0. ledger set-up, uncharged (the reference's snapshot): the code and
 *      instance entries of the called contract and of every extra contract
 *      (scp_host_deploy); or, with a scp_ledger (scenario files), the
 *      entries the earlier runs left, saved again after the run (a failed
 *      run changes nothing, as a failed transaction; sor_ledger.c, which
 *      sets that ledger up with its set-up transactions run here by
 *      scp_sor_setup_run)
 *   1. Host::set_base_prng_seed: 2 x ComputeSha256Hash(64) = 14,285 CPU
 *                                                           -> the root node
 *   2. the HostFunction frame: push_context's charges, the function name
 *      as a Symbol, argument conversion (ScVal -> Val)     -> the root node
 *   3. call_n_internal: the contract's instance and code read from storage
 *      (host_contract.c)                                   -> the root node
 *   4. the VM: instantiation charges (InstantiateWasm* from the module's
 *      cost inputs; ParseWasm* and the linker's import-symbol set too when
 *      the code was uploaded during this invocation -- code already in the
 *      ledger is parsed by the module cache / in shadow mode, uncharged, as
 *      instantiate_vm does), the import protocol check's symbol set
 *      (Vec<(&str, &str)> bulk init), and the initial linear memory
 *      (MemAlloc, wasmi's limiter)                         -> "vm:instantiate"
 *   5. push_context + the contract frame, the Vec<wasmi::Value> copy,
 *      relative handles, InvokeVmFunction                 -> the contract node
 *   6. guest execution with fuel = cpu_remaining / 4; at every host call
 *      the consumed fuel is flushed as WasmInsnExec (guest work, counted by
 *      region entries, NOT the host node), then the host node gets its own
 *      charges, then refuel.  A `call` / `try_call` runs the callee through
 *      steps 3-7 under the host:call node, as node "contract:<name>"
 *   7. the frame ends: its instance storage, when it modified it, written
 *      back into the instance entry (persist_instance_storage,
 *      host_instance.c)                                   -> the contract node
 *      then the pop: the VM's linear memory is refunded (v28).
 *
 * Attribution: a cursor holds, per metric, the amount already booked; each
 * boundary books "now - cursor" to one node and moves the cursor, so every
 * unit lands on exactly one node.  Guest fuel flushes only move the cursor:
 * the guest nodes get that CPU from their region counters (scp_wasm_settle).
 *
 * Memory: the tree books memory as charged (gross).  The v28 refund of a
 * popped frame's linear memory lowers the Budget's net count, not the
 * tree's; so the invariant checked after every run is
 *   Σ self CPU == Budget CPU,   Σ self memory == Budget memory + refunded,
 * and the metadata reports the net memory, the refund and the peak.
 *
 * Further metrics, per node: ledger storage reads, writes, and bytes
 * loaded / stored (scp_host_storage_stats).  They appear in the profile
 * only when the run touched temporary or persistent storage.
 */
#include "soroban/core/scp_host.h"
#include "soroban/core/host_private.h"
#include "soroban/core/host_instance.h"
#include "soroban/run/scp_scenario.h"
#include "soroban/fns/sor_code.h"
#include "soroban/run/sor_auth.h"
#include "soroban/run/sor_ledger.h"
#include "soroban/sac/sac_label.h"
#include "soroban/run/sac_setup.h"
#include "soroban/core/scp_val.h"
#include "wasm/scp_wasm.h"
#include "symbols/scp_sym.h"
#include "profile/scp_prof.h"

#include <stdlib.h>
#include <string.h>
#include <openssl/sha.h>

/* the auth:emulate node's callee (no host function has it) */
#define SOR_AUTH_EMULATE 0xFFFFFFF0u
/* the auth:entries node's callee: Host::set_authorization_entries */
#define SOR_AUTH_ENTRIES 0xFFFFFFF1u

enum { METRIC_CPU, METRIC_MEM, METRIC_READS, METRIC_WRITES, METRIC_RBYTES, METRIC_WBYTES,
       NMETRICS };

#define MAX_DEPTH 128

/* One contract's code, loaded once. */
typedef struct sor_module {
  uint8_t id[32];
  uint8_t code_hash[32];
  scp_wasm_module *mod;
  int *import_fn;              /* host function id per import */
  scp_sym *sym;
  char *label;                 /* "contract:demo.wasm" */
} sor_module;

/* One running VM. */
typedef struct sor_frame {
  uint32_t module;
  scp_wasm_instance *inst;
  uint64_t fuel_flushed;       /* fuel already charged as WasmInsnExec */
  uint64_t linear_mem;         /* memory charged for its linear memory */
  uint32_t node, vm_node;
  bool instantiating;
} sor_frame;

typedef struct sor_vm {
  scp_budget budget;
  scp_host *host;
  scp_tree tree;
  sor_module *mods;
  size_t nmods, capmods;
  sor_frame frames[MAX_DEPTH];
  unsigned depth;
  uint32_t host_node;          /* the host-call node being dispatched */
  uint32_t native_saved;       /* host_node around a native (SAC) frame */
  uint64_t mark[NMETRICS];     /* attribution cursor */
  uint64_t refunded;
  uint64_t late_refund;        /* linear memory charged to the host-function frame */
  scp_error run_err;           /* innermost failure */
  const char *title;
  char frame_name[160];
  char sac_names[8][64];       /* contract:SAC(...) names, by SOR_CALLEE_SAC0 + k */
  unsigned nsac;
} sor_vm;

/* ---- attribution ----------------------------------------------------------- */

static void current(sor_vm *vm, uint64_t *now) {
  scp_storage_stats st;
  scp_host_storage_stats(vm->host, &st);
  now[METRIC_CPU] = vm->budget.cpu;
  now[METRIC_MEM] = vm->budget.mem + vm->refunded;
  now[METRIC_READS] = st.reads;
  now[METRIC_WRITES] = st.writes;
  now[METRIC_RBYTES] = st.bytes_read;
  now[METRIC_WBYTES] = st.bytes_written;
}

/* Book everything since the cursor to node; with delta, also return it. */
static void attribute(sor_vm *vm, uint32_t node, uint64_t *delta) {
  uint64_t now[NMETRICS];
  current(vm, now);
  for (unsigned m = 0; m < NMETRICS; m++) {
    uint64_t d = now[m] - vm->mark[m];
    if (delta) delta[m] = d;
    else scp_tree_add(&vm->tree, node, m, d);
    vm->mark[m] = now[m];
  }
}

/* Move the cursor past charges booked elsewhere (guest fuel). */
static void skip(sor_vm *vm) {
  current(vm, vm->mark);
}

static sor_frame *top(sor_vm *vm) { return vm->depth ? &vm->frames[vm->depth - 1] : NULL; }

/* Charge the fuel f consumed since its last flush as WasmInsnExec. */
static int flush_fuel(sor_vm *vm, sor_frame *f) {
  uint64_t consumed = scp_wasm_fuel_consumed(f->inst) - f->fuel_flushed;
  if (!consumed) return SCP_OK;
  f->fuel_flushed += consumed;
  int rc = scp_budget_charge(&vm->budget, SCP_COST_WasmInsnExec, consumed, -1);
  skip(vm);
  return rc;
}

static void refuel(sor_vm *vm, scp_wasm_instance *inst) {
  uint64_t per = vm->budget.model[SCP_COST_WasmInsnExec].cpu_const;
  scp_wasm_set_fuel(inst, scp_budget_cpu_remaining(&vm->budget) / (per ? per : 1));
}

static int on_host_call(void *ctx, scp_wasm_instance *inst, uint32_t import_index,
                        uint64_t *args, scp_error *err) {
  sor_vm *vm = ctx;
  sor_frame *f = top(vm);
  int fn = vm->mods[f->module].import_fn[import_index];
  int rc = flush_fuel(vm, f);
  if (rc) return scp_fail(err, rc, "budget exceeded flushing guest fuel");
  uint32_t node = scp_tree_enter(&vm->tree, scp_wasm_current_node(inst), scp_wasm_current_pc(inst),
                                 SCP_KIND_HOST, f->module, (uint32_t)fn);
  if (node == SCP_NODE_NONE) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  uint32_t saved = vm->host_node;
  vm->host_node = node;
  /* Vm::get_memory is the instance's `memory` export (vm.rs); without one
   * the host sees no memory at all (Error(WasmVm, MissingValue)). */
  scp_hostmem mem;
  mem.base = scp_wasm_memory(inst, &mem.len);
  uint8_t kind;
  uint32_t index;
  bool has_mem = scp_wasm_export_find(scp_wasm_instance_module(inst), "memory", 6, &kind,
                                      &index) && kind == SCP_EXT_MEMORY;
  uint64_t ret = SCP_VAL_VOID;
  rc = scp_host_dispatch(vm->host, (unsigned)fn, args, has_mem ? &mem : NULL, &ret, err);
  vm->host_node = saved;
  attribute(vm, node, NULL);
  if (rc) return rc;
  vm->run_err.msg[0] = 0;   /* a failure a try_call caught is no longer the story */
  args[0] = ret;
  refuel(vm, inst);
  return SCP_OK;
}

/* wasmi's ResourceLimiter::memory_growing: Soroban charges MemAlloc for the
 * growth (budget/wasmi_helper.rs) and books it to the growing VM's frame
 * for the refund at pop; at instantiation this is the initial memory
 * (vm:instantiate), later it books at the grow's pc. */
static int on_grow(void *ctx, scp_wasm_instance *inst, uint64_t cur, uint64_t desired) {
  sor_vm *vm = ctx;
  sor_frame *f = top(vm);
  uint64_t delta = desired - cur, mem0 = vm->budget.mem;
  int rc = scp_budget_charge(&vm->budget, SCP_COST_MemAlloc, 1, (int64_t)delta);
  if (rc == SCP_OK) f->linear_mem += vm->budget.mem - mem0;
  if (!f->instantiating) {
    uint64_t cost[SCP_MAX_METRICS] = {0};
    attribute(vm, 0, cost);
    if (!scp_tree_add_pc(&vm->tree, scp_wasm_current_node(inst), scp_wasm_current_pc(inst), cost))
      return SCP_ERR_NOMEM;
    if (rc == SCP_OK) refuel(vm, inst);
  }
  return rc;
}

/* Vec<T>::charge_bulk_init_cpy: MemCpy(24), MemAlloc(n size), MemCpy(n size). */
static int bulk_init(scp_budget *b, uint64_t n, uint64_t size) {
  int rc = scp_budget_charge(b, SCP_COST_MemCpy, 1, 24);
  if (!rc) rc = scp_budget_charge(b, SCP_COST_MemAlloc, 1, (int64_t)(n * size));
  if (!rc) rc = scp_budget_charge(b, SCP_COST_MemCpy, 1, (int64_t)(n * size));
  return rc;
}

/* Module cost inputs -> ParseWasm* (when parse) and InstantiateWasm*
 * charges (vm/parsed_module.rs: VersionedContractCodeCostInputs::
 * charge_for_parsing and charge_for_instantiation). */
int scp_soroban_vm_charges(scp_budget *b, const scp_wasm_module *mod, bool parse) {
  scp_wasm_cost_inputs ci;
  scp_wasm_cost_inputs_get(mod, &ci);
  const struct { scp_cost_type t; int64_t n; } list[] = {
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
  /* parsing, the linker's import-symbol set (make_wasmi_linker), then
   * instantiation and the import protocol check's symbol set */
  uint64_t nsym = scp_host_import_symbols(mod);
  int rc = SCP_OK;
  for (size_t i = parse ? 0 : 10; i < 10 && !rc; i++)
    rc = scp_budget_charge(b, list[i].t, 1, list[i].n);
  if (!rc && parse) rc = bulk_init(b, nsym, 40);
  for (size_t i = 10; i < SCP_ARRAY_LEN(list) && !rc; i++)
    rc = scp_budget_charge(b, list[i].t, 1, list[i].n);
  if (!rc) rc = bulk_init(b, nsym, 40);
  return rc;
}

/* ---- modules ----------------------------------------------------------------- */

static const char *basename_of(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* Resolve every import against the host's function table. */
static int link_imports(sor_module *m, const char *path, scp_error *err) {
  uint32_t n = scp_wasm_import_count(m->mod);
  m->import_fn = calloc(n + 1, sizeof *m->import_fn);
  if (!m->import_fn) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  for (uint32_t i = 0; i < n; i++) {
    const scp_wasm_import *im = scp_wasm_import_get(m->mod, i);
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
    scp_wasm_func_sig(m->mod, i, &ps, &np, &rs, &nr);
    bool ok = np == hf->argc && nr == 1 && rs[0] == SCP_WASM_I64;
    for (uint32_t k = 0; k < np; k++) ok = ok && ps[k] == SCP_WASM_I64;
    if (!ok)
      return scp_fail(err, SCP_ERR_INVALID, "%s: import %s.%s (%s) has the wrong signature: expected %u i64 params and an i64 result",
                      path, im->module, im->field, hf->name, hf->argc);
    m->import_fn[i] = fn;
  }
  return SCP_OK;
}

/* Load wasm as module index *out, labelled contract:<basename of path>;
 * errors name path. */
static int add_module(sor_vm *vm, const uint8_t id[32], const uint8_t *wasm, size_t len,
                      const char *path, uint32_t *out, scp_error *err) {
  const char *name = basename_of(path);
  if (!scp_grow(&vm->mods, &vm->capmods, vm->nmods + 1, sizeof *vm->mods))
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  sor_module *m = &vm->mods[vm->nmods];
  memset(m, 0, sizeof *m);
  memcpy(m->id, id, 32);
  SHA256(wasm, len, m->code_hash);
  int rc = scp_wasm_load(wasm, len, &m->mod, err);
  if (rc == SCP_OK && (rc = scp_sor_check_code(m->mod, err))) {
    scp_wasm_module_free(m->mod);
    m->mod = NULL;
  }
  if (rc) {
    scp_error_prefix(err, path);
    return rc;
  }
  vm->nmods++;
  if ((rc = link_imports(m, path, err))) return rc;
  scp_sym_open_wasm(wasm, len, NULL, &m->sym, NULL);   /* no symbols: fall back */
  scp_buf b = {0};
  scp_buf_printf(&b, "contract:%s", name);
  if (b.oom) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  m->label = b.data;
  *out = (uint32_t)(vm->nmods - 1);
  return SCP_OK;
}

static void free_modules(sor_vm *vm) {
  for (size_t i = 0; i < vm->nmods; i++) {
    scp_sym_destroy(vm->mods[i].sym);
    scp_wasm_module_free(vm->mods[i].mod);
    free(vm->mods[i].import_fn);
    free(vm->mods[i].label);
  }
  free(vm->mods);
}

/* ---- the invoker: one contract function in a VM of its own ------------------------ */

static int budget_or(int rc, scp_wasm_instance *inst) {
  if (rc != SCP_ERR_TRAP || !inst) return rc;
  scp_trap t = scp_wasm_last_trap(inst);
  if (t == SCP_TRAP_OUT_OF_FUEL) return SCP_ERR_BUDGET;
  if (t == SCP_TRAP_HOST) {
    int hs = scp_wasm_host_status(inst);
    if (hs == SCP_ERR_BUDGET || hs == SCP_ERR_NOMEM || hs == SCP_ERR_INTERNAL) return hs;
  }
  return rc;
}

/* A guest trap's message names the function by its source name (and its
 * file), not the engine's function index: "trap: unreachable in transfer
 * (examples/token.c)", and the contract when it is not the called one. */
static void name_trap(sor_vm *vm, uint32_t mi, const scp_wasm_instance *inst, scp_error *e) {
  scp_trap t = scp_wasm_last_trap(inst);
  if (t == SCP_TRAP_HOST || t == SCP_TRAP_OUT_OF_FUEL || mi >= vm->nmods) return;
  scp_frame_info fi;
  if (!vm->mods[mi].sym || scp_sym_function(vm->mods[mi].sym, scp_wasm_last_trap_func(inst), &fi) != SCP_OK ||
      !fi.name || !fi.name[0])
    return;
  const char *file = fi.decl_file ? fi.decl_file : fi.file;
  bool has_file = file && file[0];
  const char *label = mi && vm->mods[mi].label ? vm->mods[mi].label : "";
  if (!strncmp(label, "contract:", 9)) label += 9;
  scp_fail(e, SCP_ERR_TRAP, "trap: %s in %s%s%s%s%s%s", scp_trap_text(t), fi.name, has_file ? " (" : "",
           has_file ? file : "", has_file ? ")" : "", label[0] ? " of " : "", label);
}

static void note_err(sor_vm *vm, const scp_error *e) {
  if (!vm->run_err.msg[0] && e->msg[0]) vm->run_err = *e;
}

static int invoke(void *ctx, scp_host *h, const scp_invocation *inv, uint64_t *ret,
                  scp_error *err) {
  sor_vm *vm = ctx;
  const uint8_t *id = inv->id;
  const char *fn = inv->fn;
  const uint64_t *args = inv->args;
  uint32_t nargs = inv->nargs;
  bool constructor = inv->constructor;
  *ret = SCP_VAL_VOID;
  if (vm->depth >= MAX_DEPTH)
    return scp_fail(err, SCP_ERR_LIMIT, "contract call depth above %d", MAX_DEPTH);
  uint32_t mi = UINT32_MAX;
  for (size_t i = 0; i < vm->nmods && mi == UINT32_MAX; i++)
    if (!memcmp(vm->mods[i].id, id, 32)) mi = (uint32_t)i;
  int rc;
  if (mi == UINT32_MAX) {   /* a contract created during this run */
    uint8_t hash[32];
    SHA256(inv->wasm, inv->len, hash);
    const char *code = NULL;
    for (size_t i = 0; i < vm->nmods && !code; i++)
      if (!memcmp(vm->mods[i].code_hash, hash, 32)) code = vm->mods[i].label + strlen("contract:");
    char name[96];
    snprintf(name, sizeof name, "%s@%02x%02x%02x%02x", code ? code : "", id[0], id[1], id[2], id[3]);
    if ((rc = add_module(vm, id, inv->wasm, inv->len, name, &mi, err))) return rc;
  }
  /* the caller's part so far (the instance and code reads); a VM called
   * from a native frame with no VM below it (a custom account's
   * __check_auth from the asset contract called directly) nests under it */
  uint32_t node = 0;
  if (vm->depth || vm->host_node) {
    attribute(vm, vm->host_node, NULL);
    node = scp_tree_enter(&vm->tree, vm->host_node, 0, SCP_KIND_CONTRACT, mi, mi);
  } else {
    attribute(vm, 0, NULL);
  }
  uint32_t vm_node = node == SCP_NODE_NONE ? node : scp_tree_enter(&vm->tree, node, 0, SCP_KIND_VM, mi, 0);
  if (vm_node == SCP_NODE_NONE) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  sor_module *m = &vm->mods[mi];
  sor_frame *f = &vm->frames[vm->depth++];
  memset(f, 0, sizeof *f);
  f->module = mi;
  f->node = node;
  f->vm_node = vm_node;

  /* 4. the VM */
  scp_error e = {0};
  rc = scp_soroban_vm_charges(&vm->budget, m->mod, inv->parse);
  if (rc == SCP_OK) {
    scp_wasm_env env = {on_host_call, on_grow, vm, NULL};
    f->instantiating = true;
    rc = scp_wasm_instantiate(m->mod, &env, &f->inst, &e);
    f->instantiating = false;
  }
  attribute(vm, vm_node, NULL);
  if (inv->probe) {
    /* the VM was only made to read its protocol; it is dropped now, and
     * its linear memory goes back with the frame it was charged to */
    uint32_t proto = 0;
    const uint8_t *meta;
    size_t mlen;
    if (scp_wasm_custom_section(m->mod, "contractenvmetav0", &meta, &mlen) && mlen >= 8 &&
        !(meta[0] | meta[1] | meta[2] | meta[3]))
      proto = (uint32_t)meta[4] << 24 | (uint32_t)meta[5] << 16 | (uint32_t)meta[6] << 8 | meta[7];
    else
      proto = UINT32_MAX;   /* no interface version: taken as current */
    if (vm->depth >= 2) vm->frames[vm->depth - 2].linear_mem += f->linear_mem;
    else vm->late_refund += f->linear_mem;
    scp_wasm_instance_free(f->inst);
    vm->depth--;
    if (rc == SCP_OK) *ret = scp_val_u32(proto);
    else {
      rc = budget_or(rc, NULL);
      note_err(vm, &e);
      *err = e;
      err->code = rc;
    }
    return rc;
  }
  bool pushed = false;
  uint64_t *rel = NULL;
  uint32_t fidx = 0, nr = 0;
  /* 5. the frame and the invocation */
  if (rc == SCP_OK) rc = scp_host_charge_push_context(h, id);
  if (rc == SCP_OK) {
    rc = scp_host_push_contract_frame(h, id);
    pushed = rc == SCP_OK;
    if (pushed) scp_host_set_frame_fn(h, fn);
    if (pushed) rc = scp_host_set_frame_args(h, args, nargs);
  }
  if (rc == SCP_OK && !(rel = calloc(nargs + 1, sizeof *rel))) rc = SCP_ERR_NOMEM;
  if (rc == SCP_OK) rc = scp_budget_charge(&vm->budget, SCP_COST_MemCpy, 1, 24);
  if (rc == SCP_OK) rc = scp_budget_charge(&vm->budget, SCP_COST_MemAlloc, 1, (int64_t)(16 * nargs));
  if (rc == SCP_OK) rc = scp_budget_charge(&vm->budget, SCP_COST_MemCpy, 1, (int64_t)(16 * nargs));
  for (uint32_t i = 0; i < nargs && rc == SCP_OK; i++) rc = scp_host_to_relative(h, args[i], &rel[i]);
  if (rc == SCP_OK) rc = scp_budget_charge(&vm->budget, SCP_COST_InvokeVmFunction, 1, -1);
  /* metered_func_call: the name as a SymbolStr -- for a Symbol object the
   * host reads it with symbol_len (checked: 2 x VisitObject) and
   * symbol_copy_to_slice (VisitObject, MemCpy(len)) */
  uint64_t small;
  if (rc == SCP_OK && !scp_val_symbol_small((const uint8_t *)fn, strlen(fn), &small)) {
    for (int k = 0; k < 3 && rc == SCP_OK; k++) rc = scp_budget_charge(&vm->budget, SCP_COST_VisitObject, 1, -1);
    if (rc == SCP_OK) rc = scp_budget_charge(&vm->budget, SCP_COST_MemCpy, 1, (int64_t)strlen(fn));
  }
  bool run = rc == SCP_OK;
  if (run) {
    uint8_t kind;
    const uint8_t *ps, *rs;
    uint32_t np;
    if (!scp_wasm_export_find(m->mod, fn, strlen(fn), &kind, &fidx) || kind != SCP_EXT_FUNC) {
      run = false;
      if (!(constructor && !nargs)) {
        rc = SCP_ERR_NOTFOUND;
        scp_fail(&e, rc, "%s: no exported function '%s'", m->label, fn);
      }
    } else {
      scp_wasm_func_sig(m->mod, fidx, &ps, &np, &rs, &nr);
      if (np != nargs) {
        run = false;
        rc = SCP_ERR_ARG;
        scp_fail(&e, rc, "%s: function '%s' takes %u argument%s, %u given", m->label, fn, np,
                 np == 1 ? "" : "s", nargs);
      }
    }
  }
  attribute(vm, node, NULL);

  /* 6. run */
  if (run) {
    scp_wasm_attach(f->inst, &vm->tree, node, mi,
                    (unsigned)vm->budget.model[SCP_COST_WasmInsnExec].cpu_const);
    refuel(vm, f->inst);
    f->fuel_flushed = scp_wasm_fuel_consumed(f->inst);
    uint64_t r = 0;
    rc = scp_wasm_call(f->inst, fidx, rel, &r, &e);
    if (rc == SCP_ERR_TRAP) name_trap(vm, mi, f->inst, &e);
    int frc = flush_fuel(vm, f);
    if (!rc && frc) rc = frc;
    rc = budget_or(rc, f->inst);
    if (rc == SCP_OK && nr == 1) rc = scp_host_to_absolute(h, r, ret);
    if (scp_wasm_settle(f->inst) && rc == SCP_OK) rc = SCP_ERR_NOMEM;
  }
  /* 7. with_frame's end: a frame that succeeded writes its instance
   * storage back into the instance entry when it modified it (a failure
   * there fails the frame: the caller rolls back), then the pop: the
   * frame, then the VM's linear memory back to the budget */
  if (pushed && rc == SCP_OK) {
    rc = scp_inst_frame_end(h);
    if (rc == SCP_ERR_HOST) scp_fail(&e, rc, "%s", h->errmsg);
  }
  if (pushed) scp_host_pop_frame(h);
  if (f->linear_mem) {
    scp_budget_refund_mem(&vm->budget, f->linear_mem);
    vm->refunded += f->linear_mem;
  }
  attribute(vm, node, NULL);
  scp_wasm_instance_free(f->inst);
  free(rel);
  vm->depth--;
  if (rc == SCP_ERR_BUDGET && !e.msg[0])
    scp_fail(&e, rc, "Error(Budget, ExceededLimit): CPU %llu of %llu, memory %llu of %llu",
             (unsigned long long)vm->budget.cpu, (unsigned long long)vm->budget.cpu_limit,
             (unsigned long long)vm->budget.mem, (unsigned long long)vm->budget.mem_limit);
  if (rc) {
    /* a failing __check_auth is not the run's error: the host turns it
     * into the caller's Error(Auth, InvalidAction), message included */
    if (strcmp(fn, "__check_auth")) note_err(vm, &e);
    *err = e;
    err->code = rc;
  }
  return rc;
}

/* A native contract frame (the Stellar Asset Contract, sac_contract.c):
 * a contract:SAC node under the host call that runs it, booked on entry
 * (the caller's part so far to the host call) and on exit. */
#define SOR_CALLEE_SAC (UINT32_MAX - 1)
/* contract:SAC(<asset>) nodes: one callee per distinct asset (sac_label.c),
 * below SOR_AUTH_EMULATE; past 8 assets, or unreadable, plain contract:SAC */
#define SOR_CALLEE_SAC0 0xFFFFFFE0u

static uint32_t sac_callee(sor_vm *vm, const uint8_t id[32]) {
  char label[40], name[64];
  if (!scp_sac_label(vm->host, id, label, sizeof label)) return SOR_CALLEE_SAC;
  snprintf(name, sizeof name, "contract:SAC(%s)", label);
  for (unsigned k = 0; k < vm->nsac; k++)
    if (!strcmp(vm->sac_names[k], name)) return SOR_CALLEE_SAC0 + k;
  if (vm->nsac == 8) return SOR_CALLEE_SAC;
  memcpy(vm->sac_names[vm->nsac], name, sizeof name);
  return SOR_CALLEE_SAC0 + vm->nsac++;
}

static void on_native(void *ctx, const uint8_t id[32], bool enter) {
  sor_vm *vm = ctx;
  attribute(vm, vm->host_node, NULL);
  if (enter) {
    uint32_t node = scp_tree_enter(&vm->tree, vm->host_node, 0, SCP_KIND_CONTRACT, UINT32_MAX,
                                   sac_callee(vm, id));
    vm->native_saved = vm->host_node;
    if (node != SCP_NODE_NONE) vm->host_node = node;
  } else {
    vm->host_node = vm->native_saved;
  }
}

/* ---- naming for the profile ------------------------------------------------------ */

static int node_frame(void *ctx, const scp_tree_node *n, scp_frame_info *out) {
  sor_vm *vm = ctx;
  switch (n->kind) {
  case SCP_KIND_ROOT:
    out->name = vm->title;
    return SCP_OK;
  case SCP_KIND_VM:
    out->name = "vm:instantiate";
    return SCP_OK;
  case SCP_KIND_CONTRACT:
    out->name = n->callee < vm->nmods ? vm->mods[n->callee].label
                : n->callee == SOR_CALLEE_SAC ? "contract:SAC"
                : n->callee >= SOR_CALLEE_SAC0 && n->callee - SOR_CALLEE_SAC0 < vm->nsac
                    ? vm->sac_names[n->callee - SOR_CALLEE_SAC0]
                    : "contract:?";
    return SCP_OK;
  case SCP_KIND_HOST: {
    if (n->callee == SOR_AUTH_EMULATE) {
      out->name = "auth:emulate";
      return SCP_OK;
    }
    if (n->callee == SOR_AUTH_ENTRIES) {
      out->name = "auth:entries";
      return SCP_OK;
    }
    const scp_hostfn *hf = scp_hostfn_get(n->callee);
    snprintf(vm->frame_name, sizeof vm->frame_name, "host:%s", hf ? hf->name : "?");
    out->name = vm->frame_name;
    return SCP_OK;
  }
  case SCP_KIND_GUEST: {
    scp_sym *sym = n->module < vm->nmods ? vm->mods[n->module].sym : NULL;
    if (sym && scp_sym_function(sym, n->callee, out) == SCP_OK) return SCP_OK;
    snprintf(vm->frame_name, sizeof vm->frame_name, "func[%u]", n->callee);
    out->name = vm->frame_name;
    out->source = SCP_SRC_RAW;
    return SCP_OK;
  }
  default:
    out->name = scp_kind_name((scp_kind)n->kind);
    return SCP_OK;
  }
}

static size_t pc_chain(void *ctx, uint32_t module, uint64_t pc, const scp_frame_info **chain) {
  sor_vm *vm = ctx;
  scp_sym *sym = module < vm->nmods ? vm->mods[module].sym : NULL;
  return sym ? scp_sym_chain(sym, pc, chain) : 0;
}

/* ---- the whole invocation ------------------------------------------------------------- */

static int describe_args(sor_vm *vm, const scp_soroban_opts *o, const uint64_t *vals,
                         scp_buf *b) {
  for (size_t i = 0; i < o->nargs; i++) {
    if (i) scp_buf_puts(b, ", ");
    scp_host_val_format(vm->host, vals[i], b);
  }
  return b->oom ? SCP_ERR_NOMEM : SCP_OK;
}

void scp_sor_salt(size_t i, uint8_t salt[32]) {
  memset(salt, 0, 32);
  for (int k = 0; k < 8; k++) salt[31 - k] = (uint8_t)((uint64_t)i >> (8 * k));
}

static int add_meta_u64(scp_profile *p, const char *key, uint64_t v) {
  char num[32];
  snprintf(num, sizeof num, "%llu", (unsigned long long)v);
  return scp_prof_meta(p, key, num);
}

/* The contract's interface protocol (contractenvmetav0), UINT32_MAX when
 * it has none. */
static uint32_t module_protocol(const scp_wasm_module *mod) {
  const uint8_t *meta;
  size_t mlen;
  if (scp_wasm_custom_section(mod, "contractenvmetav0", &meta, &mlen) && mlen >= 8 &&
      !(meta[0] | meta[1] | meta[2] | meta[3]))
    return (uint32_t)meta[4] << 24 | (uint32_t)meta[5] << 16 | (uint32_t)meta[6] << 8 | meta[7];
  return UINT32_MAX;
}

/* check_contract_imports_match_host_protocol (vm/parsed_module.rs): every
 * imported host function must exist in both the contract's protocol and
 * the ledger's.  The reference finds out while instantiating, as
 * Error(WasmVm, InvalidAction); like an unknown import, it is refused here
 * before the run. */
static int check_import_protocols(const sor_module *m, uint32_t ledger, scp_error *err) {
  uint32_t cp = module_protocol(m->mod);
  if (cp == UINT32_MAX) cp = ledger;
  for (uint32_t i = 0, n = scp_wasm_import_count(m->mod); i < n; i++) {
    const scp_hostfn *hf = scp_hostfn_get((unsigned)m->import_fn[i]);
    const char *name = m->label + strlen("contract:");
    if (hf->min_proto && (cp < hf->min_proto || ledger < hf->min_proto))
      return scp_fail(err, SCP_ERR_INVALID,
                      "%s: calls host function %s, not yet supported by protocol %u (contract protocol %u, ledger %u)",
                      name, hf->name, cp < ledger ? cp : ledger, cp, ledger);
    if (hf->max_proto && (cp > hf->max_proto || ledger > hf->max_proto))
      return scp_fail(err, SCP_ERR_INVALID,
                      "%s: calls host function %s, no longer supported after protocol %u (contract protocol %u, ledger %u)",
                      name, hf->name, hf->max_proto, cp, ledger);
  }
  return SCP_OK;
}

void scp_sor_host_opts(const scp_soroban_opts *o, scp_host_opts *ho) {
  memset(ho, 0, sizeof *ho);
  ho->protocol = o->protocol;
  ho->ledger_sequence = o->ledger_sequence;
  ho->ledger_timestamp = o->ledger_timestamp;
  if (o->has_network_id) memcpy(ho->network_id, o->network_id, 32);
  ho->has_source_account = o->has_source_account;
  if (o->has_source_account) memcpy(ho->source_account, o->source_account, 32);
}

/* ---- set-up transactions (sor_ledger.c's deploys) ------------------------------------ */

int scp_sor_setup_run(const scp_sor_setup *s, scp_error *err) {
  sor_vm vm;
  memset(&vm, 0, sizeof vm);
  scp_budget_init(&vm.budget, s->cpu_limit, s->mem_limit);
  uint32_t mi;
  int rc = scp_tree_init(&vm.tree, NMETRICS);
  if (rc == SCP_OK) rc = scp_host_create(&vm.budget, s->ho, &vm.host);
  if (rc) {
    rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    goto done;
  }
  scp_host_set_invoker(vm.host, invoke, &vm);
  vm.host->native_hook = on_native;
  if ((rc = add_module(&vm, s->id, s->wasm, s->len, s->path, &mi, err))) goto done;
  rc = s->run(vm.host, &vm.run_err, s->ctx, err);
done:
  free_modules(&vm);
  scp_host_destroy(vm.host);
  scp_tree_free(&vm.tree);
  return rc;
}

/* The ledger's entries as the snapshot source (set up by the first run);
 * modules with the called one first. */
static int ledger_setup(sor_vm *vm, const scp_soroban_opts *o, uint8_t main_id[32], scp_error *err) {
  scp_ledger *l = o->ledger;
  int rc = SCP_OK;
  size_t nmain = o->ledger_main_asset ? l->nassets : l->nfiles;
  if (o->ledger_main >= nmain) return scp_fail(err, SCP_ERR_INTERNAL, "ledger: no contract %zu", o->ledger_main);
  if ((rc = scp_ledger_setup(l, o, err))) return rc;
  if (scp_sor_ledger_give(l, vm->host)) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  memcpy(main_id, o->ledger_main_asset ? l->asset_ids[o->ledger_main] : l->ids[o->ledger_main], 32);
  uint32_t mi;
  for (size_t k = 0; k <= l->nfiles && !rc; k++) {
    size_t i = k == 0 ? o->ledger_main : k - 1;
    if (k == 0 && o->ledger_main_asset) continue;
    if (k && i == o->ledger_main && !o->ledger_main_asset) continue;
    const char *cp = l->files[i].path ? l->files[i].path : "contract.wasm";
    rc = add_module(vm, l->ids[i], l->files[i].wasm, l->files[i].len, cp, &mi, err);
  }
  return rc;
}

/* One run: with plan, its entries are set (enforcing mode) before the
 * call; with collect, the recording run's trackers are turned into signed
 * entries after it (sor_auth.c). */
static int run_profile(const scp_soroban_opts *o, const scp_authplan *plan,
                       scp_authplan *collect, scp_profile **out, scp_error *err) {
  *out = NULL;
  const char *path = o->wasm_path ? o->wasm_path : "contract.wasm";
  sor_vm vm;
  memset(&vm, 0, sizeof vm);
  scp_budget_init(&vm.budget, o->cpu_limit, o->mem_limit);
  uint64_t *vals = NULL;
  scp_profile *p = NULL;
  scp_buf title = {0}, argtext = {0}, result = {0}, ids = {0};
  int rc, run_rc = SCP_OK;
  scp_error run_err = {0};
  static const uint8_t zero[32];
  uint8_t id[32], salt[32];

  if ((rc = scp_tree_init(&vm.tree, NMETRICS))) { rc = scp_fail(err, rc, "out of memory"); goto done; }
  if (o->protocol && (o->protocol < SCP_SOR_MIN_PROTOCOL || o->protocol > SCP_SOR_MAX_PROTOCOL)) {
    rc = scp_fail(err, SCP_ERR_ARG, "protocol %u: this host runs protocols %d to %d", o->protocol,
                  SCP_SOR_MIN_PROTOCOL, SCP_SOR_MAX_PROTOCOL);
    goto done;
  }
  scp_host_opts ho;
  scp_sor_host_opts(o, &ho);
  if ((rc = scp_host_create(&vm.budget, &ho, &vm.host))) { rc = scp_fail(err, rc, "out of memory"); goto done; }
  scp_host_set_invoker(vm.host, invoke, &vm);
  vm.host->native_hook = on_native;

  /* 0. the contracts, in the ledger before the call */
  uint32_t mi;
  uint8_t main_id[32];
  if (o->ledger) {
    if ((rc = ledger_setup(&vm, o, main_id, err))) goto done;
    goto deployed;
  }
  scp_sor_salt(0, salt);
  if ((rc = scp_host_deploy(vm.host, o->wasm, o->wasm_len, zero, salt, id))) { rc = scp_fail(err, rc, "out of memory"); goto done; }
  if ((rc = add_module(&vm, id, o->wasm, o->wasm_len, path, &mi, err))) goto done;
  memcpy(main_id, id, 32);
  for (size_t i = 0; i < o->ncontracts; i++) {
    const scp_contract_file *c = &o->contracts[i];
    const char *cp = c->path ? c->path : "callee.wasm";
    scp_sor_salt(i + 1, salt);
    if ((rc = scp_host_deploy(vm.host, c->wasm, c->len, zero, salt, id))) { rc = scp_fail(err, rc, "out of memory"); goto done; }
    if ((rc = add_module(&vm, id, c->wasm, c->len, cp, &mi, err))) goto done;
  }
deployed:
  /* the --asset contracts, created as setup */
  for (size_t i = 0; i < o->nassets; i++)
    if ((rc = scp_sac_setup_text(vm.host, o->assets[i], id, err))) goto done;
  /* the reference's module parse refuses a contract newer than the ledger
   * (check_contract_interface_version); refused here rather than run */
  for (size_t i = 0; i < vm.nmods && o->protocol; i++) {
    uint32_t cp = module_protocol(vm.mods[i].mod);
    if (cp != UINT32_MAX && cp > o->protocol) {
      rc = scp_fail(err, SCP_ERR_UNSUPPORTED, "%s: built for protocol %u, newer than the ledger's protocol %u",
                    vm.mods[i].label + strlen("contract:"), cp, o->protocol);
      goto done;
    }
  }
  for (size_t i = 0; i < vm.nmods; i++)
    if ((rc = check_import_protocols(&vm.mods[i], o->protocol ? o->protocol : SCP_SOR_MAX_PROTOCOL, err))) goto done;
  /* an asset contract called directly (a scenario's asset) has no Wasm to
   * check: the native contract checks its own arguments */
  bool sac_main = o->ledger && o->ledger_main_asset;
  const scp_wasm_module *mainmod = sac_main ? NULL : vm.mods[0].mod;
  uint8_t kind;
  uint32_t fidx;
  if (!o->function || (!sac_main && (!scp_wasm_export_find(mainmod, o->function, strlen(o->function), &kind, &fidx) ||
      kind != SCP_EXT_FUNC))) {
    rc = scp_fail(err, SCP_ERR_NOTFOUND, "%s: no exported function '%s'", path, o->function ? o->function : "");
    goto done;
  }
  const uint8_t *ps = NULL, *rs;
  uint32_t np = (uint32_t)o->nargs, nr = 1;
  if (!sac_main) scp_wasm_func_sig(mainmod, fidx, &ps, &np, &rs, &nr);
  if (np != o->nargs) {
    rc = scp_fail(err, SCP_ERR_ARG, "%s: function '%s' takes %u argument%s, %zu given", path, o->function,
                  np, np == 1 ? "" : "s", o->nargs);
    goto done;
  }
  for (uint32_t i = 0; ps && i < np; i++)
    if (ps[i] != SCP_WASM_I64) {
      rc = scp_fail(err, SCP_ERR_INVALID, "%s: function '%s' parameter %u is not an i64 Val", path, o->function, i);
      goto done;
    }
  scp_buf_printf(&title, sac_main ? "contract:SAC(%s)" : "contract:%s", basename_of(path));
  if (title.oom) { rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory"); goto done; }
  vm.title = title.data;

  /* 0b. enforcing mode: the signing accounts' entries (set-up), then
   * Host::set_authorization_entries, charged in its own frame */
  if (plan) {
    if ((rc = scp_authplan_seed_accounts(vm.host, plan, err))) goto done;
    attribute(&vm, 0, NULL);
    scp_error ae = {0};
    run_rc = scp_authplan_apply(vm.host, plan, &ae);
    uint64_t d[NMETRICS];
    attribute(&vm, 0, d);
    uint32_t en = scp_tree_enter(&vm.tree, 0, 0, SCP_KIND_HOST, 0, SOR_AUTH_ENTRIES);
    if (en == SCP_NODE_NONE) { rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory"); goto done; }
    for (unsigned m = 0; m < NMETRICS; m++) scp_tree_add(&vm.tree, en, m, d[m]);
    if (run_rc != SCP_OK && run_rc != SCP_ERR_HOST && run_rc != SCP_ERR_BUDGET) {
      rc = run_rc;
      *err = ae;
      goto done;
    }
    if (run_rc) run_err = ae;
  }
  /* 1. the base PRNG seed; 2. the HostFunction frame and the arguments */
  vals = calloc(o->nargs + 1, sizeof *vals);
  if (!vals) { rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory"); goto done; }
  uint64_t result_val = SCP_VAL_VOID;
  /* a scenario's simulation (the recording run of an enforcing call)
   * seeds with its ordinal from 1, so its nonces are fresh ones, not the
   * ones earlier signed calls consumed or recording mode's (seed 0) */
  uint8_t seed[32] = { 0 };
  if (collect && o->ledger) {
    uint32_t k = ++o->ledger->simulations;
    for (int b = 0; b < 4; b++) seed[28 + b] = (uint8_t)(k >> (24 - 8 * b));
  }
  if (run_rc == SCP_OK) run_rc = scp_host_set_base_prng_seed(vm.host, seed);
  bool hf_frame = false;
  if (run_rc == SCP_OK) run_rc = scp_host_charge_push_context(vm.host, NULL);
  if (run_rc == SCP_OK) {
    run_rc = scp_host_push_frame(vm.host);
    hf_frame = run_rc == SCP_OK;
  }
  uint64_t fn_sym;
  if (run_rc == SCP_OK) run_rc = scp_host_symbol_val(vm.host, o->function, &fn_sym);
  if (run_rc == SCP_OK) run_rc = scp_host_args_to_vals(vm.host, o->args, o->nargs, vals, &run_err);
  if (run_rc == SCP_ERR_ARG) { rc = run_rc; *err = run_err; goto done; }
  if (run_rc == SCP_OK) describe_args(&vm, o, vals, &argtext);
  attribute(&vm, 0, NULL);

  /* 3-7. the call */
  if (run_rc == SCP_OK) {
    scp_error e = {0};
    run_rc = scp_host_invoke_contract(vm.host, main_id, o->function, vals, (uint32_t)o->nargs,
                                      &result_val, &e);
    if (run_rc) {
      run_err = vm.run_err.msg[0] ? vm.run_err : e;
      run_err.code = run_rc;
    } else if (nr == 1) {
      scp_host_val_format(vm.host, result_val, &result);
    }
  }
  if (hf_frame) {
    /* popping the last frame runs recording mode's emulated
     * authentication (host_auth_emul.c): its own frame under the root */
    attribute(&vm, 0, NULL);
    scp_host_pop_frame(vm.host);
    uint64_t d[NMETRICS];
    attribute(&vm, 0, d);
    bool any = false;
    for (unsigned m = 0; m < NMETRICS; m++) any |= d[m] != 0;
    if (any) {
      uint32_t en = scp_tree_enter(&vm.tree, 0, 0, SCP_KIND_HOST, 0, SOR_AUTH_EMULATE);
      if (en == SCP_NODE_NONE) { rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory"); goto done; }
      for (unsigned m = 0; m < NMETRICS; m++) scp_tree_add(&vm.tree, en, m, d[m]);
    }
    scp_error ee = { 0 };
    int erc = scp_host_take_auth_emulation_rc(vm.host, &ee);
    if (erc != SCP_OK && run_rc == SCP_OK) {
      run_rc = erc;
      run_err = ee;
    }
  }
  if (collect) {
    /* the recording run behind an enforcing profile: its trees, signed */
    if (run_rc) {
      rc = run_rc;
      *err = run_err;
      scp_error_prefix(err, "the recording run (for the authorization entries)");
      goto done;
    }
    if ((rc = scp_authplan_collect(vm.host, o, collect, err))) goto done;
  }
  if (vm.late_refund) {
    scp_budget_refund_mem(&vm.budget, vm.late_refund);
    vm.refunded += vm.late_refund;
  }
  attribute(&vm, 0, NULL);
  /* a simulation leaves the ledger as it was */
  if (o->ledger && !collect &&
      (rc = scp_sor_ledger_save(o->ledger, vm.host, run_rc == SCP_OK, plan != NULL))) {
    rc = scp_fail(err, rc, "out of memory");
    goto done;
  }
  if (run_rc == SCP_ERR_BUDGET && !strstr(run_err.msg, "ExceededLimit"))
    scp_fail(&run_err, SCP_ERR_BUDGET, "Error(Budget, ExceededLimit): CPU %llu of %llu, memory %llu of %llu",
             (unsigned long long)vm.budget.cpu, (unsigned long long)vm.budget.cpu_limit,
             (unsigned long long)vm.budget.mem, (unsigned long long)vm.budget.mem_limit);
  if (run_rc && !run_err.msg[0])
    scp_fail(&run_err, run_rc, "invoking '%s' failed: %s", o->function, scp_strerror(run_rc));
  if (run_rc == SCP_ERR_MALFORMED || run_rc == SCP_ERR_INVALID || run_rc == SCP_ERR_UNSUPPORTED ||
      run_rc == SCP_ERR_NOMEM || run_rc == SCP_ERR_INTERNAL) {
    rc = run_rc;
    *err = run_err;
    if (!strstr(err->msg, path)) scp_error_prefix(err, path);
    goto done;
  }

  /* the invariant: every unit the Budget charged sits on exactly one node */
  uint64_t tree_cpu = scp_tree_total(&vm.tree, METRIC_CPU), tree_mem = scp_tree_total(&vm.tree, METRIC_MEM);
  if (tree_cpu != vm.budget.cpu || tree_mem != vm.budget.mem + vm.refunded) {
    rc = scp_fail(err, SCP_ERR_INTERNAL,
                  "%s: internal error: profile sums (CPU %llu, memory %llu) differ from the Budget (CPU %llu, memory %llu + %llu refunded)",
                  path, (unsigned long long)tree_cpu, (unsigned long long)tree_mem,
                  (unsigned long long)vm.budget.cpu, (unsigned long long)vm.budget.mem,
                  (unsigned long long)vm.refunded);
    goto done;
  }

  scp_storage_stats st;
  scp_host_storage_stats(vm.host, &st);
  bool storage = st.reads || st.writes;
  scp_metric metrics[NMETRICS] = {
    {"CPU", "instructions", vm.budget.cpu_limit},
    {"Memory", "bytes", vm.budget.mem_limit},
    {"Reads", "entries", 0},
    {"Writes", "entries", 0},
    {"Loaded bytes", "bytes", 0},
    {"Stored bytes", "bytes", 0},
  };
  if (!storage) vm.tree.nmetrics = 2;   /* the storage metrics are all zero */
  scp_resolver res = {&vm, node_frame, pc_chain};
  if ((rc = scp_prof_build(&vm.tree, metrics, &res, &p, err))) goto done;
  p->status = run_rc;
  /* "demo.wasm run(u32:200)": the flamegraph heading, diff's column names */
  scp_buf heading = {0};
  scp_buf_printf(&heading, sac_main ? "SAC(%s) %s(%s)" : "%s %s(%s)", basename_of(path), o->function,
                 argtext.data ? argtext.data : "");
  uint32_t title_id = heading.oom ? UINT32_MAX : scp_strtab_intern(&p->strs, heading.data);
  scp_buf_free(&heading);
  if (title_id == UINT32_MAX) { rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory"); goto done; }
  p->title = title_id;
  int mrc = scp_prof_meta(p, "contract", path);
  if (!mrc) mrc = scp_prof_meta(p, "function", o->function);
  if (!mrc) mrc = scp_prof_meta(p, "arguments", argtext.data ? argtext.data : "");
  if (!mrc && run_rc == SCP_OK) mrc = scp_prof_meta(p, "result", result.data ? result.data : "void");
  if (!mrc && run_rc) mrc = scp_prof_meta(p, "status", run_err.msg);
  if (!mrc) mrc = add_meta_u64(p, "memory peak", vm.budget.mem_peak);
  if (!mrc && vm.refunded) mrc = add_meta_u64(p, "memory net", vm.budget.mem);
  if (!mrc && vm.refunded) mrc = add_meta_u64(p, "memory refunded", vm.refunded);
  if (!mrc) mrc = add_meta_u64(p, "events", scp_host_event_count(vm.host));
  if (!mrc && (o->ncontracts || vm.nmods > 1 || o->ledger)) {
    for (size_t i = 0; i < vm.nmods && !mrc; i++) {
      char sk[57], key[48];
      scp_host_contract_strkey(vm.mods[i].id, sk);
      snprintf(key, sizeof key, "contract id %zu", i);
      scp_buf_free(&ids);
      scp_buf_printf(&ids, "%s = %s", vm.mods[i].label + strlen("contract:"), sk);
      mrc = ids.oom ? SCP_ERR_NOMEM : scp_prof_meta(p, key, ids.data);
    }
  }
  for (size_t i = 0; o->ledger && i < o->ledger->nassets && !mrc; i++) {
    char sk[57], key[48];
    scp_host_contract_strkey(o->ledger->asset_ids[i], sk);
    snprintf(key, sizeof key, "asset contract %zu", i);
    scp_buf_free(&ids);
    scp_buf_printf(&ids, "SAC(%s) = %s", o->ledger->assets[i], sk);
    mrc = ids.oom ? SCP_ERR_NOMEM : scp_prof_meta(p, key, ids.data);
  }
  for (size_t i = 0; i < o->nassets && !mrc; i++) {
    scp_sac_asset asset;
    const char *why;
    char sk[57], key[48];
    if (scp_sac_asset_parse(o->assets[i], &asset, &why)) continue;
    scp_sac_contract_id(vm.host->opts.network_id, &asset, id);
    scp_host_contract_strkey(id, sk);
    snprintf(key, sizeof key, "asset contract %zu", i);
    scp_buf_free(&ids);
    scp_buf_printf(&ids, "SAC(%s) = %s", o->assets[i], sk);
    mrc = ids.oom ? SCP_ERR_NOMEM : scp_prof_meta(p, key, ids.data);
  }
  if (!mrc && storage) {
    scp_buf_free(&ids);
    scp_buf_printf(&ids, "%llu reads (%llu bytes), %llu writes (%llu bytes)",
                   (unsigned long long)st.reads, (unsigned long long)st.bytes_read,
                   (unsigned long long)st.writes, (unsigned long long)st.bytes_written);
    mrc = ids.oom ? SCP_ERR_NOMEM : scp_prof_meta(p, "storage", ids.data);
  }
  for (size_t i = 0; !mrc && i < scp_host_auth_count(vm.host); i++) {
    char key[32];
    snprintf(key, sizeof key, "auth %zu", i + 1);
    scp_buf_free(&ids);
    scp_host_auth_format(vm.host, i, &ids);
    mrc = ids.oom ? SCP_ERR_NOMEM : scp_prof_meta(p, key, ids.data);
  }
  if (!mrc && !sac_main && vm.mods[0].sym && scp_sym_warning(vm.mods[0].sym)[0])
    mrc = scp_prof_meta(p, "debug info", scp_sym_warning(vm.mods[0].sym));
  if (!mrc && run_rc) {
    uint32_t sid = scp_strtab_intern(&p->strs, run_err.msg);
    if (sid == UINT32_MAX) mrc = SCP_ERR_NOMEM;
    else p->status_msg = sid;
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
    if (!strstr(err->msg, path)) scp_error_prefix(err, path);
  }
done:
  scp_profile_destroy(p);
  free(vals);
  scp_buf_free(&title);
  scp_buf_free(&argtext);
  scp_buf_free(&result);
  scp_buf_free(&ids);
  free_modules(&vm);
  scp_host_destroy(vm.host);
  scp_tree_free(&vm.tree);
  return rc;
}

int scp_soroban_profile(const scp_soroban_opts *o, scp_profile **out, scp_error *err) {
  if (!o->auth_enforce) return run_profile(o, NULL, NULL, out, err);
  *out = NULL;
  /* simulation first (recording mode, unprofiled), then the signed call */
  scp_soroban_opts rec = *o;
  rec.auth_enforce = false;
  scp_authplan plan = {0};
  scp_profile *p = NULL;
  int rc = run_profile(&rec, NULL, &plan, &p, err);
  scp_profile_destroy(p);
  if (rc == SCP_OK) rc = run_profile(o, &plan, NULL, out, err);
  scp_authplan_free(&plan);
  return rc;
}
