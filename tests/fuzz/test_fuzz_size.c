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

static unsigned replay(const char *dir, bool truncations) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  unsigned n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    uint8_t *data;
    size_t len;
    scp_error err;
    if (scp_read_file(path, &data, &len, &err) != SCP_OK) continue;
    fuzz_size_one(data, len);
    for (size_t cut = 0; truncations && cut < len; cut += len / 64 + 1) fuzz_size_one(data, cut);
    free(data);
    n++;
  }
  closedir(d);
  return n;
}

static void test_corpora(void **state) {
  (void)state;
  assert_true(replay("tests/fuzz/corpus", false) > 0);
  assert_true(replay("tests/fuzz/corpus-sbpf", false) > 0);
}

static void test_fixtures(void **state) {
  (void)state;
  assert_true(replay(build_path("examples"), true) > 0);
  assert_true(replay(build_path("tests/fixtures/wasm"), true) > 0);
  assert_true(replay(build_path("tests/fixtures/sbpf"), true) > 0);
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
