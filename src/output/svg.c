/*
 * svg.c — interactive flamegraph SVG, laid out like flamegraph.pl: children
 * sorted by label from their parent's left edge (the parent's own cost is
 * the gap on the right), one row per depth, widths proportional to the
 * inclusive cost.  Frames narrower than the pruning threshold are left out
 * but their cost still takes its place, so every other frame keeps its
 * true position and width.
 */
#include "output/out_private.h"
#include "output/svg_js.h"

#include <stdlib.h>
#include <string.h>

enum {
  SVG_XPAD = 10,         /* left and right margin */
  SVG_FRAME_H = 16,      /* row height */
  SVG_FONT = 12,
  SVG_TOP = 60,          /* title + subtitle rows */
  SVG_BOTTOM = 34,       /* details line */
};
/* flamegraph.pl's average glyph width for a 12px monospace font. */
#define SVG_CHARW (SVG_FONT * 0.59)

/* ---- text -------------------------------------------------------------- */

/* 1: a byte that goes into XML text as it is (printable ASCII but '"',
 * '&', '<' and '>') */
static const unsigned char xml_plain_byte[256] = {
    [0x20 ... 0x21] = 1, [0x23 ... 0x25] = 1, [0x27 ... 0x3b] = 1, [0x3d] = 1, [0x3f ... 0x7e] = 1};

/* How many bytes from s, at most max, are such bytes: four a bound check,
 * each read only when the one before was plain (so never past the NUL). */
static size_t xml_run(const unsigned char *s, size_t max) {
  size_t n = 0;
  for (; max - n >= 4; n += 4) {
    if (!xml_plain_byte[s[n]]) return n;
    if (!xml_plain_byte[s[n + 1]]) return n + 1;
    if (!xml_plain_byte[s[n + 2]]) return n + 2;
    if (!xml_plain_byte[s[n + 3]]) return n + 3;
  }
  while (n < max && xml_plain_byte[s[n]]) n++;
  return n;
}

/* XML-escape at most `maxchars` characters of s (SIZE_MAX: all of it).
 * Names come from binaries: bytes XML cannot carry (control characters,
 * broken UTF-8) become '?', so the SVG always parses. */
static void put_xml(scp_buf *b, const char *str, size_t maxchars) {
  const unsigned char *s = (const unsigned char *)str;
  for (size_t chars = 0; *s && chars < maxchars; chars++) {
    /* a run of printable ASCII with nothing to escape, one character a
     * byte, in one append */
    size_t run = xml_run(s, maxchars - chars);
    if (run) {
      scp_buf_put(b, s, run);
      s += run;
      chars += run - 1;
      continue;
    }
    size_t n = scp_out_utf8_len((const char *)s);
    if (n == 0 || (*s < 0x20 && *s != '\t')) {
      scp_buf_putc(b, '?');
      s++;
      continue;
    }
    switch (*s) {
    case '<': scp_buf_puts(b, "&lt;"); break;
    case '>': scp_buf_puts(b, "&gt;"); break;
    case '&': scp_buf_puts(b, "&amp;"); break;
    case '"': scp_buf_puts(b, "&quot;"); break;
    default: scp_buf_put(b, s, n); break;
    }
    s += n;
  }
}

/* Characters as put_xml counts them (a broken byte is one character). */
static size_t text_chars(const char *str) {
  const unsigned char *s = (const unsigned char *)str;
  size_t chars = 0;
  while (*s) {
    size_t n = scp_out_utf8_len((const char *)s);
    s += n ? n : 1;
    chars++;
  }
  return chars;
}

/* The title, centred between "Reset Zoom" on the left and "Search" on
 * the right (100px from the right margin): a longer one is cut with "..."
 * and kept whole in a tooltip, so it neither runs under "Search" nor off
 * the picture's left edge. */
static void put_title_text(scp_buf *b, const scp_profile *p, bool diff, unsigned width) {
  const char *title = scp_prof_str(p, p->title);
  scp_buf t = {0};
  scp_buf_printf(&t, "%s%s", diff ? "Differential flame graph: " : "", *title ? title : "Flame Graph");
  if (t.oom) {
    b->oom = true;
    return;
  }
  /* half the room on the narrower (right) side, in 17px glyphs */
  double half = width / 2.0 - SVG_XPAD - 100 - 10;
  size_t fit = half > 0 ? (size_t)(2 * half / (17 * 0.59)) : 4;
  if (text_chars(t.data) <= fit) {
    put_xml(b, t.data, SIZE_MAX);
  } else {
    scp_buf_puts(b, "<title>");
    put_xml(b, t.data, SIZE_MAX);
    scp_buf_puts(b, "</title>");
    put_xml(b, t.data, fit > 3 ? fit - 3 : 1);
    scp_buf_puts(b, "...");
  }
  scp_buf_free(&t);
}

/* The label shown inside a frame of `w` pixels: whole when it fits, else
 * cut with "..", nothing when fewer than 3 characters fit. */
static void put_fitted_label(scp_buf *b, const char *label, double w) {
  size_t fit = (size_t)(w / SVG_CHARW);
  if (fit < 3) return;
  if (text_chars(label) <= fit) {
    put_xml(b, label, SIZE_MAX);
  } else {
    put_xml(b, label, fit - 2);
    scp_buf_puts(b, "..");
  }
}

/* ---- colours ----------------------------------------------------------- */

/* Host functions that touch contract storage get their own palette: they
 * are usually what a developer is looking for. */
static bool is_storage_host(const char *name) {
  return strstr(name, "contract_data") || strstr(name, "storage");
}

/* Deterministic colour: the palette comes from the frame kind, the shade
 * from a hash of the frame name (the same function is the same colour in
 * every profile). */
enum { COLOUR_MAX = 16 };   /* "rgb(255,255,255)" */

/* The frame's fill into t (COLOUR_MAX bytes); returns its length. */
static size_t colour_of(const scp_profile *p, uint32_t frame, char *t) {
  unsigned kind = SCP_KIND_ROOT;
  const char *name = "";
  if (frame < p->nframes) {
    kind = p->frames[frame].kind;
    name = scp_prof_str(p, p->frames[frame].name);
  }
  uint64_t h = scp_hash64(scp_hash_bytes(name, strlen(name)));
  unsigned v1 = h & 0xff, v2 = (h >> 8) & 0xff, v3 = (h >> 16) & 0xff;
  unsigned r, g, bl;
  switch (kind) {
  case SCP_KIND_GUEST:     /* "hot": red through orange */
    r = 205 + 50 * v3 / 255; g = 230 * v1 / 255; bl = 55 * v2 / 255;
    break;
  case SCP_KIND_INLINED:   /* "aqua" */
    r = 50 + 60 * v1 / 255; g = 165 + 55 * v1 / 255; bl = 165 + 55 * v1 / 255;
    break;
  case SCP_KIND_HOST:
    if (is_storage_host(name)) {  /* "brown" */
      r = 190 + 50 * v1 / 255; g = 110 + 40 * v2 / 255; bl = 40 + 20 * v3 / 255;
    } else {                      /* "yellow" */
      r = 175 + 55 * v1 / 255; g = 175 + 55 * v1 / 255; bl = 50 + 20 * v2 / 255;
    }
    break;
  case SCP_KIND_CONTRACT:  /* "purple" */
    r = 190 + 65 * v1 / 255; g = 80 + 60 * v1 / 255; bl = 190 + 65 * v1 / 255;
    break;
  default:                 /* VM set-up and the root: "grey" */
    r = g = bl = 170 + 50 * v1 / 255;
    break;
  }
  char *o = SCP_OUT_LIT(t, "rgb(");
  o = scp_out_dec(o, r);
  *o++ = ',';
  o = scp_out_dec(o, g);
  *o++ = ',';
  o = scp_out_dec(o, bl);
  *o++ = ')';
  return (size_t)(o - t);
}

/* Differential colour: red grew, blue shrank, paler the smaller the change
 * relative to the largest one drawn (never darker than 80 in the other
 * channels, so the black labels stay readable). */
static void put_diff_colour(scp_buf *b, uint64_t before, uint64_t now, uint64_t max_change) {
  if (before == now || max_change == 0) {
    scp_buf_puts(b, "rgb(250,250,250)");
    return;
  }
  uint64_t change = now > before ? now - before : before - now;
  unsigned pale = (unsigned)(230.0 - 150.0 * (double)change / (double)max_change);
  if (now > before) scp_buf_printf(b, "rgb(255,%u,%u)", pale, pale);
  else scp_buf_printf(b, "rgb(%u,%u,255)", pale, pale);
}

/* ---- layout ------------------------------------------------------------ */

typedef struct svg_frame {
  uint32_t node, depth;
  uint64_t start;        /* cost units from the left edge */
} svg_frame;

typedef struct svg_ctx {
  const scp_profile *p;
  unsigned metric;
  uint64_t total;
  double scale;          /* pixels per cost unit */
  unsigned height;
  bool icicle;
  scp_out_labels labels;
  scp_out_kids kids;
  const uint64_t *before;  /* diff: matched older inclusive cost per node */
  uint64_t before_total;
  uint64_t max_change;     /* diff: largest |change| drawn */
  svg_frame *vis;        /* visible frames, pre-order */
  /* per frame, its fill after its length, made when a node of it is
   * first drawn (length 0: not yet): a function drawn at many nodes
   * hashes its name once */
  unsigned char (*colour)[1 + COLOUR_MAX];
  size_t nvis;
  uint32_t maxdepth;
} svg_ctx;

/* Collect the frames to draw, with their start offsets, in pre-order. */
static int layout(svg_ctx *c, double min_pct) {
  const scp_profile *p = c->p;
  svg_frame *todo = malloc(p->nnodes * sizeof *todo);
  c->vis = malloc(p->nnodes * sizeof *c->vis);
  if (!todo || !c->vis) {
    free(todo);
    return SCP_ERR_NOMEM;
  }
  size_t ntodo = 0;
  todo[ntodo++] = (svg_frame){.node = 0, .depth = 0, .start = 0};
  while (ntodo) {
    svg_frame f = todo[--ntodo];
    uint64_t w = p->nodes[f.node].total[c->metric];
    /* Children are never wider than their parent: prune the subtree. */
    if (w == 0 || 100.0 * (double)w / (double)c->total < min_pct) continue;
    c->vis[c->nvis++] = f;
    if (f.depth > c->maxdepth) c->maxdepth = f.depth;
    /* Offsets left to right; pushed right to left so they pop in order. */
    uint32_t from = c->kids.start[f.node], to = c->kids.start[f.node + 1];
    uint64_t x = f.start;
    for (uint32_t i = from; i < to; i++) x += p->nodes[c->kids.ids[i]].total[c->metric];
    for (uint32_t i = to; i-- > from;) {
      uint32_t kid = c->kids.ids[i];
      x -= p->nodes[kid].total[c->metric];
      todo[ntodo++] = (svg_frame){.node = kid, .depth = f.depth + 1, .start = x};
    }
  }
  free(todo);
  return SCP_OK;
}

static unsigned frame_y(const svg_ctx *c, uint32_t depth) {
  if (c->icicle) return SVG_TOP + depth * SVG_FRAME_H;
  return c->height - SVG_BOTTOM - (depth + 1) * SVG_FRAME_H;
}

/* A file name inside the title's details: the script finds the label as
 * everything before the last " (", so the details must not contain "(". */
static void put_detail_path(scp_buf *b, const char *s) {
  scp_buf t = {0};
  for (; *s; s++) scp_buf_putc(&t, *s == '(' ? '[' : *s == ')' ? ']' : *s);
  if (t.oom) b->oom = true;
  else if (t.len) put_xml(b, t.data, SIZE_MAX);
  scp_buf_free(&t);
}

static void put_title(scp_buf *b, const svg_ctx *c, const scp_prof_node *n) {
  const scp_profile *p = c->p;
  const scp_metric *m = &p->metrics[c->metric];
  put_xml(b, scp_out_label_of(&c->labels, n->frame), SIZE_MAX);
  scp_buf_puts(b, " (");
  scp_buf_put_grouped(b, n->total[c->metric]);
  scp_buf_putc(b, ' ');
  scp_buf_puts(b, m->unit && *m->unit ? m->unit : "units");
  scp_buf_puts(b, ", ");
  scp_out_put_pct(b, n->total[c->metric], c->total);
  scp_buf_puts(b, ", self ");
  scp_buf_put_grouped(b, n->self[c->metric]);
  if (c->metric == 0 && n->ahead) {
    scp_buf_puts(b, ", of it charged ahead ");
    scp_buf_put_grouped(b, n->ahead);
  }
  for (unsigned i = 0; i < p->nmetrics && i < SCP_MAX_METRICS; i++) {
    if (i == c->metric) continue;
    scp_buf_puts(b, ", ");
    put_xml(b, p->metrics[i].name ? p->metrics[i].name : "", SIZE_MAX);
    scp_buf_putc(b, ' ');
    scp_buf_put_grouped(b, n->total[i]);
    if (p->metrics[i].unit && *p->metrics[i].unit) {
      scp_buf_putc(b, ' ');
      put_xml(b, p->metrics[i].unit, SIZE_MAX);
    }
  }
  if (n->calls) {
    scp_buf_puts(b, ", ");
    scp_buf_put_grouped(b, n->calls);
    scp_buf_puts(b, n->calls == 1 ? " call" : " calls");
  }
  if (c->before && c->before[n - p->nodes] != n->total[c->metric]) {
    uint64_t was = c->before[n - p->nodes], now = n->total[c->metric];
    scp_buf_puts(b, ", change ");
    scp_buf_putc(b, now >= was ? '+' : '-');
    scp_buf_put_grouped(b, now >= was ? now - was : was - now);
    if (was) {
      scp_buf_puts(b, ", ");
      if (now >= was) scp_buf_putc(b, '+');
      else scp_buf_putc(b, '-');
      scp_out_put_pct(b, now >= was ? now - was : was - now, was);
    } else {
      scp_buf_puts(b, ", new");
    }
  }
  if (c->before && c->before[n - p->nodes] == n->total[c->metric])
    scp_buf_puts(b, ", unchanged");
  if (n->call_line && n->call_file) {
    bool inl = n->frame < p->nframes && p->frames[n->frame].kind == SCP_KIND_INLINED;
    scp_buf_puts(b, inl ? ", inlined at " : ", called at ");
    put_detail_path(b, scp_prof_str(p, n->call_file));
    scp_buf_printf(b, ":%u", n->call_line);
  }
  scp_buf_putc(b, ')');
}

static void put_colour(scp_buf *b, const svg_ctx *c, uint32_t frame) {
  char t[COLOUR_MAX];
  if (!c->colour || frame >= c->p->nframes) {
    scp_buf_put(b, t, colour_of(c->p, frame, t));
    return;
  }
  unsigned char *e = c->colour[frame];
  if (!e[0]) e[0] = (unsigned char)colour_of(c->p, frame, (char *)e + 1);
  scp_buf_put(b, e + 1, e[0]);
}

static void put_frame(scp_buf *b, const svg_ctx *c, const svg_frame *f) {
  const scp_prof_node *n = &c->p->nodes[f->node];
  double x = SVG_XPAD + (double)f->start * c->scale;
  double w = (double)n->total[c->metric] * c->scale;
  unsigned y = frame_y(c, f->depth);
  /* a few thousand frames: the numbers without printf, each piece in one
   * append */
  char row[64 + 3 * 20 + 2 * SCP_OUT_FIXED_ROOM], *o = SCP_OUT_LIT(row, "<g scp:x=\"");
  o = scp_out_dec(o, f->start);
  o = SCP_OUT_LIT(o, "\" scp:w=\"");
  o = scp_out_dec(o, n->total[c->metric]);
  o = SCP_OUT_LIT(o, "\" scp:d=\"");
  o = scp_out_dec(o, f->depth);
  o = SCP_OUT_LIT(o, "\"><title>");
  scp_buf_put(b, row, (size_t)(o - row));
  put_title(b, c, n);
  o = SCP_OUT_LIT(row, "</title><rect x=\"");
  o = scp_out_fixed(o, x, 2);
  o = SCP_OUT_LIT(o, "\" y=\"");
  o = scp_out_dec(o, y);
  o = SCP_OUT_LIT(o, "\" width=\"");
  o = scp_out_fixed(o, w, 2);
  o = SCP_OUT_LIT(o, "\" height=\"");
  o = scp_out_dec(o, SVG_FRAME_H - 1);
  o = SCP_OUT_LIT(o, "\" fill=\"");
  scp_buf_put(b, row, (size_t)(o - row));
  if (c->before)
    put_diff_colour(b, c->before[f->node], n->total[c->metric], c->max_change);
  else
    put_colour(b, c, n->frame);
  o = SCP_OUT_LIT(row, "\" rx=\"2\" ry=\"2\"/><text x=\"");
  o = scp_out_fixed(o, x + 3, 2);
  o = SCP_OUT_LIT(o, "\" y=\"");
  o = scp_out_fixed(o, y + 10.5, 1);
  o = SCP_OUT_LIT(o, "\">");
  scp_buf_put(b, row, (size_t)(o - row));
  put_fitted_label(b, scp_out_label_of(&c->labels, n->frame), w);
  scp_buf_puts(b, "</text></g>\n");
}

static void put_subtitle(scp_buf *b, const svg_ctx *c) {
  const scp_profile *p = c->p;
  const scp_metric *m = &p->metrics[c->metric];
  put_xml(b, m->name ? m->name : "cost", SIZE_MAX);
  scp_buf_puts(b, ": ");
  scp_buf_put_grouped(b, c->total);
  if (m->unit && *m->unit) {
    scp_buf_putc(b, ' ');
    put_xml(b, m->unit, SIZE_MAX);
  }
  if (m->limit) {
    scp_buf_puts(b, ", ");
    scp_out_put_pct(b, c->total, m->limit);
    scp_buf_puts(b, " of the ");
    scp_buf_put_grouped(b, m->limit);
    scp_buf_puts(b, " limit");
  }
  if (c->before) {
    uint64_t was = c->before_total;
    scp_buf_puts(b, "; before ");
    scp_buf_put_grouped(b, was);
    scp_buf_puts(b, c->total >= was ? ", change +" : ", change -");
    scp_buf_put_grouped(b, c->total >= was ? c->total - was : was - c->total);
    if (was) {
      scp_buf_puts(b, c->total >= was ? " = +" : " = -");
      scp_out_put_pct(b, c->total >= was ? c->total - was : was - c->total, was);
    }
    scp_buf_puts(b, "; red grew, blue shrank");
  }
  if (p->status != SCP_OK) {
    scp_buf ended = {0};
    scp_out_put_ended(&ended, p);
    scp_buf_puts(b, "; run ended: ");
    if (ended.oom) b->oom = true;
    else put_xml(b, ended.data, SIZE_MAX);
    scp_buf_free(&ended);
  }
}

int scp_out_svg(const scp_profile *p, const scp_svg_opts *o, scp_buf *b) {
  return scp_out_svg_with(p, o, NULL, 0, NULL, b);
}

int scp_out_svg_with(const scp_profile *p, const scp_svg_opts *o, const uint64_t *before,
                     uint64_t before_total, const scp_out_shared *sh, scp_buf *b) {
  static const scp_svg_opts defaults = {0};
  if (!o) o = &defaults;
  if (o->metric >= p->nmetrics || o->metric >= SCP_MAX_METRICS) return SCP_ERR_ARG;
  int rc = SCP_ERR_NOMEM;
  svg_ctx c = {.p = p, .metric = o->metric, .icicle = o->icicle,
               .before = before, .before_total = before_total};
  unsigned width = o->width ? o->width : 1200;
  if (width < 2 * SVG_XPAD + 100) width = 2 * SVG_XPAD + 100;
  double min_pct = o->min_width_pct == 0 ? 0.01 : o->min_width_pct < 0 ? 0 : o->min_width_pct;
  c.total = scp_out_total(p, o->metric);
  double inner = width - 2 * SVG_XPAD;
  c.scale = c.total ? inner / (double)c.total : 0;

  if (scp_out_tree(p, sh, &c.labels, &c.kids)) goto fail;
  if (p->nnodes && c.total && layout(&c, min_pct)) goto fail;
  c.colour = calloc(p->nframes ? p->nframes : 1, sizeof *c.colour);   /* none: each made anew */
  for (size_t i = 0; before && i < c.nvis; i++) {
    uint64_t was = before[c.vis[i].node], now = p->nodes[c.vis[i].node].total[c.metric];
    uint64_t change = now > was ? now - was : was - now;
    if (change > c.max_change) c.max_change = change;
  }
  unsigned rows = c.nvis ? c.maxdepth + 1 : 1;
  c.height = SVG_TOP + rows * SVG_FRAME_H + SVG_BOTTOM;

  scp_buf_puts(b, "<?xml version=\"1.0\" standalone=\"no\"?>\n");
  scp_buf_printf(b,
      "<svg version=\"1.1\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
      "onload=\"init(evt)\" xmlns=\"http://www.w3.org/2000/svg\" "
      "xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
      "xmlns:scp=\"urn:scprof:flamegraph\">\n",
      width, c.height, width, c.height);
  scp_buf_puts(b, "<!-- Flame graph written by scprof. Hover for details, click to "
                  "zoom, Ctrl-F to search. -->\n");
  scp_buf_puts(b,
      "<defs><linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
      "<stop stop-color=\"#eeeeee\" offset=\"5%\"/>"
      "<stop stop-color=\"#eeeeb0\" offset=\"95%\"/></linearGradient></defs>\n"
      "<style type=\"text/css\">\n"
      "text { font-family: monospace; font-size: 12px; fill: rgb(0,0,0); }\n"
      "#title { text-anchor: middle; font-size: 17px; }\n"
      "#subtitle { text-anchor: middle; fill: rgb(110,110,110); }\n"
      "#unzoom, #search { cursor: pointer; }\n"
      "#frames > g { cursor: pointer; }\n"
      "#frames > g:hover > rect { stroke: rgb(0,0,0); stroke-width: 0.5; }\n"
      ".hide { display: none; }\n"
      ".parent { opacity: 0.5; }\n"
      "</style>\n");
  scp_buf_printf(b,
      "<script type=\"text/ecmascript\"><![CDATA[\n\"use strict\";\n"
      "var XPAD = %d, WIDTH = %u, TOTAL = %llu, CHARW = %.2f;\n",
      SVG_XPAD, width - 2 * SVG_XPAD, (unsigned long long)c.total, SVG_CHARW);
  scp_buf_puts(b, svg_script);
  scp_buf_puts(b, p->chain == SCP_CHAIN_SOLANA ? "^syscall:" : "^host:");
  scp_buf_puts(b, svg_script_tail);
  scp_buf_puts(b, "]]></script>\n");
  scp_buf_printf(b, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" "
                    "fill=\"url(#background)\"/>\n", width, c.height);
  scp_buf_printf(b, "<text id=\"title\" x=\"%u\" y=\"24\">", width / 2);
  put_title_text(b, p, before != NULL, width);
  scp_buf_printf(b, "</text>\n<text id=\"subtitle\" x=\"%u\" y=\"48\">", width / 2);
  put_subtitle(b, &c);
  scp_buf_printf(b, "</text>\n<text id=\"details\" x=\"%d\" y=\"%u\"> </text>\n",
                 SVG_XPAD, c.height - SVG_BOTTOM / 2);
  scp_buf_printf(b, "<text id=\"unzoom\" class=\"hide\" x=\"%d\" y=\"24\">Reset Zoom</text>\n",
                 SVG_XPAD);
  scp_buf_printf(b, "<text id=\"search\" x=\"%u\" y=\"24\">Search</text>\n",
                 width - SVG_XPAD - 100);
  scp_buf_printf(b, "<text id=\"matched\" x=\"%u\" y=\"%u\"> </text>\n",
                 width - SVG_XPAD - 100, c.height - SVG_BOTTOM / 2);
  scp_buf_puts(b, "<g id=\"frames\">\n");
  for (size_t i = 0; i < c.nvis; i++) put_frame(b, &c, &c.vis[i]);
  scp_buf_puts(b, "</g>\n</svg>\n");
  rc = scp_out_done(b);

fail:
  free(c.vis);
  free(c.colour);
  scp_out_tree_done(p, sh, &c.labels, &c.kids);
  return rc;
}
