/*
 * test_sol_fuzz.c — replays tests/fuzz/corpus-solinput through the Solana
 * input-region fuzz target (tests/fuzz/fuzz_solinput.h), every prefix of
 * every seed too, so inputs that once crashed stay fixed.  Runs under the
 * sanitizers in `make check`.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>

#include "../fuzz/fuzz_solinput.h"
#include "util/scp_util.h"

static void test_corpus(void **state) {
  (void)state;
  DIR *dir = opendir("tests/fuzz/corpus-solinput");
  assert_non_null(dir);
  unsigned n = 0;
  struct dirent *e;
  while ((e = readdir(dir))) {
    if (e->d_name[0] == '.') continue;
    char path[1024];
    snprintf(path, sizeof path, "tests/fuzz/corpus-solinput/%s", e->d_name);
    uint8_t *data;
    size_t len;
    scp_error err;
    assert_int_equal(scp_read_file(path, &data, &len, &err), SCP_OK);
    for (size_t cut = 0; cut <= len; cut++) fuzz_solinput_one(data, cut);
    free(data);
    n++;
  }
  closedir(dir);
  assert_true(n >= 5);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_corpus)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
