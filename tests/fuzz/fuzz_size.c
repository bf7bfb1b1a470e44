/*
 * fuzz_size.c — libFuzzer harness for the size tree's container walkers
 * (fuzz_size.h).  Built and run by `make fuzz` (clang -fsanitize=fuzzer)
 * over tests/fuzz/corpus (WASM modules); ELF inputs come from mutation
 * and from the sBPF corpus the replay test feeds it.
 */
#include "fuzz_size.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_size_one(data, size);
  return 0;
}
