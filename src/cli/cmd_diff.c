/*
 * cmd_diff.c — `scprof diff OLD.json NEW.json`: compare two saved profiles.
 * Writes a differential flamegraph (NEW's layout, red grew / blue shrank)
 * and the table of the largest changes by function and by source line;
 * the table is also printed.
 */
#include "cli.h"

#include <string.h>

#define DIFF_SVG "diff.svg"
#define DIFF_TXT "diff.txt"

int cmd_diff(int argc, char **argv) {
  const int usage = scp_exit_status(SCP_ERR_USAGE);
  const char *out_dir = "scprof-out", *paths[2] = {NULL, NULL}, *metric_name = "0", *val;
  uint64_t top = 0;
  bool quiet = false;
  scp_svg_opts so = {0};
  size_t npaths = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-o") || !strcmp(a, "--out")) {
      if (!(val = cli_option_value(argc, argv, &i, "a folder"))) return usage;
      out_dir = val;
    } else if (!strcmp(a, "--metric")) {
      if (!(val = cli_option_value(argc, argv, &i, "a metric (cpu, mem, fee, cu)"))) return usage;
      metric_name = val;
    } else if (!strcmp(a, "--top")) {
      if (!(val = cli_option_value(argc, argv, &i, "a non-negative integer"))) return usage;
      if (!cli_parse_u64(val, &top) || top > 100000000)
        return cli_die(SCP_ERR_USAGE, "--top: '%s' is not a non-negative integer", val);
    } else if (!strcmp(a, "--min-width")) {
      if (!(val = cli_option_value(argc, argv, &i, "a percentage"))) return usage;
      if (!cli_parse_min_width(val, &so.min_width_pct))
        return cli_die(SCP_ERR_USAGE, "--min-width: '%s' is not a percentage from 0 to 100", val);
    } else if (!strcmp(a, "--icicle")) {
      so.icicle = true;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      quiet = true;
    } else if (a[0] == '-' && a[1] != 0) {
      return cli_die(SCP_ERR_USAGE, "unknown option %s (see scprof --help)", a);
    } else if (npaths < 2) {
      paths[npaths++] = a;
    } else {
      return cli_die(SCP_ERR_USAGE, "diff takes two profiles, not '%s' too (see scprof --help)", a);
    }
  }
  if (npaths != 2)
    return cli_die(SCP_ERR_USAGE, "diff needs OLD.json and NEW.json (see scprof --help)");

  scp_profile *before = NULL, *now = NULL;
  int status = cli_load_profile(paths[0], &before);
  if (!status) status = cli_load_profile(paths[1], &now);
  if (status) goto out;
  /* The table's header names each side by its title; the profiles that
   * have none are named by the file they came from. */
  scp_profile *sides[2] = {before, now};
  for (size_t i = 0; i < 2; i++) {
    if (*scp_prof_str(sides[i], sides[i]->title)) continue;
    uint32_t id = scp_strtab_intern(&sides[i]->strs, paths[i]);
    if (id == UINT32_MAX) {
      status = cli_die(SCP_ERR_NOMEM, "out of memory");
      goto out;
    }
    sides[i]->title = id;
  }
  int mb = cli_find_metric(before, metric_name), mn = cli_find_metric(now, metric_name);
  if (mn < 0) {
    status = cli_die(SCP_ERR_USAGE, "%s: no metric '%s' in this profile", paths[1], metric_name);
    goto out;
  }
  if (mb != mn) {
    status = cli_die(SCP_ERR_ARG, "%s: metric '%s' is not the same as in %s", paths[0],
                     metric_name, paths[1]);
    goto out;
  }
  so.metric = (unsigned)mn;
  scp_report_opts ro = {.top = (unsigned)top, .metric = (unsigned)mn};
  scp_buf svg = {0}, table = {0};
  int rc = scp_out_diff_svg(before, now, &so, &svg);
  if (rc == SCP_OK) rc = scp_out_diff_report(before, now, &ro, &table);
  if (rc != SCP_OK) {
    status = cli_die(rc, "%s vs %s: %s", paths[0], paths[1], scp_strerror(rc));
  } else {
    status = cli_make_dir(out_dir);
    if (!status) status = cli_write_file(out_dir, DIFF_SVG, &svg);
    if (!status) status = cli_write_file(out_dir, DIFF_TXT, &table);
    if (!status && !quiet) status = cli_write_stdout(&table);
  }
  scp_buf_free(&svg);
  scp_buf_free(&table);
out:
  scp_profile_destroy(before);
  scp_profile_destroy(now);
  return status;
}
