/*
 * counter.c — the callee of the cross-contract example (caller.c).
 *
 * increment(user: Address, by: u32) -> u32
 *   requires user's authorization (recorded in "mock all auths" mode),
 *   reads the persistent counter "count" (0 when absent), stores count + by,
 *   extends the entry's TTL, emits an event and returns the new count.
 * fail() -> never returns: fails with contract error 7 (for try_call).
 *
 *   scprof profile build/examples/caller.wasm run str:C... u32:3 \
 *       --contract build/examples/counter.wasm
 * (the profile's metadata lists the counter's id, "contract id 1")
 */
#include "soroban.h"

#define PERSISTENT ((Val)1)

SOROBAN_EXPORT("increment") Val increment(Val user, Val by) {
  require_auth(user);
  Val key = val_symbol_small("count");
  uint32_t count = 0;
  if (val_is_true(has_contract_data(key, PERSISTENT)))
    count = val_to_u32(get_contract_data(key, PERSISTENT));
  count += val_to_u32(by);
  put_contract_data(key, val_from_u32(count), PERSISTENT);
  extend_contract_data_ttl(key, PERSISTENT, val_from_u32(100), val_from_u32(10000));
  Val topics = vec_push_back(vec_new(), val_symbol_small("count"));
  contract_event(topics, val_from_u32(count));
  return val_from_u32(count);
}

SOROBAN_EXPORT("fail") Val fail(void) {
  fail_with_error(val_from_contract_error(7));
  return SOROBAN_VOID;
}
