/*
 * cli_outopt.c — the options of a command that writes an output folder:
 * -o/--out DIR, -f/--format LIST, --top N, --min-width PCT, --icicle;
 * and the format list every command takes.
 */
#include "cli.h"

#include <string.h>

int cli_output_option(int argc, char **argv, int *i, cli_out_opts *o, bool *handled) {
  const char *a = argv[*i], *val;
  *handled = true;
  if (!strcmp(a, "--icicle")) {
    o->svg.icicle = true;
    return 0;
  }
  bool out = !strcmp(a, "-o") || !strcmp(a, "--out");
  bool fmt = !strcmp(a, "-f") || !strcmp(a, "--format");
  bool top = !strcmp(a, "--top"), width = !strcmp(a, "--min-width");
  if (!out && !fmt && !top && !width) {
    *handled = false;
    return 0;
  }
  const char *what = out ? "a folder" : fmt ? "a list of formats" : top ? "a non-negative integer"
                                                                         : "a percentage";
  if (!(val = cli_option_value(argc, argv, i, what))) return scp_exit_status(SCP_ERR_USAGE);
  if (out) o->dir = val;
  if (fmt) return cli_parse_formats(val, o->want);
  if (top && (!cli_parse_u64(val, &o->top) || o->top > 100000000))
    return cli_die(SCP_ERR_USAGE, "--top: '%s' is not a non-negative integer", val);
  if (width && !cli_parse_min_width(val, &o->svg.min_width_pct))
    return cli_die(SCP_ERR_USAGE, "--min-width: '%s' is not a percentage from 0 to 100", val);
  return 0;
}

/* "svg,folded" -> want[].  Returns 0 or the usage status (error printed). */
int cli_parse_formats(const char *list, bool want[SCP_FMT_COUNT]) {
  memset(want, 0, SCP_FMT_COUNT * sizeof *want);
  bool any = false;
  const char *s = list;
  for (;;) {
    size_t len = strcspn(s, ",");
    char name[32];
    if (len == 0 || len >= sizeof name) goto bad;
    memcpy(name, s, len);
    name[len] = 0;
    if (strcmp(name, "all") == 0) {
      for (unsigned f = 0; f < SCP_FMT_COUNT; f++) want[f] = true;
    } else {
      scp_format f = scp_out_format_parse(name);
      if (f == SCP_FMT_COUNT) goto bad;
      want[f] = true;
    }
    any = true;
    if (!s[len]) break;
    s += len + 1;
  }
  if (any) return 0;
bad:;
  scp_buf names = {0};
  for (unsigned f = 0; f < SCP_FMT_COUNT; f++)
    scp_buf_printf(&names, "%s%s", f ? ", " : "", scp_out_format_name((scp_format)f));
  int status = cli_die(SCP_ERR_USAGE, "--format: bad list '%s' (formats: %s, all)", list,
                       names.oom ? "?" : names.data);
  scp_buf_free(&names);
  return status;
}
