/*
 * payer.c — pays through a Stellar Asset Contract (the host's built-in
 * token), created before the call with `--asset`.
 *
 * pay(token: Address, from: Address, to: Address, amount: i128) -> void
 *   calls token.transfer(from, to, amount) with the `call` host function.
 *   In the profile the token's frame hangs under host:call as
 *   contract:SAC(native) / contract:SAC(CODE:GABCD…), with the transfer's
 *   own host calls under it.
 */
#include "soroban.h"

SOROBAN_EXPORT("pay") Val pay(Val token, Val from, Val to, Val amount) {
  Val args = vec_push_back(vec_push_back(vec_push_back(vec_new(), from), to), amount);
  return call(token, val_symbol_small("transfer"), args);
}
