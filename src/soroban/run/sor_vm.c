/*
 * sor_vm.c — the VM glue: run one contract function the way the Soroban
 * host does a `call` of it (a VM per contract frame, nested for
 * cross-contract calls), booking every Budget charge to a node through the
 * run core (src/run/scp_run.h).  The whole profiled run around it --
 * ledger set-up, the HostFunction frame, the profile -- is sor_run.c.
 *
 * One contract frame (rs-soroban-env v28 host/frame.rs call_n_internal,
 * call_contract_fn, instantiate_vm, vm.rs):
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
 * (Steps 0-3 are the run's: sor_run.c, host_contract.c.)
 *
 * Attribution is the run core's cursor: each boundary books "now - cursor"
 * to the node on top of its stack.  Guest fuel flushes only move the cursor
 * (scp_run_skip): the guest nodes get that CPU from their region counters
 * (scp_wasm_settle).
 *
 * The meter: the tree books memory as charged (gross).  The v28 refund of a
 * popped frame's linear memory lowers the Budget's net count, not the
 * tree's; so the meter's memory is the Budget's plus what was refunded, and
 * the run's metadata reports the net memory, the refund and the peak.
 * Further metrics, per node: ledger storage reads, writes, and bytes
 * loaded / stored (scp_host_storage_stats).
 */
#include "soroban/run/sor_vm.h"
#include "soroban/core/host_instance.h"
#include "soroban/sac/sac_label.h"
#include "soroban/core/scp_val.h"

#include <stdlib.h>
#include <string.h>
#include <openssl/sha.h>
#include <sodium.h>

/* ---- the meter ------------------------------------------------------------------ */

/* Read at every boundary: the host's counters directly, no copies. */
static void read_meter(void *ctx, uint64_t *now) {
  const sor_vm *vm = ctx;
  const scp_storage_stats *st = &vm->host->stats;
  now[SOR_METRIC_CPU] = vm->budget.cpu;
  now[SOR_METRIC_MEM] = vm->budget.mem + vm->refunded;
  unsigned s = vm->fee.on;   /* the storage metrics move one up after Fee */
  if (vm->fee.on) now[SOR_METRIC_FEE] = vm->fee_total;
  now[SOR_METRIC_READS + s] = st->reads;
  now[SOR_METRIC_WRITES + s] = st->writes;
  now[SOR_METRIC_RBYTES + s] = st->bytes_read;
  now[SOR_METRIC_WBYTES + s] = st->bytes_written;
}

static sor_frame *top(sor_vm *vm) { return vm->depth ? &vm->frames[vm->depth - 1] : NULL; }

/* Charge the fuel f consumed since its last flush as WasmInsnExec; *any
 * says whether there was some. */
static int charge_fuel(sor_vm *vm, sor_frame *f, bool *any) {
  uint64_t consumed = scp_wasm_fuel_consumed(f->inst) - f->fuel_flushed;
  *any = consumed != 0;
  if (!consumed) return SCP_OK;
  f->fuel_flushed += consumed;
  return scp_budget_charge(&vm->budget, SCP_COST_WasmInsnExec, consumed, -1);
}

/* The same, the cursor moved past it: guest work, booked by the engine. */
static int flush_fuel(sor_vm *vm, sor_frame *f) {
  bool any;
  int rc = charge_fuel(vm, f, &any);
  if (any) scp_run_skip(vm->run);
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
  bool any;
  int rc = charge_fuel(vm, f, &any);
  if (rc) {
    scp_run_skip(vm->run);
    return scp_fail(err, rc, "budget exceeded flushing guest fuel");
  }
  /* the flush just charged is guest work: the host node starts after it */
  uint32_t node = scp_run_enter_from_guest(vm->run, scp_wasm_current_node(inst), scp_wasm_current_pc(inst),
                                           SCP_KIND_HOST, f->module, (uint32_t)fn);
  if (node == SCP_NODE_NONE) {
    scp_run_leave(vm->run);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
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
  scp_run_leave(vm->run);
  if (rc) return rc;
  vm->run_err.msg[0] = 0;   /* a failure a try_call caught is no longer the story */
  vm->trap_trace[0] = 0;
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
    if (!scp_run_book_pc(vm->run, scp_wasm_current_node(inst), scp_wasm_current_pc(inst)))
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
  scp_cost_input parsing[SCP_PARSE_WASM_NCOSTS];
  scp_budget_parse_wasm_costs(&ci, parsing);
  const scp_cost_input list[] = {
    {.t = SCP_COST_InstantiateWasmInstructions, .n = -1},
    {.t = SCP_COST_InstantiateWasmFunctions, .n = ci.n_functions},
    {.t = SCP_COST_InstantiateWasmGlobals, .n = ci.n_globals},
    {.t = SCP_COST_InstantiateWasmTableEntries, .n = ci.n_table_entries},
    {.t = SCP_COST_InstantiateWasmTypes, .n = -1},
    {.t = SCP_COST_InstantiateWasmDataSegments, .n = ci.n_data_segments},
    {.t = SCP_COST_InstantiateWasmElemSegments, .n = ci.n_elem_segments},
    {.t = SCP_COST_InstantiateWasmImports, .n = ci.n_imports},
    {.t = SCP_COST_InstantiateWasmExports, .n = ci.n_exports},
    {.t = SCP_COST_InstantiateWasmDataSegmentBytes, .n = ci.n_data_segment_bytes},
  };
  /* parsing, the linker's import-symbol set (make_wasmi_linker), then
   * instantiation and the import protocol check's symbol set */
  uint64_t nsym = scp_host_import_symbols(mod);
  int rc = SCP_OK;
  for (size_t i = 0; parse && i < SCP_PARSE_WASM_NCOSTS && !rc; i++)
    rc = scp_budget_charge(b, parsing[i].t, 1, parsing[i].n);
  if (!rc && parse) rc = bulk_init(b, nsym, 40);
  for (size_t i = 0; i < SCP_ARRAY_LEN(list) && !rc; i++)
    rc = scp_budget_charge(b, list[i].t, 1, list[i].n);
  if (!rc) rc = bulk_init(b, nsym, 40);
  return rc;
}

/* Code stored without cost inputs (VersionedContractCodeCostInputs::V0):
 * VmInstantiation(len) at parse, the linker's symbol set, then
 * VmCachedInstantiation(len) at instantiation and the symbol set again. */
static int vm_charges_v0(scp_budget *b, const scp_wasm_module *mod, size_t len, bool parse) {
  uint64_t nsym = scp_host_import_symbols(mod);
  int rc = parse ? scp_budget_charge(b, SCP_COST_VmInstantiation, 1, (int64_t)len) : SCP_OK;
  if (!rc && parse) rc = bulk_init(b, nsym, 40);
  if (!rc) rc = scp_budget_charge(b, SCP_COST_VmCachedInstantiation, 1, (int64_t)len);
  if (!rc) rc = bulk_init(b, nsym, 40);
  return rc;
}

/* ---- modules ----------------------------------------------------------------- */

const char *scp_sor_basename(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* The symbol file of vm's whose code is wasm's; NULL: none. */
static const scp_sym_file *symbols_for(const sor_vm *vm, const uint8_t *wasm, size_t len) {
  for (size_t i = 0; i < vm->nsymbols; i++)
    if (!scp_sym_wasm_matches(wasm, len, vm->symbols[i].bytes, vm->symbols[i].len, NULL))
      return &vm->symbols[i];
  return NULL;
}

/* The module entry: code borrowed from the cache (by ledger file index
 * when slot != SIZE_MAX, else by hash), or loaded for this VM alone. */
static int add_module(sor_vm *vm, size_t slot, const uint8_t id[32], const uint8_t *wasm, size_t len,
                      const char *path, uint32_t *out, scp_error *err) {
  if (!scp_grow(&vm->mods, &vm->capmods, vm->nmods + 1, sizeof *vm->mods))
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  const sor_code *code = NULL;
  sor_code *owned = NULL;
  const scp_sym_file *sf = symbols_for(vm, wasm, len);
  int rc;
  if (vm->cache && !sf) {
    rc = scp_sor_modcache_get(vm->cache, slot, wasm, len, NULL, path, &code, err);
  } else if (!(owned = malloc(sizeof *owned))) {
    rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  } else {
    uint8_t hash[32];
    SHA256(wasm, len, hash);
    rc = scp_sor_code_load(wasm, len, hash, path, owned, err);
    if (rc == SCP_OK && sf) {
      scp_sym_destroy(owned->sym);
      owned->sym = NULL;
      scp_sym_open_wasm(sf->bytes, sf->len, NULL, &owned->sym, NULL);   /* no symbols: fall back */
    }
    code = owned;
  }
  scp_buf b = {0};
  if (rc == SCP_OK) {
    scp_buf_printf(&b, "contract:%s", scp_sor_basename(path));
    if (b.oom) rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  if (rc) {
    if (owned && owned->mod) scp_sor_code_clear(owned);
    free(owned);
    scp_buf_free(&b);
    return rc;
  }
  sor_module *m = &vm->mods[vm->nmods++];
  *m = (sor_module){.mod = code->mod, .import_fn = code->import_fn, .sym = code->sym, .label = b.data,
                    .owned = owned};
  memcpy(m->id, id, 32);
  memcpy(m->code_hash, code->hash, 32);
  m->len = len;
  *out = (uint32_t)(vm->nmods - 1);
  return SCP_OK;
}

int scp_sor_add_module(sor_vm *vm, const uint8_t id[32], const uint8_t *wasm, size_t len,
                       const char *path, uint32_t *out, scp_error *err) {
  return add_module(vm, SIZE_MAX, id, wasm, len, path, out, err);
}

int scp_sor_add_file_module(sor_vm *vm, size_t file, const uint8_t id[32], const uint8_t *wasm,
                            size_t len, const char *path, uint32_t *out, scp_error *err) {
  return add_module(vm, file, id, wasm, len, path, out, err);
}

uint32_t scp_sor_module_protocol(const scp_wasm_module *mod) {
  const uint8_t *meta;
  size_t mlen;
  if (scp_wasm_custom_section(mod, "contractenvmetav0", &meta, &mlen) && mlen >= 8 &&
      !(meta[0] | meta[1] | meta[2] | meta[3]))
    return scp_be32(meta + 4);
  return UINT32_MAX;
}

/* check_contract_imports_match_host_protocol (vm/parsed_module.rs): every
 * imported host function must exist in both the contract's protocol and
 * the ledger's.  The reference finds out while instantiating, as
 * Error(WasmVm, InvalidAction); like an unknown import, it is refused
 * before the run. */
int scp_sor_check_import_protocols(const sor_module *m, uint32_t ledger, scp_error *err) {
  uint32_t cp = scp_sor_module_protocol(m->mod);
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

/* Rust's panic machinery: core/std/alloc code and the panic handler
 * (rust_begin_unwind, or whatever the crate named its #[panic_handler]). */
static bool panic_frame(const scp_frame_info *f) {
  const char *n = f->name ? f->name : "", *file = f->file ? f->file : "";
  static const char *const lib[] = {"core::", "<core::", "std::", "<std::", "alloc::", "<alloc::"};
  for (size_t i = 0; i < SCP_ARRAY_LEN(lib); i++)
    if (!strncmp(n, lib[i], strlen(lib[i]))) return true;
  if (strstr(file, "/library/core/") || strstr(file, "/library/std/") ||
      strstr(file, "/library/alloc/"))
    return true;
  const char *last = strrchr(n, ':');
  last = last ? last + 1 : n;
  return !strcmp(n, "rust_begin_unwind") || !strcmp(last, "panic") || !strncmp(last, "panic_", 6) ||
         strstr(n, "panicking") != NULL;
}

/* The guest stack at the trap, inlined frames included, innermost first,
 * into vm->trap_trace ("#0 name (file:line)" lines, kept for the report);
 * when the trap is in the panic machinery, *user becomes ", panicked in"
 * and the first frame outside it. */
static void trap_backtrace(sor_vm *vm, uint32_t mi, const scp_wasm_instance *inst, char *user,
                           size_t ulen) {
  if (vm->trap_trace[0]) return;   /* the innermost trap tells the story */
  scp_buf b = {0};
  scp_sym *sym = vm->mods[mi].sym;
  uint32_t func;
  uint64_t pc;
  size_t n = scp_wasm_trap_trace(inst, 0, &func, &pc), k = 0;
  bool in_panic = true;
  for (size_t i = 0; i < n && k < 32; i++) {
    scp_wasm_trap_trace(inst, i, &func, &pc);
    const scp_frame_info *chain = NULL;
    scp_frame_info one;
    size_t cn = scp_sym_chain(sym, pc, &chain);
    if (!cn && scp_sym_function(sym, func, &one) == SCP_OK) {
      chain = &one;
      cn = 1;
    }
    for (size_t j = 0; j < cn && k < 32; j++, k++) {
      const scp_frame_info *f = &chain[j];
      bool lined = f->file && f->file[0] && f->line;
      scp_buf_printf(&b, "%s#%zu %s", k ? "\n" : "", k, f->name ? f->name : "?");
      if (lined) scp_buf_printf(&b, " (%s:%u)", f->file, f->line);
      if (f->inlined) scp_buf_puts(&b, " [inlined]");
      if (in_panic && k > 0 && !panic_frame(f)) {
        snprintf(user, ulen, ", panicked in %s%s%s:%u%s", f->name ? f->name : "?",
                 lined ? " (" : "", lined ? f->file : "", lined ? f->line : 0, lined ? ")" : "");
        if (!lined) snprintf(user, ulen, ", panicked in %s", f->name ? f->name : "?");
      }
      if (!panic_frame(f)) in_panic = false;
    }
  }
  if (!b.oom && b.len) snprintf(vm->trap_trace, sizeof vm->trap_trace, "%s", b.data);
  scp_buf_free(&b);
}

/* A guest trap's message names the function by its source name (and its
 * file), not the engine's function index: "trap: unreachable in transfer
 * (examples/token.c)", and the contract when it is not the called one;
 * a Rust panic adds the first frame outside the panic machinery. */
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
  char user[300] = "";
  trap_backtrace(vm, mi, inst, user, sizeof user);
  scp_fail(e, SCP_ERR_TRAP, "trap: %s in %s%s%s%s%s%s%s", scp_trap_text(t), fi.name, has_file ? " (" : "",
           has_file ? file : "", has_file ? ")" : "", label[0] ? " of " : "", label, user);
}

static void note_err(sor_vm *vm, const scp_error *e) {
  if (!vm->run_err.msg[0] && e->msg[0]) vm->run_err = *e;
}

/* The module of the contract inv runs: loaded already, or -- a contract
 * created during this run -- loaded now, named after a loaded module with
 * the same code and the id's first bytes. */
static int find_module(sor_vm *vm, const scp_invocation *inv, uint32_t *mi, scp_error *err) {
  const uint8_t *id = inv->id;
  uint8_t hash[32];
  bool hashed = false;
  /* the id and the code: a contract upgraded (update_current_contract_wasm)
   * runs its new code */
  for (size_t i = 0; i < vm->nmods; i++) {
    sor_module *m = &vm->mods[i];
    if (memcmp(m->id, id, 32)) continue;
    if (m->code_at != inv->wasm) {
      if (!hashed) SHA256(inv->wasm, inv->len, hash);
      hashed = true;
      if (memcmp(m->code_hash, hash, 32)) continue;
      m->code_at = inv->wasm;
    }
    *mi = (uint32_t)i;
    return SCP_OK;
  }
  if (!hashed) SHA256(inv->wasm, inv->len, hash);
  const char *code = NULL;
  for (size_t i = 0; i < vm->nmods && !code; i++)
    if (!memcmp(vm->mods[i].code_hash, hash, 32)) code = vm->mods[i].label + strlen("contract:");
  char name[96];
  snprintf(name, sizeof name, "%s@%02x%02x%02x%02x", code ? code : "", id[0], id[1], id[2], id[3]);
  return scp_sor_add_module(vm, id, inv->wasm, inv->len, name, mi, err);
}

/* The frame of a new VM and its nodes.  The caller's part so far (the
 * instance and code reads) is booked to the caller.  A VM called from a
 * host call -- or from a native frame with no VM below it (a custom
 * account's __check_auth from the asset contract called directly) -- gets
 * a contract node under it; the called contract is the root.  Then step 4,
 * the VM, under vm:instantiate; its errors go to e. */
static int open_frame(sor_vm *vm, uint32_t mi, bool parse, sor_frame **out, scp_error *e,
                      scp_error *err) {
  uint32_t node = 0, caller = scp_run_top(vm->run);
  bool nested = caller != 0;
  if (nested) node = scp_run_enter(vm->run, caller, 0, SCP_KIND_CONTRACT, mi, mi);
  else scp_run_book(vm->run, 0);
  uint32_t vm_node = node == SCP_NODE_NONE ? node : scp_run_enter(vm->run, node, 0, SCP_KIND_VM, mi, 0);
  if (vm_node == SCP_NODE_NONE) {
    if (node != SCP_NODE_NONE) scp_run_leave(vm->run);
    if (nested) scp_run_leave(vm->run);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  sor_module *m = &vm->mods[mi];
  sor_frame *f = &vm->frames[vm->depth++];
  memset(f, 0, sizeof *f);
  f->module = mi;
  f->node = node;
  f->nested = nested;
  *out = f;
  int rc = scp_host_code_v0(vm->host, m->code_hash) ? vm_charges_v0(&vm->budget, m->mod, m->len, parse)
                                                   : scp_soroban_vm_charges(&vm->budget, m->mod, parse);
  if (rc == SCP_OK) {
    scp_wasm_env env = {.call = on_host_call, .grow = on_grow, .ctx = vm, .global_imports = NULL};
    f->instantiating = true;
    rc = scp_wasm_instantiate(m->mod, &env, &f->inst, e);
    f->instantiating = false;
  }
  scp_run_leave(vm->run);   /* vm:instantiate */
  return rc;
}

/* A VM made only to read its contract's protocol: dropped now, and its
 * linear memory goes back with the frame it was charged to. */
static int end_probe(sor_vm *vm, sor_frame *f, int rc, uint64_t *ret, scp_error *e,
                     scp_error *err) {
  uint32_t proto = scp_sor_module_protocol(vm->mods[f->module].mod);
  if (vm->depth >= 2) vm->frames[vm->depth - 2].linear_mem += f->linear_mem;
  else vm->late_refund += f->linear_mem;
  scp_wasm_instance_free(f->inst);
  if (f->nested) scp_run_leave(vm->run);
  vm->depth--;
  if (rc == SCP_OK) {
    *ret = scp_val_u32(proto);
    return SCP_OK;
  }
  rc = budget_or(rc, NULL);
  note_err(vm, e);
  *err = *e;
  err->code = rc;
  return rc;
}

/* What step 5 leaves for the run. */
typedef struct sor_call {
  uint64_t *rel;               /* the arguments as relative handles */
  uint32_t fidx, nr;           /* the export and its number of results */
  bool pushed;                 /* the host's contract frame is pushed */
  bool run;                    /* there is a function to run */
} sor_call;

/* The export to run, checked; a missing constructor without arguments is
 * no error, just nothing to run. */
static int find_export(const sor_module *m, const scp_invocation *inv, sor_call *c, scp_error *e) {
  const char *fn = inv->fn;
  uint8_t kind;
  const uint8_t *ps, *rs;
  uint32_t np;
  if (!scp_wasm_export_find(m->mod, fn, strlen(fn), &kind, &c->fidx) || kind != SCP_EXT_FUNC) {
    if (inv->constructor && !inv->nargs) return SCP_OK;
    return scp_fail(e, SCP_ERR_NOTFOUND, "%s: no exported function '%s'", m->label, fn);
  }
  scp_wasm_func_sig(m->mod, c->fidx, &ps, &np, &rs, &c->nr);
  if (np != inv->nargs)
    return scp_fail(e, SCP_ERR_ARG, "%s: function '%s' takes %u argument%s, %u given", m->label, fn, np,
                    np == 1 ? "" : "s", inv->nargs);
  c->run = true;
  return SCP_OK;
}

/* 5. the frame and the invocation: push_context, the contract frame with
 * its function and arguments, the Vec<wasmi::Value> copy, relative
 * handles, InvokeVmFunction, and metered_func_call's name as a SymbolStr
 * -- for a Symbol object the host reads it with symbol_len (checked: 2 x
 * VisitObject) and symbol_copy_to_slice (VisitObject, MemCpy(len)). */
static int push_frame(sor_vm *vm, scp_host *h, const scp_invocation *inv, const sor_frame *f,
                      sor_call *c, scp_error *e) {
  const char *fn = inv->fn;
  uint32_t nargs = inv->nargs;
  int rc = scp_host_charge_push_context(h, inv->id);
  if (rc == SCP_OK) {
    rc = scp_host_push_contract_frame(h, inv->id);
    c->pushed = rc == SCP_OK;
    if (c->pushed) scp_host_set_frame_fn(h, fn);
    if (c->pushed) rc = scp_host_set_frame_args(h, inv->args, nargs);
  }
  if (rc == SCP_OK && !(c->rel = calloc(nargs + 1, sizeof *c->rel))) rc = SCP_ERR_NOMEM;
  if (rc == SCP_OK) rc = scp_budget_charge(&vm->budget, SCP_COST_MemCpy, 1, 24);
  if (rc == SCP_OK) rc = scp_budget_charge(&vm->budget, SCP_COST_MemAlloc, 1, (int64_t)(16 * nargs));
  if (rc == SCP_OK) rc = scp_budget_charge(&vm->budget, SCP_COST_MemCpy, 1, (int64_t)(16 * nargs));
  for (uint32_t i = 0; i < nargs && rc == SCP_OK; i++) rc = scp_host_to_relative(h, inv->args[i], &c->rel[i]);
  if (rc == SCP_OK) rc = scp_budget_charge(&vm->budget, SCP_COST_InvokeVmFunction, 1, -1);
  uint64_t small;
  if (rc == SCP_OK && !scp_val_symbol_small((const uint8_t *)fn, strlen(fn), &small)) {
    for (int k = 0; k < 3 && rc == SCP_OK; k++) rc = scp_budget_charge(&vm->budget, SCP_COST_VisitObject, 1, -1);
    if (rc == SCP_OK) rc = scp_budget_charge(&vm->budget, SCP_COST_MemCpy, 1, (int64_t)strlen(fn));
  }
  if (rc == SCP_OK) rc = find_export(&vm->mods[f->module], inv, c, e);
  return rc;
}

/* 6. run the guest, its fuel flushed at the end; the region counters
 * become per-pc costs (scp_wasm_settle). */
static int run_guest(sor_vm *vm, scp_host *h, sor_frame *f, const sor_call *c, uint64_t *ret,
                     scp_error *e) {
  scp_wasm_attach(f->inst, scp_run_tree(vm->run), f->node, f->module,
                  (unsigned)vm->budget.model[SCP_COST_WasmInsnExec].cpu_const);
  refuel(vm, f->inst);
  f->fuel_flushed = scp_wasm_fuel_consumed(f->inst);
  uint64_t r = 0;
  int rc = scp_wasm_call(f->inst, c->fidx, c->rel, &r, e);
  if (rc == SCP_ERR_TRAP) name_trap(vm, f->module, f->inst, e);
  int frc = flush_fuel(vm, f);
  if (!rc && frc) rc = frc;
  rc = budget_or(rc, f->inst);
  if (rc == SCP_OK && c->nr == 1) rc = scp_host_to_absolute(h, r, ret);
  if (scp_wasm_settle(f->inst) && rc == SCP_OK) rc = SCP_ERR_NOMEM;
  return rc;
}

/* Book what the meter counted since the cursor to a new root child (a
 * host node with a callee of its own); with only_if_any, not when it is
 * all zero.  SCP_ERR_NOMEM when the tree cannot grow. */
int scp_sor_book_root_child(sor_vm *vm, uint32_t callee, bool only_if_any, uint32_t *node) {
  uint64_t d[SCP_MAX_METRICS];
  *node = 0;
  if (!scp_run_take(vm->run, d) && only_if_any) return SCP_OK;
  uint32_t en = scp_tree_enter(scp_run_tree(vm->run), 0, 0, SCP_KIND_HOST, 0, callee);
  if (en == SCP_NODE_NONE) return SCP_ERR_NOMEM;
  scp_run_add(vm->run, en, d);
  scp_sor_costs_book(&vm->costs, en, UINT64_MAX);   /* the take's breakdown goes with it */
  *node = en;
  return SCP_OK;
}

/* A test's top-level contract frame is the last one: its pop runs
 * recording mode's emulated authentication (pop_context, testutils
 * builds), booked as auth:emulate under the root as the network's is;
 * its failure is the call's (with_frame returns it). */
static int pop_test_frame(sor_vm *vm, scp_host *h, int rc, scp_error *e) {
  scp_run_book(vm->run, 0);
  vm->emulating = true;
  scp_host_pop_frame(h);
  vm->emulating = false;
  uint32_t node;
  if (scp_sor_book_root_child(vm, SOR_AUTH_EMULATE, true, &node)) return SCP_ERR_NOMEM;
  scp_error ee = { 0 };
  int erc = scp_host_take_auth_emulation_rc(h, &ee);
  if (erc == SCP_OK || rc != SCP_OK) return rc;
  *e = ee;
  return erc;
}

/* 7. with_frame's end: a frame that succeeded writes its instance storage
 * back into the instance entry when it modified it (a failure there fails
 * the frame: the caller rolls back), then the pop: the frame, then the
 * VM's linear memory back to the budget; the frame's nodes are left. */
static int close_frame(sor_vm *vm, scp_host *h, sor_frame *f, sor_call *c, int rc, scp_error *e) {
  if (c->pushed && rc == SCP_OK) {
    rc = scp_inst_frame_end(h);
    if (rc == SCP_ERR_HOST) scp_fail(e, rc, "%s", h->errmsg);
  }
  if (c->pushed && vm->test_env && vm->depth == 1) rc = pop_test_frame(vm, h, rc, e);
  else if (c->pushed) scp_host_pop_frame(h);
  /* frame.rs pop_context refunds into the frame below: none under a
   * test's top-level contract frame */
  if (f->linear_mem && !(vm->test_env && vm->depth == 1)) {
    scp_budget_refund_mem(&vm->budget, f->linear_mem);
    vm->refunded += f->linear_mem;
  }
  if (f->nested) scp_run_leave(vm->run);
  else scp_run_book(vm->run, 0);
  scp_wasm_instance_free(f->inst);
  free(c->rel);
  vm->depth--;
  return rc;
}

/* Memory is quoted as the limit is checked and as the Budget table shows
 * it: the peak of the Budget's count after refunds (the count itself may
 * have dropped since, as the frames unwound and refunded); what was
 * charged in all (the call tree's total) follows when refunds made them
 * differ. */
int scp_sor_budget_message(const sor_vm *vm, scp_error *e) {
  char charged[64] = "";
  if (vm->refunded)
    snprintf(charged, sizeof charged, " (%llu charged before refunds)",
             (unsigned long long)(vm->budget.mem + vm->refunded));
  return scp_fail(e, SCP_ERR_BUDGET, "Error(Budget, ExceededLimit): CPU %llu of %llu, memory %llu of %llu%s",
                  (unsigned long long)vm->budget.cpu, (unsigned long long)vm->budget.cpu_limit,
                  (unsigned long long)vm->budget.mem_peak, (unsigned long long)vm->budget.mem_limit, charged);
}

/* The host's invoker: one contract function in a VM of its own, steps 4-7. */
static int invoke(void *ctx, scp_host *h, const scp_invocation *inv, uint64_t *ret,
                  scp_error *err) {
  sor_vm *vm = ctx;
  *ret = SCP_VAL_VOID;
  if (vm->depth >= SOR_MAX_DEPTH)
    return scp_fail(err, SCP_ERR_LIMIT, "contract call depth above %d", SOR_MAX_DEPTH);
  uint32_t mi;
  int rc = find_module(vm, inv, &mi, err);
  if (rc) return rc;
  sor_frame *f = NULL;
  scp_error e = {0};
  rc = open_frame(vm, mi, inv->parse, &f, &e, err);
  if (!f) return rc;
  if (inv->probe) return end_probe(vm, f, rc, ret, &e, err);
  sor_call c = {0};
  if (rc == SCP_OK) rc = push_frame(vm, h, inv, f, &c, &e);
  scp_run_book(vm->run, f->node);
  if (c.run) rc = run_guest(vm, h, f, &c, ret, &e);
  rc = close_frame(vm, h, f, &c, rc, &e);
  if (rc == SCP_ERR_BUDGET && !e.msg[0]) scp_sor_budget_message(vm, &e);
  if (rc) {
    /* a failing __check_auth is not the run's error: the host turns it
     * into the caller's Error(Auth, InvalidAction), message included */
    if (strcmp(inv->fn, "__check_auth")) note_err(vm, &e);
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
  if (enter)
    scp_run_enter(vm->run, scp_run_top(vm->run), 0, SCP_KIND_CONTRACT, UINT32_MAX, sac_callee(vm, id));
  else
    scp_run_leave(vm->run);
}

/* auth:verify: entered on the stack like a host call, so its Budget
 * charges are its own and a __check_auth's contract hangs under it.
 * Recording mode's emulated authentication books after the fact
 * (auth:emulate) and gets no frame inside it. */
static void on_auth(void *ctx, int what, bool enter) {
  sor_vm *vm = ctx;
  if (vm->emulating) return;
  if (enter)
    scp_run_enter(vm->run, scp_run_top(vm->run), 0, SCP_KIND_HOST, UINT32_MAX,
                  what == SCP_AUTH_VERIFY_ED25519 ? SOR_AUTH_VERIFY_ED25519 : SOR_AUTH_VERIFY_CONTRACT);
  else
    scp_run_leave(vm->run);
}

/* ---- naming for the profile ------------------------------------------------------ */

/* module's symbols, NULL when it has none (the scp_sym lookups say no) */
static scp_sym *mod_sym(const sor_vm *vm, uint32_t module) {
  return module < vm->nmods ? vm->mods[module].sym : NULL;
}

/* A guest function's body hash (SHA-256 of its Code-section bytes, hex):
 * what `diff` matches two builds' functions by when names do not. */
static const char *body_hash(sor_vm *vm, uint32_t module, uint32_t fn) {
  const uint8_t *body;
  size_t len;
  uint8_t h[32];
  if (module >= vm->nmods || !scp_wasm_func_body(vm->mods[module].mod, fn, &body, &len)) return NULL;
  SHA256(body, len, h);
  return sodium_bin2hex(vm->frame_body, sizeof vm->frame_body, h, sizeof h);
}

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
    if (n->callee == SOR_TX_DECODE) {
      out->name = "tx:decode";
      return SCP_OK;
    }
    if (n->callee == SOR_TX_ENCODE) {
      out->name = "tx:encode";
      return SCP_OK;
    }
    if (n->callee == SOR_AUTH_VERIFY_ED25519 || n->callee == SOR_AUTH_VERIFY_CONTRACT) {
      out->name = n->callee == SOR_AUTH_VERIFY_ED25519 ? "auth:verify(ed25519)"
                                                        : "auth:verify(__check_auth)";
      return SCP_OK;
    }
    const scp_hostfn *hf = scp_hostfn_get(n->callee);
    return scp_prof_frame_printf(out, vm->frame_name, sizeof vm->frame_name, SCP_SRC_HOST,
                                 "host:%s", hf ? hf->name : "?");
  }
  case SCP_KIND_GUEST: {
    int rc = scp_sym_function(mod_sym(vm, n->module), n->callee, out);
    if (rc != SCP_OK)
      rc = scp_prof_frame_printf(out, vm->frame_name, sizeof vm->frame_name, SCP_SRC_RAW,
                                 "func[%u]", n->callee);
    out->body = body_hash(vm, n->module, n->callee);
    return rc;
  }
  default:
    out->name = scp_kind_name((scp_kind)n->kind);
    return SCP_OK;
  }
}

static size_t pc_chain(void *ctx, uint32_t module, uint64_t pc, const scp_frame_info **chain) {
  return scp_sym_chain(mod_sym(ctx, module), pc, chain);
}

/* A call of a host function reads as its frame does ("host:vec_new"). */
#define IMPORT_NAME_MAX 64
static const char *import_name(void *ctx, const scp_wasm_import *im) {
  char *out = ctx;
  const scp_hostfn *hf = scp_hostfn_get((unsigned)scp_hostfn_find(im->module, im->field));
  if (!hf) return NULL;
  snprintf(out, IMPORT_NAME_MAX, "host:%s", hf->name);
  return out;
}

static size_t pc_text(void *ctx, uint32_t module, uint64_t pc, char *buf, size_t size) {
  const sor_vm *vm = ctx;
  char name[IMPORT_NAME_MAX];
  if (module >= vm->nmods) {
    if (size) buf[0] = 0;
    return 0;
  }
  return scp_wasm_disasm(vm->mods[module].mod, pc, import_name, name, buf, size);
}

void scp_sor_resolver(sor_vm *vm, scp_resolver *out) {
  /* whole, by field name: the callbacks it does not give are NULL */
  *out = (scp_resolver){.ctx = vm, .node_frame = node_frame, .pc_chain = pc_chain, .pc_text = pc_text};
}

/* The host's storage and event notes, booked to the node on top; the
 * emulated authentication's own, to its node (made after it). */
static void on_fee(void *ctx, int what, const scp_lkey *k, size_t index) {
  sor_vm *vm = ctx;
  uint32_t node = scp_run_top(vm->run);
  if (vm->emulating && !node) node = SCP_FEE_NODE_PENDING;
  scp_fee_track_note(&vm->fee.track, what, k, index, node);
}

/* ---- the VM's life --------------------------------------------------------------- */

int scp_sor_vm_open(sor_vm *vm, uint64_t cpu_limit, uint64_t mem_limit, const scp_host_opts *ho,
                    scp_error *err) {
  memset(vm, 0, sizeof *vm);
  scp_budget_init(&vm->budget, cpu_limit, mem_limit);
  const scp_metric metrics[SOR_NMETRICS] = {
    {.name = "CPU", .unit = "instructions", .limit = vm->budget.cpu_limit},
    {.name = "Memory", .unit = "bytes", .limit = vm->budget.mem_limit},
    {.name = "Reads", .unit = "entries", .limit = 0},
    {.name = "Writes", .unit = "entries", .limit = 0},
    {.name = "Loaded bytes", .unit = "bytes", .limit = 0},
    {.name = "Stored bytes", .unit = "bytes", .limit = 0},
  };
  scp_run_opts ro = {.nmetrics = SOR_NMETRICS, .metrics = metrics, .meter = read_meter,
                     .meter_ctx = vm, .totals = NULL};
  int rc = scp_run_create(&ro, &vm->run, err);
  if (rc) return rc;
  vm->costs.b = &vm->budget;
  scp_run_set_book_hook(vm->run, scp_sor_costs_book, &vm->costs);
  if ((rc = scp_host_create(&vm->budget, ho, &vm->host))) return scp_fail(err, rc, "out of memory");
  scp_host_set_invoker(vm->host, invoke, vm);
  vm->host->native_hook = on_native;
  vm->host->auth_hook = on_auth;
  /* the ledger-entry table needs the nodes that touched each entry, with
   * a network (the fee's shares) or without one */
  vm->host->fee_hook = on_fee;
  return SCP_OK;
}

int scp_sor_vm_fee(sor_vm *vm, scp_error *err) {
  const scp_metric metrics[SOR_NMETRICS + 1] = {
    {.name = "CPU", .unit = "instructions", .limit = vm->budget.cpu_limit},
    {.name = "Memory", .unit = "bytes", .limit = vm->budget.mem_limit},
    {.name = "Fee", .unit = "stroops", .limit = 0},
    {.name = "Reads", .unit = "entries", .limit = 0},
    {.name = "Writes", .unit = "entries", .limit = 0},
    {.name = "Loaded bytes", .unit = "bytes", .limit = 0},
    {.name = "Stored bytes", .unit = "bytes", .limit = 0},
  };
  /* nothing is booked yet: the run core is made again with the metric */
  scp_run_destroy(vm->run);
  vm->run = NULL;
  scp_run_opts ro = {.nmetrics = SOR_NMETRICS + 1, .metrics = metrics, .meter = read_meter,
                     .meter_ctx = vm, .totals = NULL};
  int rc = scp_run_create(&ro, &vm->run, err);
  if (rc) return rc;
  /* the new run's cursor is at zero: so is the breakdown's */
  memset(vm->costs.cursor, 0, sizeof vm->costs.cursor);
  scp_run_set_book_hook(vm->run, scp_sor_costs_book, &vm->costs);
  vm->host->fee_hook = on_fee;
  return SCP_OK;
}

void scp_sor_vm_close(sor_vm *vm) {
  scp_sor_costs_free(&vm->costs);
  for (size_t i = 0; i < vm->nmods; i++) {
    if (vm->mods[i].owned) scp_sor_code_clear(vm->mods[i].owned);
    free(vm->mods[i].owned);
    free(vm->mods[i].label);
  }
  free(vm->mods);
  scp_host_destroy(vm->host);
  scp_run_destroy(vm->run);
  scp_fee_run_free(&vm->fee);
}
