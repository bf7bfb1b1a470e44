/*
 * fuzz_sym.c — libFuzzer harness for the source mapper's parsers (WASM
 * container, ELF container, the DWARF repair walker, libdw indexing).
 * Built and run by `make fuzz` (clang -fsanitize=fuzzer).
 *
 * The first byte picks the container; every pc of every function is then
 * resolved, as a profile would.
 */
#include "symbols/scp_sym.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  scp_sym *s = NULL;
  scp_error err;
  int rc;
  if (size >= 4 && data[0] == 0x7f)
    rc = scp_sym_open_elf(data, size, NULL, &s, &err);
  else
    rc = scp_sym_open_wasm(data, size, NULL, &s, &err);
  if (rc != SCP_OK) return 0;
  uint32_t n = scp_sym_function_count(s);
  for (uint32_t i = 0; i < n; i++) {
    scp_frame_info f;
    uint64_t lo, hi;
    scp_sym_function(s, i, &f);
    if (scp_sym_function_range(s, i, &lo, &hi) != SCP_OK) continue;
    /* Bounded: a fuzzed size must not turn one input into minutes. */
    for (uint64_t pc = lo; pc < hi && pc - lo < 4096; pc++) {
      const scp_frame_info *c;
      size_t k = scp_sym_chain(s, pc, &c);
      for (size_t j = 0; j < k; j++)
        if (!c[j].name || !c[j].file) __builtin_trap();
    }
  }
  scp_sym_destroy(s);
  return 0;
}
