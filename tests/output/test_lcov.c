/*
 * test_lcov.c — the lcov tracefile writer on profiles built by hand, so
 * every count is worked out here: a line's count is its ran CPU (cost less
 * charged ahead; only-ahead is 0, not run), lines of one (file, line)
 * summed over nodes and over profiles, a function's FNDA its calls over
 * its nodes, files and functions sorted, frames without a file or a
 * declaration left out, names that could break a line made safe.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "out_fixture.h"

static scp_profile *two_files(void) {
  scp_profile *p = prof_new(0, 0);
  uint32_t m = frame(p, "main", "src/lib.rs", 10, SCP_KIND_GUEST);
  uint32_t h = frame(p, "helper", "src/b.rs", 3, SCP_KIND_GUEST);
  uint32_t in = frame(p, "inl", "src/b.rs", 30, SCP_KIND_INLINED);
  uint32_t host = frame(p, "host:vec_new", "", 0, SCP_KIND_HOST);
  uint32_t raw = frame(p, "func[3]", "", 0, SCP_KIND_GUEST);
  uint32_t n1 = node(p, 0, m, 1, 70, 0);
  line(p, n1, "src/lib.rs", 11, 40, 0);
  line(p, n1, "src/lib.rs", 12, 30, 0);
  p->lines[p->nlines - 1].ahead = 30;      /* charged, never ran */
  uint32_t n2 = node(p, n1, h, 2, 25, 0);
  line(p, n2, "src/b.rs", 4, 25, 0);
  uint32_t n3 = node(p, n2, in, 0, 5, 0);  /* inlined: lines, no FN */
  line(p, n3, "src/b.rs", 31, 5, 0);
  uint32_t n4 = node(p, n1, h, 3, 15, 0);  /* helper again: calls and lines add */
  line(p, n4, "src/b.rs", 4, 15, 0);
  node(p, n1, host, 1, 9, 0);              /* no lines */
  uint32_t n5 = node(p, 0, raw, 1, 8, 0);  /* no file: left out */
  line(p, n5, "", 0, 8, 0);
  finish(p);
  return p;
}

static const char want_one[] =
    "TN:\nSF:src/b.rs\nFN:3,helper\nFNDA:5,helper\nFNF:1\nFNH:1\n"
    "DA:4,40\nDA:31,5\nLF:2\nLH:2\nend_of_record\n"
    "TN:\nSF:src/lib.rs\nFN:10,main\nFNDA:1,main\nFNF:1\nFNH:1\n"
    "DA:11,40\nDA:12,0\nLF:2\nLH:1\nend_of_record\n";

static void test_lcov_counts(void **state) {
  scp_profile *p = two_files();
  scp_buf b = {0};
  assert_int_equal(scp_out_lcov(p, &b), SCP_OK);
  scp_buf_putc(&b, 0);
  assert_string_equal(b.data, want_one);
  scp_buf_free(&b);
  /* through the format table, as the CLI writes it: the same bytes */
  const scp_out_format *of = scp_out_format_get(SCP_FMT_LCOV);
  assert_string_equal(of->name, "lcov");
  assert_string_equal(of->file, "lcov.info");
  assert_true(of->opt_in);
  scp_out_opts o = {0};
  assert_int_equal(of->write(p, &o, &b), SCP_OK);
  scp_buf_putc(&b, 0);
  assert_string_equal(b.data, want_one);
  scp_buf_free(&b);
  prof_free(p);
}

/* Two runs of one program: every count doubles, nothing else changes. */
static void test_lcov_merge(void **state) {
  scp_profile *p = two_files(), *q = two_files();
  scp_lcov *c;
  assert_int_equal(scp_lcov_new(&c), SCP_OK);
  assert_int_equal(scp_lcov_add(c, p), SCP_OK);
  assert_int_equal(scp_lcov_add(c, q), SCP_OK);
  prof_free(p);   /* add keeps its own copy of the names */
  prof_free(q);
  scp_buf b = {0};
  assert_int_equal(scp_lcov_write(c, &b), SCP_OK);
  scp_buf_putc(&b, 0);
  assert_string_equal(b.data,
      "TN:\nSF:src/b.rs\nFN:3,helper\nFNDA:10,helper\nFNF:1\nFNH:1\n"
      "DA:4,80\nDA:31,10\nLF:2\nLH:2\nend_of_record\n"
      "TN:\nSF:src/lib.rs\nFN:10,main\nFNDA:2,main\nFNF:1\nFNH:1\n"
      "DA:11,80\nDA:12,0\nLF:2\nLH:1\nend_of_record\n");
  scp_buf_free(&b);
  scp_lcov_free(c);
  scp_lcov_free(NULL);
}

/* A newline in a name or a file cannot start a record of its own. */
static void test_lcov_safe_names(void **state) {
  scp_profile *p = prof_new(0, 0);
  uint32_t f = frame(p, "evil\nDA:1,999", "a\nb.c", 2, SCP_KIND_GUEST);
  uint32_t n = node(p, 0, f, 1, 3, 0);
  line(p, n, "a\nb.c", 2, 3, 0);
  finish(p);
  scp_buf b = {0};
  assert_int_equal(scp_out_lcov(p, &b), SCP_OK);
  scp_buf_putc(&b, 0);
  assert_string_equal(b.data,
      "TN:\nSF:a\\x0Ab.c\nFN:2,evil\\x0ADA:1,999\nFNDA:1,evil\\x0ADA:1,999\nFNF:1\nFNH:1\n"
      "DA:2,3\nLF:1\nLH:1\nend_of_record\n");
  scp_buf_free(&b);
  prof_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lcov_counts),
      cmocka_unit_test(test_lcov_merge),
      cmocka_unit_test(test_lcov_safe_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
