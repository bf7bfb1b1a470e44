/*
 * fuzz_sbpf.c — libFuzzer target for the sBPF loader, verifier and a
 * bounded run of what loads (fuzz_sbpf.h).  Build and run: `make fuzz`;
 * seeds in tests/fuzz/corpus-sbpf (made by mkseeds-sbpf.sh).
 */
#include "fuzz_sbpf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_sbpf_one(data, size);
  return 0;
}
