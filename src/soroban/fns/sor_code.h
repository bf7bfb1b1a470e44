/*
 * sor_code.h — the Soroban host's checks of contract code at upload, beyond
 * wasmi's validation (rs-soroban-env v28 vm/parsed_module.rs).  A contract
 * that fails them cannot be on the ledger, so it is not profiled.
 */
#ifndef SCP_SOR_CODE_H
#define SCP_SOR_CODE_H

#include "wasm/scp_wasm.h"

/* Vm::MAX_VM_ARGS */
#define SCP_SOROBAN_MAX_VM_ARGS 32

/* SCP_OK, or SCP_ERR_INVALID with err saying which check the host fails
 * ("Error(WasmVm, InvalidInput): ..."). */
int scp_sor_check_code(const scp_wasm_module *m, scp_error *err);

#endif
