/*
 * cmd_diff.c — `scprof diff OLD.json NEW.json`: compare two saved profiles.
 * Writes a differential flamegraph (NEW's layout, red grew / blue shrank)
 * and the table of the largest changes by function and by source line;
 * the table is also printed.  OLD and NEW may be scenario or bench output
 * folders: their cases are paired by label, then by order, and each pair
 * gets DIR/NN-LABEL/diff.svg and diff.txt, its table under a heading in
 * DIR/diff.txt and on stdout.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#define DIFF_SVG "diff.svg"
#define DIFF_TXT "diff.txt"

typedef struct diff_cfg {
  const char *metric_name;
  uint64_t top;
  scp_svg_opts so;
} diff_cfg;

/* One pair of profiles: the flamegraph into *svg, the table appended to
 * *table.  Returns 0 or the exit status of the one-line error printed. */
static int diff_pair(const char *old_path, const char *new_path, const diff_cfg *cfg, scp_buf *svg,
                     scp_buf *table) {
  scp_profile *before = NULL, *now = NULL;
  const char *paths[2] = {old_path, new_path};
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
  int mb = cli_find_metric(before, cfg->metric_name), mn = cli_find_metric(now, cfg->metric_name);
  if (mn < 0) {
    status = cli_die(SCP_ERR_USAGE, "%s: no metric '%s' in this profile", paths[1], cfg->metric_name);
    goto out;
  }
  if (mb != mn) {
    status = cli_die(SCP_ERR_ARG, "%s: metric '%s' is not the same as in %s", paths[0],
                     cfg->metric_name, paths[1]);
    goto out;
  }
  scp_svg_opts so = cfg->so;
  so.metric = (unsigned)mn;
  scp_report_opts ro = {.top = (unsigned)cfg->top, .metric = (unsigned)mn};
  int rc = scp_out_diff_svg(before, now, &so, svg);
  if (rc == SCP_OK) rc = scp_out_diff_report(before, now, &ro, table);
  if (rc != SCP_OK) status = cli_die(rc, "%s vs %s: %s", paths[0], paths[1], scp_strerror(rc));
out:
  scp_profile_destroy(before);
  scp_profile_destroy(now);
  return status;
}

/* Folders of cases: each NEW case against its OLD partner, in NEW's order;
 * a case without one is said to be new, an OLD case left over gone. */
static int diff_cases(const cli_cases *old, const cli_cases *now, const diff_cfg *cfg,
                      const char *out_dir, scp_buf *all) {
  size_t *pair = calloc(now->n + 1, sizeof *pair);
  bool *paired = calloc(old->n + 1, 1);
  int status = pair && paired ? cli_cases_pair(old, now, pair) : cli_die(SCP_ERR_NOMEM, "out of memory");
  for (size_t j = 0; j < now->n && !status; j++) {
    const cli_case *c = &now->v[j];
    if (pair[j] == SIZE_MAX) {
      scp_buf_printf(all, "== %02lu %s: new, no case to compare with\n\n", c->number, c->label);
      continue;
    }
    paired[pair[j]] = true;
    const cli_case *o = &old->v[pair[j]];
    scp_buf svg = {0}, table = {0};
    char sub[4200], name[600];
    snprintf(name, sizeof name, "%02lu-%.500s", c->number, c->label);
    snprintf(sub, sizeof sub, "%s/%s", out_dir, name);
    status = diff_pair(o->path, c->path, cfg, &svg, &table);
    if (!status) status = cli_make_dir(sub);
    if (!status) status = cli_write_file(sub, DIFF_SVG, &svg);
    if (!status) status = cli_write_file(sub, DIFF_TXT, &table);
    scp_buf_printf(all, "== %02lu %s (was %02lu %s)\n", c->number, c->label, o->number, o->label);
    scp_buf_put(all, table.data, table.len);
    scp_buf_putc(all, '\n');
    scp_buf_free(&svg);
    scp_buf_free(&table);
  }
  for (size_t i = 0; i < old->n && !status; i++)
    if (!paired[i]) scp_buf_printf(all, "== %02lu %s: gone, only in the old folder\n\n", old->v[i].number, old->v[i].label);
  free(pair);
  free(paired);
  return status;
}

int cmd_diff(int argc, char **argv) {
  const int usage = scp_exit_status(SCP_ERR_USAGE);
  const char *out_dir = "scprof-out", *paths[2] = {NULL, NULL}, *val;
  diff_cfg cfg = {.metric_name = "0"};
  bool quiet = false;
  size_t npaths = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-o") || !strcmp(a, "--out")) {
      if (!(val = cli_option_value(argc, argv, &i, "a folder"))) return usage;
      out_dir = val;
    } else if (!strcmp(a, "--metric")) {
      if (!(val = cli_option_value(argc, argv, &i, "a metric (cpu, mem, fee, cu)"))) return usage;
      cfg.metric_name = val;
    } else if (!strcmp(a, "--top")) {
      if (!(val = cli_option_value(argc, argv, &i, "a non-negative integer"))) return usage;
      if (!cli_parse_u64(val, &cfg.top) || cfg.top > 100000000)
        return cli_die(SCP_ERR_USAGE, "--top: '%s' is not a non-negative integer", val);
    } else if (!strcmp(a, "--min-width")) {
      if (!(val = cli_option_value(argc, argv, &i, "a percentage"))) return usage;
      if (!cli_parse_min_width(val, &cfg.so.min_width_pct))
        return cli_die(SCP_ERR_USAGE, "--min-width: '%s' is not a percentage from 0 to 100", val);
    } else if (!strcmp(a, "--icicle")) {
      cfg.so.icicle = true;
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

  cli_cases old = {0}, now = {0};
  int status = cli_cases_load(paths[0], &old);
  if (!status) status = cli_cases_load(paths[1], &now);
  scp_buf svg = {0}, table = {0};
  if (!status && !old.folder && !now.folder) {
    status = diff_pair(old.v[0].path, now.v[0].path, &cfg, &svg, &table);
    if (!status) status = cli_make_dir(out_dir);
    if (!status) status = cli_write_file(out_dir, DIFF_SVG, &svg);
  } else if (!status && old.folder != now.folder) {
    status = cli_die(SCP_ERR_USAGE, "%s: compare a folder of cases with another folder of cases, not with "
                     "the single profile %s", old.folder ? paths[0] : paths[1], old.folder ? paths[1] : paths[0]);
  } else if (!status) {
    status = cli_make_dir(out_dir);
    if (!status) status = diff_cases(&old, &now, &cfg, out_dir, &table);
  }
  if (!status) status = cli_write_file(out_dir, DIFF_TXT, &table);
  if (!status && !quiet) status = cli_write_stdout(&table);
  scp_buf_free(&svg);
  scp_buf_free(&table);
  cli_cases_free(&old);
  cli_cases_free(&now);
  return status;
}
