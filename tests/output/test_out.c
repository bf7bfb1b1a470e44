/*
 * test_out.c — stage 4 writers (folded, SVG, report, scp_profile_write)
 * on profiles built by hand, with exact expected text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>
#include <zlib.h>

#include "out_fixture.h"

static char *render(int (*fn)(const scp_profile *, const void *, scp_buf *),
                    const scp_profile *p, const void *opts) {
  scp_buf b = {0};
  assert_int_equal(fn(p, opts, &b), SCP_OK);
  if (!b.data) return strdup("");  /* nothing written */
  const char *dump = getenv("SCP_TEST_DUMP");  /* debugging aid */
  if (dump) {
    FILE *f = fopen(dump, "a");
    if (f) {
      fputs(b.data, f);
      fclose(f);
    }
  }
  return b.data;  /* caller frees */
}

static int folded0(const scp_profile *p, const void *o, scp_buf *b) {
  return scp_out_folded(p, 0, b);
}
static int folded1(const scp_profile *p, const void *o, scp_buf *b) {
  return scp_out_folded(p, 1, b);
}
static int svg(const scp_profile *p, const void *o, scp_buf *b) {
  return scp_out_svg(p, o, b);
}
static int report(const scp_profile *p, const void *o, scp_buf *b) {
  return scp_out_report(p, o, b);
}

/* ---- labels and folded ------------------------------------------------- */

static void test_label(void **state) {
  scp_profile *p = prof_new(0, 0);
  uint32_t a = frame(p, "main", "src/lib.rs", 10, SCP_KIND_GUEST);
  uint32_t b = frame(p, "nodecl", "src/lib.rs", 0, SCP_KIND_GUEST);
  uint32_t c = frame(p, "host:put_contract_data", "x.rs", 3, SCP_KIND_HOST);
  uint32_t d = frame(p, "", "", 0, SCP_KIND_GUEST);
  /* fallback names say where they came from */
  uint32_t e = frame(p, "named", "", 0, SCP_KIND_GUEST);
  p->frames[e].source = SCP_SRC_NAMESEC;
  uint32_t f = frame(p, "func[7]", "", 0, SCP_KIND_GUEST);
  p->frames[f].source = SCP_SRC_RAW;
  uint32_t g = frame(p, "from_elf", "", 0, SCP_KIND_INLINED);
  p->frames[g].source = SCP_SRC_SYMTAB;
  const char *want[] = {"all", "main (src/lib.rs:10)", "nodecl",
                        "host:put_contract_data", "[unknown]", "named [name section]",
                        "func[7] [no symbols]", "from_elf [symtab]"};
  uint32_t ids[] = {0, a, b, c, d, e, f, g};
  for (size_t i = 0; i < 8; i++) {
    scp_buf buf = {0};
    scp_out_label(p, ids[i], &buf);
    assert_string_equal(buf.data, want[i]);
    scp_buf_free(&buf);
  }
  prof_free(p);
}

static void test_folded(void **state) {
  scp_profile *p = fixture();
  char *s = render(folded0, p, NULL);
  assert_string_equal(s,
      "all;main (src/lib.rs:10) 100\n"
      "all;main (src/lib.rs:10);compute (src/math.rs:5) 200\n"
      "all;main (src/lib.rs:10);compute (src/math.rs:5);compute (src/math.rs:5) 20\n"
      "all;main (src/lib.rs:10);compute (src/math.rs:5);compute (src/math.rs:5);"
      "host:vec_push_back 10\n"
      "all;main (src/lib.rs:10);helper (src/util.rs:20) 50\n"
      "all;main (src/lib.rs:10);host:vec_push_back 30\n"
      "all;vm:instantiate 1000\n");
  free(s);
  s = render(folded1, p, NULL);
  assert_string_equal(s,
      "all;main (src/lib.rs:10) 10\n"
      "all;main (src/lib.rs:10);compute (src/math.rs:5);compute (src/math.rs:5);"
      "host:vec_push_back 16\n"
      "all;main (src/lib.rs:10);host:vec_push_back 64\n"
      "all;vm:instantiate 500\n");
  free(s);
  scp_buf b = {0};
  assert_int_equal(scp_out_folded(p, 2, &b), SCP_ERR_ARG);
  scp_buf_free(&b);
  prof_free(p);
}

/* ';' and newlines cannot break the format; equal stacks merge; every
 * stack starts at the root, whose own cost is a one-frame stack; lines
 * follow their frames' labels in bytewise order. */
static void test_folded_sanitize_merge(void **state) {
  scp_profile *p = prof_new(0, 0);
  uint32_t w = frame(p, "weird;name\nx", "", 0, SCP_KIND_GUEST);
  uint32_t a = frame(p, "f [u8; 32]", "", 0, SCP_KIND_GUEST);
  uint32_t a2 = frame(p, "f [u8, 32]", "", 0, SCP_KIND_GUEST);
  uint32_t z = frame(p, "Z", "", 0, SCP_KIND_GUEST);
  p->nodes[0].self[0] = 7;
  node(p, 0, w, 1, 5, 0);
  node(p, 0, a, 1, 3, 0);
  node(p, 0, a2, 1, 4, 0);   /* same folded text as a: merges to 7 */
  node(p, 0, z, 1, 0, 0);    /* zero self cost: no line */
  finish(p);
  char *s = render(folded0, p, NULL);
  assert_string_equal(s, "all 7\nall;f [u8, 32] 7\nall;weird,name x 5\n");
  free(s);
  prof_free(p);
}

/* Siblings of one label are one stack and one line, recursively: the
 * second `a` under the root merges with the first, its `b` with the
 * first's `b`, and their `c`s too; `d` (no cost of its own) still leads
 * to `e`.  Names that fold to the same text ("a;x", "a,x") merge as well.
 * Lines follow the frame labels in order, a stack's own line before its
 * callees', so a sibling whose label extends another's ("b (x.c:3)",
 * "a [u8, 2]") comes after the whole of the shorter one's stacks: a
 * bytewise sort of the lines (the same lines) would have put
 * "all;a [u8, 2] 512" and "all;a,x 6144" before "all;a;b 34", and
 * "all;a;b (x.c:3) 256" before "all;a;b 34" too. */
static void test_folded_groups(void **state) {
  scp_profile *p = prof_new(0, 0);
  uint32_t a = frame(p, "a", "", 0, SCP_KIND_GUEST);
  uint32_t b = frame(p, "b", "", 0, SCP_KIND_GUEST);
  uint32_t bx = frame(p, "b", "x.c", 3, SCP_KIND_INLINED);
  uint32_t c = frame(p, "c", "", 0, SCP_KIND_GUEST);
  uint32_t d = frame(p, "d", "", 0, SCP_KIND_GUEST);
  uint32_t e = frame(p, "e", "", 0, SCP_KIND_HOST);
  uint32_t au = frame(p, "a [u8; 2]", "", 0, SCP_KIND_GUEST);
  uint32_t asemi = frame(p, "a;x", "", 0, SCP_KIND_GUEST);
  uint32_t acomma = frame(p, "a,x", "", 0, SCP_KIND_GUEST);
  p->nodes[0].self[0] = 3;
  node(p, 0, acomma, 1, 4096, 0);
  uint32_t a1 = node(p, 0, a, 1, 1, 0);
  node(p, node(p, a1, b, 1, 2, 0), c, 1, 4, 0);
  node(p, a1, c, 1, 8, 0);
  node(p, node(p, 0, au, 1, 512, 0), c, 1, 1024, 0);
  uint32_t a2 = node(p, 0, a, 1, 16, 0);
  node(p, a2, bx, 1, 256, 0);
  uint32_t b2 = node(p, a2, b, 1, 32, 0);
  node(p, node(p, b2, d, 1, 0, 0), e, 1, 128, 0);
  node(p, b2, c, 1, 64, 0);
  node(p, 0, asemi, 1, 2048, 0);
  finish(p);
  char *s = render(folded0, p, NULL);
  assert_string_equal(s,
      "all 3\n"
      "all;a 17\n"
      "all;a;b 34\n"
      "all;a;b;c 68\n"
      "all;a;b;d;e 128\n"
      "all;a;b (x.c:3) 256\n"
      "all;a;c 8\n"
      "all;a [u8, 2] 512\n"
      "all;a [u8, 2];c 1024\n"
      "all;a,x 6144\n");
  free(s);
  prof_free(p);
}

/* ---- SVG --------------------------------------------------------------- */

static size_t count(const char *hay, const char *needle) {
  size_t n = 0;
  for (const char *s = hay; (s = strstr(s, needle)); s += strlen(needle)) n++;
  return n;
}

/* The fill of the frame whose title starts with `title`. */
static void fill_of(const char *svgtext, const char *title, char out[32]) {
  char key[256];
  snprintf(key, sizeof key, "<title>%s (", title);
  const char *s = strstr(svgtext, key);
  assert_non_null(s);
  s = strstr(s, "fill=\"");
  assert_non_null(s);
  s += 6;
  size_t n = strcspn(s, "\"");
  assert_true(n < 32);
  memcpy(out, s, n);
  out[n] = 0;
}

static bool have_xmllint(void) {
  return system("command -v xmllint >/dev/null 2>&1") == 0;
}

static void assert_well_formed(const char *text) {
  if (!have_xmllint()) {
    fprintf(stderr, "note: xmllint missing, well-formedness not checked\n");
    return;
  }
  char path[] = "/tmp/scp_test_svg_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  size_t n = strlen(text);
  assert_int_equal(write(fd, text, n), (ssize_t)n);
  close(fd);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "xmllint --noout %s", path);
  int rc = system(cmd);
  unlink(path);
  assert_int_equal(rc, 0);
}

/* A title longer than the room between the buttons: cut with "...", whole
 * in a tooltip.  At 1200px the room is 2 * (600 - 10 - 100 - 10) = 960px,
 * 95 glyphs of 17 * 0.59 px: 92 characters and "...". */
static void test_svg_long_title(void **state) {
  scp_profile *p = fixture();
  char longt[201];
  memset(longt, 'x', 200);
  longt[200] = 0;
  p->title = scp_strtab_intern(&p->strs, longt);
  scp_svg_opts o = {0};
  char *s = render(svg, p, &o);
  assert_well_formed(s);
  char want[400];
  snprintf(want, sizeof want, "<text id=\"title\" x=\"600\" y=\"24\"><title>%s</title>%.92s...</text>",
           longt, longt);
  assert_non_null(strstr(s, want));
  free(s);
  scp_profile_destroy(p);
  (void)state;
}

static void test_svg_frames(void **state) {
  scp_profile *p = fixture();
  scp_svg_opts o = {0};
  char *s = render(svg, p, &o);
  assert_well_formed(s);
  /* one <g> per frame, none pruned at 0.01% */
  assert_int_equal(count(s, "<g scp:x="), 8);
  assert_non_null(strstr(s, "<text id=\"title\" x=\"600\" y=\"24\">scprof: demo.wasm run</text>"));
  assert_non_null(strstr(s, ">CPU: 1,410 instructions, 14.10% of the 10,000 limit</text>"));
  assert_non_null(strstr(s,
      "<g scp:x=\"0\" scp:w=\"1410\" scp:d=\"0\"><title>all (1,410 instructions, "
      "100.00%, self 0, Memory 590 bytes)</title><rect x=\"10.00\" y=\"124\" "
      "width=\"1180.00\" height=\"15\""));
  assert_non_null(strstr(s,
      "<g scp:x=\"0\" scp:w=\"410\" scp:d=\"1\"><title>main (src/lib.rs:10) "
      "(410 instructions, 29.08%, self 100, Memory 90 bytes, 1 call)</title>"
      "<rect x=\"10.00\" y=\"108\" width=\"343.12\" height=\"15\""));
  /* children from the parent's left edge, by label: compute, helper, host */
  assert_non_null(strstr(s,
      "<g scp:x=\"230\" scp:w=\"50\" scp:d=\"2\"><title>helper (src/util.rs:20) "
      "(50 instructions, 3.55%, self 50, Memory 0 bytes, 1 call, inlined at "
      "src/lib.rs:12)</title><rect x=\"202.48\" y=\"92\" width=\"41.84\""));
  assert_non_null(strstr(s, "<g scp:x=\"410\" scp:w=\"1000\" scp:d=\"1\"><title>vm:instantiate "
                            "(1,000 instructions, 70.92%, self 1,000, Memory 500 bytes, "
                            "1 call)</title><rect x=\"353.12\" y=\"108\" width=\"836.88\""));
  assert_non_null(strstr(s, "<title>host:vec_push_back (30 instructions, 2.13%, self 30, "
                            "Memory 64 bytes, 3 calls, called at src/lib.rs:11)</title>"));
  /* labels: whole, truncated with "..", or left out under 3 characters */
  assert_non_null(strstr(s, ">vm:instantiate</text>"));
  assert_non_null(strstr(s, ">hel..</text>"));
  assert_non_null(strstr(s, ">h..</text>"));
  assert_int_equal(count(s, "\"></text></g>"), 1);
  /* the interactive parts */
  assert_non_null(strstr(s, "onload=\"init(evt)\""));
  assert_non_null(strstr(s, ">Reset Zoom</text>"));
  assert_non_null(strstr(s, ">Search</text>"));
  assert_non_null(strstr(s, "id=\"matched\""));
  assert_non_null(strstr(s, "id=\"details\""));
  assert_non_null(strstr(s, "var XPAD = 10, WIDTH = 1180, TOTAL = 1410, CHARW = 7.08;"));
  assert_non_null(strstr(s, "location.search"));
  assert_null(strstr(s, "(null)"));
  free(s);
  prof_free(p);
}

static void test_svg_layout_options(void **state) {
  scp_profile *p = fixture();
  /* icicle: root on the first row under the titles */
  scp_svg_opts o = {.icicle = true, .width = 800};
  char *s = render(svg, p, &o);
  assert_non_null(strstr(s, "scp:d=\"0\"><title>all (1,410 instructions, 100.00%, self 0, "
                            "Memory 590 bytes)</title><rect x=\"10.00\" y=\"60\" "
                            "width=\"780.00\""));
  assert_non_null(strstr(s, "<svg version=\"1.1\" width=\"800\" height=\"174\""));
  free(s);
  /* metric 1 (memory): widths and subtitle follow it; no limit, no % */
  o = (scp_svg_opts){.metric = 1};
  s = render(svg, p, &o);
  assert_non_null(strstr(s, ">Memory: 590 bytes</text>"));
  assert_non_null(strstr(s, "<title>vm:instantiate (500 bytes, 84.75%, self 500, CPU 1,000 "
                            "instructions, 1 call)</title>"));
  /* helper has no memory: zero-width frames are not drawn */
  assert_null(strstr(s, "<title>helper"));
  free(s);
  o.metric = 2;
  scp_buf b = {0};
  assert_int_equal(scp_out_svg(p, &o, &b), SCP_ERR_ARG);
  scp_buf_free(&b);
  prof_free(p);
}

static void test_svg_pruning(void **state) {
  scp_profile *p = prof_new(0, 0);
  node(p, 0, frame(p, "a", "", 0, SCP_KIND_GUEST), 1, 1, 0);
  node(p, 0, frame(p, "b", "", 0, SCP_KIND_GUEST), 1, 999, 0);
  finish(p);
  /* default 0.01%: "a" is exactly 0.1% and stays */
  char *s = render(svg, p, NULL);
  assert_int_equal(count(s, "<g scp:x="), 3);
  free(s);
  /* 1%: "a" goes, but "b" keeps its place after a's cost */
  scp_svg_opts o = {.min_width_pct = 1.0};
  s = render(svg, p, &o);
  assert_int_equal(count(s, "<g scp:x="), 2);
  assert_null(strstr(s, "<title>a ("));
  assert_non_null(strstr(s, "<g scp:x=\"1\" scp:w=\"999\" scp:d=\"1\"><title>b (999 instructions, "
                            "99.90%, self 999, Memory 0 bytes, 1 call)</title><rect "
                            "x=\"11.18\" y=\"60\" width=\"1178.82\""));
  free(s);
  prof_free(p);
  /* negative: keep everything, however small */
  p = prof_new(0, 0);
  node(p, 0, frame(p, "tiny", "", 0, SCP_KIND_GUEST), 1, 1, 0);
  node(p, 0, frame(p, "huge", "", 0, SCP_KIND_GUEST), 1, 10000000, 0);
  finish(p);
  s = render(svg, p, NULL);
  assert_int_equal(count(s, "<g scp:x="), 2);
  free(s);
  o.min_width_pct = -1;
  s = render(svg, p, &o);
  assert_int_equal(count(s, "<g scp:x="), 3);
  free(s);
  prof_free(p);
}

static void test_svg_deterministic(void **state) {
  scp_profile *p = fixture();
  char *a = render(svg, p, NULL), *b = render(svg, p, NULL);
  assert_string_equal(a, b);
  /* colours: a hash of the name, a palette per kind */
  char c1[32], c2[32];
  fill_of(a, "host:vec_push_back", c1);
  scp_profile *q = prof_new(0, 0);
  node(q, 0, frame(q, "host:vec_push_back", "", 0, SCP_KIND_HOST), 1, 5, 0);
  node(q, 0, frame(q, "host:get_contract_data", "", 0, SCP_KIND_HOST), 1, 5, 0);
  finish(q);
  char *other = render(svg, q, NULL);
  fill_of(other, "host:vec_push_back", c2);
  assert_string_equal(c1, c2);
  unsigned r, g, bl;
  fill_of(a, "main (src/lib.rs:10)", c1);          /* guest: hot */
  assert_int_equal(sscanf(c1, "rgb(%u,%u,%u)", &r, &g, &bl), 3);
  assert_true(r >= 205 && bl <= 55);
  fill_of(a, "helper (src/util.rs:20)", c1);        /* inlined: aqua */
  assert_int_equal(sscanf(c1, "rgb(%u,%u,%u)", &r, &g, &bl), 3);
  assert_true(r <= 110 && g >= 165 && bl >= 165);
  fill_of(a, "host:vec_push_back", c1);            /* host: yellow */
  assert_int_equal(sscanf(c1, "rgb(%u,%u,%u)", &r, &g, &bl), 3);
  assert_true(r >= 175 && r == g && bl <= 70);
  fill_of(other, "host:get_contract_data", c1);    /* storage: brown */
  assert_int_equal(sscanf(c1, "rgb(%u,%u,%u)", &r, &g, &bl), 3);
  assert_true(r >= 190 && g >= 110 && g <= 150 && bl <= 60);
  fill_of(a, "vm:instantiate", c1);                /* VM: grey */
  assert_int_equal(sscanf(c1, "rgb(%u,%u,%u)", &r, &g, &bl), 3);
  assert_true(r == g && g == bl);
  free(a);
  free(b);
  free(other);
  prof_free(q);
  prof_free(p);
}

static void test_svg_escaping_status(void **state) {
  scp_profile *p = prof_new(0, 0);
  p->status = SCP_ERR_BUDGET;
  p->status_msg = str(p, "cpu limit of 100 exceeded");
  p->title = str(p, "a < b & \"c\"");
  node(p, 0, frame(p, "<T as core::ops::Add>::add", "", 0, SCP_KIND_GUEST), 1, 60, 0);
  node(p, 0, frame(p, "bad\x01\xff" "byte", "", 0, SCP_KIND_GUEST), 1, 40, 0);
  uint32_t k = node(p, 0, frame(p, "contract:CA7", "", 0, SCP_KIND_CONTRACT), 1, 0, 0);
  node(p, k, frame(p, "x", "dir (1)/f.rs", 3, SCP_KIND_GUEST), 1, 10, 0);
  call_site(p, p->nnodes - 1, "dir (1)/f.rs", 9);
  finish(p);
  char *s = render(svg, p, NULL);
  assert_well_formed(s);
  assert_non_null(strstr(s, ">a &lt; b &amp; &quot;c&quot;</text>"));
  assert_non_null(strstr(s, ">CPU: 110 instructions; run ended: budget exceeded: "
                            "cpu limit of 100 exceeded</text>"));
  assert_non_null(strstr(s, "<title>&lt;T as core::ops::Add&gt;::add (60 instructions"));
  assert_non_null(strstr(s, "<title>bad??byte (40 instructions"));
  /* "(" is kept out of the details so the script can split the label off */
  assert_non_null(strstr(s, "<title>x (dir (1)/f.rs:3) (10 instructions, 9.09%, self 10, "
                            "Memory 0 bytes, 1 call, called at dir [1]/f.rs:9)</title>"));
  free(s);
  prof_free(p);
}

static void test_svg_empty(void **state) {
  scp_profile *p = prof_new(0, 0);
  finish(p);
  char *s = render(svg, p, NULL);
  assert_well_formed(s);
  assert_int_equal(count(s, "<g scp:x="), 0);
  assert_non_null(strstr(s, ">CPU: 0 instructions</text>"));
  free(s);
  s = render(report, p, NULL);
  assert_non_null(strstr(s, "Top 20 functions by self CPU\n  (none)\n"));
  free(s);
  s = render(folded0, p, NULL);
  assert_string_equal(s, "");
  free(s);
  prof_free(p);
}

/* ---- report ------------------------------------------------------------ */

static void test_report(void **state) {
  scp_profile *p = fixture();
  char *s = render(report, p, NULL);
  assert_string_equal(s,
      "scprof report: scprof: demo.wasm run\n"
      "  contract  demo.wasm\n"
      "  function  run\n"
      "  status    OK\n"
      "\n"
      "Budget\n"
      "  metric  consumed   limit  % of limit  unit\n"
      "  CPU        1,410  10,000      14.10%  instructions\n"
      "  Memory       590       -           -  bytes\n"
      "\n"
      "Top 20 functions by self CPU\n"
      "  self CPU       %  self Memory  calls  function\n"
      "     1,000  70.92%          500      1  vm:instantiate\n"
      "       220  15.60%            0      2  compute (src/math.rs:5)\n"
      "       100   7.09%           10      1  main (src/lib.rs:10)\n"
      "        50   3.55%            0      1  helper (src/util.rs:20)\n"
      "        40   2.84%           80      4  host:vec_push_back\n"
      "\n"
      "Top 20 functions by total CPU\n"
      "  total CPU       %  total Memory  calls  function\n"
      "      1,000  70.92%           500      1  vm:instantiate\n"
      "        410  29.08%            90      1  main (src/lib.rs:10)\n"
      "        230  16.31%            16      2  compute (src/math.rs:5)\n"
      "         50   3.55%             0      1  helper (src/util.rs:20)\n"
      "         40   2.84%            80      4  host:vec_push_back\n"
      "\n"
      "Hottest source lines by CPU\n"
      "  CPU       %  Memory  line            function\n"
      "  170  12.06%       0  src/math.rs:6   compute (src/math.rs:5)\n"
      "   60   4.26%      10  src/lib.rs:11   main (src/lib.rs:10)\n"
      "   50   3.55%       0  src/math.rs:7   compute (src/math.rs:5)\n"
      "   50   3.55%       0  src/util.rs:21  helper (src/util.rs:20)\n"
      "   40   2.84%       0  src/lib.rs:12   main (src/lib.rs:10)\n"
      "\n"
      "Host functions (self cost)\n"
      "  calls  self CPU      %  self Memory  host function\n"
      "      4        40  2.84%           80  host:vec_push_back\n");
  free(s);
  prof_free(p);
}

static void test_report_options(void **state) {
  scp_profile *p = fixture();
  p->status = SCP_ERR_TRAP;
  p->status_msg = str(p, "unreachable at func[3]+0x1c");
  scp_report_opts o = {.top = 2, .metric = 1};
  char *s = render(report, p, &o);
  assert_non_null(strstr(s, "  status    contract trapped: unreachable at func[3]+0x1c\n"));
  assert_non_null(strstr(s,
      "Top 2 functions by self Memory\n"
      "  self Memory       %  self CPU  calls  function\n"
      "          500  84.75%     1,000      1  vm:instantiate\n"
      "           80  13.56%        40      4  host:vec_push_back\n"
      "\n"));
  assert_non_null(strstr(s,
      "Hottest source lines by Memory\n"
      "  Memory      %  CPU  line           function\n"
      "      10  1.69%   60  src/lib.rs:11  main (src/lib.rs:10)\n"
      "\n"));
  free(s);
  prof_free(p);
}

/* Cross-contract calls: a contracts table once there are two; recursion
 * through a host function still counts the outer total once. */
static void test_report_contracts(void **state) {
  scp_profile *p = prof_new(0, 0);
  uint32_t ca = frame(p, "contract:CAAA", "", 0, SCP_KIND_CONTRACT);
  uint32_t cb = frame(p, "contract:CBBB", "", 0, SCP_KIND_CONTRACT);
  uint32_t call = frame(p, "host:call", "", 0, SCP_KIND_HOST);
  uint32_t f = frame(p, "f", "", 0, SCP_KIND_GUEST);
  uint32_t a = node(p, 0, ca, 1, 1000, 0);
  uint32_t fa = node(p, a, f, 1, 234, 0);
  uint32_t h = node(p, fa, call, 1, 2000000, 3000);
  uint32_t b = node(p, h, cb, 1, 10, 0);
  node(p, b, f, 2, 5, 0);
  finish(p);
  char *s = render(report, p, NULL);
  assert_non_null(strstr(s,
      "Contracts by total cost\n"
      "  total CPU        %  total Memory  calls  contract\n"
      "  2,001,249  100.00%         3,000      1  contract:CAAA\n"
      "         15    0.00%             0      1  contract:CBBB\n"));
  assert_non_null(strstr(s,
      "  total CPU        %  total Memory  calls  function\n"
      "  2,001,249  100.00%         3,000      1  contract:CAAA\n"
      "  2,000,249   99.95%         3,000      3  f\n"
      "  2,000,015   99.94%         3,000      1  host:call\n"));
  free(s);
  prof_free(p);
}

/* Work outside any function (the root's self cost) is listed by self;
 * inlined functions show "-" calls; line 0 (compiler-generated) is not
 * ranked as a source line but noted under the table. */
static void test_report_root_inlined(void **state) {
  scp_profile *p = prof_new(0, 0);
  p->frames[0].name = str(p, "contract:demo.wasm");
  p->nodes[0].self[0] = 5;
  uint32_t r = node(p, 0, frame(p, "run", "a.c", 3, SCP_KIND_GUEST), 1, 10, 0);
  uint32_t m = node(p, r, frame(p, "mix", "a.c", 9, SCP_KIND_INLINED), 0, 20, 0);
  line(p, m, "a.c", 0, 20, 0);
  finish(p);
  char *s = render(report, p, NULL);
  assert_non_null(strstr(s,
      "Top 20 functions by self CPU\n"
      "  self CPU       %  self Memory  calls  function\n"
      "        20  57.14%            0      -  mix (a.c:9)\n"
      "        10  28.57%            0      1  run (a.c:3)\n"
      "         5  14.29%            0      -  contract:demo.wasm\n"
      "\n"
      "Top 20 functions by total CPU\n"
      "  total CPU       %  total Memory  calls  function\n"
      "         30  85.71%             0      1  run (a.c:3)\n"
      "         20  57.14%             0      -  mix (a.c:9)\n"));
  assert_non_null(strstr(s, "Hottest source lines by CPU\n  (none)\n"
                            "  (20 more in compiler-generated code without a source line,"
                            " counted in its functions)\n"));
  free(s);
  prof_free(p);
}

/* ---- scp_profile_write ------------------------------------------------- */

static char *write_to_string(const scp_profile *p, scp_format fmt,
                             const scp_write_opts *o, int *rc) {
  char *data = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&data, &len);
  assert_non_null(f);
  *rc = scp_profile_write(p, fmt, o, f);
  fclose(f);
  return data;
}

static void test_profile_write(void **state) {
  scp_profile *p = fixture();
  int rc;
  char *s = write_to_string(p, SCP_FMT_FOLDED, NULL, &rc);
  char *want = render(folded0, p, NULL);
  assert_int_equal(rc, SCP_OK);
  assert_string_equal(s, want);
  free(s);
  free(want);
  scp_write_opts o = {.metric = 1, .top = 3};
  s = write_to_string(p, SCP_FMT_FOLDED, &o, &rc);
  want = render(folded1, p, NULL);
  assert_string_equal(s, want);
  free(s);
  free(want);
  s = write_to_string(p, SCP_FMT_SVG, &o, &rc);
  assert_int_equal(rc, SCP_OK);
  assert_non_null(strstr(s, ">Memory: 590 bytes</text>"));
  free(s);
  s = write_to_string(p, SCP_FMT_REPORT, &o, &rc);
  assert_int_equal(rc, SCP_OK);
  assert_non_null(strstr(s, "Top 3 functions by total Memory\n"));
  free(s);
  o.metric = 5;
  s = write_to_string(p, SCP_FMT_REPORT, &o, &rc);
  assert_int_equal(rc, SCP_ERR_ARG);
  free(s);
  s = write_to_string(p, SCP_FMT_COUNT, NULL, &rc);
  assert_int_equal(rc, SCP_ERR_ARG);
  free(s);
  /* every format is written and has a name and a file name */
  for (unsigned f = 0; f < SCP_FMT_COUNT; f++) {
    s = write_to_string(p, (scp_format)f, NULL, &rc);
    assert_int_equal(rc, SCP_OK);
    free(s);
    assert_non_null(scp_out_format_name((scp_format)f));
    assert_non_null(scp_out_format_file((scp_format)f));
    assert_int_equal(scp_out_format_parse(scp_out_format_name((scp_format)f)), f);
  }
  assert_int_equal(scp_out_format_parse("nosuch"), SCP_FMT_COUNT);
  assert_null(scp_out_format_name(SCP_FMT_COUNT));
  assert_string_equal(scp_out_format_file(SCP_FMT_CALLGRIND), "callgrind.out.scprof");
  prof_free(p);
}

/* The format table: what the library writes (scp_profile_write) and what
 * the CLI writes (the table's writer) are the same bytes, for every format
 * and metric; the SVG options the CLI passes reach the writer; only the
 * flamegraph is written once per metric. */
static void test_format_table(void **state) {
  scp_profile *p = fixture();
  assert_null(scp_out_format_get(SCP_FMT_COUNT));
  for (unsigned f = 0; f < SCP_FMT_COUNT; f++) {
    const scp_out_format *of = scp_out_format_get((scp_format)f);
    assert_non_null(of);
    assert_string_equal(of->name, scp_out_format_name((scp_format)f));
    assert_string_equal(of->file, scp_out_format_file((scp_format)f));
    assert_int_equal(of->per_metric, f == SCP_FMT_SVG);
    for (unsigned m = 0; m < p->nmetrics; m++) {
      int rc;
      scp_write_opts wo = {.metric = m, .top = 2};
      char *lib = NULL;
      size_t len = 0;
      FILE *mf = open_memstream(&lib, &len);
      assert_non_null(mf);
      rc = scp_profile_write(p, (scp_format)f, &wo, mf);
      fclose(mf);
      assert_int_equal(rc, SCP_OK);
      scp_out_opts oo = {.metric = m, .top = 2};
      scp_buf b = {0};
      assert_int_equal(of->write(p, &oo, &b), SCP_OK);
      assert_int_equal(b.len, len);
      assert_memory_equal(b.data, lib, len);
      scp_buf_free(&b);
      free(lib);
    }
  }
  scp_out_opts oo = {.metric = 0, .svg = {.icicle = true, .width = 800}};
  scp_svg_opts so = {.metric = 0, .icicle = true, .width = 800};
  scp_buf a = {0}, b = {0};
  assert_int_equal(scp_out_format_get(SCP_FMT_SVG)->write(p, &oo, &a), SCP_OK);
  assert_int_equal(scp_out_svg(p, &so, &b), SCP_OK);
  assert_int_equal(a.len, b.len);
  assert_memory_equal(a.data, b.data, a.len);
  scp_buf_free(&a);
  scp_buf_free(&b);
  prof_free(p);
}

/* ---- golden files: regression pins ----------------------------------------
 * Expected outputs live in tests/output/golden/ (paths relative to the
 * repository root, where tests/run.sh runs).  scprof wrote them: they pin
 * the output, they are no independent evidence (tests/kinds.txt: pin).
 * SCP_RECORD_GOLDEN=1 rewrites them instead of comparing:
 * tests/output/record-golden.sh; tests/run.sh refuses to run with it set. */

#define GOLDEN_DIR "tests/output/golden/"

static void golden(const char *name, const void *data, size_t len) {
  char path[256];
  snprintf(path, sizeof path, GOLDEN_DIR "%s", name);
  if (getenv("SCP_RECORD_GOLDEN")) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    return;
  }
  FILE *f = fopen(path, "rb");
  if (!f) fprintf(stderr, "missing golden file %s (run from the repository root)\n", path);
  assert_non_null(f);
  char *want = malloc(len + 2);
  assert_non_null(want);
  size_t got = fread(want, 1, len + 1, f);
  fclose(f);
  if (got != len || memcmp(want, data, len) != 0) {
    fprintf(stderr, "%s differs from the output (%zu vs %zu bytes); "
            "tests/output/record-golden.sh regenerates it\n", path, got, len);
  }
  assert_int_equal(got, len);
  assert_memory_equal(want, data, len);
  free(want);
}

typedef int (*writer)(const scp_profile *, scp_buf *);

/* Writes twice (byte-identical) and returns the first output. */
static scp_buf write_twice(writer w, const scp_profile *p) {
  scp_buf a = {0}, b = {0};
  assert_int_equal(w(p, &a), SCP_OK);
  assert_int_equal(w(p, &b), SCP_OK);
  assert_int_equal(a.len, b.len);
  assert_memory_equal(a.data, b.data, a.len);
  scp_buf_free(&b);
  return a;
}

static int w_folded(const scp_profile *p, scp_buf *b) { return scp_out_folded(p, 0, b); }
static int w_svg(const scp_profile *p, scp_buf *b) { return scp_out_svg(p, NULL, b); }
static int w_report(const scp_profile *p, scp_buf *b) { return scp_out_report(p, NULL, b); }
static int w_speedscope(const scp_profile *p, scp_buf *b) { return scp_out_speedscope(p, 0, b); }
static int w_pprof(const scp_profile *p, scp_buf *b) { return scp_out_pprof(p, 0, b); }

/* Every writer of a whole profile, for the checks that go over them all. */
static const writer all_writers[] = {w_folded, w_svg, w_report, w_speedscope, w_pprof,
                                     scp_out_callgrind, scp_out_json};
#define N_WRITERS (sizeof all_writers / sizeof all_writers[0])

static void test_golden_all(void **state) {
  scp_profile *p = fixture();
  struct { const char *name; writer w; } cases[] = {
      {"fixture.folded", w_folded},
      {"fixture.svg", w_svg},
      {"fixture.txt", w_report},
      {"fixture.speedscope.json", w_speedscope},
      {"fixture.callgrind", scp_out_callgrind},
      {"fixture.json", scp_out_json},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    scp_buf b = write_twice(cases[i].w, p);
    golden(cases[i].name, b.data, b.len);
    scp_buf_free(&b);
  }
  prof_free(p);
}

/* ---- speedscope / JSON (parsed back with jansson) ------------------------ */

static json_t *parse(const char *text) {
  json_error_t err;
  json_t *j = json_loads(text, 0, &err);
  if (!j) fprintf(stderr, "JSON error line %d: %s\n", err.line, err.text);
  assert_non_null(j);
  return j;
}

static void test_speedscope(void **state) {
  scp_profile *p = fixture();
  scp_buf b = {0};
  assert_int_equal(scp_out_speedscope(p, 1, &b), SCP_OK);
  json_t *j = parse(b.data);
  assert_string_equal(json_string_value(json_object_get(j, "$schema")),
                      "https://www.speedscope.app/file-format-schema.json");
  assert_int_equal(json_integer_value(json_object_get(j, "activeProfileIndex")), 1);
  json_t *frames = json_object_get(json_object_get(j, "shared"), "frames");
  assert_int_equal(json_array_size(frames), p->nframes);
  json_t *main_frame = json_array_get(frames, 1);
  assert_string_equal(json_string_value(json_object_get(main_frame, "name")), "main");
  assert_string_equal(json_string_value(json_object_get(main_frame, "file")), "src/lib.rs");
  assert_int_equal(json_integer_value(json_object_get(main_frame, "line")), 10);
  json_t *profiles = json_object_get(j, "profiles");
  assert_int_equal(json_array_size(profiles), 2);
  const char *names[] = {"CPU (instructions)", "Memory (bytes)"};
  const char *units[] = {"none", "bytes"};
  for (size_t m = 0; m < 2; m++) {
    json_t *pr = json_array_get(profiles, m);
    assert_string_equal(json_string_value(json_object_get(pr, "type")), "sampled");
    assert_string_equal(json_string_value(json_object_get(pr, "name")), names[m]);
    assert_string_equal(json_string_value(json_object_get(pr, "unit")), units[m]);
    json_t *samples = json_object_get(pr, "samples"), *weights = json_object_get(pr, "weights");
    assert_int_equal(json_array_size(samples), json_array_size(weights));
    json_int_t sum = 0;
    for (size_t i = 0; i < json_array_size(weights); i++) {
      sum += json_integer_value(json_array_get(weights, i));
      json_t *stack = json_array_get(samples, i);
      for (size_t d = 0; d < json_array_size(stack); d++)  /* valid frame ids */
        assert_true(json_integer_value(json_array_get(stack, d)) < (json_int_t)p->nframes);
    }
    assert_int_equal(sum, p->nodes[0].total[m]);
    assert_int_equal(json_integer_value(json_object_get(pr, "endValue")), sum);
  }
  json_decref(j);
  scp_buf_free(&b);
  prof_free(p);
}

static void test_json_report(void **state) {
  scp_profile *p = fixture();
  p->status = SCP_ERR_BUDGET;
  p->status_msg = str(p, "cpu \"limit\"\n");
  scp_buf b = {0};
  assert_int_equal(scp_out_json(p, &b), SCP_OK);
  json_t *j = parse(b.data);
  assert_string_equal(json_string_value(json_object_get(j, "schema")), "scprof-report");
  assert_int_equal(json_integer_value(json_object_get(j, "version")), SCP_OUT_JSON_VERSION);
  json_t *st = json_object_get(j, "status");
  assert_string_equal(json_string_value(json_object_get(st, "code")), "SCP_ERR_BUDGET");
  assert_string_equal(json_string_value(json_object_get(st, "message")), "cpu \"limit\"\n");
  json_t *nodes = json_object_get(j, "nodes");
  assert_int_equal(json_array_size(nodes), p->nnodes);
  /* pre-order: every parent appears before its children; totals add up */
  json_int_t seen[16];
  for (size_t i = 0; i < json_array_size(nodes); i++) {
    json_t *n = json_array_get(nodes, i);
    json_int_t id = json_integer_value(json_object_get(n, "id"));
    json_int_t parent = json_integer_value(json_object_get(n, "parent"));
    seen[i] = id;
    if (i == 0) {
      assert_int_equal(parent, -1);
      continue;
    }
    bool found = false;
    for (size_t k = 0; k < i; k++) found |= seen[k] == parent;
    assert_true(found);
    const scp_prof_node *pn = &p->nodes[id];
    assert_int_equal(json_integer_value(json_array_get(json_object_get(n, "total"), 0)),
                     pn->total[0]);
    assert_int_equal(json_array_size(json_object_get(n, "lines")), pn->nlines);
  }
  json_t *m = json_array_get(json_object_get(j, "metrics"), 0);
  assert_int_equal(json_integer_value(json_object_get(m, "total")), 1410);
  assert_int_equal(json_integer_value(json_object_get(m, "limit")), 10000);
  json_decref(j);
  scp_buf_free(&b);
  /* names that are not UTF-8 still give valid JSON */
  scp_profile *q = prof_new(0, 0);
  node(q, 0, frame(q, "bad\xff\x01", "", 0, SCP_KIND_GUEST), 1, 1, 0);
  finish(q);
  assert_int_equal(scp_out_json(q, &b), SCP_OK);
  j = parse(b.data);
  json_t *f1 = json_array_get(json_object_get(j, "frames"), 1);
  assert_string_equal(json_string_value(json_object_get(f1, "name")), "bad\xef\xbf\xbd\x01");
  json_decref(j);
  scp_buf_free(&b);
  prof_free(q);
  prof_free(p);
}

/* A saved JSON report reads back into the same profile: every writer gives
 * the same bytes for the original and the reloaded one. */
static void test_json_round_trip(void **state) {
  scp_profile *p = fixture();
  p->status = SCP_ERR_TRAP;
  p->status_msg = str(p, "unreachable");
  scp_buf j = {0};
  assert_int_equal(scp_out_json(p, &j), SCP_OK);
  scp_profile *q = NULL;
  scp_error err = {0};
  assert_int_equal(scp_out_json_load(j.data, j.len, "old.json", &q, &err), SCP_OK);
  assert_non_null(q);
  for (size_t i = 0; i < N_WRITERS; i++) {
    scp_buf a = {0}, b = {0};
    assert_int_equal(all_writers[i](p, &a), SCP_OK);
    assert_int_equal(all_writers[i](q, &b), SCP_OK);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    scp_buf_free(&a);
    scp_buf_free(&b);
  }
  prof_free(q);
  /* what is not a report is refused with a message */
  const char *bad[] = {"{", "[]", "{\"schema\":\"other\",\"version\":1}",
                       "{\"schema\":\"scprof-report\",\"version\":99}"};
  for (size_t i = 0; i < 4; i++) {
    q = (scp_profile *)1;
    assert_int_equal(scp_out_json_load(bad[i], strlen(bad[i]), "x.json", &q, &err),
                     SCP_ERR_MALFORMED);
    assert_null(q);
    assert_int_equal(strncmp(err.msg, "x.json", 6), 0);
  }
  /* a node whose parent comes after it */
  char *broken = strdup(j.data);
  char *at = strstr(broken, "\"parent\":0,");
  assert_non_null(at);
  memcpy(at, "\"parent\":7,", 11);
  assert_int_equal(scp_out_json_load(broken, strlen(broken), "y.json", &q, &err),
                   SCP_ERR_MALFORMED);
  assert_string_equal(err.msg, "y.json: not a scprof JSON report: bad node");
  free(broken);
  scp_buf_free(&j);
  prof_free(p);
}

/* ---- callgrind ------------------------------------------------------------ */

static void test_callgrind(void **state) {
  scp_profile *p = fixture();
  scp_buf b = write_twice(scp_out_callgrind, p);
  /* header, events before the cost lines, summary = run totals */
  assert_non_null(strstr(b.data, "# callgrind format\nversion: 1\ncreator: scprof\n"
                                 "cmd: scprof: demo.wasm run\npositions: line\n"
                                 "event: CPU : CPU instructions\n"
                                 "event: Mem : Memory bytes\n"
                                 "events: CPU Mem\nsummary: 1410 590\n"));
  /* inlined helper: under main, with a file switch and back */
  assert_non_null(strstr(b.data, "fl=(3) src/lib.rs\nfn=(3) main\n11 60 10\n12 40 0\n"
                                 "fi=(4) src/util.rs\n21 50 0\nfe=(3)\n"));
  /* calls: cfl before cfn, count and target line, inclusive cost at the
   * call line; names compressed after first use */
  assert_non_null(strstr(b.data, "cfl=(1)\ncfn=(1)\ncalls=1 5\n12 230 16\n"));
  assert_non_null(strstr(b.data, "cfl=(2)\ncfn=(2)\ncalls=3 0\n11 30 64\n"));
  assert_int_equal(count(b.data, "fn=(1) compute"), 1);
  /* the sum of all self cost lines equals the summary */
  unsigned long long cpu = 0, mem = 0;
  const char *s = strstr(b.data, "\nfl=");
  bool call_line = false;
  for (; s && *s; s = strchr(s, '\n')) {
    s++;
    unsigned ln;
    unsigned long long c1, c2;
    if (strncmp(s, "calls=", 6) == 0) call_line = true;
    else if (sscanf(s, "%u %llu %llu", &ln, &c1, &c2) == 3) {
      if (!call_line) cpu += c1, mem += c2;
      call_line = false;
    }
  }
  assert_int_equal(cpu, 1410);
  assert_int_equal(mem, 590);
  scp_buf_free(&b);
  prof_free(p);
}

/* ---- pprof ---------------------------------------------------------------- */

static void test_pprof(void **state) {
  scp_profile *p = fixture();
  scp_buf b = write_twice(w_pprof, p);
  /* gzip, no timestamp (bytes 4..7), so the output is reproducible */
  assert_true(b.len > 18);
  assert_int_equal((unsigned char)b.data[0], 0x1f);
  assert_int_equal((unsigned char)b.data[1], 0x8b);
  assert_int_equal(b.data[4] | b.data[5] | b.data[6] | b.data[7], 0);
  /* XFL: zlib marks a level-1 stream 4 ("fastest"), level 6 with 0 */
  assert_int_equal(SCP_OUT_PPROF_GZIP_LEVEL, 1);
  assert_int_equal((unsigned char)b.data[8], 4);
  /* the protobuf itself is compared with a golden copy (zlib's bytes may
   * vary between zlib versions, the message must not) */
  unsigned char raw[8192];
  z_stream z;
  memset(&z, 0, sizeof z);
  assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
  z.next_in = (Bytef *)b.data;
  z.avail_in = (uInt)b.len;
  z.next_out = raw;
  z.avail_out = sizeof raw;
  assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
  size_t n = sizeof raw - z.avail_out;
  inflateEnd(&z);
  golden("fixture.pb", raw, n);
  /* spot checks on the wire format: string_table[0] is "", names present */
  assert_non_null(memmem(raw, n, "\x32\x00", 2));
  assert_non_null(memmem(raw, n, "host:vec_push_back", 18));
  assert_non_null(memmem(raw, n, "src/util.rs", 11));
  scp_buf_free(&b);
  prof_free(p);
}

/* ---- diff ----------------------------------------------------------------- */

/* A rebuild that moved compute's declaration (line 5 -> 9) and renamed
 * helper (same body hash): both are still the same functions, shown with
 * the new profile's label; only compute's real change is reported. */
static void test_diff_moved(void **state) {
  scp_profile *a = fixture(), *b2 = fixture_after();
  for (size_t f = 0; f < b2->nframes; f++) {
    scp_prof_frame *fr = &b2->frames[f];
    const char *name = scp_prof_str(b2, fr->name);
    if (!strcmp(name, "compute")) fr->decl_line = 9;
    if (!strcmp(name, "helper")) {
      fr->name = scp_strtab_intern(&b2->strs, "helper2");
      fr->body = scp_strtab_intern(&b2->strs, "00ff");
    }
  }
  for (size_t f = 0; f < a->nframes; f++)
    if (!strcmp(scp_prof_str(a, a->frames[f].name), "helper"))
      a->frames[f].body = scp_strtab_intern(&a->strs, "00ff");
  scp_buf b = {0};
  assert_int_equal(scp_out_diff_report(a, b2, NULL, &b), SCP_OK);
  assert_non_null(strstr(b.data, "  functions  3 matched (1 by body hash), 0 only before, 0 only now\n"));
  assert_non_null(strstr(b.data, "     220  520    +300  +136.36%  compute (src/math.rs:9)\n"));
  assert_null(strstr(b.data, "gone"));
  assert_null(strstr(b.data, "helper"));   /* unchanged: no row */
  /* the body hash is kept by report.json */
  b.len = 0;
  assert_int_equal(scp_out_json(b2, &b), SCP_OK);
  assert_non_null(strstr(b.data, "\"name\":\"helper2\""));
  assert_non_null(strstr(b.data, ",\"body\":\"00ff\"}"));
  scp_profile *back = NULL;
  scp_error err;
  assert_int_equal(scp_out_json_load(b.data, b.len, "t", &back, &err), SCP_OK);
  bool found = false;
  for (size_t f = 0; f < back->nframes; f++)
    found |= !strcmp(scp_prof_str(back, back->frames[f].body), "00ff");
  assert_true(found);
  scp_profile_destroy(back);
  scp_buf_free(&b);
  scp_profile_destroy(a);
  scp_profile_destroy(b2);
  (void)state;
}

static void test_diff(void **state) {
  scp_profile *a = fixture(), *b2 = fixture_after();
  scp_buf b = {0};
  assert_int_equal(scp_out_diff_report(a, b2, NULL, &b), SCP_OK);
  assert_string_equal(b.data,
      "scprof diff\n"
      "  before  scprof: demo.wasm run\n"
      "  now     scprof: demo.wasm run\n"
      "  functions  3 matched, 0 only before, 0 only now\n"
      "\n"
      "Totals\n"
      "  metric  before    now  change  %\n"
      "  CPU      1,410  1,390     -20  -1.42%\n"
      "  Memory     590    622     +32  +5.42%\n"
      "\n"
      "Largest changes by function, self CPU\n"
      "  before  now  change         %  function\n"
      "   1,000  600    -400   -40.00%  vm:instantiate\n"
      "     220  520    +300  +136.36%  compute (src/math.rs:5)\n"
      "       0   80     +80       new  host:map_get\n"
      "\n"
      "Largest changes by function, total CPU\n"
      "  before  now  change         %  function\n"
      "   1,000  600    -400   -40.00%  vm:instantiate\n"
      "     410  790    +380   +92.68%  main (src/lib.rs:10)\n"
      "     230  530    +300  +130.43%  compute (src/math.rs:5)\n"
      "       0   80     +80       new  host:map_get\n"
      "\n"
      "Largest changes by source line, CPU\n"
      "  before  now  change         %  line\n"
      "     170  470    +300  +176.47%  src/math.rs:6\n");
  scp_buf_free(&b);
  assert_int_equal(scp_out_diff_svg(a, b2, NULL, &b), SCP_OK);
  assert_well_formed(b.data);
  golden("diff.svg", b.data, b.len);
  char c[32];
  fill_of(b.data, "vm:instantiate", c);   /* largest shrink: full blue */
  assert_string_equal(c, "rgb(80,80,255)");
  fill_of(b.data, "host:map_get", c);     /* new: red */
  assert_string_equal(c, "rgb(255,200,200)");
  fill_of(b.data, "helper (src/util.rs:20)", c);  /* unchanged: white */
  assert_string_equal(c, "rgb(250,250,250)");
  assert_non_null(strstr(b.data, "<title>vm:instantiate (600 instructions, 43.17%, self 600, "
                                 "Memory 500 bytes, 1 call, change -400, -40.00%)</title>"));
  assert_non_null(strstr(b.data, "<title>helper (src/util.rs:20) (50 instructions, 3.60%, "
                                 "self 50, Memory 0 bytes, 1 call, unchanged, inlined at "
                                 "src/lib.rs:12)</title>"));
  assert_non_null(strstr(b.data, "; before 1,410, change -20 = -1.42%; red grew, blue shrank"));
  scp_buf_free(&b);
  /* identical profiles: nothing changed */
  scp_report_opts o = {.top = 5};
  assert_int_equal(scp_out_diff_report(a, a, &o, &b), SCP_OK);
  assert_non_null(strstr(b.data, "Largest changes by function, self CPU\n  (no change)\n"));
  scp_buf_free(&b);
  prof_free(a);
  prof_free(b2);
}

/* ---- streaming ------------------------------------------------------------ */

/* 4,000 random call chains 10 deep over 200 frames with long names: 40,000
 * nodes, 17 MiB of folded stacks, 2 MiB of speedscope. */
static scp_profile *large_profile(void) {
  scp_profile *p = prof_new(0, 0);
  uint32_t fr[200];
  for (unsigned i = 0; i < 200; i++) {
    char name[96], file[64];
    snprintf(name, sizeof name, "contract::module_%u::a_rather_long_function_name_%u", i % 7, i);
    snprintf(file, sizeof file, "src/module_%u/lib.rs", i % 7);
    fr[i] = frame(p, name, file, 10 + i, i % 5 ? SCP_KIND_GUEST : SCP_KIND_INLINED);
  }
  uint64_t seed = 1;
  for (unsigned chain = 0; chain < 4000; chain++) {
    uint32_t parent = 0;
    for (unsigned d = 0; d < 10; d++) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      parent = node(p, parent, fr[(seed >> 33) % 200], 1, 1 + (seed >> 50), (seed >> 40) & 63);
    }
  }
  finish(p);
  return p;
}

/* The pprof writer compresses its message a piece at a time as it makes
 * it: the result must be what compressing the whole message at once
 * gives at the same level (what scprof wrote before it streamed). */
static void assert_gzip_one_shot(const scp_buf *gz) {
  scp_buf raw = {0};
  unsigned char out[65536];
  z_stream z;
  memset(&z, 0, sizeof z);
  assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
  z.next_in = (Bytef *)gz->data;
  z.avail_in = (uInt)gz->len;
  int zr;
  do {
    z.next_out = out;
    z.avail_out = sizeof out;
    zr = inflate(&z, Z_NO_FLUSH);
    assert_true(zr == Z_OK || zr == Z_STREAM_END);
    scp_buf_put(&raw, out, sizeof out - z.avail_out);
  } while (zr != Z_STREAM_END);
  inflateEnd(&z);
  assert_true(raw.len > 10 * sizeof out);   /* many pieces */
  memset(&z, 0, sizeof z);
  assert_int_equal(deflateInit2(&z, SCP_OUT_PPROF_GZIP_LEVEL, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  uLong bound = deflateBound(&z, (uLong)raw.len);
  unsigned char *once = malloc(bound);
  assert_non_null(once);
  z.next_in = (Bytef *)raw.data;
  z.avail_in = (uInt)raw.len;
  z.next_out = once;
  z.avail_out = (uInt)bound;
  assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
  assert_int_equal(bound - z.avail_out, gz->len);
  assert_memory_equal(once, gz->data, gz->len);
  deflateEnd(&z);
  free(once);
  scp_buf_free(&raw);
}

/* Every format written through a buffer with a sink gives the very bytes
 * it gives in memory, while the buffer never holds or allocates more
 * than a chunk, though the larger outputs are several chunks long; the
 * library's scp_profile_write streams the same way and reports a full
 * disk as SCP_ERR_IO. */
static void test_stream_large(void **state) {
  scp_profile *p = large_profile();
  for (unsigned f = 0; f < SCP_FMT_COUNT; f++) {
    const scp_out_format *of = scp_out_format_get((scp_format)f);
    scp_out_opts oo = {.metric = 0, .svg = {.min_width_pct = -1}};
    scp_buf mem = {0};
    assert_int_equal(of->write(p, &oo, &mem), SCP_OK);
    FILE *tf = tmpfile();
    assert_non_null(tf);
    scp_buf b = {.sink = tf};
    assert_int_equal(of->write(p, &oo, &b), SCP_OK);
    assert_int_equal(scp_buf_flush(&b), SCP_OK);
    assert_true(b.cap <= SCP_BUF_CHUNK);   /* cap only grows: len never passed it */
    if (f == SCP_FMT_FOLDED || f == SCP_FMT_SPEEDSCOPE || f == SCP_FMT_JSON || f == SCP_FMT_SVG)
      assert_true(mem.len > 2 * SCP_BUF_CHUNK);
    if (f == SCP_FMT_PPROF) assert_gzip_one_shot(&mem);
    assert_int_equal(fseek(tf, 0, SEEK_END), 0);
    assert_int_equal((size_t)ftell(tf), mem.len);
    rewind(tf);
    char *got = malloc(mem.len + 1);
    assert_non_null(got);
    assert_int_equal(fread(got, 1, mem.len, tf), mem.len);
    assert_memory_equal(got, mem.data, mem.len);
    free(got);
    fclose(tf);
    scp_buf_free(&b);
    scp_buf_free(&mem);
  }
  FILE *full = fopen("/dev/full", "w");
  if (full) {
    assert_int_equal(scp_profile_write(p, SCP_FMT_FOLDED, NULL, full), SCP_ERR_IO);
    fclose(full);
  }
  prof_free(p);
}

/* ---- edge cases ------------------------------------------------------------ */

static void test_no_nodes_and_bad_metric(void **state) {
  scp_profile z;
  memset(&z, 0, sizeof z);
  z.nmetrics = 1;
  z.metrics[0] = (scp_metric){"CPU", "instructions", 0};
  scp_buf b = {0};
  assert_int_equal(scp_out_folded(&z, 0, &b), SCP_OK);
  assert_int_equal(scp_out_svg(&z, NULL, &b), SCP_OK);
  assert_int_equal(scp_out_report(&z, NULL, &b), SCP_OK);
  assert_int_equal(scp_out_speedscope(&z, 0, &b), SCP_OK);
  assert_int_equal(scp_out_json(&z, &b), SCP_OK);
  assert_int_equal(scp_out_callgrind(&z, &b), SCP_ERR_ARG);
  assert_int_equal(scp_out_pprof(&z, 0, &b), SCP_ERR_ARG);
  scp_buf_free(&b);
  /* metric 1 does not exist in a one-metric profile */
  scp_svg_opts so = {.metric = 1};
  scp_report_opts ro = {.metric = 1};
  assert_int_equal(scp_out_folded(&z, 1, &b), SCP_ERR_ARG);
  assert_int_equal(scp_out_svg(&z, &so, &b), SCP_ERR_ARG);
  assert_int_equal(scp_out_report(&z, &ro, &b), SCP_ERR_ARG);
  assert_int_equal(scp_out_speedscope(&z, 1, &b), SCP_ERR_ARG);
  assert_int_equal(scp_out_pprof(&z, 1, &b), SCP_ERR_ARG);
  assert_int_equal(scp_out_diff_svg(&z, &z, &so, &b), SCP_ERR_ARG);
  assert_int_equal(scp_out_diff_report(&z, &z, &ro, &b), SCP_ERR_ARG);
  assert_int_equal(b.len, 0);
  scp_buf_free(&b);
}

/* A deep recursion: no writer may recurse per frame or double count. */
static void test_deep_chain(void **state) {
  enum { DEPTH = 1000 };
  scp_profile *p = prof_new(0, 0);
  uint32_t f = frame(p, "rec", "src/r.rs", 1, SCP_KIND_GUEST);
  uint32_t n = 0;
  for (int i = 0; i < DEPTH; i++) n = node(p, n, f, 1, 1234567890123ULL, 1);
  finish(p);
  for (size_t i = 0; i < N_WRITERS; i++) {
    scp_buf b = write_twice(all_writers[i], p);
    assert_true(b.len > 0);
    if (all_writers[i] == w_report) {
      /* total counted once for the outermost activation, not 1000 times */
      assert_non_null(strstr(b.data,
          "              total CPU        %  total Memory  calls  function\n"
          "  1,234,567,890,123,000  100.00%         1,000  1,000  rec (src/r.rs:1)\n"));
    }
    if (all_writers[i] == w_folded) assert_int_equal(count(b.data, "\n"), DEPTH);
    scp_buf_free(&b);
  }
  prof_free(p);
}

/* A profile that breaks the builder's promises (frame id out of range,
 * line list past the end) must not crash any writer. */
static void test_malformed_profile(void **state) {
  scp_profile *p = fixture();
  uint32_t bad = node(p, 1, 0, 1, 7, 7);
  p->nodes[bad].frame = 99;
  p->nodes[bad].lines_first = 1000;
  p->nodes[bad].nlines = 3;
  finish(p);
  for (size_t i = 0; i < N_WRITERS; i++) {
    scp_buf b = {0};
    assert_int_equal(all_writers[i](p, &b), SCP_OK);
    scp_buf_free(&b);
  }
  scp_buf b = {0};
  assert_int_equal(scp_out_annotate(p, NULL, &b), SCP_OK);
  scp_buf_free(&b);
  assert_int_equal(scp_out_diff_report(p, p, NULL, &b), SCP_OK);
  scp_buf_free(&b);
  assert_int_equal(scp_out_diff_svg(p, p, NULL, &b), SCP_OK);
  assert_non_null(strstr(b.data, "<title>[unknown] (7 instructions"));
  scp_buf_free(&b);
  prof_free(p);
}

/* ---- annotate --------------------------------------------------------------- */

static const char *load_source(void *ctx, const char *file, size_t *len) {
  static const char math[] =
      "// math\n"
      "\n"
      "\n"
      "\n"
      "pub fn compute(n: u32) -> u32 {\n"
      "    let x = n * 2;\r\n"
      "    if n > 0 { compute(n - 1) } else { x }\n"
      "}\n"
      "// end\n"
      "\n"
      "\n"
      "// tail";
  (*(int *)ctx)++;
  if (strcmp(file, "src/math.rs") != 0) return NULL;
  *len = sizeof math - 1;
  return math;
}

static void test_annotate(void **state) {
  scp_profile *p = fixture();
  int loads = 0;
  scp_annotate_opts o = {.only = "math.rs", .load = load_source, .ctx = &loads};
  scp_buf b = {0};
  assert_int_equal(scp_out_annotate(p, &o, &b), SCP_OK);
  assert_string_equal(b.data,
      "-- src/math.rs -- CPU 220 (15.60% of the run), Memory 0\n"
      "  CPU        %  Memory  line  source\n"
      "    .        .       .     1  // math\n"
      "    .        .       .     2\n"
      "    .        .       .     3\n"
      "    .        .       .     4\n"
      "    .        .       .     5  pub fn compute(n: u32) -> u32 {\n"
      "  170   12.06%       .     6      let x = n * 2;\n"
      "   50    3.55%       .     7      if n > 0 { compute(n - 1) } else { x }\n"
      "    .        .       .     8  }\n"
      "    .        .       .     9  // end\n"
      "    .        .       .    10\n"
      "    .        .       .    11\n"
      "    .        .       .    12  // tail\n");
  scp_buf_free(&b);
  /* a function: its lines (inlined code included) with 3 lines around */
  o.only = "main";
  assert_int_equal(scp_out_annotate(p, &o, &b), SCP_OK);
  assert_string_equal(b.data,
      "-- src/lib.rs -- CPU 100 (7.09% of the run), Memory 10; source not available, "
      "lines with cost only\n"
      "  CPU        %  Memory  line\n"
      "   60    4.26%      10    11\n"
      "   40    2.84%       .    12\n"
      "\n"
      "-- src/util.rs -- CPU 50 (3.55% of the run), Memory 0; source not available, "
      "lines with cost only\n"
      "  CPU        %  Memory  line\n"
      "   50    3.55%       .    21\n");
  scp_buf_free(&b);
  o.only = "compute";
  assert_int_equal(scp_out_annotate(p, &o, &b), SCP_OK);
  assert_non_null(strstr(b.data, "    .        .       .     3\n"
                                 "    .        .       .     4\n"));
  assert_null(strstr(b.data, "// math"));
  assert_null(strstr(b.data, "// tail"));
  assert_non_null(strstr(b.data, "    .        .       .    10\n"));  /* 7 + 3 */
  assert_null(strstr(b.data, "    11\n"));
  scp_buf_free(&b);
  o.only = "nosuch";
  assert_int_equal(scp_out_annotate(p, &o, &b), SCP_ERR_NOTFOUND);
  scp_buf_free(&b);
  /* everything, busiest file first, memory as the chosen metric */
  o = (scp_annotate_opts){.metric = 1};
  assert_int_equal(scp_out_annotate(p, &o, &b), SCP_OK);
  assert_non_null(strstr(b.data, "-- src/lib.rs -- Memory 10 (1.69% of the run), CPU 100; "));
  assert_true(strstr(b.data, "-- src/lib.rs") < strstr(b.data, "-- src/math.rs"));
  scp_buf_free(&b);
  prof_free(p);
}

/* ---- check ------------------------------------------------------------------ */

static void test_check(void **state) {
  scp_profile *p = fixture();
  scp_check_limit lim[] = {
      {.function = NULL, .metric = 0, .max = 2000},           /* run CPU: ok */
      {.function = NULL, .metric = 1, .max = 500},            /* run memory 590: over */
      {.function = "compute", .metric = 0, .max = 230},       /* recursion counted once: ok */
      {.function = "main (src/lib.rs:10)", .metric = 0, .max = 400},   /* by label: 410 over */
  };
  scp_check_opts o = {.limits = lim, .nlimits = 4, .allow_failure = false};
  scp_buf b = {0};
  assert_int_equal(scp_out_check(p, &o, &b), SCP_ERR_BUDGET);
  assert_string_equal(b.data,
      "ok    CPU 1,410 <= 2,000 (70.50%)\n"
      "OVER  Memory 590 > 500 (+18.00%)\n"
      "ok    CPU of compute 230 <= 230 (100.00%)\n"
      "OVER  CPU of main (src/lib.rs:10) 410 > 400 (+2.50%)\n");
  scp_buf_free(&b);
  o.nlimits = 1;
  assert_int_equal(scp_out_check(p, &o, &b), SCP_OK);
  scp_buf_free(&b);
  scp_check_limit missing = {.function = "nosuch", .metric = 0, .max = 1};
  o = (scp_check_opts){.limits = &missing, .nlimits = 1, .allow_failure = false};
  assert_int_equal(scp_out_check(p, &o, &b), SCP_ERR_NOTFOUND);
  assert_string_equal(b.data, "MISSING  CPU of nosuch: no such function in the profile\n");
  scp_buf_free(&b);
  p->status = SCP_ERR_BUDGET;
  p->status_msg = str(p, "cpu limit exceeded");
  o = (scp_check_opts){.limits = lim, .nlimits = 1, .allow_failure = false};
  assert_int_equal(scp_out_check(p, &o, &b), SCP_ERR_BUDGET);
  assert_non_null(strstr(b.data, "FAIL  run ended: budget exceeded: cpu limit exceeded\n"));
  scp_buf_free(&b);
  /* a failed run fails on its own status, whatever its limits say, unless
   * failure is allowed; then the limits decide */
  p->status = SCP_ERR_TRAP;
  p->status_msg = str(p, "instruction failed: Custom(101)");
  assert_int_equal(scp_out_check(p, &o, &b), SCP_ERR_TRAP);
  assert_string_equal(b.data, "ok    CPU 1,410 <= 2,000 (70.50%)\n"
                              "FAIL  run ended: contract trapped: instruction failed: Custom(101)\n");
  scp_buf_free(&b);
  p->status = SCP_ERR_HOST;
  assert_int_equal(scp_out_check(p, &o, &b), SCP_ERR_HOST);
  scp_buf_free(&b);
  o.allow_failure = true;
  assert_int_equal(scp_out_check(p, &o, &b), SCP_OK);
  assert_string_equal(b.data, "ok    CPU 1,410 <= 2,000 (70.50%)\n"
                              "note  run ended: host function error: instruction failed: Custom(101) "
                              "(failure allowed)\n");
  scp_buf_free(&b);
  o.limits = &lim[1];
  assert_int_equal(scp_out_check(p, &o, &b), SCP_ERR_BUDGET);
  scp_buf_free(&b);
  scp_check_limit bad = {.function = NULL, .metric = 7, .max = 1};
  o = (scp_check_opts){.limits = &bad, .nlimits = 1, .allow_failure = false};
  assert_int_equal(scp_out_check(p, &o, &b), SCP_ERR_ARG);
  prof_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_label),
      cmocka_unit_test(test_folded),
      cmocka_unit_test(test_folded_sanitize_merge),
      cmocka_unit_test(test_folded_groups),
      cmocka_unit_test(test_svg_frames),
      cmocka_unit_test(test_svg_layout_options),
      cmocka_unit_test(test_svg_pruning),
      cmocka_unit_test(test_svg_deterministic),
      cmocka_unit_test(test_svg_escaping_status),
      cmocka_unit_test(test_svg_empty),
      cmocka_unit_test(test_report),
      cmocka_unit_test(test_report_options),
      cmocka_unit_test(test_report_contracts),
      cmocka_unit_test(test_report_root_inlined),
      cmocka_unit_test(test_profile_write),
    cmocka_unit_test(test_format_table),
      cmocka_unit_test(test_golden_all),
      cmocka_unit_test(test_speedscope),
      cmocka_unit_test(test_json_report),
      cmocka_unit_test(test_json_round_trip),
      cmocka_unit_test(test_callgrind),
      cmocka_unit_test(test_pprof),
      cmocka_unit_test(test_diff),
      cmocka_unit_test(test_svg_long_title),
      cmocka_unit_test(test_diff_moved),
      cmocka_unit_test(test_stream_large),
      cmocka_unit_test(test_no_nodes_and_bad_metric),
      cmocka_unit_test(test_deep_chain),
      cmocka_unit_test(test_malformed_profile),
      cmocka_unit_test(test_annotate),
      cmocka_unit_test(test_check),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
