/*
 * out.c — the format table: every output format's name, file name and
 * writer, behind one writer signature, used by scp_profile_write and by
 * the CLI alike.  The writers never call back into this file; what they
 * share is out_util.c.
 */
#include "output/out_private.h"

#include <string.h>

static int write_folded(const scp_profile *p, const scp_out_opts *o, scp_buf *b) {
  return scp_out_folded(p, o->metric, b);
}

static int write_svg(const scp_profile *p, const scp_out_opts *o, scp_buf *b) {
  scp_svg_opts so = o->svg;
  so.metric = o->metric;
  return scp_out_svg(p, &so, b);
}

static int write_report(const scp_profile *p, const scp_out_opts *o, scp_buf *b) {
  scp_report_opts ro = {.top = o->top, .metric = o->metric};
  return scp_out_report(p, &ro, b);
}

static int write_speedscope(const scp_profile *p, const scp_out_opts *o, scp_buf *b) {
  return scp_out_speedscope(p, o->metric, b);
}

static int write_callgrind(const scp_profile *p, const scp_out_opts *o, scp_buf *b) {
  return scp_out_callgrind(p, b);
}

static int write_pprof(const scp_profile *p, const scp_out_opts *o, scp_buf *b) {
  return scp_out_pprof(p, o->metric, b);
}

static int write_json(const scp_profile *p, const scp_out_opts *o, scp_buf *b) {
  return scp_out_json(p, b);
}

static int write_lcov(const scp_profile *p, const scp_out_opts *o, scp_buf *b) {
  return scp_out_lcov(p, b);
}

static const scp_out_format formats[] = {
    [SCP_FMT_FOLDED] = {"folded", "profile.folded", write_folded, false},
    [SCP_FMT_SVG] = {"svg", "flamegraph.svg", write_svg, true},
    [SCP_FMT_REPORT] = {"report", "report.txt", write_report, false},
    [SCP_FMT_SPEEDSCOPE] = {"speedscope", "profile.speedscope.json", write_speedscope, false},
    [SCP_FMT_CALLGRIND] = {"callgrind", "callgrind.out.scprof", write_callgrind, false},
    [SCP_FMT_PPROF] = {"pprof", "profile.pb.gz", write_pprof, false},
    [SCP_FMT_JSON] = {"json", "report.json", write_json, false},
    [SCP_FMT_LCOV] = {"lcov", "lcov.info", write_lcov, false, true},
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
