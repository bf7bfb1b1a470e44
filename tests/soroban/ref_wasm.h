/*
 * ref_wasm.h — the reference host's own test contracts, for checking our
 * charges against its golden traces.  They are in tests/data/ref-wasms/
 * (rs-soroban-env's soroban-test-wasms, Apache-2.0; provenance in its
 * README.md), so the checks always run: a file that is missing or is not
 * the one the traces name (its SHA-256) fails the test, never skips it.
 */
#ifndef SCP_TEST_REF_WASM_H
#define SCP_TEST_REF_WASM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/sha.h>

#include "util/scp_util.h"
#include "soroban/core/host_private.h"

#define REF_WASM_DIR "tests/data/ref-wasms"

/* name's bytes into *w (malloc'd), *n; false (with a message) when the
 * file cannot be read or its SHA-256 does not begin with the 8 hex digits
 * the traces name it by (VM:<hash>) */
static inline bool ref_wasm(const char *name, const char *hash8, uint8_t **w, size_t *n) {
  char path[1024];
  snprintf(path, sizeof path, REF_WASM_DIR "/%s", name);
  scp_error err;
  if (scp_read_file(path, w, n, &err) != SCP_OK) {
    print_message("%s: %s (run from the repository root)\n", path, err.msg);
    return false;
  }
  uint8_t h[32];
  char hex[9];
  SHA256(*w, *n, h);
  snprintf(hex, sizeof hex, "%02x%02x%02x%02x", h[0], h[1], h[2], h[3]);
  if (strcmp(hex, hash8) != 0) {
    print_message("%s: SHA-256 begins %s, the traces name %s\n", path, hex, hash8);
    free(*w);
    return false;
  }
  return true;
}

/* The state after upload_wasm + create_contract of wasm[0..n) as contract
 * id, as the reference's traces have it: its code entry and its instance
 * entry (an executable naming the code's hash) in the storage map and
 * footprint; *addr the contract's Address object. */
static inline void ref_deployed(scp_host *h, const uint8_t *w, size_t n, const uint8_t id[32],
                                uint64_t *addr) {
  uint8_t hash[32], img[44] = {0, 0, 0, 19};   /* ScVal::ContractInstance */
  SHA256(w, n, hash);
  memcpy(img + 8, hash, 32);
  scp_lkey ck = {.type = SCP_LK_CONTRACT_CODE};
  memcpy(ck.id, hash, 32);
  uint8_t kb[4] = {0, 0, 0, 20};               /* ScVal::LedgerKeyContractInstance */
  scp_lkey ik = {.type = SCP_LK_CONTRACT_DATA, .dur = SCP_DUR_PERSISTENT, .key = kb, .keylen = 4};
  memcpy(ik.id, id, 32);
  assert_int_equal(scp_storage_seed(h, &ck, w, (uint32_t)n, 4095, true), SCP_OK);
  assert_int_equal(scp_storage_seed(h, &ik, img, sizeof img, 4095, true), SCP_OK);
  uint8_t enc[33] = {1};                       /* ScAddress::Contract */
  memcpy(enc + 1, id, 32);
  assert_int_equal(scp_host_memobj_new_from_slice(h, SCP_TAG_ADDRESS_OBJ, enc, 33, addr), SCP_OK);
}

#endif
