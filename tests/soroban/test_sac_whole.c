/*
 * test_sac_whole.c — Stellar Asset Contract calls checked whole against
 * the reference's traces: each test redoes one test of rs-soroban-env
 * v28.0.2 soroban-env-host/src/test/stellar_asset_contract.rs with its
 * keys, accounts, trustlines and signed authorization entries (enforcing
 * mode, sac_ref.h), and every asset contract call it makes is asserted
 * from its traced `call` step to its `ret` step (CPU, memory, outcome).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sac_ref.h"

#define F(name) "test__stellar_asset_contract__" name ".json"

static void balance_is(ref *r, int who, int64_t want) {
  uint64_t v = ref_invoke(r, "balance", REF_ARGS(REF_ACCT(r, who)));
  if (want < (INT64_C(1) << 55)) assert_int_equal(v, scp_val_small_i(want, SCP_TAG_I128_SMALL));
}

/* test_direct_transfer: mint 100,000,000 to user, transfer 9,999,999 to
 * user_2, user_2's 10,000,000 back fails (#10), 999,999 back. */
static void test_direct_transfer(void **state) {
  (void)state;
  ref r;
  ref_open(&r, F("test_direct_transfer"));
  ref_default_sac(&r);
  ref_default_account(&r, REF_USER);
  ref_default_account(&r, REF_USER2);
  ref_default_trustline(&r, REF_USER);
  ref_default_trustline(&r, REF_USER2);
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(REF_ACCT(&r, REF_USER), REF_I128(100000000)));
  balance_is(&r, REF_USER, 100000000);
  balance_is(&r, REF_USER2, 0);
  ref_signed(&r, REF_USER, "transfer",
             REF_ARGS(REF_ACCT(&r, REF_USER), REF_ACCT(&r, REF_USER2), REF_I128(9999999)));
  balance_is(&r, REF_USER, 90000001);
  balance_is(&r, REF_USER2, 9999999);
  ref_signed(&r, REF_USER2, "transfer",
             REF_ARGS(REF_ACCT(&r, REF_USER2), REF_ACCT(&r, REF_USER), REF_I128(10000000)));
  ref_signed(&r, REF_USER2, "transfer",
             REF_ARGS(REF_ACCT(&r, REF_USER2), REF_ACCT(&r, REF_USER), REF_I128(999999)));
  balance_is(&r, REF_USER, 91000000);
  balance_is(&r, REF_USER2, 9000000);
  ref_close(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_direct_transfer),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
