/*
 * fuzz_solstate.c — libFuzzer target for the Solana account-file reader
 * (fuzz_solstate.h).  `make fuzz`; seeds in tests/fuzz/corpus-solstate.
 */
#include "fuzz_solstate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_solstate_one(data, size);
  return 0;
}
