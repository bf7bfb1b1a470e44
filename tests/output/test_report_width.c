/*
 * test_report_width.c — the report's tables count a label's width in
 * characters, not bytes (report.c text_width, eight bytes a step): a
 * label of 80 characters is printed whole however many bytes its UTF-8
 * takes, one of 81 loses its middle to "…" (its first 45 and last 34
 * characters kept).  The expected texts are built here from that rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "output/out_fixture.h"

/* n copies of s after what out holds */
static void repeat(char *out, const char *s, int n) {
  for (int i = 0; i < n; i++) strcat(out, s);
}

static void test_label_width(void **state) {
  (void)state;
  /* 80 characters: 2-, 3- and 1-byte ones, crossing every 8-byte step */
  char fits[400] = "", cut[400] = "", want_cut[400] = "";
  repeat(fits, "\xc3\xa9", 30);          /* é */
  repeat(fits, "\xe2\x80\xa6", 10);      /* … */
  repeat(fits, "a", 40);
  /* 81 characters: one é more */
  repeat(cut, "\xc3\xa9", 31);
  repeat(cut, "\xe2\x80\xa6", 10);
  repeat(cut, "b", 40);
  /* its first 45 characters, the ellipsis, its last 34 */
  repeat(want_cut, "\xc3\xa9", 31);
  repeat(want_cut, "\xe2\x80\xa6", 10);
  repeat(want_cut, "b", 4);
  strcat(want_cut, "\xe2\x80\xa6");
  repeat(want_cut, "b", 34);
  scp_profile *p = prof_new(0, 0);
  node(p, 0, frame(p, fits, "", 0, SCP_KIND_GUEST), 1, 70, 0);
  node(p, 0, frame(p, cut, "", 0, SCP_KIND_GUEST), 1, 30, 0);
  finish(p);
  scp_buf b = {0};
  assert_int_equal(scp_out_report(p, NULL, &b), SCP_OK);
  assert_non_null(strstr(b.data, fits));
  assert_null(strstr(b.data, cut));
  char line[500];
  snprintf(line, sizeof line, "  %s\n", want_cut);
  if (!strstr(b.data, line)) fail_msg("no row ending \"%s\" in:\n%s", want_cut, b.data);
  scp_buf_free(&b);
  prof_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_label_width),
  };
  return cmocka_run_group_tests_name("report_width", tests, NULL, NULL);
}
