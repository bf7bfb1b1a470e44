/*
 * fuzz_diff.c — libFuzzer target: generated modules run in our engine and
 * in wabt's wasm-interp must give the same results and traps
 * (fuzz_diff.h).  Build and run: `make fuzz` (or see tests/fuzz/README.md).
 */
#include "fuzz_diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_diff_one(data, size);
  return 0;
}
