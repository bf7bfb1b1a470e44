/*
 * test_report_sol.c — the report of a Solana profile (chain SCP_CHAIN_SOLANA)
 * in Solana's words: the whole text of a failed transaction's report, the
 * fall-back to the hottest functions when no line has a cost, and the
 * status words of the JSON and of check.  The texts are scprof's own
 * (regression pins of the layout); the numbers are the fixture's, worked
 * out below.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "output/out_fixture.h"

/*
 * A transaction whose instruction invokes a second program and fails:
 *   transaction (root)
 *   └ instruction #1                       self 0
 *     └ program:cpi                        self 10
 *       └ entrypoint (cpi.c:5)             self 40, lines cpi.c:7 30, cpi.c:0 10
 *         ├ syscall:sol_invoke_signed_c    1 call, self 946
 *         │ └ program:System               self 150
 *         └ syscall:sol_log_               2 calls, self 200
 * Total 1,346 CU of a 200,000 limit (0.67%); entrypoint's total 40 + 946 +
 * 150 + 200 = 1,336 (99.26%), the invoke's 946 + 150 = 1,096 (81.43%).
 */
static scp_profile *sol_fixture(bool with_lines) {
  scp_profile *p = prof_new(200000, 0);
  p->nmetrics = 1;
  p->metrics[0] = (scp_metric){"CU", "compute units", 200000};
  p->chain = SCP_CHAIN_SOLANA;
  p->title = str(p, "transaction t");
  meta(p, "log", "Program Cpi111 invoke [1]");
  meta(p, "log", "Program Cpi111 failed: custom program error: 0x1");
  p->status = SCP_ERR_TRAP;
  p->status_msg = str(p, "instruction #1 failed: Custom(1)");
  uint32_t ix = node(p, 0, frame(p, "instruction #1", "", 0, SCP_KIND_CONTRACT), 1, 0, 0);
  uint32_t prog = node(p, ix, frame(p, "program:cpi", "", 0, SCP_KIND_CONTRACT), 1, 10, 0);
  uint32_t ep = node(p, prog, frame(p, "entrypoint", "cpi.c", 5, SCP_KIND_GUEST), 1, 40, 0);
  if (with_lines) {
    line(p, ep, "cpi.c", 7, 30, 0);
    line(p, ep, "cpi.c", 0, 10, 0);
  } else {
    p->frames[p->nodes[ep].frame].file = str(p, "");
    p->frames[p->nodes[ep].frame].decl_line = 0;
    p->frames[p->nodes[ep].frame].source = SCP_SRC_SYMTAB;
  }
  uint32_t inv = node(p, ep, frame(p, "syscall:sol_invoke_signed_c", "", 0, SCP_KIND_HOST), 1, 946, 0);
  node(p, inv, frame(p, "program:System", "", 0, SCP_KIND_CONTRACT), 1, 150, 0);
  node(p, ep, frame(p, "syscall:sol_log_", "", 0, SCP_KIND_HOST), 2, 200, 0);
  finish(p);
  return p;
}

static void test_solana_report(void **state) {
  (void)state;
  scp_profile *p = sol_fixture(true);
  scp_buf b = {0};
  assert_int_equal(scp_out_report(p, NULL, &b), SCP_OK);
  assert_string_equal(b.data,
      "scprof report: transaction t\n"
      "  log     Program Cpi111 invoke [1]\n"
      "  log     Program Cpi111 failed: custom program error: 0x1\n"
      "  status  failed: custom program error: 0x1\n"
      "  error   instruction #1 failed: Custom(1)\n"
      "\n"
      "Compute units\n"
      "  metric  consumed    limit  % of limit  unit\n"
      "  CU         1,346  200,000       0.67%  compute units\n"
      "\n"
      "Top 20 functions by self CU\n"
      "  self CU       %  calls  function\n"
      "      946  70.28%      1  syscall:sol_invoke_signed_c\n"
      "      200  14.86%      2  syscall:sol_log_\n"
      "      150  11.14%      1  program:System\n"
      "       40   2.97%      1  entrypoint (cpi.c:5)\n"
      "       10   0.74%      1  program:cpi\n"
      "\n"
      "Top 20 functions by total CU\n"
      "  total CU        %  calls  function\n"
      "     1,346  100.00%      1  instruction #1\n"
      "     1,346  100.00%      1  program:cpi\n"
      "     1,336   99.26%      1  entrypoint (cpi.c:5)\n"
      "     1,096   81.43%      1  syscall:sol_invoke_signed_c\n"
      "       200   14.86%      2  syscall:sol_log_\n"
      "       150   11.14%      1  program:System\n"
      "\n"
      "Hottest source lines by CU\n"
      "  CU      %  line     function\n"
      "  30  2.23%  cpi.c:7  entrypoint (cpi.c:5)\n"
      "  (10 more in compiler-generated code without a source line, counted in its functions)\n"
      "\n"
      "Programs by total CU\n"
      "  total CU        %  calls  program\n"
      "     1,346  100.00%      1  program:cpi\n"
      "       150   11.14%      1  program:System\n"
      "\n"
      "Syscalls (self CU)\n"
      "  calls  self CU       %  syscall\n"
      "      1      946  70.28%  syscall:sol_invoke_signed_c\n"
      "      2      200  14.86%  syscall:sol_log_\n");
  scp_buf_free(&b);

  /* the same profile as Soroban's: its words, none of the above */
  p->chain = SCP_CHAIN_SOROBAN;
  assert_int_equal(scp_out_report(p, NULL, &b), SCP_OK);
  assert_non_null(strstr(b.data, "  status  contract trapped: instruction #1 failed: Custom(1)\n"));
  assert_non_null(strstr(b.data, "\nBudget\n"));
  assert_non_null(strstr(b.data, "\nHost functions (self cost)\n"));
  assert_null(strstr(b.data, "Syscalls"));
  scp_buf_free(&b);
  prof_free(p);
}

static void test_solana_no_lines(void **state) {
  (void)state;
  scp_profile *p = sol_fixture(false);
  scp_buf b = {0};
  assert_int_equal(scp_out_report(p, NULL, &b), SCP_OK);
  assert_null(strstr(b.data, "Hottest source lines"));
  assert_non_null(strstr(b.data,
      "\nHottest functions by self CU\n"
      "  self CU      %  calls  function\n"
      "       40  2.97%      1  entrypoint [symtab]\n"
      "  (no source lines: the program has no DWARF line table; give the\n"
      "   unstripped build of the same program with --symbols FILE)\n"));
  scp_buf_free(&b);
  prof_free(p);
}

static void test_solana_status_words(void **state) {
  (void)state;
  scp_profile *p = sol_fixture(true);
  scp_buf b = {0};
  assert_string_equal(scp_out_status_text(p), "failed");
  p->status = SCP_ERR_BUDGET;
  assert_string_equal(scp_out_status_text(p), "out of compute units");
  p->status = SCP_OK;
  assert_string_equal(scp_out_status_text(p), "success");
  /* check: the run's own line says what failed */
  p->status = SCP_ERR_TRAP;
  scp_check_limit lim[] = {{.metric = 0, .max = 2000}};
  scp_check_opts o = {.limits = lim, .nlimits = 1};
  assert_int_equal(scp_out_check(p, &o, &b), SCP_ERR_TRAP);
  assert_string_equal(b.data, "ok    CU 1,346 <= 2,000 (67.30%)\n"
                              "FAIL  run ended: instruction #1 failed: Custom(1)\n");
  scp_buf_free(&b);
  /* the JSON says the chain, last, and reads it back */
  assert_int_equal(scp_out_json(p, &b), SCP_OK);
  assert_non_null(strstr(b.data, "\"status\":{\"code\":\"SCP_ERR_TRAP\",\"text\":\"failed\","));
  assert_non_null(strstr(b.data, "\n],\n\"chain\":\"solana\"}\n"));
  scp_profile *back = NULL;
  scp_error err = {0};
  assert_int_equal(scp_out_json_load(b.data, b.len, "t.json", &back, &err), SCP_OK);
  assert_int_equal(back->chain, SCP_CHAIN_SOLANA);
  scp_profile_destroy(back);
  scp_buf_free(&b);
  /* an unknown chain is refused */
  static const char bad[] = "\"chain\":\"solana\"";
  assert_int_equal(scp_out_json(p, &b), SCP_OK);
  char *at = strstr(b.data, bad);
  assert_non_null(at);
  memcpy(at + 9, "tezos\" ", 7);
  assert_int_equal(scp_out_json_load(b.data, b.len, "t.json", &back, &err), SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "unknown chain"));
  scp_buf_free(&b);
  prof_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_solana_report),
      cmocka_unit_test(test_solana_no_lines),
      cmocka_unit_test(test_solana_status_words),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
