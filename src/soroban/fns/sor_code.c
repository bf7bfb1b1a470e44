/*
 * sor_code.c — the host's upload-time checks of contract code
 * (extract_refined_contract_cost_inputs and check_max_args in
 * vm/parsed_module.rs), in the order the reference meets them.
 */
#include "soroban/fns/sor_code.h"

#define WASM_INVALID "Error(WasmVm, InvalidInput): "

int scp_sor_check_code(const scp_wasm_module *m, scp_error *err) {
  scp_wasm_code_facts f;
  scp_wasm_code_facts_get(m, &f);
  if (f.memory_bytes > UINT32_MAX)
    return scp_fail(err, SCP_ERR_INVALID, WASM_INVALID "unsupported memory size");
  /* only i32/i64.const (and ref.func/ref.null) may initialise */
  if (f.global_in_const_expr)
    return scp_fail(err, SCP_ERR_INVALID, WASM_INVALID "unsupported complex Wasm constant expression");
  if (f.has_start)
    return scp_fail(err, SCP_ERR_INVALID, WASM_INVALID "unsupported wasm section type (start)");
  if (f.data_bytes > f.memory_bytes)
    return scp_fail(err, SCP_ERR_INVALID, WASM_INVALID "data segment(s) content exceeds memory size (%llu > %llu bytes)",
                    (unsigned long long)f.data_bytes, (unsigned long long)f.memory_bytes);
  if (f.elem_entries > f.table_entries)
    return scp_fail(err, SCP_ERR_INVALID, WASM_INVALID "elem segments(s) content exceeds table size (%llu > %llu)",
                    (unsigned long long)f.elem_entries, (unsigned long long)f.table_entries);
  if (f.max_export_results > SCP_SOROBAN_MAX_VM_ARGS)
    return scp_fail(err, SCP_ERR_INVALID, WASM_INVALID "Too many return values in Wasm export (%u)", f.max_export_results);
  if (f.max_export_params > SCP_SOROBAN_MAX_VM_ARGS)
    return scp_fail(err, SCP_ERR_INVALID, WASM_INVALID "Too many arguments Wasm export (%u)", f.max_export_params);
  return SCP_OK;
}
