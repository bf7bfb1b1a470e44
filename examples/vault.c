/*
 * vault.c — the callee of the teller example (teller.c): one contract that
 * touches every kind of storage.
 *
 * deposit(user: Address, amount: u32) -> u32
 *   requires user's authorization, adds amount to the user's persistent
 *   balance (keyed by the address) and to the vault's total in instance
 *   storage, emits a "deposit" event and returns the new balance.
 * total() -> u32
 *   the instance total (0 before the first deposit).
 *
 *   scprof profile build/examples/teller.wasm run --vault C... --times 2 \
 *       --contract build/examples/vault.wasm
 */
#include "soroban.h"
#include "contract_meta.h"

#define PERSISTENT ((Val)1)
#define INSTANCE ((Val)2)

__asm__(
  SPEC_SECTION
  /* fn deposit(user: address, amount: u32) -> u32 */
  XW(SPEC_FN) XSTR(28, "Adds amount to user's funds.", XP0) XSTR(7, "deposit", XP1) XW(2)
    XEMPTY XSTR(4, "user", XP0) XW(SPEC_ADDRESS)
    XEMPTY XSTR(6, "amount", XP2) XW(SPEC_U32)
    XW(1) XW(SPEC_U32)
  /* fn total() -> u32 */
  XW(SPEC_FN) XEMPTY XSTR(5, "total", XP3) XW(0)
    XW(1) XW(SPEC_U32)
  ENV_META_SECTION
);

static uint32_t get_u32(Val key, Val durability) {
  if (!val_is_true(has_contract_data(key, durability))) return 0;
  return val_to_u32(get_contract_data(key, durability));
}

SOROBAN_EXPORT("deposit") Val deposit(Val user, Val amount) {
  require_auth(user);
  uint32_t balance = get_u32(user, PERSISTENT) + val_to_u32(amount);
  put_contract_data(user, val_from_u32(balance), PERSISTENT);
  Val total_key = val_symbol_small("total");
  put_contract_data(total_key, val_from_u32(get_u32(total_key, INSTANCE) + val_to_u32(amount)),
                    INSTANCE);
  Val topics = vec_push_back(vec_push_back(vec_new(), val_symbol_small("deposit")), user);
  contract_event(topics, amount);
  return val_from_u32(balance);
}

SOROBAN_EXPORT("total") Val total(void) {
  return val_from_u32(get_u32(val_symbol_small("total"), INSTANCE));
}
