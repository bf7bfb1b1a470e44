/*
 * test_pc_runs.c — per-instruction run counts through the output layer:
 * report.json writes them after each row's cost, reads them back (on every
 * row or on none), and annotate's instruction listing shows them as a
 * column.  The profile is built by hand (out_fixture.h), so the figures
 * are the test's own: what is checked is that they arrive unchanged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "out_fixture.h"

/* root -> f (guest, no source lines) with three instruction rows:
 *   0x10 entry   CPU 8    ran 2
 *   0x12 loop    CPU 40   ran 10
 *   0x14 call    CPU 536  ran 0 (charged ahead, never ran)
 * self CPU 584, memory 0. */
static scp_profile *listing_fixture(bool runs) {
  scp_profile *p = prof_new(0, 0);
  p->chain = SCP_CHAIN_SOROBAN;
  uint32_t fr = frame(p, "f", "", 0, SCP_KIND_GUEST);
  uint32_t n = node(p, 0, fr, 2, 584, 0);
  static const struct { uint64_t pc, cpu, runs; const char *text; } rows[] = {
    {0x10, 8, 2, "(function entry, 0 locals)"},
    {0x12, 40, 10, "loop"},
    {0x14, 536, 0, "call 3 (host:vec_new)"},
  };
  FX_CHECK(scp_grow(&p->pcs, &p->cappcs, 3, sizeof *p->pcs));
  p->nodes[n].pcs_first = 0;
  for (size_t i = 0; i < 3; i++) {
    scp_prof_pc *r = &p->pcs[p->npcs++];
    *r = (scp_prof_pc){.pc = rows[i].pc, .node = n, .text = str(p, rows[i].text),
                       .runs = runs ? rows[i].runs : 0};
    r->cost[0] = rows[i].cpu;
    p->nodes[n].npcs++;
  }
  p->pc_runs = runs;
  finish(p);
  return p;
}

static void free_listing(scp_profile *p) {
  free(p->pcs);
  prof_free(p);
}

static void test_json_runs_round_trip(void **state) {
  scp_profile *p = listing_fixture(true);
  scp_buf j = {0}, k = {0};
  assert_int_equal(scp_out_json(p, &j), SCP_OK);
  assert_non_null(strstr(j.data, "\"pc\":18,\"insn\":\"loop\",\"cost\":[40,0],\"runs\":10}"));
  assert_non_null(strstr(j.data, "\"cost\":[536,0],\"runs\":0}"));
  scp_profile *q = NULL;
  scp_error err = {0};
  assert_int_equal(scp_out_json_load(j.data, j.len, "r.json", &q, &err), SCP_OK);
  assert_true(q->pc_runs);
  assert_int_equal(q->npcs, 3);
  assert_int_equal(q->pcs[0].runs, 2);
  assert_int_equal(q->pcs[1].runs, 10);
  assert_int_equal(q->pcs[2].runs, 0);
  assert_int_equal(scp_out_json(q, &k), SCP_OK);
  assert_int_equal(j.len, k.len);
  assert_memory_equal(j.data, k.data, j.len);
  scp_profile_destroy(q);
  scp_buf_free(&k);

  /* a row without its count, among rows with one, is refused */
  const char *at = strstr(j.data, ",\"runs\":10}");
  assert_non_null(at);
  scp_buf bad = {0};
  scp_buf_put(&bad, j.data, (size_t)(at - j.data));
  scp_buf_puts(&bad, at + 10);
  q = (scp_profile *)1;
  assert_int_equal(scp_out_json_load(bad.data, bad.len, "r.json", &q, &err), SCP_ERR_MALFORMED);
  assert_null(q);
  assert_non_null(strstr(err.msg, "r.json: "));
  assert_non_null(strstr(err.msg, "\"runs\""));
  scp_buf_free(&bad);
  scp_buf_free(&j);
  free_listing(p);

  /* without counts: no "runs" key, and none read back */
  p = listing_fixture(false);
  assert_int_equal(scp_out_json(p, &j), SCP_OK);
  assert_null(strstr(j.data, "\"runs\""));
  assert_int_equal(scp_out_json_load(j.data, j.len, "r.json", &q, &err), SCP_OK);
  assert_false(q->pc_runs);
  scp_profile_destroy(q);
  scp_buf_free(&j);
  free_listing(p);
}

static void test_annotate_runs_column(void **state) {
  scp_profile *p = listing_fixture(true);
  scp_annotate_opts o = {.only = "f"};
  scp_buf b = {0};
  assert_int_equal(scp_out_annotate(p, &o, &b), SCP_OK);
  assert_non_null(strstr(b.data, "; runs: how often each instruction ran\n"));
  assert_non_null(strstr(b.data, "  runs   address  instruction\n"));
  assert_non_null(strstr(b.data, "\n   40    6.85%       .    10      0x12  loop\n"));
  assert_non_null(strstr(b.data, "\n  536   91.78%       .     0      0x14  call 3 (host:vec_new)\n"));
  scp_buf_free(&b);
  free_listing(p);

  /* a profile without counts has no column and says so */
  p = listing_fixture(false);
  assert_int_equal(scp_out_annotate(p, &o, &b), SCP_OK);
  assert_non_null(strstr(b.data, "; how often each instruction ran is not kept\n"));
  assert_null(strstr(b.data, "runs "));
  assert_non_null(strstr(b.data, "\n   40    6.85%       .        0x12  loop\n"));
  scp_buf_free(&b);
  free_listing(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_json_runs_round_trip),
    cmocka_unit_test(test_annotate_runs_column),
  };
  return cmocka_run_group_tests_name("out_pc_runs", tests, NULL, NULL);
}
