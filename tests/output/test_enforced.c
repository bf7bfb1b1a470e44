/*
 * test_enforced.c — a metric whose limit is checked against another count
 * than the call tree's total (scp_profile.enforced: Soroban memory, the
 * Budget's count after refunds, at its peak): the Budget table and the
 * budget gate use that count, the JSON report writes it and reads it back,
 * and a bad one is refused.
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

/* A run of CPU 1,410 and memory 590 charged, of which the limit saw at
 * most 400 (ENFORCED is spliced in after the memory total). */
static const char head[] =
  "{\"schema\":\"scprof-report\",\"version\":2,\n\"title\":\"t\",\n"
  "\"status\":{\"code\":\"SCP_OK\",\"text\":\"success\",\"message\":\"\"},\n"
  "\"meta\":[],\n\"metrics\":[{\"name\":\"CPU\",\"unit\":\"instructions\",\"limit\":0,\"total\":1410},"
  "{\"name\":\"Memory\",\"unit\":\"bytes\",\"limit\":500,\"total\":590";
static const char tail[] =
  "}],\n\"frames\":[\n{\"id\":0,\"name\":\"\",\"label\":\"all\",\"kind\":\"root\",\"file\":\"\","
  "\"decl_line\":0,\"source\":\"dwarf\"}],\n"
  "\"nodes\":[\n{\"id\":0,\"parent\":-1,\"depth\":0,\"frame\":0,\"calls\":0,\"self\":[1410,590],"
  "\"total\":[1410,590],\"call_site\":null,\"lines\":[]}\n]}\n";

static int load(const char *enforced, scp_profile **p) {
  char text[2048];
  snprintf(text, sizeof text, "%s%s%s", head, enforced, tail);
  scp_error err = {0};
  *p = NULL;
  return scp_out_json_load(text, strlen(text), "t.json", p, &err);
}

static int gate(const scp_profile *p, uint64_t max, scp_buf *b) {
  const scp_check_limit lim = {.function = NULL, .metric = 1, .max = max};
  const scp_check_opts o = {.limits = &lim, .nlimits = 1};
  b->len = 0;
  return scp_out_check(p, &o, b);
}

static void test_enforced_count(void **state) {
  (void)state;
  scp_profile *p = NULL;
  assert_int_equal(load("", &p), SCP_OK);
  /* without one, the limit is checked against the total */
  assert_int_equal(scp_prof_checked(p, 1), 590);
  scp_buf b = {0};
  assert_int_equal(gate(p, 589, &b), SCP_ERR_BUDGET);
  assert_int_equal(scp_prof_enforced(p, 2, 1), SCP_ERR_ARG);   /* no metric 2 */
  assert_int_equal(scp_prof_enforced(p, 1, 400), SCP_OK);
  assert_int_equal(scp_prof_checked(p, 1), 400);
  assert_int_equal(scp_prof_checked(p, 0), 1410);
  /* the gate: 400 against 400 holds, against 399 is over */
  assert_int_equal(gate(p, 400, &b), SCP_OK);
  assert_non_null(strstr(b.data, "ok    Memory 400 <= 400 (100.00%)\n"));
  assert_int_equal(gate(p, 399, &b), SCP_ERR_BUDGET);
  assert_non_null(strstr(b.data, "OVER  Memory 400 > 399"));

  scp_buf r = {0};
  assert_int_equal(scp_out_report(p, NULL, &r), SCP_OK);
  assert_non_null(strstr(r.data, "  Memory       400    500      80.00%  bytes\n"));
  assert_non_null(strstr(r.data, "\nMemory: consumed is the count the limit is checked against; "
                                 "the call tree books 590 bytes, everything charged\n"));

  /* written and read back: the same bytes */
  scp_buf j = {0}, j2 = {0};
  assert_int_equal(scp_out_json(p, &j), SCP_OK);
  assert_non_null(strstr(j.data, "{\"name\":\"Memory\",\"unit\":\"bytes\",\"limit\":500,\"total\":590,"
                                 "\"enforced\":400}"));
  assert_null(strstr(j.data, "\"total\":1410,\"enforced\""));
  scp_profile *q = NULL;
  assert_int_equal(scp_out_json_load(j.data, j.len, "j.json", &q, NULL), SCP_OK);
  assert_int_equal(scp_prof_checked(q, 1), 400);
  assert_int_equal(scp_out_json(q, &j2), SCP_OK);
  assert_string_equal(j.data, j2.data);
  scp_profile_destroy(q);
  scp_buf_free(&j);
  scp_buf_free(&j2);
  scp_buf_free(&r);
  scp_buf_free(&b);
  scp_profile_destroy(p);
}

static void test_bad_enforced_refused(void **state) {
  (void)state;
  scp_profile *p = NULL;
  assert_int_equal(load(",\"enforced\":-1", &p), SCP_ERR_MALFORMED);
  assert_null(p);
  assert_int_equal(load(",\"enforced\":\"400\"", &p), SCP_ERR_MALFORMED);
  assert_null(p);
  assert_int_equal(load(",\"enforced\":400", &p), SCP_OK);
  assert_int_equal(scp_prof_checked(p, 1), 400);
  scp_profile_destroy(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_enforced_count),
    cmocka_unit_test(test_bad_enforced_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
