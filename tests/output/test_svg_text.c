/*
 * test_svg_text.c — the flamegraph's XML text (svg.c put_xml, its plain
 * runs found four bytes a step): every byte value at every place of a
 * frame's name comes out in the frame's title as the XML rule says (the
 * five markup characters as entities, other printable ASCII and valid
 * UTF-8 as they are, a control byte but tab as '?').  The expected titles
 * are built here from that rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "output/out_fixture.h"

/* the byte c as the title shows it */
static const char *xml_of(int c, char *one) {
  switch (c) {
  case '<': return "&lt;";
  case '>': return "&gt;";
  case '&': return "&amp;";
  case '"': return "&quot;";
  default:
    one[0] = (char)(c < 0x20 && c != '\t' ? '?' : c);
    one[1] = 0;
    return one;
  }
}

static void test_title_bytes(void **state) {
  (void)state;
  /* one frame per byte value below 0x80 and place in a 9-byte name,
   * each as wide as the others (all drawn) */
  scp_profile *p = prof_new(0, 0);
  for (int c = 1; c < 0x80; c++)
    for (int at = 0; at < 9; at++) {
      char name[16] = "abcdefghi";
      name[at] = (char)c;
      node(p, 0, frame(p, name, "", 0, SCP_KIND_GUEST), 1, 1, 0);
    }
  /* and a name of 2-byte UTF-8 characters across the steps */
  node(p, 0, frame(p, "\xc3\xa9t\xc3\xa9<\xc3\xa9t\xc3\xa9", "", 0, SCP_KIND_GUEST), 1, 1, 0);
  finish(p);
  scp_svg_opts o = {.min_width_pct = -1};
  scp_buf b = {0};
  assert_int_equal(scp_out_svg(p, &o, &b), SCP_OK);
  for (int c = 1; c < 0x80; c++)
    for (int at = 0; at < 9; at++) {
      char want[64], one[2];
      snprintf(want, sizeof want, "<title>%.*s%s%s (", at, "abcdefghi", xml_of(c, one), "abcdefghi" + at + 1);
      if (!strstr(b.data, want)) fail_msg("byte 0x%02x at %d: no %s", c, at, want);
    }
  assert_non_null(strstr(b.data, "<title>\xc3\xa9t\xc3\xa9&lt;\xc3\xa9t\xc3\xa9 ("));
  scp_buf_free(&b);
  prof_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_title_bytes),
  };
  return cmocka_run_group_tests_name("svg_text", tests, NULL, NULL);
}
