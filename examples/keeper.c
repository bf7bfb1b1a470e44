/*
 * keeper.c — a custom account (as wallet.c) whose own admin function
 * requires the account's authorization: the host calls its __check_auth
 * while the account's frame is still running, the one contract re-entry
 * the reference allows (check_account_contract_auth's
 * ContractReentryMode::SelfAllowed, when the account is the last contract
 * frame).  Before that call the host persists the running frame's instance
 * storage, so __check_auth sees what set_limit wrote; __check_auth's own
 * write is persisted when it returns and reloaded into set_limit's frame.
 *
 * set_limit(owner: BytesN<32>, limit: u32) -> u32
 *   stores the owner key (instance "owner") on first use, the limit
 *   (instance "limit"), then require_auth(<this contract>), and returns
 *   the instance counter "checks" (what __check_auth left).
 * __check_auth(payload: BytesN<32>, signature: Vec<Map>, contexts: Vec)
 *   as wallet.c's, but the owner comes from instance storage (error 4
 *   without one), the limit must be there too (error 5: set_limit's write
 *   not visible), and it adds 1 to the instance counter "checks".
 *
 *   scprof profile --auth enforce --signer C<keeper>=S... \
 *       build/examples/keeper.wasm set_limit bytes:<owner key hex> u32:9
 */
#include "soroban.h"

#define INSTANCE ((Val)2)

static Val symbol(const char *s, uint32_t n) {
  return symbol_new_from_linear_memory(val_ptr(s), val_from_u32(n));
}

SOROBAN_EXPORT("set_limit") Val set_limit(Val owner, Val limit) {
  Val okey = val_symbol_small("owner");
  if (!val_is_true(has_contract_data(okey, INSTANCE))) put_contract_data(okey, owner, INSTANCE);
  put_contract_data(val_symbol_small("limit"), limit, INSTANCE);
  require_auth(get_current_contract_address());
  Val ckey = val_symbol_small("checks");
  if (!val_is_true(has_contract_data(ckey, INSTANCE))) return val_from_u32(0);
  return get_contract_data(ckey, INSTANCE);
}

SOROBAN_EXPORT("__check_auth") Val check_auth(Val payload, Val signature, Val contexts) {
  Val okey = val_symbol_small("owner"), lkey = val_symbol_small("limit");
  if (!val_is_true(has_contract_data(okey, INSTANCE))) fail_with_error(val_from_contract_error(4));
  if (!val_is_true(has_contract_data(lkey, INSTANCE))) fail_with_error(val_from_contract_error(5));
  Val owner = get_contract_data(okey, INSTANCE);
  Val pk_sym = symbol("public_key", 10), sig_sym = val_symbol_small("signature");
  uint32_t n = val_to_u32(vec_len(signature));
  for (uint32_t i = 0; i < n; i++) {
    Val entry = vec_get(signature, val_from_u32(i));
    Val pk = map_get(entry, pk_sym);
    if (obj_cmp(pk, owner) != 0) continue;
    verify_sig_ed25519(pk, payload, map_get(entry, sig_sym));
    if (val_to_u32(vec_len(contexts)) == 0) fail_with_error(val_from_contract_error(3));
    Val ckey = val_symbol_small("checks");
    uint32_t checks = 0;
    if (val_is_true(has_contract_data(ckey, INSTANCE)))
      checks = val_to_u32(get_contract_data(ckey, INSTANCE));
    put_contract_data(ckey, val_from_u32(checks + 1), INSTANCE);
    return SOROBAN_VOID;
  }
  fail_with_error(val_from_contract_error(2));
  return SOROBAN_VOID;
}
