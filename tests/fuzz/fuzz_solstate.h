/*
 * fuzz_solstate.h — one input as a Solana account file
 * (scp_sol_state_add_bytes, sol_state.c): every form `solana account`, the
 * RPC and Seashell write, gzip-compressed or not, with base64, base58 and
 * base64+zstd data.  Used by the libFuzzer target (fuzz_solstate.c) and the
 * corpus replay (test_fuzz_replay.c, tests/fuzz/corpus-solstate).
 *
 * Input layout: byte 0 picks the file's name and addresses (b % 4: no
 * address, the name ADDR.json, one address given, two addresses given, as
 * --accounts ADDR,...=FILE has them); the rest is the file's bytes.
 *
 * Oracles besides the sanitizers: a failure is one line starting with the
 * file's name and has status SCP_ERR_MALFORMED (never SCP_ERR_NOMEM: no
 * unbounded allocation; never SCP_ERR_INTERNAL); after success every
 * account has at most 10 MiB of data and the accounts' keys are distinct.
 */
#ifndef SCP_FUZZ_SOLSTATE_H
#define SCP_FUZZ_SOLSTATE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solana/scp_sol_state.h"

static inline void fuzz_solstate_one(const uint8_t *data, size_t size) {
  static const char *const NAMES[4] = {"a.json", "4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi.json", "b.json",
                                       "c.json"};
  if (!size) return;
  unsigned pick = data[0] % 4;
  uint8_t keys[2][32];
  memset(keys[0], 1, 32);
  memset(keys[1], 2, 32);
  scp_sol_state st = {0};
  scp_error err = {0};
  int rc = scp_sol_state_add_bytes(&st, data + 1, size - 1, NAMES[pick], (const uint8_t(*)[32])keys,
                                   pick < 2 ? 0 : pick - 1, &err);
  if (rc) {
    if (rc != SCP_ERR_MALFORMED || strncmp(err.msg, NAMES[pick], strlen(NAMES[pick])) || strchr(err.msg, '\n')) {
      fprintf(stderr, "fuzz_solstate: status %d: %s\n", rc, err.msg);
      abort();
    }
  } else {
    for (size_t i = 0; i < st.n; i++) {
      if (st.accts[i].len > SCP_SOL_MAX_PERMITTED_DATA_LENGTH) abort();
      for (size_t k = 0; k < i; k++)
        if (!memcmp(st.accts[i].key, st.accts[k].key, 32)) abort();
    }
  }
  scp_sol_state_free(&st);
}

#endif
