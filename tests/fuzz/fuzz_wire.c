/*
 * fuzz_wire.c — libFuzzer target for the readers of `profile --tx`
 * (fuzz_wire.h).  `make fuzz`; seeds in tests/fuzz/corpus-wire.
 */
#include "fuzz_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_wire_one(data, size);
  return 0;
}
