/*
 * caller.c — the caller of the cross-contract example; its callee is
 * counter.c, deployed with `--contract build/examples/counter.wasm`.
 *
 * run(counter: String, times: u32) -> u32
 *   turns the counter's strkey ("C...") into an Address, calls
 *   counter.increment(<this contract>, 1) `times` times, then try_calls
 *   counter.fail() (which fails: the error comes back as a value), keeps
 *   the last count in temporary storage and returns it.  In the profile the
 *   counter's frames hang under host:call as contract:counter.wasm.
 */
#include "soroban.h"

#define TEMPORARY ((Val)0)

__attribute__((noinline)) static Val bump(Val counter, Val me) {
  Val args = vec_push_back(vec_push_back(vec_new(), me), val_from_u32(1));
  return call(counter, val_symbol_small("increment"), args);
}

SOROBAN_EXPORT("run") Val run(Val counter_strkey, Val times) {
  Val counter = strkey_to_address(counter_strkey);
  Val me = get_current_contract_address();
  Val last = val_from_u32(0);
  for (uint32_t i = 0; i < val_to_u32(times); i++)
    last = bump(counter, me);
  Val err = try_call(counter, val_symbol_small("fail"), vec_new());
  if (!val_has_tag(err, SOROBAN_TAG_ERROR))   /* : the failure came back as a value */
    fail_with_error(val_from_contract_error(1));
  put_contract_data(val_symbol_small("last"), last, TEMPORARY);
  return last;
}
