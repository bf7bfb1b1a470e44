/*
 * test_tables.c — a chain's tables (scp_prof_table: Soroban's Budget by
 * cost type) through the profile, the report and the JSON report: added,
 * summed, printed, written, read back to the same bytes, and a column that
 * does not sum to its metric refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/scp_out.h"
#include "profile/scp_prof.h"

/* A run of CPU 1,410 and memory 590 with no tables. */
static const char base[] =
  "{\"schema\":\"scprof-report\",\"version\":2,\n\"title\":\"t\",\n"
  "\"status\":{\"code\":\"SCP_OK\",\"text\":\"success\",\"message\":\"\"},\n"
  "\"meta\":[],\n\"metrics\":[{\"name\":\"CPU\",\"unit\":\"instructions\",\"limit\":0,\"total\":1410},"
  "{\"name\":\"Memory\",\"unit\":\"bytes\",\"limit\":0,\"total\":590}],\n"
  "\"frames\":[\n{\"id\":0,\"name\":\"\",\"label\":\"all\",\"kind\":\"root\",\"file\":\"\","
  "\"decl_line\":0,\"source\":\"dwarf\"}],\n"
  "\"nodes\":[\n{\"id\":0,\"parent\":-1,\"depth\":0,\"frame\":0,\"calls\":0,\"self\":[1410,590],"
  "\"total\":[1410,590],\"call_site\":null,\"lines\":[]}\n]}\n";

static scp_profile *load(const char *text) {
  scp_profile *p = NULL;
  scp_error err = {0};
  assert_int_equal(scp_out_json_load(text, strlen(text), "t.json", &p, &err), SCP_OK);
  return p;
}

static void add_budget(scp_profile *p) {
  static const char *const cols[] = {"iterations", "input", "CPU", "memory"};
  static const int metric[] = {-1, -1, 0, 1};
  assert_int_equal(scp_prof_table_begin(p, "Budget by cost type", "cost type", 4, cols, metric),
                   SCP_OK);
  const uint64_t a[] = {250, 0, 1000, 0}, b[] = {2, 300, 410, 590};
  assert_int_equal(scp_prof_table_row(p, "WasmInsnExec", a), SCP_OK);
  assert_int_equal(scp_prof_table_row(p, "MemAlloc", b), SCP_OK);
}

static void test_table_sums_report_json(void **state) {
  (void)state;
  scp_profile *p = load(base);
  /* no table yet: a row has nowhere to go; bad shapes are refused */
  const uint64_t v[4] = {0};
  assert_int_equal(scp_prof_table_row(p, "x", v), SCP_ERR_ARG);
  static const char *const one[] = {"n"};
  static const int bad_metric[] = {2};
  assert_int_equal(scp_prof_table_begin(p, "t", "i", 1, one, bad_metric), SCP_ERR_ARG);
  assert_int_equal(scp_prof_table_begin(p, "t", "i", 0, one, bad_metric), SCP_ERR_ARG);
  assert_int_equal(p->ntables, 0);
  add_budget(p);
  /* 1,000 + 410 = 1,410 CPU, 0 + 590 = 590 memory: the run's totals */
  assert_int_equal(scp_prof_table_sum(p, &p->tables[0], 2), 1410);
  assert_int_equal(scp_prof_table_sum(p, &p->tables[0], 3), 590);
  assert_true(scp_prof_tables_check(p));

  scp_buf r = {0};
  assert_int_equal(scp_out_report(p, NULL, &r), SCP_OK);
  const char *at = strstr(r.data, "\nBudget by cost type\n");
  assert_non_null(at);
  assert_non_null(strstr(at, "  WasmInsnExec         250      0  1,000       0\n"));
  assert_non_null(strstr(at, "  MemAlloc               2    300    410     590\n"));
  assert_non_null(strstr(at, "  total                            1,410     590\n"));

  /* written and read back: the same bytes */
  scp_buf j = {0}, j2 = {0};
  assert_int_equal(scp_out_json(p, &j), SCP_OK);
  assert_non_null(strstr(j.data, "\"tables\":[\n{\"title\":\"Budget by cost type\",\"item\":\"cost type\","
                                 "\"columns\":[{\"name\":\"iterations\",\"metric\":-1},"));
  assert_non_null(strstr(j.data, "{\"name\":\"MemAlloc\",\"values\":[2,300,410,590]}"));
  scp_profile *q = load(j.data);
  assert_int_equal(q->ntables, 1);
  assert_int_equal(q->tables[0].nrows, 2);
  assert_int_equal(scp_out_json(q, &j2), SCP_OK);
  assert_int_equal(j.len, j2.len);
  assert_memory_equal(j.data, j2.data, j.len);
  scp_profile_destroy(q);

  /* a CPU column one short of the total: refused when read */
  char *off = strdup(j.data);
  char *cell = strstr(off, "[2,300,410,590]");
  assert_non_null(cell);
  memcpy(cell, "[2,300,409,590]", 15);
  scp_error err = {0};
  assert_int_equal(scp_out_json_load(off, strlen(off), "off.json", &q, &err), SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "off.json: not a scprof JSON report: a table's column does not sum"));
  free(off);
  scp_buf_free(&r);
  scp_buf_free(&j);
  scp_buf_free(&j2);
  scp_profile_destroy(p);
}

/* A profile without tables writes no "tables" key (older readers' bytes
 * unchanged) and a second table keeps its own rows. */
static void test_no_table_and_two(void **state) {
  (void)state;
  scp_profile *p = load(base);
  scp_buf j = {0};
  assert_int_equal(scp_out_json(p, &j), SCP_OK);
  assert_null(strstr(j.data, "\"tables\""));
  assert_int_equal(j.len, strlen(base));
  assert_memory_equal(j.data, base, j.len);
  add_budget(p);
  static const char *const cols[] = {"count"};
  static const int none[] = {-1};
  assert_int_equal(scp_prof_table_begin(p, "Other", "thing", 1, cols, none), SCP_OK);
  const uint64_t v[] = {7};
  assert_int_equal(scp_prof_table_row(p, "x", v), SCP_OK);
  assert_int_equal(p->tables[0].nrows, 2);
  assert_int_equal(p->tables[1].nrows, 1);
  assert_int_equal(p->tables[1].first, 2);
  assert_int_equal(scp_prof_table_sum(p, &p->tables[1], 0), 7);
  assert_true(scp_prof_tables_check(p));
  scp_buf_free(&j);
  scp_profile_destroy(p);
}

/* A table with nothing to sum (the ledger entries without a network):
 * no total line, its footnote on the line under it, and in JSON as
 * "footnote", read back to the same bytes. */
static void test_footnote_no_total(void **state) {
  (void)state;
  scp_profile *p = load(base);
  assert_int_equal(scp_prof_table_footnote(p, "fees: give --network NAME"), SCP_ERR_ARG);
  static const char *const cols[] = {"size"};
  static const int none[] = {-1};
  assert_int_equal(scp_prof_table_begin(p, "Entries", "entry", 1, cols, none), SCP_OK);
  const uint64_t v[] = {128};
  assert_int_equal(scp_prof_table_row(p, "Admin", v), SCP_OK);
  assert_int_equal(scp_prof_table_footnote(p, "fees: give --network NAME"), SCP_OK);
  scp_buf r = {0}, j = {0}, j2 = {0};
  assert_int_equal(scp_out_report(p, NULL, &r), SCP_OK);
  assert_non_null(strstr(r.data, "\nEntries\n  entry  size\n  Admin   128\n  (fees: give --network NAME)\n"));
  assert_null(strstr(strstr(r.data, "\nEntries\n"), "  total"));
  assert_int_equal(scp_out_json(p, &j), SCP_OK);
  assert_non_null(strstr(j.data, "{\"name\":\"Admin\",\"values\":[128]}],\"footnote\":\"fees: give --network NAME\"}"));
  scp_profile *q = load(j.data);
  assert_int_equal(scp_out_json(q, &j2), SCP_OK);
  assert_int_equal(j.len, j2.len);
  assert_memory_equal(j.data, j2.data, j.len);
  scp_profile_destroy(q);
  scp_buf_free(&r);
  scp_buf_free(&j);
  scp_buf_free(&j2);
  scp_profile_destroy(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_table_sums_report_json),
    cmocka_unit_test(test_no_table_and_two),
    cmocka_unit_test(test_footnote_no_total),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
