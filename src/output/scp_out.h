/*
 * scp_out.h — stage 4, the formatters.  Each writer reads only a finished
 * profile (profile/scp_prof.h) and its options, and appends to a buffer.
 * Output is byte-deterministic: no timestamps, no pointers, stable orders,
 * colours hashed from names.
 */
#ifndef SCP_OUT_H
#define SCP_OUT_H

#include "profile/scp_prof.h"

/* Folded stacks, one "root;..;leaf COUNT" line per stack with a non-zero
 * self cost of `metric`, lines sorted bytewise.  Frame text is the frame
 * label (see scp_out_label). */
int scp_out_folded(const scp_profile *p, unsigned metric, scp_buf *b);

typedef struct scp_svg_opts {
  unsigned metric;       /* which metric the widths show */
  unsigned width;        /* pixels; 0 = 1200 */
  double min_width_pct;  /* prune frames narrower than this; 0 = 0.01% ... */
  bool icicle;           /* root at the top */
} scp_svg_opts;

/* Interactive flamegraph (hover details, click to zoom, regex search). */
int scp_out_svg(const scp_profile *p, const scp_svg_opts *o, scp_buf *b);

typedef struct scp_report_opts {
  unsigned top;          /* rows per table; 0 = 20 */
} scp_report_opts;

/* Plain-text report: budget table, top functions by self and by total,
 * hottest source lines, host functions. */
int scp_out_report(const scp_profile *p, const scp_report_opts *o, scp_buf *b);

/* The frame's display text: its name, plus " (file:line)" for guest and
 * inlined frames whose declaration file and line are known.  Names of
 * other kinds already carry their prefix ("host:vec_push_back",
 * "contract:C...", "vm:instantiate"): the resolver names them so. */
void scp_out_label(const scp_profile *p, uint32_t frame, scp_buf *b);

#endif
