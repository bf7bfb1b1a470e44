/* sol_fee.c — fees (sol_fee.h). */
#include <stdio.h>
#include <string.h>
#include "solana/sol_fee.h"
#include "solana/sol_builtin.h"

static bool key_is(const uint8_t key[32], const char *b58) {
  uint8_t k[32];
  return scp_sol_key_parse(b58, strlen(b58), k) && !memcmp(k, key, 32);
}

uint64_t sol_fee_of(const scp_sol_tx_opts *o, uint64_t cu_price, uint64_t cu_limit) {
  static const char *const PRECOMPILES[] = {"Ed25519SigVerify111111111111111111111111111",
                                            "KeccakSecp256k11111111111111111111111111111",
                                            "Secp256r1SigVerify1111111111111111111111111"};
  uint64_t sigs = o->nreq;
  for (size_t k = 0; k < o->nixs; k++)
    for (size_t p = 0; p < 3; p++)
      if (key_is(o->ixs[k].program, PRECOMPILES[p]) && o->ixs[k].len) sigs += o->ixs[k].data[0];
  unsigned __int128 micro = (unsigned __int128)cu_price * cu_limit;
  unsigned __int128 prio = (micro + 999999) / 1000000;
  uint64_t fee = sigs * SCP_SOL_LAMPORTS_PER_SIGNATURE;
  if (prio > UINT64_MAX - fee) return UINT64_MAX;
  return fee + (uint64_t)prio;
}

static uint64_t rent_min(size_t len) {
  return ((uint64_t)len + SCP_SOL_ACCOUNT_OVERHEAD) * SCP_SOL_RENT_PER_BYTE;
}

/* RentState: 0 uninitialized, 1 rent-paying, 2 rent-exempt */
static int rent_state(uint64_t lamports, size_t len) {
  return !lamports ? 0 : lamports >= rent_min(len) ? 2 : 1;
}

void sol_fee_charge(scp_sol_account *payer, uint64_t fee, char *why, size_t cap) {
  static const uint8_t system[32] = {0};
  why[0] = 0;
  if (!payer->lamports) {
    snprintf(why, cap, "AccountNotFound");
    return;
  }
  uint64_t min;
  /* a system account, or an initialized nonce account (versions, then
   * state 1), which must stay rent-exempt */
  if (memcmp(payer->owner, system, 32)) {
    snprintf(why, cap, "InvalidAccountForFee");
    return;
  } else if (!payer->len) {
    min = 0;
  } else if (payer->len == SCP_SOL_NONCE_SIZE && scp_le32(payer->data) <= 1 && scp_le32(payer->data + 4) == 1) {
    min = rent_min(SCP_SOL_NONCE_SIZE);
  } else {
    snprintf(why, cap, "InvalidAccountForFee");
    return;
  }
  if (payer->lamports < min || payer->lamports - min < fee) {
    snprintf(why, cap, "InsufficientFundsForFee");
    return;
  }
  int pre = rent_state(payer->lamports, payer->len), post = rent_state(payer->lamports - fee, payer->len);
  /* check_rent_state_with_account: no new rent-paying account, and a
   * rent-paying one may not grow or gain (the payer only loses) */
  if (post == 1 && pre != 1) {
    snprintf(why, cap, "InsufficientFundsForRent { account_index: 0 }");
    return;
  }
  payer->lamports -= fee;
}
