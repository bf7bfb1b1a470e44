/*
 * gen_out.c — writes the hand-built test profiles (out_fixture.h) in every
 * format into a directory, for the real-viewer checks in tests/e2e/ (which
 * build and run this program).  Not a unit test: no cmocka.
 *   usage: gen_out DIR
 */
#include "out_fixture.h"

static int write_file(const char *dir, const char *name, const scp_buf *b) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f) {
    perror(path);
    return 1;
  }
  int rc = scp_buf_write(b, f);
  if (fclose(f) != 0 || rc != SCP_OK) {
    fprintf(stderr, "%s: write failed\n", path);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: gen_out DIR\n");
    return 2;
  }
  const char *dir = argv[1];
  scp_profile *p = fixture(), *after = fixture_after();
  int bad = 0;
  struct {
    const char *name;
    int (*write)(const scp_profile *, scp_buf *);
  } fmts[] = {{"fixture.callgrind", scp_out_callgrind}, {"fixture.json", scp_out_json}};
  for (size_t i = 0; i < SCP_ARRAY_LEN(fmts); i++) {
    scp_buf b = {0};
    bad |= fmts[i].write(p, &b) != SCP_OK || write_file(dir, fmts[i].name, &b);
    scp_buf_free(&b);
  }
  scp_buf b = {0};
  bad |= scp_out_folded(p, 0, &b) != SCP_OK || write_file(dir, "fixture.folded", &b);
  scp_buf_free(&b);
  bad |= scp_out_svg(p, NULL, &b) != SCP_OK || write_file(dir, "fixture.svg", &b);
  scp_buf_free(&b);
  bad |= scp_out_report(p, NULL, &b) != SCP_OK || write_file(dir, "fixture.txt", &b);
  scp_buf_free(&b);
  bad |= scp_out_speedscope(p, 0, &b) != SCP_OK || write_file(dir, "fixture.speedscope.json", &b);
  scp_buf_free(&b);
  bad |= scp_out_pprof(p, 0, &b) != SCP_OK || write_file(dir, "fixture.pb.gz", &b);
  scp_buf_free(&b);
  bad |= scp_out_diff_svg(p, after, NULL, &b) != SCP_OK || write_file(dir, "diff.svg", &b);
  scp_buf_free(&b);
  bad |= scp_out_diff_report(p, after, NULL, &b) != SCP_OK || write_file(dir, "diff.txt", &b);
  scp_buf_free(&b);
  prof_free(p);
  prof_free(after);
  return bad ? 1 : 0;
}
