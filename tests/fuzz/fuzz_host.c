/*
 * fuzz_host.c — libFuzzer target for the Soroban host functions: each input
 * is a sequence of host calls with hostile arguments on one host
 * (fuzz_host.h).  Build and run: `make fuzz` (clang
 * -fsanitize=fuzzer,address,undefined); seeds in tests/fuzz/corpus-host.
 */
#include "fuzz_host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_host_one(data, size);
  return 0;
}
