/*
 * test_keccak.c — crypto_keccak: Keccak-256 of "" and "abc" (the original
 * padding, not SHA3-256's), inputs of one block and a byte more, and the
 * incremental form (parts split anywhere, empty parts) equal to the one-shot
 * one, which Solana's sol_keccak256 over several slices relies on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "crypto/crypto_keccak.h"

static void hex(const char *h, uint8_t out[32]) {
  for (int i = 0; i < 32; i++) {
    unsigned v;
    sscanf(h + 2 * i, "%2x", &v);
    out[i] = (uint8_t)v;
  }
}

static void test_known(void **state) {
  (void)state;
  uint8_t d[32], want[32];
  scp_keccak256((const uint8_t *)"", 0, d);
  hex("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470", want);
  assert_memory_equal(d, want, 32);
  scp_keccak256((const uint8_t *)"abc", 3, d);
  hex("4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45", want);
  assert_memory_equal(d, want, 32);
  /* more than one 136-byte block */
  uint8_t big[300], d2[32];
  memset(big, 'a', sizeof big);
  scp_keccak256(big, 136, d);
  scp_keccak256(big, 137, d2);
  assert_memory_not_equal(d, d2, 32);
}

static void test_incremental(void **state) {
  (void)state;
  uint8_t buf[400], one[32], parts[32];
  for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i * 7 + 3);
  for (size_t len = 0; len <= sizeof buf; len += 37)
    for (size_t cut = 0; cut <= len; cut += 29) {
      scp_keccak256(buf, len, one);
      scp_keccak k;
      scp_keccak_init(&k);
      scp_keccak_update(&k, buf, cut);
      scp_keccak_update(&k, NULL, 0);
      scp_keccak_update(&k, buf + cut, len - cut);
      scp_keccak_final(&k, parts);
      assert_memory_equal(one, parts, 32);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_known),
    cmocka_unit_test(test_incremental),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
