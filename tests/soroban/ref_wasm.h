/*
 * ref_wasm.h — the reference host's own test contracts, for checking our
 * charges against its golden traces.  They are another project's build
 * products, so the repository does not carry them: point SCP_REF_WASMS at
 * a folder holding them (rs-soroban-env v28.0.2,
 * soroban-test-wasms/wasm-workspace/opt/20/, the .wasm files) and these checks run;
 * without it they are skipped.
 */
#ifndef SCP_TEST_REF_WASM_H
#define SCP_TEST_REF_WASM_H

#include <stdio.h>
#include <stdlib.h>

#include "util/scp_util.h"

static inline bool ref_wasm(const char *name, uint8_t **w, size_t *n) {
  const char *dir = getenv("SCP_REF_WASMS");
  if (!dir || !*dir) return false;
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  scp_error err;
  return scp_read_file(path, w, n, &err) == SCP_OK;
}

#endif
