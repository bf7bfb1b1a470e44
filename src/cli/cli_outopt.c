/*
 * cli_outopt.c — the options of a command that writes an output folder:
 * -o/--out DIR, -f/--format LIST, --top N, --min-width PCT, --icicle.
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
