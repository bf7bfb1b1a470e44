/*
 * test_sac_whole.c — Stellar Asset Contract calls checked whole against
 * the reference's traces: each of sac_flows.c's flows redoes one test of
 * rs-soroban-env v28.0.2 soroban-env-host/src/test/stellar_asset_contract.rs
 * with its keys, accounts, trustlines and signed authorization entries
 * (enforcing mode, sac_ref.h), and every traced call it makes is asserted
 * at its ret step (CPU, memory, peak memory, outcome).
 *
 * Not redone here: test_cap_67_transfer_with_muxed_accounts and
 * test_transfer_with_issuer enable the reference's invocation metering
 * (a testutils feature: the budget and the storage footprint are reset
 * inside each top-level call), see test_sac_balances.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sac_flows.h"

int main(void) {
  struct CMUnitTest *tests = calloc(sac_nflows, sizeof *tests);
  if (!tests) return 1;
  for (size_t i = 0; i < sac_nflows; i++)
    tests[i] = (struct CMUnitTest){ .name = sac_flows[i].file, .test_func = sac_flows[i].run,
                                    .initial_state = (void *)sac_flows[i].file };
  int rc = _cmocka_run_group_tests("sac_flows", tests, sac_nflows, NULL, NULL);
  free(tests);
  return rc;
}
