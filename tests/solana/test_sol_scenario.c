/*
 * test_sol_scenario.c — reading a Solana scenario stays linear: 100,000
 * programs and 100,000 instructions naming them and 60,000 listed
 * accounts (the most a scenario may hold is 65,535), and one instruction
 * naming 100,000 accounts, load within a second of CPU time (five under
 * the sanitizers); an account listed twice is still found when it is the
 * last.  The parse scp_sol_scenario_probe hands back serves a load of the
 * same path (the file is not read again); a load without it, or with the
 * probe of another path, reads its file.  The scenarios are written under
 * SCP_BUILD/tests/solana/scale.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "solana/scp_sol_scenario.h"
#include "util/scp_util.h"
#include "build_dir.h"
#include "scale_test.h"

#ifndef N
#define N 100000
#endif
#define NACCOUNTS 60000

/* Write b as name in the scale folder (with p.so, 16 bytes, beside it);
 * returns the path (static). */
static const char *write_scenario(const char *name, scp_buf *b) {
  static char dir[512], path[600];
  if (!dir[0]) scale_folder(dir, sizeof dir, "solana", "p.so", "\177ELF not a program", 16);
  return scale_write(path, sizeof path, dir, name, b);
}

/* The base58 text of the key made of i's bytes. */
static void key(size_t i, char out[SCP_SOL_B58_KEY_MAX]) {
  uint8_t k[32] = {0};
  for (int b = 0; b < 8; b++) k[b] = (uint8_t)(i >> (8 * b));
  k[31] = 0x77;
  scp_sol_key_str(k, out);
}

static scp_sol_scenario *timed_load(const char *path, const char *what, int *rc, scp_error *err) {
  scp_sol_scenario *s = NULL;
  double t0 = cpu_now();
  *rc = scp_sol_scenario_load(path, &s, err);
  double dt = cpu_now() - t0;
  printf("# %s: %.3f s CPU%s%s\n", what, dt, *rc ? ": " : "", *rc ? err->msg : "");
  assert_true(dt < CPU_LIMIT);
  return s;
}

/* Programs called by name, each instruction naming a listed account. */
static void test_programs_accounts_instructions(void **state) {
  (void)state;
  char k[SCP_SOL_B58_KEY_MAX];
  scp_buf b = {0};
  scp_buf_printf(&b, "{\"programs\":[");
  for (size_t i = 0; i < N; i++) scp_buf_printf(&b, "%s{\"name\":\"p%zu\",\"elf\":\"p.so\"}", i ? "," : "", i);
  scp_buf_printf(&b, "],\"accounts\":[");
  for (size_t i = 0; i < NACCOUNTS; i++) {
    key(i, k);
    scp_buf_printf(&b, "%s{\"pubkey\":\"%s\"}", i ? "," : "", k);
  }
  scp_buf_printf(&b, "],\"instructions\":[");
  for (size_t i = 0; i < N; i++) {
    key((i * 7919) % NACCOUNTS, k);
    /* the last one signs: the whole file stays under the 16 MiB scenario limit */
    scp_buf_printf(&b, "%s{\"program\":\"p%zu\",\"accounts\":[{\"pubkey\":\"%s\"%s}]}",
                   i ? "," : "", (i * 31) % N, k, i == N - 1 ? ",\"signer\":true" : "");
  }
  scp_buf_printf(&b, "]}");
  int rc;
  scp_error err = {0};
  scp_sol_scenario *s = timed_load(write_scenario("programs.json", &b), "programs", &rc, &err);
  assert_int_equal(rc, SCP_OK);
  assert_int_equal(s->nprograms, N);
  assert_int_equal(s->naccounts, NACCOUNTS);
  assert_int_equal(s->nixs, N);
  const scp_sol_scn_ix *x = &s->ixs[N - 1];
  assert_int_equal(x->program, ((size_t)(N - 1) * 31) % N);
  assert_int_equal(x->naccts, 1);
  assert_int_equal(x->accts[0].index, ((size_t)(N - 1) * 7919) % NACCOUNTS);
  assert_true(x->accts[0].signer && !x->accts[0].writable);
  /* programs of one file share its bytes, read once */
  assert_ptr_equal(s->programs[N - 1].elf, s->programs[0].elf);
  scp_sol_scenario_free(s);
}

/* One instruction naming 100,000 accounts, 50,000 of them new (empty
 * system accounts), each twice with different flags. */
static void test_one_instruction_many_accounts(void **state) {
  (void)state;
  char k[SCP_SOL_B58_KEY_MAX];
  scp_buf b = {0};
  scp_buf_printf(&b, "{\"programs\":[{\"name\":\"p\",\"elf\":\"p.so\"}],\"instructions\":"
                 "[{\"program\":\"p\",\"accounts\":[");
  for (size_t i = 0; i < N; i++) {
    key(i % (N / 2), k);
    scp_buf_printf(&b, "%s{\"pubkey\":\"%s\",\"%s\":true}", i ? "," : "", k,
                   i < N / 2 ? "signer" : "writable");
  }
  scp_buf_printf(&b, "]}]}");
  int rc;
  scp_error err = {0};
  scp_sol_scenario *s = timed_load(write_scenario("wide.json", &b), "one instruction", &rc, &err);
  assert_int_equal(rc, SCP_OK);
  assert_int_equal(s->naccounts, N / 2);
  const scp_sol_scn_ix *x = &s->ixs[0];
  assert_int_equal(x->naccts, N);
  for (size_t i = 0; i < N; i += 997) {
    assert_int_equal(x->accts[i].index, i % (N / 2));
    assert_true(x->accts[i].signer && x->accts[i].writable);
  }
  scp_sol_scenario_free(s);
}

static void test_duplicate_account_last(void **state) {
  (void)state;
  char k[SCP_SOL_B58_KEY_MAX];
  scp_buf b = {0};
  scp_buf_printf(&b, "{\"programs\":[{\"name\":\"p\",\"elf\":\"p.so\"}],\"accounts\":[");
  for (size_t i = 0; i < NACCOUNTS; i++) {
    key(i == NACCOUNTS - 1 ? 0 : i, k);
    scp_buf_printf(&b, "%s{\"pubkey\":\"%s\"}", i ? "," : "", k);
  }
  scp_buf_printf(&b, "],\"instructions\":[{\"program\":\"p\"}]}");
  int rc;
  scp_error err = {0};
  assert_null(timed_load(write_scenario("dup.json", &b), "duplicate account", &rc, &err));
  assert_int_equal(rc, SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "an account is listed twice"));
}

/* A scenario of n programs, p0.., as path name. */
static const char *small(const char *name, size_t n) {
  scp_buf b = {0};
  scp_buf_printf(&b, "{\"programs\":[");
  for (size_t i = 0; i < n; i++) scp_buf_printf(&b, "%s{\"name\":\"p%zu\",\"elf\":\"p.so\"}", i ? "," : "", i);
  scp_buf_printf(&b, "],\"instructions\":[{\"program\":\"p0\"}]}");
  return write_scenario(name, &b);
}

/* The programs of path's scenario, loaded from f's parse or the file. */
static size_t programs_of(const char *path, const scp_sol_scenario_file *f) {
  scp_sol_scenario *s = NULL;
  scp_error err = {0};
  assert_int_equal(scp_sol_scenario_load_parsed(path, f, &s, &err), SCP_OK);
  size_t n = s->nprograms;
  scp_sol_scenario_free(s);
  return n;
}

/* The file is rewritten after the probe: a load from the probe sees what
 * was probed (one parse), every other load sees the file as it is. */
static void test_probe_then_load(void **state) {
  (void)state;
  char a[600], b[600];
  snprintf(a, sizeof a, "%s", small("probe_a.json", 1));
  snprintf(b, sizeof b, "%s", small("probe_b.json", 2));
  scp_sol_scenario_file *f = NULL;
  assert_true(scp_sol_scenario_probe(a, &f));
  assert_non_null(f);
  small("probe_a.json", 3);
  assert_int_equal(programs_of(a, f), 1);     /* the probed parse, not the file */
  assert_int_equal(programs_of(a, f), 1);     /* the caller's still, as often as asked */
  assert_int_equal(programs_of(b, f), 2);     /* another path: its own file */
  assert_int_equal(programs_of(a, NULL), 3);  /* no probe: the file */
  scp_sol_scenario_file_free(f);
  assert_int_equal(programs_of(a, NULL), 3);
  assert_int_equal(programs_of(a, NULL), 3);
  /* a yes without a handle wanted, and the plain yes/no */
  assert_true(scp_sol_scenario_probe(b, NULL));
  assert_true(scp_sol_scenario_is(b));
  scp_sol_scenario_file_free(NULL);
}

/* Not a Solana scenario (no "programs", not JSON, no file): no, no
 * handle, and the load says why as it always did. */
static void test_probe_not_a_scenario(void **state) {
  (void)state;
  const char *names[] = {"probe_not.json", "probe_text.json"};
  const char *texts[] = {"{\"calls\":[]}", "not JSON"};
  const int codes[] = {SCP_ERR_MALFORMED, SCP_ERR_MALFORMED};
  for (int k = 0; k < 2; k++) {
    scp_buf nb = {0};
    scp_buf_printf(&nb, "%s", texts[k]);
    char n[600];
    snprintf(n, sizeof n, "%s", write_scenario(names[k], &nb));
    scp_sol_scenario_file *f = (scp_sol_scenario_file *)&f;   /* set to NULL by the probe */
    assert_false(scp_sol_scenario_probe(n, &f));
    assert_null(f);
    assert_false(scp_sol_scenario_is(n));
    scp_sol_scenario *s = NULL;
    scp_error err = {0};
    assert_int_equal(scp_sol_scenario_load_parsed(n, f, &s, &err), codes[k]);
    assert_null(s);
    assert_non_null(strstr(err.msg, n));
  }
  scp_sol_scenario_file *f = (scp_sol_scenario_file *)&f;
  assert_false(scp_sol_scenario_probe("/nonexistent/probe.json", &f));
  assert_null(f);
  scp_sol_scenario *s = NULL;
  scp_error err = {0};
  assert_int_equal(scp_sol_scenario_load("/nonexistent/probe.json", &s, &err), SCP_ERR_IO);
  assert_null(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_programs_accounts_instructions),
      cmocka_unit_test(test_one_instruction_many_accounts),
      cmocka_unit_test(test_duplicate_account_last),
      cmocka_unit_test(test_probe_then_load),
      cmocka_unit_test(test_probe_not_a_scenario),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
