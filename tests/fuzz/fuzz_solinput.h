/*
 * fuzz_solinput.h — the Solana input region: accounts and an instruction
 * built from the input are serialized (scp_sol_input_serialize), the rest of
 * the input is XORed into the region as a program's writes would land, and
 * the region is read back with the runtime's checks
 * (scp_sol_input_deserialize).  Used by the libFuzzer target
 * (fuzz_solinput.c) and the corpus replay (tests/solana/test_sol_fuzz.c,
 * tests/fuzz/corpus-solinput).
 *
 * Input layout (reads past the end yield zeros):
 *   byte 0      1 + (b & 3) transaction accounts; bits 2-3 the loader (1 + b % 3)
 *   byte 1      b % 8 instruction accounts
 *   per account  data length (b % 48), owner (bit 0: the program, else
 *               another), lamports (one byte)
 *   per instruction account  index (b % accounts), bit 6 signer, bit 7 writable
 *   then        pairs (u16 little-endian offset, byte) XORed into the region
 * Oracles: serialization succeeds; after a successful read-back every
 * account's data grew by at most 10 KiB; a failed one names an error.
 */
#ifndef SCP_FUZZ_SOLINPUT_H
#define SCP_FUZZ_SOLINPUT_H

#include <stdlib.h>
#include <string.h>
#include "solana/scp_sol_input.h"

static inline uint8_t fsi_u8(const uint8_t *d, size_t n, size_t *at) {
  return *at < n ? d[(*at)++] : ((*at)++, 0);
}

static inline void fuzz_solinput_one(const uint8_t *d, size_t n) {
  static const uint8_t PROG[32] = {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
                                   9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
  size_t at = 0;
  uint8_t b0 = fsi_u8(d, n, &at);
  size_t na = 1 + (b0 & 3), nx = fsi_u8(d, n, &at) % 8;
  scp_sol_account a[4], pre[4];
  size_t pre_len[4];
  scp_sol_ixacct x[8];
  memset(a, 0, sizeof a);
  for (size_t i = 0; i < na; i++) {
    a[i].len = fsi_u8(d, n, &at) % 48;
    a[i].data = calloc(a[i].len + 1, 1);
    if (!a[i].data) abort();
    memset(a[i].key, (int)i + 1, 32);
    memset(a[i].owner, fsi_u8(d, n, &at) & 1 ? 9 : 5, 32);
    a[i].lamports = fsi_u8(d, n, &at);
    pre_len[i] = a[i].len;
    if (scp_sol_account_copy(&pre[i], &a[i])) abort();
  }
  for (size_t i = 0; i < nx; i++) {
    uint8_t b = fsi_u8(d, n, &at);
    x[i] = (scp_sol_ixacct){(uint16_t)(b % na), (b >> 6) & 1, b >> 7};
  }
  /* the message merges each account's flags */
  for (size_t i = 0; i < nx; i++)
    for (size_t j = 0; j < nx; j++)
      if (x[i].index == x[j].index) {
        x[i].signer |= x[j].signer;
        x[i].writable |= x[j].writable;
      }
  scp_sol_ix ix = {x, nx, (const uint8_t *)"ix", 2, PROG, (scp_sol_loader)(1 + ((b0 >> 2) & 3) % 3)};
  scp_sol_input in;
  scp_sol_ierr ie = {0};
  if (scp_sol_input_serialize(a, na, &ix, &in, &ie, NULL) != SCP_OK) abort();
  while (at + 3 <= n) {
    size_t off = (size_t)d[at] | (size_t)d[at + 1] << 8;
    in.buf[off % in.len] ^= d[at + 2];
    at += 3;
  }
  int rc = scp_sol_input_deserialize(&in, a, &ix, &ie);
  if (rc == SCP_OK) {
    for (size_t i = 0; i < na; i++)
      if (a[i].len > pre_len[i] + SCP_SOL_MAX_PERMITTED_DATA_INCREASE) abort();
    (void)scp_sol_input_balanced(pre, a, &ix);
  } else if (rc != SCP_ERR_TRAP || ie.kind == SCP_SOL_IERR_NONE) {
    abort();
  }
  scp_sol_input_free(&in);
  for (size_t i = 0; i < na; i++) {
    scp_sol_account_free(&a[i]);
    scp_sol_account_free(&pre[i]);
  }
}

#endif
