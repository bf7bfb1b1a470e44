/*
 * fuzz_wasm.c — libFuzzer target for the WASM decoder/validator/compiler,
 * the interpreter and the DWARF mapper.  Build and run: `make fuzz`
 * (clang -fsanitize=fuzzer,address,undefined); seeds in tests/fuzz/corpus.
 */
#include "fuzz_wasm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_wasm_one(data, size);
  return 0;
}
