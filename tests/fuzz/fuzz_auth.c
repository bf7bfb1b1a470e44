/*
 * fuzz_auth.c — libFuzzer target for signed authorization entries
 * (scp_host_set_auth_entries) and the enforcing host they leave
 * (fuzz_auth.h).  Build and run: `make fuzz`; seeds in tests/fuzz/corpus-auth.
 */
#include "fuzz_auth.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_auth_one(data, size);
  return 0;
}
