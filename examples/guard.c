/*
 * guard.c — a counter only a wallet (a custom account, examples/wallet.c)
 * may bump: the caller of wallet.c's __check_auth.
 *
 * bump(wallet: Address, owner: BytesN<32>, by: u32) -> u32
 *   wallet.init(owner) (so that one run works on a fresh ledger), then
 *   require_auth(wallet): in enforcing mode the host checks the wallet's
 *   signed entry by calling its __check_auth, which shows in the profile
 *   as contract:wallet.wasm under host:require_auth.  Adds `by` to the
 *   persistent counter and returns it.
 */
#include "soroban.h"

#define PERSISTENT ((Val)1)

SOROBAN_EXPORT("bump") Val bump(Val wallet, Val owner, Val by) {
  call(wallet, val_symbol_small("init"), vec_push_back(vec_new(), owner));
  require_auth(wallet);
  Val key = val_symbol_small("count");
  uint32_t count = 0;
  if (val_is_true(has_contract_data(key, PERSISTENT)))
    count = val_to_u32(get_contract_data(key, PERSISTENT));
  count += val_to_u32(by);
  put_contract_data(key, val_from_u32(count), PERSISTENT);
  return val_from_u32(count);
}
