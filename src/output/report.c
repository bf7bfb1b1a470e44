/*
 * report.c — the plain-text report: run metadata and status, the budget
 * table, top functions by self and by total cost, hottest source lines,
 * contracts and host functions.  Every table is sorted by the chosen metric
 * (descending), ties broken by label, so the text is deterministic.
 */
#include "output/out_private.h"

#include <stdlib.h>
#include <string.h>

/* ---- aligned tables ---------------------------------------------------- */

/* Cells are NUL-terminated strings kept in one buffer; columns are padded
 * to their widest cell, numbers right-aligned, text left-aligned, and the
 * last column is never padded (no trailing blanks). */
typedef struct table {
  unsigned ncols;
  const char *align;     /* one 'l' or 'r' per column */
  scp_buf text;
  size_t *cell;          /* offsets of the cells in text */
  size_t ncells, capcells;
  bool oom;
} table;

static void cell_begin(table *t) {
  if (!scp_grow(&t->cell, &t->capcells, t->ncells + 1, sizeof *t->cell)) {
    t->oom = true;
    return;
  }
  t->cell[t->ncells++] = t->text.len;
}

static void cell_end(table *t) { scp_buf_putc(&t->text, '\0'); }

static void cell_str(table *t, const char *s) {
  cell_begin(t);
  scp_buf_puts(&t->text, s);
  cell_end(t);
}

static void cell_num(table *t, uint64_t v) {
  cell_begin(t);
  scp_buf_put_grouped(&t->text, v);
  cell_end(t);
}

static void cell_pct(table *t, uint64_t part, uint64_t whole) {
  cell_begin(t);
  scp_out_put_pct(&t->text, part, whole);
  cell_end(t);
}

/* Display width: UTF-8 continuation bytes take no column. */
static size_t text_width(const char *s) {
  /* its bytes (libc's strlen), less its continuation bytes (10xxxxxx),
   * counted eight bytes a step: a label is often 80 bytes */
  size_t len = strlen(s), w = len, i = 0;
  for (; len - i >= 8; i += 8) {
    uint64_t v;
    memcpy(&v, s + i, sizeof v);
    uint64_t cont = v & ~(v << 1) & 0x8080808080808080ull;
    if (cont) w -= (size_t)__builtin_popcountll(cont);
  }
  for (; i < len; i++) w -= ((unsigned char)s[i] & 0xc0) == 0x80;
  return w;
}

static size_t table_rows(const table *t) { return t->ncells / t->ncols; }

/* A frame label in a table: at most LABEL_MAX columns, the middle of a
 * longer one (its generic arguments, most often) left out, so a Rust
 * name does not make every row of its table hundreds of columns wide. */
enum { LABEL_MAX = 80 };

static void cell_label(table *t, const char *s) {
  size_t w = text_width(s);
  if (w <= LABEL_MAX) {
    cell_str(t, s);
    return;
  }
  /* keep the first 45 and the last 34 columns (whole UTF-8 characters) */
  size_t head = 0, cols = 0;
  while (s[head] && cols < 45) {
    head++;
    while (((unsigned char)s[head] & 0xc0) == 0x80) head++;
    cols++;
  }
  const char *tail = s + strlen(s);
  for (cols = 0; tail > s + head && cols < 34;) {
    tail--;
    if (((unsigned char)*tail & 0xc0) != 0x80) cols++;
  }
  cell_begin(t);
  scp_buf_put(&t->text, s, head);
  scp_buf_puts(&t->text, "\xe2\x80\xa6");   /* U+2026 */
  scp_buf_puts(&t->text, tail);
  cell_end(t);
}

static void pad(scp_buf *b, size_t n) {
  static const char spaces[] = "                                ";
  while (n) {
    size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
    scp_buf_put(b, spaces, k);
    n -= k;
  }
}

/* Each cell's width is worked out once (for its column's width, then its
 * padding) and its bytes are appended by their length, which the offset
 * of the next cell gives. */
static void table_print(scp_buf *b, table *t) {
  size_t *cw = t->oom || t->text.oom ? NULL : malloc((t->ncells ? t->ncells : 1) * sizeof *cw);
  if (!cw) {
    b->oom = true;
    return;
  }
  size_t width[16] = {0};
  for (size_t i = 0; i < t->ncells; i++) {
    cw[i] = text_width(t->text.data + t->cell[i]);
    if (cw[i] > width[i % t->ncols]) width[i % t->ncols] = cw[i];
  }
  for (size_t r = 0; r < table_rows(t); r++) {
    scp_buf_puts(b, "  ");
    for (unsigned c = 0; c < t->ncols; c++) {
      size_t i = r * t->ncols + c;
      size_t end = i + 1 < t->ncells ? t->cell[i + 1] : t->text.len;
      size_t gap = width[c] - cw[i];
      bool last = c + 1 == t->ncols;
      if (t->align[c] == 'r') pad(b, gap);
      scp_buf_put(b, t->text.data + t->cell[i], end - t->cell[i] - 1);   /* its NUL left out */
      if (!last && t->align[c] != 'r') pad(b, gap);
      if (!last) scp_buf_puts(b, "  ");
    }
    scp_buf_putc(b, '\n');
  }
  free(cw);
}

static void table_free(table *t) {
  scp_buf_free(&t->text);
  free(t->cell);
}

/* ---- aggregation by frame ---------------------------------------------- */

typedef scp_out_frame_agg frame_agg;

typedef struct report_ctx {
  const scp_profile *p;
  unsigned metric, top, nm;
  uint64_t total;
  scp_out_labels labels;
  scp_out_kids kids;
  frame_agg *agg;                   /* one per frame */
  uint64_t *ahead;                  /* per frame: self CPU charged ahead */
  bool show_ahead;                  /* CPU report of a profile that has it */
  bool show[SCP_MAX_METRICS];       /* a column: CPU, memory, the chosen metric, or used */
} report_ctx;

static unsigned frame_kind(const scp_profile *p, uint32_t f) {
  return f < p->nframes ? p->frames[f].kind : SCP_KIND_ROOT;
}

typedef struct frame_sort {
  const report_ctx *c;
  bool by_total;
} frame_sort;

static int cmp_frames(void *ctx, uint32_t a, uint32_t b) {
  const frame_sort *s = ctx;
  const frame_agg *fa = &s->c->agg[a], *fb = &s->c->agg[b];
  uint64_t va = s->by_total ? fa->total[s->c->metric] : fa->self[s->c->metric];
  uint64_t vb = s->by_total ? fb->total[s->c->metric] : fb->self[s->c->metric];
  if (va != vb) return va > vb ? -1 : 1;
  int r = strcmp(scp_out_label_of(&s->c->labels, a), scp_out_label_of(&s->c->labels, b));
  if (r) return r;
  return a < b ? -1 : a > b;
}

static void put_metric_name(scp_buf *b, const scp_metric *m) {
  scp_buf_puts(b, m->name && *m->name ? m->name : "cost");
}

/* Whose function a row is, as a column of its own, when the profile
 * runs several programs' code (frames with an owner); a table of the
 * programs themselves needs none. */
static bool owner_column(const scp_profile *p, unsigned kinds, const uint32_t *ids, size_t n) {
  if (kinds == 1u << SCP_KIND_CONTRACT) return false;
  /* one program's rows all say the same: the column only when two differ */
  for (size_t i = 1; i < n; i++)
    if (strcmp(scp_prof_str(p, p->frames[ids[i]].owner), scp_prof_str(p, p->frames[ids[0]].owner)))
      return true;
  return false;
}

/* One frame table: which frames (a bit mask of kinds, and a name prefix
 * when not NULL), by self or total cost, under heading; the last column
 * is named `what` ("function", "host function", "syscall", "program"...),
 * and a host table (calls first) lists frames that were called for
 * nothing too. */
typedef struct table_spec {
  bool by_total;
  unsigned kinds;
  const char *prefix;
  const char *heading;
  const char *what;
} table_spec;

static bool frame_listed(const report_ctx *c, const table_spec *ts, uint32_t f, bool host) {
  const scp_profile *p = c->p;
  if (!c->agg[f].seen || !(ts->kinds & (1u << frame_kind(p, f)))) return false;
  if (ts->prefix && strncmp(scp_prof_str(p, p->frames[f].name), ts->prefix, strlen(ts->prefix)))
    return false;
  uint64_t v = ts->by_total ? c->agg[f].total[c->metric] : c->agg[f].self[c->metric];
  return v || (host && c->agg[f].calls);
}

static int frame_table_spec(scp_buf *b, const report_ctx *c, const table_spec *ts) {
  const scp_profile *p = c->p;
  const bool by_total = ts->by_total;
  uint32_t *ids = malloc((p->nframes ? p->nframes : 1) * sizeof *ids);
  if (!ids) return SCP_ERR_NOMEM;
  size_t n = 0;
  bool host = ts->kinds == 1u << SCP_KIND_HOST;
  for (uint32_t f = 0; f < p->nframes; f++)
    if (frame_listed(c, ts, f, host)) ids[n++] = f;
  frame_sort s = {.c = c, .by_total = by_total};
  if (scp_out_top_ids(ids, &n, c->top, cmp_frames, &s)) {
    free(ids);
    return SCP_ERR_NOMEM;
  }

  scp_buf_putc(b, '\n');
  scp_buf_puts(b, ts->heading);
  scp_buf_putc(b, '\n');
  if (!n) {
    scp_buf_puts(b, "  (none)\n");
    free(ids);
    return SCP_OK;
  }
  /* Columns: [calls] chosen metric, %, other metrics..., [calls],
   * [program], name. */
  char align[16];
  unsigned ncols = 0;
  bool owners = owner_column(p, ts->kinds, ids, n);
  bool ahead = c->show_ahead && !by_total && !host;
  if (host) align[ncols++] = 'r';
  align[ncols++] = 'r';
  align[ncols++] = 'r';
  if (ahead) align[ncols++] = 'r';
  for (unsigned m = 1; m < c->nm; m++)
    if (c->show[m]) align[ncols++] = 'r';
  if (!host) align[ncols++] = 'r';
  if (owners) align[ncols++] = 'l';
  align[ncols++] = 'l';
  align[ncols] = 0;
  table t = {.ncols = ncols, .align = align};
  const char *what = by_total ? "total " : "self ";
  if (host) cell_str(&t, "calls");
  for (unsigned k = 0; k < c->nm; k++) {
    unsigned m = k == 0 ? c->metric : k <= c->metric ? k - 1 : k;
    if (!c->show[m]) continue;
    cell_begin(&t);
    scp_buf_puts(&t.text, what);
    put_metric_name(&t.text, &p->metrics[m]);
    cell_end(&t);
    if (k == 0) cell_str(&t, "%");
    if (k == 0 && ahead) cell_str(&t, "ahead");
  }
  if (!host) cell_str(&t, "calls");
  if (owners) cell_str(&t, "program");
  cell_str(&t, ts->what);
  for (size_t i = 0; i < n; i++) {
    const frame_agg *a = &c->agg[ids[i]];
    const uint64_t *v = by_total ? a->total : a->self;
    if (host) cell_num(&t, a->calls);
    for (unsigned k = 0; k < c->nm; k++) {
      unsigned m = k == 0 ? c->metric : k <= c->metric ? k - 1 : k;
      if (!c->show[m]) continue;
      cell_num(&t, v[m]);
      if (k == 0) cell_pct(&t, v[m], c->total);
      if (k == 0 && ahead) cell_num(&t, c->ahead[ids[i]]);
    }
    /* inlined code and the root are never called: "0" would mislead */
    unsigned kind = frame_kind(p, ids[i]);
    if (!host && (kind == SCP_KIND_INLINED || kind == SCP_KIND_ROOT) && !a->calls)
      cell_str(&t, "-");
    else if (!host) cell_num(&t, a->calls);
    if (owners) cell_str(&t, scp_prof_str(p, p->frames[ids[i]].owner));
    cell_label(&t, scp_out_label_of(&c->labels, ids[i]));
  }
  table_print(b, &t);
  table_free(&t);
  free(ids);
  return SCP_OK;
}

/* "Top N functions by self CPU" and the like, in Soroban's words.  kinds:
 * bit mask of the frame kinds listed. */
static int frame_table(scp_buf *b, const report_ctx *c, bool by_total,
                       unsigned kinds, const char *heading) {
  table_spec ts = {.by_total = by_total, .kinds = kinds, .heading = heading,
                   .what = kinds == 1u << SCP_KIND_HOST       ? "host function"
                           : kinds == 1u << SCP_KIND_CONTRACT ? "contract"
                                                              : "function"};
  return frame_table_spec(b, c, &ts);
}

/* ---- hottest lines ----------------------------------------------------- */

typedef struct line_agg {
  uint32_t file, line, frame;
  uint64_t cost[SCP_MAX_METRICS];
  uint64_t ahead;
} line_agg;

typedef struct line_sort {
  const report_ctx *c;
  const line_agg *v;
} line_sort;

/* Grouping order: (file name, line, frame label). */
static int cmp_line_key(void *ctx, uint32_t a, uint32_t b) {
  const line_sort *s = ctx;
  const line_agg *la = &s->v[a], *lb = &s->v[b];
  int r = strcmp(scp_prof_str(s->c->p, la->file), scp_prof_str(s->c->p, lb->file));
  if (r) return r;
  if (la->line != lb->line) return la->line < lb->line ? -1 : 1;
  r = strcmp(scp_out_label_of(&s->c->labels, la->frame),
             scp_out_label_of(&s->c->labels, lb->frame));
  if (r) return r;
  return a < b ? -1 : a > b;
}

/* Display order: cost descending, then (file, line). */
static int cmp_line_cost(void *ctx, uint32_t a, uint32_t b) {
  const line_sort *s = ctx;
  uint64_t va = s->v[a].cost[s->c->metric], vb = s->v[b].cost[s->c->metric];
  if (va != vb) return va > vb ? -1 : 1;
  return cmp_line_key(ctx, a, b);
}

/* The hottest-lines table itself: shown rows of sum, in ids order. */
static void lines_rows(scp_buf *b, const report_ctx *c, const line_agg *sum, const uint32_t *ids,
                       size_t shown) {
  const scp_profile *p = c->p;
  char align[16];
  unsigned ncols = 0;
  for (unsigned k = 0; k < c->nm; k++) {
    if (!c->show[k == 0 ? c->metric : k <= c->metric ? k - 1 : k]) continue;
    align[ncols++] = 'r';
    if (k == 0) align[ncols++] = 'r';
    if (k == 0 && c->show_ahead) { align[ncols++] = 'r'; align[ncols++] = 'r'; }
  }
  align[ncols++] = 'l';
  align[ncols++] = 'l';
  align[ncols] = 0;
  table t = {.ncols = ncols, .align = align};
  for (unsigned k = 0; k < c->nm; k++) {
    unsigned m = k == 0 ? c->metric : k <= c->metric ? k - 1 : k;
    if (!c->show[m]) continue;
    cell_begin(&t);
    put_metric_name(&t.text, &p->metrics[m]);
    cell_end(&t);
    if (k == 0) cell_str(&t, "%");
    if (k == 0 && c->show_ahead) { cell_str(&t, "ran"); cell_str(&t, "ahead"); }
  }
  cell_str(&t, "line");
  cell_str(&t, "function");
  for (size_t i = 0; i < shown; i++) {
    const line_agg *a = &sum[ids[i]];
    for (unsigned k = 0; k < c->nm; k++) {
      unsigned m = k == 0 ? c->metric : k <= c->metric ? k - 1 : k;
      if (!c->show[m]) continue;
      cell_num(&t, a->cost[m]);
      if (k == 0) cell_pct(&t, a->cost[m], c->total);
      if (k == 0 && c->show_ahead) {
        cell_num(&t, a->cost[m] - a->ahead);
        cell_num(&t, a->ahead);
      }
    }
    scp_buf loc = {0};
    scp_out_put_location(&loc, scp_prof_str(p, a->file), a->line);
    if (loc.oom) t.oom = true;
    else cell_label(&t, loc.data);
    scp_buf_free(&loc);
    cell_label(&t, scp_out_label_of(&c->labels, a->frame));
  }
  table_print(b, &t);
  table_free(&t);
}

static int lines_table(scp_buf *b, const report_ctx *c) {
  const scp_profile *p = c->p;
  int rc = SCP_ERR_NOMEM;
  size_t cap = 0, n = 0;
  for (size_t i = 0; i < p->nnodes; i++) cap += p->nodes[i].nlines;
  line_agg *v = malloc((cap ? cap : 1) * sizeof *v);
  line_agg *sum = malloc((cap ? cap : 1) * sizeof *sum);
  uint32_t *ids = malloc((cap ? cap : 1) * sizeof *ids);
  if (!v || !sum || !ids) goto fail;
  /* Line 0 is code the compiler generated (DWARF's "no line"): it stays
   * with its function and is not ranked as a source line (DESIGN.md). */
  uint64_t no_line = 0;
  for (size_t i = 0; i < p->nnodes; i++) {
    const scp_prof_node *nd = &p->nodes[i];
    for (uint32_t j = 0; j < nd->nlines && nd->lines_first + j < p->nlines; j++) {
      const scp_prof_line *pl = &p->lines[nd->lines_first + j];
      if (!pl->line) {
        if (pl->file) no_line += pl->cost[c->metric];
        continue;
      }
      v[n].file = pl->file;
      v[n].line = pl->line;
      v[n].frame = nd->frame;
      memcpy(v[n].cost, pl->cost, sizeof v[n].cost);
      v[n].ahead = pl->ahead;
      ids[n] = (uint32_t)n;
      n++;
    }
  }
  line_sort s = {.c = c, .v = v};
  if (scp_out_sort_ids(ids, n, cmp_line_key, &s)) goto fail;
  /* One row per (file, line); the function shown is the one that spent the
   * most there (a line inlined into several functions has several). */
  size_t nsum = 0;
  for (size_t i = 0; i < n;) {
    const line_agg *first = &v[ids[i]];
    line_agg acc = *first;
    uint64_t best = 0;
    memset(acc.cost, 0, sizeof acc.cost);
    acc.ahead = 0;
    while (i < n && v[ids[i]].file == first->file && v[ids[i]].line == first->line) {
      /* runs of one frame are adjacent: sum each run, keep the largest */
      uint32_t fr = v[ids[i]].frame;
      uint64_t run = 0;
      while (i < n && v[ids[i]].file == first->file && v[ids[i]].line == first->line &&
             v[ids[i]].frame == fr) {
        for (unsigned m = 0; m < SCP_MAX_METRICS; m++) acc.cost[m] += v[ids[i]].cost[m];
        acc.ahead += v[ids[i]].ahead;
        run += v[ids[i]].cost[c->metric];
        i++;
      }
      if (run > best) {
        best = run;
        acc.frame = fr;
      }
    }
    sum[nsum++] = acc;
  }
  size_t shown = 0;
  for (size_t i = 0; i < nsum; i++)
    if (sum[i].cost[c->metric]) ids[shown++] = (uint32_t)i;
  line_sort s2 = {.c = c, .v = sum};
  if (scp_out_sort_ids(ids, shown, cmp_line_cost, &s2)) goto fail;
  if (shown > c->top) shown = c->top;

  scp_buf_puts(b, "\nHottest source lines by ");
  put_metric_name(b, &p->metrics[c->metric]);
  scp_buf_putc(b, '\n');
  if (!shown) {
    scp_buf_puts(b, "  (none)\n");
    goto note;
  }
  lines_rows(b, c, sum, ids, shown);
note:
  if (no_line) {
    scp_buf_puts(b, "  (");
    scp_buf_put_grouped(b, no_line);
    scp_buf_puts(b, " more in compiler-generated code without a source line, counted in its functions)\n");
  }
  if (c->show_ahead && shown)
    scp_buf_puts(b, "  (ahead: charged when a block was entered, for instructions an early exit\n"
                    "   then skipped; ran + ahead = CPU.  See \"Charged ahead\" in docs/outputs.md)\n");
  rc = SCP_OK;
fail:
  free(v);
  free(sum);
  free(ids);
  return rc;
}

/* ---- header and budget ------------------------------------------------- */

/* The runtime's own words for a failed Solana run: the text after
 * "failed: " in the last "Program ... failed: TEXT" log line (the outermost
 * program that failed logs last), or NULL. */
static const char *runtime_error(const scp_profile *p) {
  const char *found = NULL;
  for (size_t i = 0; i < p->nmeta; i++) {
    if (strcmp(scp_prof_str(p, p->meta[i].key), "log")) continue;
    const char *v = scp_prof_str(p, p->meta[i].value);
    const char *at = strstr(v, " failed: ");
    if (!strncmp(v, "Program ", 8) && at) found = at + 9;
  }
  return found;
}

/* Soroban: "OK", or the error table's text and the run's one line.
 * Solana: "success", or "failed: " and the runtime's text, then an
 * "error" row with the InstructionError as scprof names it. */
static void status_rows(table *t, const report_ctx *c) {
  const scp_profile *p = c->p;
  const char *msg = scp_prof_str(p, p->status_msg);
  bool sol = p->chain == SCP_CHAIN_SOLANA;
  const char *said = sol && p->status != SCP_OK ? runtime_error(p) : NULL;
  cell_str(t, "status");
  cell_begin(t);
  if (p->status == SCP_OK) {
    scp_buf_puts(&t->text, sol ? "success" : "OK");
  } else if (said) {
    scp_buf_puts(&t->text, "failed: ");
    scp_buf_puts(&t->text, said);
  } else {
    scp_buf_puts(&t->text, scp_out_status_text(p));
    if (!sol && *msg) {
      scp_buf_puts(&t->text, ": ");
      scp_buf_puts(&t->text, msg);
    }
  }
  cell_end(t);
  if (sol && p->status != SCP_OK && *msg) {
    cell_str(t, "error");
    cell_str(t, msg);
  }
}

static void header(scp_buf *b, const report_ctx *c) {
  const scp_profile *p = c->p;
  const char *title = scp_prof_str(p, p->title);
  scp_buf_puts(b, "scprof report");
  if (*title) {
    scp_buf_puts(b, ": ");
    scp_buf_puts(b, title);
  }
  scp_buf_putc(b, '\n');
  table t = {.ncols = 2, .align = "ll"};
  for (size_t i = 0; i < p->nmeta; i++) {
    /* the run's own status line below says it, with what kind of failure */
    if (!strcmp(scp_prof_str(p, p->meta[i].key), "status")) continue;
    cell_str(&t, scp_prof_str(p, p->meta[i].key));
    cell_str(&t, scp_prof_str(p, p->meta[i].value));
  }
  status_rows(&t, c);
  table_print(b, &t);
  table_free(&t);
}

/* A metric whose limit is checked against another count than the call
 * tree's total (scp_profile.enforced): the table shows that count, and
 * this line says so and gives the tree's total, which the functions and
 * the flamegraph add up to. */
static void budget_enforced_note(scp_buf *b, const report_ctx *c) {
  const scp_profile *p = c->p;
  for (unsigned m = 0; m < c->nm; m++) {
    if (!(p->enforced_set >> m & 1u) || p->enforced[m] == scp_out_total(p, m)) continue;
    const scp_metric *me = &p->metrics[m];
    put_metric_name(b, me);
    scp_buf_puts(b, ": consumed is the count the limit is checked against; the call tree books ");
    scp_buf_put_grouped(b, scp_out_total(p, m));
    scp_buf_printf(b, " %s, everything charged\n", me->unit ? me->unit : "");
  }
}

/* What the run consumed of each metric's limit, under heading ("Budget",
 * Soroban's word; "Compute units" on Solana). */
static void budget(scp_buf *b, const report_ctx *c, const char *heading) {
  const scp_profile *p = c->p;
  scp_buf_printf(b, "\n%s\n", heading);
  table t = {.ncols = 5, .align = "lrrrl"};
  cell_str(&t, "metric");
  cell_str(&t, "consumed");
  cell_str(&t, "limit");
  cell_str(&t, "% of limit");
  cell_str(&t, "unit");
  for (unsigned m = 0; m < c->nm; m++) {
    const scp_metric *me = &p->metrics[m];
    uint64_t used = scp_prof_checked(p, m);
    cell_begin(&t);
    put_metric_name(&t.text, me);
    cell_end(&t);
    cell_num(&t, used);
    if (me->limit) cell_num(&t, me->limit);
    else cell_str(&t, "-");
    cell_pct(&t, used, me->limit);
    cell_str(&t, me->unit ? me->unit : "");
  }
  table_print(b, &t);
  table_free(&t);
  budget_enforced_note(b, c);
}

/* The breakdown of one metric by component (the fee): each row's amount
 * and cost, then the total, which is the metric's. */
static void breakdown(scp_buf *b, const report_ctx *c) {
  const scp_profile *p = c->p;
  if (!p->nparts || p->parts_metric >= c->nm) return;
  const scp_metric *me = &p->metrics[p->parts_metric];
  scp_buf_printf(b, "\n%s\n", scp_prof_str(p, p->parts_title));
  table t = {.ncols = 3, .align = "lrr"};
  cell_str(&t, "component");
  cell_str(&t, "resource");
  cell_str(&t, me->unit ? me->unit : "");
  uint64_t sum = 0;
  for (size_t i = 0; i < p->nparts; i++) {
    cell_str(&t, scp_prof_str(p, p->parts[i].name));
    cell_str(&t, scp_prof_str(p, p->parts[i].amount));
    cell_num(&t, p->parts[i].cost);
    sum += p->parts[i].cost;
  }
  cell_str(&t, "total");
  cell_str(&t, "");
  cell_num(&t, sum);
  table_print(b, &t);
  table_free(&t);
}

/* A row's node as its call path: the node's label under its nearest
 * frames (at most PATH_FRAMES, the root included, "…" when cut),
 * outermost first. */
enum { PATH_FRAMES = 3 };

static void cell_path(table *t, const report_ctx *c, uint32_t node) {
  const scp_profile *p = c->p;
  uint32_t up[PATH_FRAMES];
  unsigned n = 0;
  for (uint32_t id = node; id != SCP_NODE_NONE && n < PATH_FRAMES; id = p->nodes[id].parent) {
    up[n++] = id;
    if (!id) break;
  }
  cell_begin(t);
  if (n == PATH_FRAMES && up[n - 1] && p->nodes[up[n - 1]].parent)
    scp_buf_puts(&t->text, "\xe2\x80\xa6 > ");
  for (unsigned i = n; i-- > 0;) {
    scp_buf_puts(&t->text, scp_out_label_of(&c->labels, p->nodes[up[i]].frame));
    if (i) scp_buf_puts(&t->text, " > ");
  }
  cell_end(t);
}

_Static_assert(SCP_PROF_TABLE_COLS + 3 <= 16, "table_print has 16 columns");

/* The chain's tables (the Budget by cost type, the ledger entries), each
 * row as it was added with its note and its node's call path when it has
 * them, then the sums of the columns that break a metric or a breakdown
 * row down.  Per-node tables are for the JSON report only. */
static int extra_tables(scp_buf *b, const report_ctx *c) {
  const scp_profile *p = c->p;
  char align[SCP_PROF_TABLE_COLS + 4];
  for (size_t k = 0; k < p->ntables; k++) {
    const scp_prof_table *pt = &p->tables[k];
    if (pt->per_node) continue;
    bool note = *scp_prof_str(p, pt->note_title), node = false;
    for (size_t i = 0; i < pt->nrows; i++) node |= p->trows[pt->first + i].has_node;
    unsigned nc = 0;
    align[nc++] = 'l';
    if (note) align[nc++] = 'l';
    for (unsigned col = 0; col < pt->ncols; col++) align[nc++] = 'r';
    if (node) align[nc++] = 'l';
    align[nc] = 0;
    table t = {.ncols = nc, .align = align};
    scp_buf_printf(b, "\n%s\n", scp_prof_str(p, pt->title));
    cell_str(&t, scp_prof_str(p, pt->item));
    if (note) cell_str(&t, scp_prof_str(p, pt->note_title));
    for (unsigned col = 0; col < pt->ncols; col++) cell_str(&t, scp_prof_str(p, pt->col[col]));
    if (node) cell_str(&t, "call path");
    for (size_t i = 0; i < pt->nrows; i++) {
      const scp_prof_trow *r = &p->trows[pt->first + i];
      cell_str(&t, scp_prof_str(p, r->name));
      if (note) cell_str(&t, scp_prof_str(p, r->note));
      for (unsigned col = 0; col < pt->ncols; col++) cell_num(&t, r->v[col]);
      if (node && r->has_node) cell_path(&t, c, r->node);
      else if (node) cell_str(&t, "");
    }
    /* a total only for a table that has a column to sum (the ledger
     * entries without a network have none) */
    bool sums = pt->part_cols != 0;
    for (unsigned col = 0; col < pt->ncols; col++) sums |= pt->col_metric[col] >= 0;
    if (sums) cell_str(&t, "total");
    if (sums && note) cell_str(&t, "");
    for (unsigned col = 0; sums && col < pt->ncols; col++) {
      if (pt->col_metric[col] >= 0 || (pt->part_cols >> col & 1u))
        cell_num(&t, scp_prof_table_sum(p, pt, col));
      else cell_str(&t, "");
    }
    if (sums && node) cell_str(&t, "");
    bool oom = t.oom;
    if (!oom) table_print(b, &t);
    table_free(&t);
    if (oom) return SCP_ERR_NOMEM;
    if (*scp_prof_str(p, pt->footnote)) scp_buf_printf(b, "  (%s)\n", scp_prof_str(p, pt->footnote));
  }
  return SCP_OK;
}

/* "Top N functions by self CPU", then by total: every code frame (and by
 * self the root's own cost: work outside any function; by total the root
 * would always be the whole run). */
static int top_tables(scp_buf *b, const report_ctx *c) {
  const unsigned code = 1u << SCP_KIND_GUEST | 1u << SCP_KIND_INLINED |
                        1u << SCP_KIND_HOST | 1u << SCP_KIND_CONTRACT |
                        1u << SCP_KIND_VM;
  scp_buf heading = {0};
  int rc = SCP_OK;
  for (int by_total = 0; by_total < 2 && !rc; by_total++) {
    heading.len = 0;
    scp_buf_printf(&heading, "Top %u functions by %s ", c->top, by_total ? "total" : "self");
    put_metric_name(&heading, &c->p->metrics[c->metric]);
    unsigned kinds = by_total ? code : code | 1u << SCP_KIND_ROOT;
    rc = heading.oom ? SCP_ERR_NOMEM : frame_table(b, c, by_total, kinds, heading.data);
  }
  scp_buf_free(&heading);
  return rc;
}

/* How many frames the run used of kind `kind` whose names start with prefix. */
static size_t count_frames(const report_ctx *c, unsigned kind, const char *prefix) {
  const scp_profile *p = c->p;
  size_t n = 0;
  for (uint32_t f = 0; f < p->nframes; f++)
    n += c->agg[f].seen && frame_kind(p, f) == kind &&
         !strncmp(scp_prof_str(p, p->frames[f].name), prefix, strlen(prefix));
  return n;
}

/* What every report opens with: the header, the totals against their
 * limits under `totals` (the chain's word), the metric's breakdown, the
 * top functions. */
static int opening(scp_buf *b, const report_ctx *c, const char *totals) {
  header(b, c);
  budget(b, c, totals);
  breakdown(b, c);
  return top_tables(b, c);
}

static int report_soroban(scp_buf *b, const report_ctx *c) {
  if (opening(b, c, "Budget") || lines_table(b, c)) return SCP_ERR_NOMEM;
  /* Contracts only when there is more than the one entry contract. */
  if (count_frames(c, SCP_KIND_CONTRACT, "") > 1 &&
      frame_table(b, c, true, 1u << SCP_KIND_CONTRACT, "Contracts by total cost"))
    return SCP_ERR_NOMEM;
  if (frame_table(b, c, false, 1u << SCP_KIND_HOST, "Host functions (self cost)"))
    return SCP_ERR_NOMEM;
  return extra_tables(b, c);
}

/* Some source line cost something: the program has a line table. */
static bool has_lines(const scp_profile *p, unsigned metric) {
  for (size_t i = 0; i < p->nlines; i++)
    if (p->lines[i].line && p->lines[i].cost[metric]) return true;
  return false;
}

/* Without source lines the hottest code is named by function, or by
 * address where the ELF has no symbol for it. */
static int hottest_functions(scp_buf *b, const report_ctx *c) {
  scp_buf heading = {0};
  scp_buf_puts(&heading, "Hottest functions by self ");
  put_metric_name(&heading, &c->p->metrics[c->metric]);
  table_spec ts = {.kinds = 1u << SCP_KIND_GUEST | 1u << SCP_KIND_INLINED,
                   .heading = heading.data, .what = "function"};
  int rc = heading.oom ? SCP_ERR_NOMEM : frame_table_spec(b, c, &ts);
  scp_buf_free(&heading);
  scp_buf_puts(b, "  (no source lines: the program has no DWARF line table; give the\n"
                  "   unstripped build of the same program with --symbols FILE)\n");
  return rc;
}

static bool has_table(const scp_profile *p, const char *title) {
  for (size_t i = 0; i < p->ntables; i++)
    if (!strcmp(scp_prof_str(p, p->tables[i].title), title)) return true;
  return false;
}

/* `scprof size` of a program: its bytes (and with --profile the bytes
 * that never ran), no run. */
static bool size_profile(const scp_profile *p) {
  const scp_metric *m = &p->metrics[0];
  return p->nmetrics && m->name && !strcmp(m->name, "Size") && m->unit && !strcmp(m->unit, "bytes");
}

/* A program's size profile has neither compute units nor syscalls, and
 * a stripped one's hint would name an option size does not take. */
static int report_solana_size(scp_buf *b, const report_ctx *c) {
  if (opening(b, c, "Size") || lines_table(b, c)) return SCP_ERR_NOMEM;
  return extra_tables(b, c);
}

static int report_solana(scp_buf *b, const report_ctx *c) {
  const scp_profile *p = c->p;
  if (size_profile(p)) return report_solana_size(b, c);
  if (opening(b, c, "Compute units")) return SCP_ERR_NOMEM;
  if (has_lines(p, c->metric) ? lines_table(b, c) : hottest_functions(b, c)) return SCP_ERR_NOMEM;
  /* The programs a transaction ran, by total CU, unless the profile
   * carries its own "Programs" table by instruction (printed last). */
  table_spec programs = {.by_total = true, .kinds = 1u << SCP_KIND_CONTRACT,
                         .prefix = "program:", .heading = "Programs by total CU",
                         .what = "program"};
  if (!has_table(p, "Programs") && count_frames(c, SCP_KIND_CONTRACT, "program:") &&
      frame_table_spec(b, c, &programs))
    return SCP_ERR_NOMEM;
  table_spec syscalls = {.kinds = 1u << SCP_KIND_HOST, .heading = "Syscalls (self CU)",
                         .what = "syscall"};
  if (frame_table_spec(b, c, &syscalls)) return SCP_ERR_NOMEM;
  return extra_tables(b, c);
}

int scp_out_report(const scp_profile *p, const scp_report_opts *o, scp_buf *b) {
  return scp_out_report_sh(p, o, NULL, b);
}

int scp_out_report_sh(const scp_profile *p, const scp_report_opts *o, const scp_out_shared *sh,
                      scp_buf *b) {
  static const scp_report_opts defaults = {0};
  if (!o) o = &defaults;
  if (o->metric >= p->nmetrics || o->metric >= SCP_MAX_METRICS) return SCP_ERR_ARG;
  int rc = SCP_ERR_NOMEM;
  report_ctx c = {.p = p, .metric = o->metric, .top = o->top ? o->top : 20,
                  .nm = p->nmetrics < SCP_MAX_METRICS ? p->nmetrics : SCP_MAX_METRICS};
  c.total = scp_out_total(p, o->metric);
  if (scp_out_tree(p, sh, &c.labels, &c.kids) || !(c.agg = scp_out_frame_aggregate(p, &c.kids)))
    goto fail;
  c.show_ahead = p->ahead && o->metric == 0;
  /* CPU and memory always (the Budget's two); the others when the run used them */
  for (unsigned m = 0; m < c.nm; m++) c.show[m] = m == c.metric || m < 2 || scp_out_total(p, m);
  if (c.show_ahead) {
    if (!(c.ahead = calloc(p->nframes ? p->nframes : 1, sizeof *c.ahead))) goto fail;
    for (size_t i = 0; i < p->nnodes; i++) c.ahead[p->nodes[i].frame] += p->nodes[i].ahead;
  }
  rc = p->chain == SCP_CHAIN_SOLANA ? report_solana(b, &c) : report_soroban(b, &c);
  if (!rc) rc = scp_out_done(b);
fail:
  free(c.ahead);
  free(c.agg);
  scp_out_tree_done(p, sh, &c.labels, &c.kids);
  return rc;
}
