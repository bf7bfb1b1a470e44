/*
 * teller.c — the caller of the teller example; its callee is vault.c,
 * deployed with `--contract build/examples/vault.wasm`.
 *
 * run(vault: String, times: u32) -> u32
 *   turns the vault's strkey ("C...") into an Address, deposits 5 for this
 *   contract `times` times (vault.deposit requires this contract's
 *   authorization: recorded, as with mocked auths), reads the vault's
 *   total, keeps it in temporary storage and returns it.  In the profile
 *   the vault's frames hang under host:call as contract:vault.wasm.
 *
 * Both contracts describe themselves (contractspecv0, contractenvmetav0;
 * contract_meta.h), so arguments may be given by name:
 *   scprof profile build/examples/teller.wasm run --vault C... --times 2 \
 *       --contract build/examples/vault.wasm
 */
#include "soroban.h"
#include "contract_meta.h"

#define TEMPORARY ((Val)0)

__asm__(
  SPEC_SECTION
  /* fn run(vault: string, times: u32) -> u32 */
  XW(SPEC_FN) XSTR(32, "Deposits 5 in the vault N times.", XP0) XSTR(3, "run", XP1) XW(2)
    XEMPTY XSTR(5, "vault", XP3) XW(SPEC_STRING)
    XEMPTY XSTR(5, "times", XP3) XW(SPEC_U32)
    XW(1) XW(SPEC_U32)
  ENV_META_SECTION
);

__attribute__((noinline)) static Val pay_in(Val vault, Val me) {
  Val args = vec_push_back(vec_push_back(vec_new(), me), val_from_u32(5));
  return call(vault, val_symbol_small("deposit"), args);
}

SOROBAN_EXPORT("run") Val run(Val vault_strkey, Val times) {
  Val vault = strkey_to_address(vault_strkey);
  Val me = get_current_contract_address();
  for (uint32_t i = 0; i < val_to_u32(times); i++) pay_in(vault, me);
  Val total = call(vault, val_symbol_small("total"), vec_new());
  put_contract_data(val_symbol_small("total"), total, TEMPORARY);
  return total;
}
