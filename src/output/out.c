/*
 * out.c — the format table: every output format's name, file name and
 * writer, behind one writer signature, used by scp_profile_write and by
 * the CLI alike.  The writers never call back into this file; what they
 * share is out_util.c.
 */
#include "output/out_private.h"

#include <string.h>

static int write_folded(const scp_profile *p, const scp_out_opts *o, scp_buf *b) {
  return scp_out_folded_sh(p, o->metric, o->shared, b);
}

static int write_svg(const scp_profile *p, const scp_out_opts *o, scp_buf *b) {
  scp_svg_opts so = o->svg;
  so.metric = o->metric;
  return scp_out_svg_with(p, &so, NULL, 0, o->shared, b);
}

static int write_report(const scp_profile *p, const scp_out_opts *o, scp_buf *b) {
  scp_report_opts ro = {.top = o->top, .metric = o->metric};
  return scp_out_report_sh(p, &ro, o->shared, b);
}

static int write_speedscope(const scp_profile *p, const scp_out_opts *o, scp_buf *b) {
  return scp_out_speedscope_sh(p, o->metric, o->shared, b);
}

static int write_callgrind(const scp_profile *p, const scp_out_opts *o, scp_buf *b) {
  return scp_out_callgrind_sh(p, o->shared, b);
}

static int write_pprof(const scp_profile *p, const scp_out_opts *o, scp_buf *b) {
  return scp_out_pprof_sh(p, o->metric, o->shared, b);
}

static int write_json(const scp_profile *p, const scp_out_opts *o, scp_buf *b) {
  return scp_out_json_sh(p, o->shared, b);
}

static int write_lcov(const scp_profile *p, const scp_out_opts *o, scp_buf *b) {
  return scp_out_lcov(p, b);
}

static const scp_out_format formats[] = {
    [SCP_FMT_FOLDED] = {.name = "folded", .file = "profile.folded", .write = write_folded, .per_metric = false},
    [SCP_FMT_SVG] = {.name = "svg", .file = "flamegraph.svg", .write = write_svg, .per_metric = true},
    [SCP_FMT_REPORT] = {.name = "report", .file = "report.txt", .write = write_report, .per_metric = false},
    [SCP_FMT_SPEEDSCOPE] = {.name = "speedscope", .file = "profile.speedscope.json", .write = write_speedscope, .per_metric = false},
    [SCP_FMT_CALLGRIND] = {.name = "callgrind", .file = "callgrind.out.scprof", .write = write_callgrind, .per_metric = false},
    [SCP_FMT_PPROF] = {.name = "pprof", .file = "profile.pb.gz", .write = write_pprof, .per_metric = false},
    [SCP_FMT_JSON] = {.name = "json", .file = "report.json", .write = write_json, .per_metric = false},
    [SCP_FMT_LCOV] = {.name = "lcov", .file = "lcov.info", .write = write_lcov, .per_metric = false, .opt_in = true},
};
_Static_assert(SCP_ARRAY_LEN(formats) == SCP_FMT_COUNT, "one entry per format");

const scp_out_format *scp_out_format_get(scp_format f) {
  return (unsigned)f < SCP_FMT_COUNT ? &formats[f] : NULL;
}

const char *scp_out_format_name(scp_format f) {
  return (unsigned)f < SCP_FMT_COUNT ? formats[f].name : NULL;
}

const char *scp_out_format_file(scp_format f) {
  return (unsigned)f < SCP_FMT_COUNT ? formats[f].file : NULL;
}

scp_format scp_out_format_parse(const char *name) {
  for (unsigned f = 0; f < SCP_FMT_COUNT; f++)
    if (strcmp(formats[f].name, name) == 0) return (scp_format)f;
  return SCP_FMT_COUNT;
}

int scp_profile_write(const scp_profile *p, scp_format fmt,
                      const scp_write_opts *opts, FILE *f) {
  static const scp_write_opts defaults = {0};
  if (!opts) opts = &defaults;
  if (!p || !f || opts->metric >= p->nmetrics || (unsigned)fmt >= SCP_FMT_COUNT) return SCP_ERR_ARG;
  scp_out_opts o = {.metric = opts->metric, .top = opts->top};
  scp_buf b = {.sink = f};   /* to f a chunk at a time, never held whole */
  int rc = formats[fmt].write(p, &o, &b);
  if (rc == SCP_OK) rc = scp_buf_flush(&b);
  scp_buf_free(&b);
  return rc;
}
