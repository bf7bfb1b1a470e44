/*
 * cli_cov.c — the coverage of a whole scenario: with --format lcov, every
 * profiled call's lines and functions summed into DIR/lcov.info beside
 * the call folders (each of which has its own), so one file covers the
 * suite for genhtml and CI services.
 */
#include "cli.h"

int cli_cov_begin(cli_cov *cv, const bool want[SCP_FMT_COUNT]) {
  cv->c = NULL;
  if (!want[SCP_FMT_LCOV]) return 0;
  return scp_lcov_new(&cv->c) ? cli_die(SCP_ERR_NOMEM, "out of memory") : 0;
}

int cli_cov_add(cli_cov *cv, const scp_profile *p) {
  if (!cv->c) return 0;
  return scp_lcov_add(cv->c, p) ? cli_die(SCP_ERR_NOMEM, "out of memory") : 0;
}

int cli_cov_end(cli_cov *cv, int status, const char *dir, const char *shown) {
  if (cv->c && !status) {
    scp_buf b = {0};
    int rc = scp_lcov_write(cv->c, &b);
    status = rc ? cli_die(rc, "%s/%s: %s", shown, scp_out_format_file(SCP_FMT_LCOV), scp_strerror(rc))
                : cli_write_file_as(dir, shown, scp_out_format_file(SCP_FMT_LCOV), &b);
    scp_buf_free(&b);
  }
  scp_lcov_free(cv->c);
  cv->c = NULL;
  return status;
}
