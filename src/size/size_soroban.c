/*
 * size_soroban.c — what a Soroban contract's bytes cost on every call:
 * the Budget's charges for creating its VM, as the host makes one for a
 * contract already in the ledger (rs-soroban-env v28 vm.rs, parsed_module
 * charge_for_instantiation: InstantiateWasm* from the module's own counts,
 * the import symbol set, then the initial linear memory's MemAlloc).  The
 * same functions the profiler charges vm:instantiate with are called
 * here, on a Budget of its own.
 */
#include "size/scp_size.h"
#include "soroban/run/sor_vm.h"

#include <stdio.h>

int scp_size_soroban_vm(const uint8_t *wasm, size_t len, scp_size_vm *out, scp_error *err) {
  scp_wasm_module *m = NULL;
  int rc = scp_wasm_load(wasm, len, &m, err);
  if (rc) return rc;
  scp_budget b;
  scp_budget_init(&b, UINT64_MAX / 2, UINT64_MAX / 2);
  scp_wasm_cost_inputs_get(m, &out->counts);
  out->pages = scp_wasm_initial_pages(m);
  rc = scp_soroban_vm_charges(&b, m, false);
  if (!rc && out->pages)
    rc = scp_budget_charge(&b, SCP_COST_MemAlloc, 1, (int64_t)(out->pages * 65536u));
  out->cpu = b.cpu;
  out->mem = b.mem;
  scp_wasm_module_free(m);
  return rc ? scp_fail(err, rc, "charging the VM's instantiation: %s", scp_strerror(rc)) : SCP_OK;
}

int scp_size_soroban_meta(scp_profile *p, const scp_size_vm *v) {
  char a[200], c[300];
  const scp_wasm_cost_inputs *k = &v->counts;
  snprintf(a, sizeof a, "CPU %llu instructions, memory %llu bytes",
           (unsigned long long)v->cpu, (unsigned long long)v->mem);
  snprintf(c, sizeof c,
           "%u functions, %u globals, %u table entries, %u data segments (%u bytes), "
           "%u element segments, %u imports, %u exports, %u memory pages",
           k->n_functions, k->n_globals, k->n_table_entries, k->n_data_segments,
           k->n_data_segment_bytes, k->n_elem_segments, k->n_imports, k->n_exports, v->pages);
  return scp_prof_meta(p, "VM per call", a) || scp_prof_meta(p, "VM counts", c) ? SCP_ERR_NOMEM
                                                                                 : SCP_OK;
}
