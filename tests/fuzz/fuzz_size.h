/*
 * fuzz_size.h — one input through the size tree (src/size): built from
 * the bytes as a WASM module or an ELF file, it must hold exactly the
 * input's length and add up (inclusive == self + children, lines == self)
 * whenever it is built at all, and so must it once marked against no run.
 * Used by the libFuzzer target (fuzz_size.c, `make fuzz`) and by the
 * replay of the corpora and every fixture with its truncations
 * (test_fuzz_size.c).
 */
#ifndef SCP_FUZZ_SIZE_H
#define SCP_FUZZ_SIZE_H

#include "size/scp_size.h"

static inline void fuzz_size_one(const uint8_t *data, size_t size) {
  scp_profile *p = NULL;
  scp_error err;
  if (scp_size_build(data, size, NULL, &p, &err) != SCP_OK) return;
  if (scp_profile_total(p, 0) != size || !scp_prof_check(p)) __builtin_trap();
  scp_size_mark_result r;
  if (scp_size_mark(p, NULL, 0, &r, &err) == SCP_OK &&
      (scp_profile_total(p, 1) != r.never_run || r.never_run != r.code || !scp_prof_check(p)))
    __builtin_trap();
  scp_profile_destroy(p);
}

#endif
