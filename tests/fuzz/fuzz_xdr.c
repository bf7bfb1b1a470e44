/*
 * fuzz_xdr.c — libFuzzer target for the XDR codec and the snapshot reader
 * (fuzz_xdr.h).  Build and run: `make fuzz`; seeds in tests/fuzz/corpus-xdr.
 */
#include "fuzz_xdr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_xdr_one(data, size);
  return 0;
}
