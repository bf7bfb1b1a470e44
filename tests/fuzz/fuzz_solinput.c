/*
 * fuzz_solinput.c — libFuzzer target for the Solana input region's
 * serialization and write-back (fuzz_solinput.h).  `make fuzz`; seeds in
 * tests/fuzz/corpus-solinput.
 */
#include "fuzz_solinput.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_solinput_one(data, size);
  return 0;
}
