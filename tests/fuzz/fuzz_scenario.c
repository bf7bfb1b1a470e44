/*
 * fuzz_scenario.c — libFuzzer target for scenario files (fuzz_scenario.h):
 * the JSON parser and schema checks of scenario.c, the ledger set-up and a
 * first call on tiny budgets.  Build and run: `make fuzz` (with
 * -dict=tests/fuzz/scenario.dict); seeds in tests/fuzz/corpus-scenario.
 */
#include "fuzz_scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_scenario_one(data, size);
  return 0;
}
