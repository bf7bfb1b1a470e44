/* test_sol_progs.c — the loaded-program cache (src/solana/scp_sol_progs.h):
 * one entry per distinct ELF whatever buffer carries it, a failed load not
 * kept, the mapper opened once; and a program shared across transactions
 * and its own CPIs costs what it costs when loaded afresh (the cpi
 * fixture's 2969 CU, litesvm's number, as in test_sol_tx.c) on every run
 * of a handle and on two handles side by side. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "scprof.h"
#include "solana/scp_sol.h"
#include "solana/scp_sol_progs.h"
#include "build_dir.h"

/* the cpi fixture (tests/fixtures/sbpf/cpi.c), NULL when not built */
static uint8_t *cpi_elf(size_t *len) {
  uint8_t *data;
  scp_error err;
  return scp_read_file(build_path("tests/fixtures/sbpf/cpi.so"), &data, len, &err) == SCP_OK ? data : NULL;
}

static void test_one_entry_per_elf(void **state) {
  size_t len;
  uint8_t *elf = cpi_elf(&len);
  if (!elf) skip();
  uint8_t *copy = malloc(len);
  assert_non_null(copy);
  memcpy(copy, elf, len);
  scp_sol_progs *c;
  scp_error err;
  assert_int_equal(scp_sol_progs_new(&c, &err), SCP_OK);
  scp_sol_prog *a, *b, *bad;
  assert_int_equal(scp_sol_progs_get(c, NULL, elf, len, "cpi", &a, &err), SCP_OK);
  assert_int_equal(scp_sol_progs_get(c, NULL, copy, len, "other", &b, &err), SCP_OK);
  assert_ptr_equal(a, b);
  assert_int_equal(scp_sol_progs_count(c), 1);
  assert_non_null(scp_sol_prog_sym(a));
  assert_ptr_equal(scp_sol_prog_sym(a), scp_sol_prog_sym(b));
  /* the same bytes cut short: another key, which does not load and is not kept */
  assert_int_equal(scp_sol_progs_get(c, NULL, elf, 40, "short.so", &bad, &err), SCP_ERR_MALFORMED);
  assert_null(bad);
  assert_non_null(strstr(err.msg, "short.so"));
  assert_int_equal(scp_sol_progs_count(c), 1);
  /* one byte changed: another program */
  copy[len - 1] ^= 1;
  assert_int_equal(scp_sol_progs_get(c, NULL, copy, len, "changed", &b, &err), SCP_OK);
  assert_ptr_not_equal(a, b);
  assert_int_equal(scp_sol_progs_count(c), 2);
  scp_sol_progs_free(c);
  free(copy);
  free(elf);
}

/* A pinned buffer is found by its address; any other buffer by its bytes,
 * so an account whose data is rewritten in place (an upgrade) gets the new
 * program, at the same address and length. */
static void test_pinned_and_rewritten(void **state) {
  size_t len;
  uint8_t *elf = cpi_elf(&len);
  if (!elf) skip();
  uint8_t *pinned = malloc(len), *acct = malloc(len);
  assert_true(pinned && acct);
  memcpy(pinned, elf, len);
  memcpy(acct, elf, len);
  scp_sol_progs *c;
  scp_error err;
  scp_sol_prog *a, *b;
  assert_int_equal(scp_sol_progs_new(&c, &err), SCP_OK);
  assert_int_equal(scp_sol_progs_pin(c, pinned, len, &err), SCP_OK);
  assert_int_equal(scp_sol_progs_get(c, NULL, pinned, len, "pinned", &a, &err), SCP_OK);
  assert_int_equal(scp_sol_progs_get(c, NULL, acct, len, "account", &b, &err), SCP_OK);
  assert_ptr_equal(a, b);
  /* the account's data rewritten in place: compared, so another program */
  acct[len - 1] ^= 1;
  assert_int_equal(scp_sol_progs_get(c, NULL, acct, len, "account", &b, &err), SCP_OK);
  assert_ptr_not_equal(a, b);
  assert_int_equal(scp_sol_progs_count(c), 2);
  /* and back: the first program again */
  acct[len - 1] ^= 1;
  assert_int_equal(scp_sol_progs_get(c, NULL, acct, len, "account", &b, &err), SCP_OK);
  assert_ptr_equal(a, b);
  /* the pinned buffer is not compared again (which is why its caller may
   * not change it): the same entry although its last byte now differs */
  pinned[len - 1] ^= 1;
  assert_int_equal(scp_sol_progs_get(c, NULL, pinned, len, "pinned", &b, &err), SCP_OK);
  assert_ptr_equal(a, b);
  /* the same address with another length is not the pinned buffer */
  assert_int_equal(scp_sol_progs_get(c, NULL, pinned, 40, "short.so", &b, &err), SCP_ERR_MALFORMED);
  assert_int_equal(scp_sol_progs_count(c), 2);
  scp_sol_progs_free(c);
  free(pinned);
  free(acct);
  free(elf);
}

static scp_solana *cpi_chain(const uint8_t *elf, size_t len, uint8_t id[32]) {
  scp_solana *s;
  scp_error err;
  assert_int_equal(scp_solana_new(&s, &err), SCP_OK);
  scp_sol_key_parse("ScprofProgram111111111111111111111111111111", 43, id);
  assert_int_equal(scp_solana_add_program(s, id, elf, len, 3, "cpi", &err), SCP_OK);
  return s;
}

static uint64_t run_cpi(scp_solana *s, const uint8_t id[32], size_t *nnodes) {
  scp_solana_meta m = {{0}, false, false};
  memcpy(m.pubkey, id, 32);
  uint8_t d[2] = {2, 2};
  scp_solana_ix ix = {{0}, &m, 1, d, 2};
  memcpy(ix.program_id, id, 32);
  scp_solana_result r;
  scp_profile *p;
  scp_error err;
  assert_int_equal(scp_solana_transaction(s, &ix, 1, "t", &p, &r, &err), SCP_OK);
  assert_string_equal(r.outcome, "ok");
  uint64_t sum = 0;
  for (size_t i = 0; i < p->nnodes; i++) sum += p->nodes[i].self[0];
  assert_int_equal(sum, r.cu);
  *nnodes = p->nnodes;
  uint64_t cu = r.cu;
  scp_profile_destroy(p);
  scp_solana_result_free(&r);
  return cu;
}

/* The fixture invokes itself twice (depth 3): three live instructions of
 * one cached program at once, each with its own state. */
static void test_shared_across_runs_and_handles(void **state) {
  size_t len, n1, n2, n3;
  uint8_t *elf = cpi_elf(&len);
  if (!elf) skip();
  uint8_t id[32];
  scp_solana *s = cpi_chain(elf, len, id), *t = cpi_chain(elf, len, id);
  assert_int_equal(run_cpi(s, id, &n1), 2969);
  assert_int_equal(run_cpi(t, id, &n2), 2969);
  assert_int_equal(run_cpi(s, id, &n3), 2969);
  assert_int_equal(n1, n2);
  assert_int_equal(n1, n3);
  scp_solana_free(s);
  scp_solana_free(t);
  free(elf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_one_entry_per_elf),
      cmocka_unit_test(test_pinned_and_rewritten),
      cmocka_unit_test(test_shared_across_runs_and_handles),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
