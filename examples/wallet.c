/*
 * wallet.c — a custom account contract: its address (C...) authorizes
 * calls through __check_auth, which the host calls in enforcing mode
 * (scprof profile --auth enforce) when a contract requires its auth.
 *
 * init(owner: BytesN<32>) -> void
 *   stores the owner's ed25519 public key (persistent "owner"); again with
 *   the same key is a no-op, with another key contract error 1.
 * __check_auth(payload: BytesN<32>, signature: Vec<Map>, contexts: Vec)
 *   the signature is what `--signer C...=S...` builds: a Vec of
 *   {public_key: BytesN<32>, signature: BytesN<64>} maps.  The wallet
 *   wants one whose public_key is the stored owner (compared with obj_cmp;
 *   error 2 otherwise, 4 with no owner), verifies its signature of the
 *   payload with the host's verify_sig_ed25519 (a bad one traps), and
 *   requires at least one authorization context (error 3).
 *
 *   scprof profile --auth enforce --contract build/examples/wallet.wasm \
 *       --signer C<wallet>=S... build/examples/guard.wasm bump \
 *       addr:C<wallet> bytes:<owner key hex> u32:5
 */
#include "soroban.h"

#define PERSISTENT ((Val)1)

static Val symbol(const char *s, uint32_t n) {
  return symbol_new_from_linear_memory(val_ptr(s), val_from_u32(n));
}

SOROBAN_EXPORT("init") Val init(Val owner) {
  Val key = val_symbol_small("owner");
  if (val_is_true(has_contract_data(key, PERSISTENT))) {
    if (obj_cmp(get_contract_data(key, PERSISTENT), owner) != 0)
      fail_with_error(val_from_contract_error(1));
    return SOROBAN_VOID;
  }
  put_contract_data(key, owner, PERSISTENT);
  return SOROBAN_VOID;
}

SOROBAN_EXPORT("__check_auth") Val check_auth(Val payload, Val signature, Val contexts) {
  Val key = val_symbol_small("owner");
  if (!val_is_true(has_contract_data(key, PERSISTENT))) fail_with_error(val_from_contract_error(4));
  Val owner = get_contract_data(key, PERSISTENT);
  Val pk_sym = symbol("public_key", 10), sig_sym = val_symbol_small("signature");
  uint32_t n = val_to_u32(vec_len(signature));
  for (uint32_t i = 0; i < n; i++) {
    Val entry = vec_get(signature, val_from_u32(i));
    Val pk = map_get(entry, pk_sym);
    if (obj_cmp(pk, owner) != 0) continue;
    verify_sig_ed25519(pk, payload, map_get(entry, sig_sym));
    if (val_to_u32(vec_len(contexts)) == 0) fail_with_error(val_from_contract_error(3));
    return SOROBAN_VOID;
  }
  fail_with_error(val_from_contract_error(2));
  return SOROBAN_VOID;
}
