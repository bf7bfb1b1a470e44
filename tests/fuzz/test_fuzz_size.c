/*
 * test_fuzz_size.c — replays the WASM and sBPF fuzz corpora, and every
 * example, WASM fixture and linked sBPF fixture with 64 truncations of
 * each, and deterministic mutants of a module and two programs, through
 * the size tree (fuzz_size.h): no crash, and every tree that is built
 * sums to its input's length.  Runs under the sanitizers in
 * `make check`.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_size.h"
#include "build_dir.h"
#include "replay_dir.h"

static void test_corpora(void **state) {
  (void)state;
  assert_true(replay_dir("tests/fuzz/corpus", false, fuzz_size_one) > 0);
  assert_true(replay_dir("tests/fuzz/corpus-sbpf", false, fuzz_size_one) > 0);
}

static void test_fixtures(void **state) {
  (void)state;
  assert_true(replay_dir(build_path("examples"), true, fuzz_size_one) > 0);
  assert_true(replay_dir(build_path("tests/fixtures/wasm"), true, fuzz_size_one) > 0);
  assert_true(replay_dir(build_path("tests/fixtures/sbpf"), true, fuzz_size_one) > 0);
}

/* Deterministic mutants of a module and a program: 1 to 4 bytes changed,
 * most in the headers and length fields the walkers trust least. */
static void mutate(const char *rel) {
  uint8_t *orig, *buf;
  size_t len;
  scp_error err;
  assert_int_equal(scp_read_file(build_path(rel), &orig, &len, &err), SCP_OK);
  buf = malloc(len);
  assert_non_null(buf);
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int round = 0; round < 3000; round++) {
    memcpy(buf, orig, len);
    for (int k = 0, n = 1 + round % 4; k < n; k++) {
      x ^= x << 13; x ^= x >> 7; x ^= x << 17;
      size_t at = (x >> 8) % (round % 2 ? len : (len < 512 ? len : 512));
      if (orig[0] == 0x7f && round % 3 == 0) {   /* the section header table */
        size_t shoff = (size_t)scp_le64(orig + 40);
        if (shoff < len) at = shoff + (x >> 16) % (len - shoff);
      }
      buf[at] ^= (uint8_t)(x | 1);
    }
    fuzz_size_one(buf, len);
  }
  free(buf);
  free(orig);
}

static void test_mutants(void **state) {
  (void)state;
  mutate("examples/demo.wasm");
  mutate("tests/fixtures/sbpf/counter.so");
  mutate("tests/fixtures/sbpf/counter_v3.so");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_corpora),
      cmocka_unit_test(test_fixtures),
      cmocka_unit_test(test_mutants),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
