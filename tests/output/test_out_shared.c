/*
 * test_out_shared.c — what the writers of one profile share
 * (scp_out_shared) and report.json's instruction rows.  Every format
 * written with the labels and children made once (scp_out_opts.shared) is
 * byte for byte the format written without them, and one made of another
 * profile is not used.  report.json's rows, written in batches, are the
 * rows the test builds with snprintf (independent of the writer), read
 * back by the loader to the same pc, text, costs and runs (escaped, long
 * and unknown texts included), and the same through a file's window as in
 * memory for a profile of several windows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out_fixture.h"

static const char *const texts[] = {
    "mov64r r1, r2", "ldxdw r6, [r10-64]", "quote \" and backslash \\", "", "caf\xc3\xa9",
    /* longer than a row takes in place (96 bytes): through the escaper */
    "call 0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789",
};
#define NTEXTS (sizeof texts / sizeof *texts)

/* root -> f, g (guest), f with nrows instruction rows, g with 40; row i of
 * f: pc 8 * i, text texts[i % NTEXTS] (every 50th an id past the
 * profile's strings), CPU i % 97, memory i % 3, ran i % 5 times. */
static scp_profile *rows_fixture(size_t nrows) {
  scp_profile *p = prof_new(0, 0);
  p->chain = SCP_CHAIN_SOLANA;
  uint32_t ids[NTEXTS];
  for (size_t t = 0; t < NTEXTS; t++) ids[t] = str(p, texts[t]);
  uint32_t ff = frame(p, "f", "", 0, SCP_KIND_GUEST), fg = frame(p, "g", "", 0, SCP_KIND_GUEST);
  uint32_t n[2] = {node(p, 0, ff, 1, 0, 0), node(p, 0, fg, 1, 0, 0)};
  size_t counts[2] = {nrows, 40};
  FX_CHECK(scp_grow(&p->pcs, &p->cappcs, nrows + 40, sizeof *p->pcs));
  for (int k = 0; k < 2; k++) {
    p->nodes[n[k]].pcs_first = (uint32_t)p->npcs;
    for (size_t i = 0; i < counts[k]; i++) {
      scp_prof_pc *r = &p->pcs[p->npcs++];
      uint32_t text = i % 50 == 49 ? (uint32_t)p->strs.n + 7 : ids[i % NTEXTS];
      *r = (scp_prof_pc){.pc = 8 * i + 100000 * (uint64_t)k, .node = n[k], .text = text, .runs = i % 5};
      r->cost[0] = i % 97;
      r->cost[1] = i % 3;
      p->nodes[n[k]].self[0] += r->cost[0];
      p->nodes[n[k]].self[1] += r->cost[1];
      p->nodes[n[k]].npcs++;
    }
  }
  p->pc_runs = true;
  finish(p);
  return p;
}

static void free_rows(scp_profile *p) {
  free(p->pcs);
  prof_free(p);
}

static void write_with(const scp_profile *p, scp_format f, const scp_out_shared *sh, scp_buf *b) {
  scp_out_opts oo = {.metric = 0, .top = 5, .shared = sh};
  assert_int_equal(scp_out_format_get(f)->write(p, &oo, b), SCP_OK);
}

/* every format: the same bytes with p's shared labels and children, and
 * with another profile's (which the writer does not use) */
static void same_with_shared(const scp_profile *p, const scp_profile *other) {
  scp_out_shared *sh = NULL, *wrong = NULL;
  assert_int_equal(scp_out_shared_new(p, &sh), SCP_OK);
  assert_int_equal(scp_out_shared_new(other, &wrong), SCP_OK);
  for (unsigned f = 0; f < SCP_FMT_COUNT; f++) {
    scp_buf alone = {0}, shared = {0}, other_s = {0};
    write_with(p, (scp_format)f, NULL, &alone);
    write_with(p, (scp_format)f, sh, &shared);
    write_with(p, (scp_format)f, wrong, &other_s);
    /* lcov has nothing to say of a profile without source lines */
    if (!alone.len && (f != SCP_FMT_LCOV || p->nlines))
      fail_msg("format %s wrote nothing", scp_out_format_name((scp_format)f));
    assert_int_equal(shared.len, alone.len);
    assert_memory_equal(shared.data, alone.data, alone.len);
    assert_int_equal(other_s.len, alone.len);
    assert_memory_equal(other_s.data, alone.data, alone.len);
    scp_buf_free(&alone);
    scp_buf_free(&shared);
    scp_buf_free(&other_s);
  }
  scp_out_shared_free(sh);
  scp_out_shared_free(wrong);
}

static void test_shared_same_bytes(void **state) {
  (void)state;
  scp_profile *a = fixture(), *b = fixture_after(), *r = rows_fixture(100);
  same_with_shared(a, b);
  same_with_shared(b, a);
  same_with_shared(r, a);
  scp_out_shared_free(NULL);
  prof_free(a);
  prof_free(b);
  free_rows(r);
}

/* row i of f as the test writes it, for a text without escapes */
static void expected_row(size_t i, char *out, size_t size) {
  snprintf(out, size, "{\"pc\":%zu,\"insn\":\"%s\",\"cost\":[%zu,%zu],\"runs\":%zu}", 8 * i,
           i % 50 == 49 ? "" : texts[i % NTEXTS], i % 97, i % 3, i % 5);
}

static void test_json_rows(void **state) {
  (void)state;
  scp_profile *p = rows_fixture(100);
  scp_buf j = {0};
  assert_int_equal(scp_out_json(p, &j), SCP_OK);
  /* the plain texts' rows, each preceded by its neighbour's comma */
  for (size_t i = 0; i < 100; i++) {
    if (i % 50 != 49 && (i % NTEXTS == 2 || i % NTEXTS == 4 || i % NTEXTS == 5)) continue;
    char want[256];
    expected_row(i, want, sizeof want);
    char *at = strstr(j.data, want);
    if (!at) fail_msg("row %zu: %s", i, want);
    assert_true(at[-1] == (i ? ',' : '['));
  }
  /* every row back from the text, escaped and unknown texts included */
  scp_profile *q = NULL;
  scp_error err = {0};
  assert_int_equal(scp_out_json_load(j.data, j.len, "r.json", &q, &err), SCP_OK);
  assert_int_equal(q->npcs, 140);
  for (size_t i = 0; i < q->npcs; i++) {
    const scp_prof_pc *a = &p->pcs[i], *b = &q->pcs[i];
    assert_int_equal(b->pc, a->pc);
    assert_string_equal(scp_prof_str(q, b->text), scp_prof_str(p, a->text));
    assert_int_equal(b->cost[0], a->cost[0]);
    assert_int_equal(b->cost[1], a->cost[1]);
    assert_int_equal(b->runs, a->runs);
  }
  scp_profile_destroy(q);
  scp_buf_free(&j);
  free_rows(p);
}

/* some 3 MB of rows: written through a file's window (1 MiB) the bytes
 * are those written in memory */
static void test_json_rows_windowed(void **state) {
  (void)state;
  scp_profile *p = rows_fixture(50000);
  scp_buf mem = {0};
  assert_int_equal(scp_out_json(p, &mem), SCP_OK);
  assert_true(mem.len > 2 * SCP_BUF_CHUNK);
  FILE *tf = tmpfile();
  assert_non_null(tf);
  scp_buf b = {.sink = tf};
  assert_int_equal(scp_out_json(p, &b), SCP_OK);
  assert_int_equal(scp_buf_flush(&b), SCP_OK);
  /* the bytes on disk, through the descriptor */
  struct stat st;
  assert_int_equal(fstat(fileno(tf), &st), 0);
  assert_int_equal((size_t)st.st_size, mem.len);
  char *got = malloc(mem.len);
  assert_non_null(got);
  assert_int_equal(pread(fileno(tf), got, mem.len, 0), (ssize_t)mem.len);
  assert_int_equal(memcmp(got, mem.data, mem.len), 0);
  free(got);
  fclose(tf);
  scp_buf_free(&b);
  scp_buf_free(&mem);
  free_rows(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shared_same_bytes),
      cmocka_unit_test(test_json_rows),
      cmocka_unit_test(test_json_rows_windowed),
  };
  return cmocka_run_group_tests_name("out_shared", tests, NULL, NULL);
}
