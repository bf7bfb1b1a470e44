/*
 * annotate.c — source annotated with costs, like `perf annotate`: every
 * line of a source file with its self cost per metric.  The profile keeps
 * self cost per (node, file, line); this writer sums it per (file, line)
 * over the whole tree, or over one function's nodes.
 */
#include "output/out_private.h"

#include <stdlib.h>
#include <string.h>

typedef struct ann_line {
  uint32_t file, line;
  uint64_t cost[SCP_MAX_METRICS];
  uint64_t ahead;          /* of cost[0]: charged for code that did not run */
} ann_line;

typedef struct ann_ctx {
  const scp_profile *p;
  const scp_annotate_opts *o;
  unsigned nm;
  uint64_t total;          /* run total of the chosen metric */
  bool ahead;              /* an "ahead" column after the CPU's % */
  ann_line *v;             /* merged, sorted by (file name, line) */
  size_t n, cap;
  uint32_t *files;         /* distinct file ids to show, in output order */
  size_t nfiles;
} ann_ctx;

/* Column order: the chosen metric first, then the others. */
static unsigned col_metric(const ann_ctx *c, unsigned k) {
  return k == 0 ? c->o->metric : k <= c->o->metric ? k - 1 : k;
}

static bool file_matches(const char *file, const char *only) {
  size_t fl = strlen(file), ol = strlen(only);
  if (fl == ol) return strcmp(file, only) == 0;
  return fl > ol && strcmp(file + fl - ol, only) == 0 && file[fl - ol - 1] == '/';
}

static int cmp_lines(void *ctx, uint32_t a, uint32_t b) {
  const ann_ctx *c = ctx;
  const ann_line *x = &c->v[a], *y = &c->v[b];
  if (x->file != y->file) {
    int r = strcmp(scp_prof_str(c->p, x->file), scp_prof_str(c->p, y->file));
    if (r) return r;
    return x->file < y->file ? -1 : 1;
  }
  return x->line < y->line ? -1 : x->line > y->line;
}

/* A function named by the user: its full name, or its last path
 * components ("load" or "vault::load" for "vault::load"), a generic
 * instance's "::<...>" left out ("add_all" for "vault::add_all::<u64>"). */
static bool fn_matches(const char *name, const char *want) {
  size_t nl = strlen(name), wl = strlen(want);
  if (!strcmp(name, want)) return true;
  if (nl > 3 && name[nl - 1] == '>') {         /* strip one trailing ::<...> */
    int depth = 0;
    for (size_t i = nl; i-- > 2;) {
      depth += name[i] == '>' ? 1 : name[i] == '<' ? -1 : 0;
      if (depth == 0) {
        if (name[i - 1] == ':' && name[i - 2] == ':') nl = i - 2;
        break;
      }
    }
  }
  if (nl == wl) return !strncmp(name, want, nl);
  return nl > wl + 2 && !strncmp(name + nl - wl, want, wl) && name[nl - wl - 1] == ':' &&
         name[nl - wl - 2] == ':';
}

static bool fn_present(const scp_profile *p, const char *fn_name) {
  for (size_t i = 0; i < p->nframes; i++)
    if (fn_matches(scp_prof_str(p, p->frames[i].name), fn_name)) return true;
  return false;
}

/* Which nodes count: all, or those of function `fn_name`: nodes of that
 * name and everything inlined into them, at any depth. */
static int collect(ann_ctx *c, const char *fn_name) {
  const scp_profile *p = c->p;
  int rc = SCP_ERR_NOMEM;
  scp_out_labels l = {0};
  scp_out_kids k = {0};
  bool *taken = malloc(p->nnodes * sizeof *taken);
  uint32_t *todo = malloc(p->nnodes * sizeof *todo);
  if (!taken || !todo || scp_out_labels_build(p, &l) || scp_out_kids_build(p, &l, &k)) goto fail;
  size_t ntodo = 0;
  todo[ntodo++] = 0;
  while (ntodo) {
    uint32_t id = todo[--ntodo];
    const scp_prof_node *n = &p->nodes[id];
    bool inl = n->frame < p->nframes && p->frames[n->frame].kind == SCP_KIND_INLINED;
    /* with calls, a host function's cost is its caller's line's */
    bool host = c->o->calls && id && n->frame < p->nframes &&
                p->frames[n->frame].kind == SCP_KIND_HOST;
    bool take = true;
    if (fn_name)
      take = (n->frame < p->nframes && fn_matches(scp_prof_str(p, p->frames[n->frame].name), fn_name)) ||
             (id && (inl || host) && taken[n->parent]);
    taken[id] = take;
    if (take && host && n->call_file) {
      if (!scp_grow(&c->v, &c->cap, c->n + 1, sizeof *c->v)) goto fail;
      ann_line *a = &c->v[c->n++];
      a->file = n->call_file;
      a->line = n->call_line;
      memcpy(a->cost, n->self, sizeof a->cost);
      a->ahead = 0;
    }
    for (uint32_t j = 0; take && j < n->nlines && n->lines_first + j < p->nlines; j++) {
      const scp_prof_line *pl = &p->lines[n->lines_first + j];
      if (!pl->file) continue;  /* no file: nothing to annotate */
      if (!scp_grow(&c->v, &c->cap, c->n + 1, sizeof *c->v)) goto fail;
      ann_line *a = &c->v[c->n++];
      a->file = pl->file;
      a->line = pl->line;
      memcpy(a->cost, pl->cost, sizeof a->cost);
      a->ahead = pl->ahead;
    }
    for (uint32_t i = k.start[id + 1]; i-- > k.start[id];) todo[ntodo++] = k.ids[i];
  }
  /* sort and merge equal (file, line) */
  uint32_t *ids = malloc((c->n ? c->n : 1) * sizeof *ids);
  ann_line *merged = malloc((c->n ? c->n : 1) * sizeof *merged);
  if (!ids || !merged) {
    free(ids);
    free(merged);
    goto fail;
  }
  for (size_t i = 0; i < c->n; i++) ids[i] = (uint32_t)i;
  if (scp_out_sort_ids(ids, c->n, cmp_lines, c)) {
    free(ids);
    free(merged);
    goto fail;
  }
  size_t nm = 0;
  for (size_t i = 0; i < c->n; i++) {
    const ann_line *a = &c->v[ids[i]];
    if (nm && merged[nm - 1].file == a->file && merged[nm - 1].line == a->line) {
      for (unsigned m = 0; m < SCP_MAX_METRICS; m++) merged[nm - 1].cost[m] += a->cost[m];
      merged[nm - 1].ahead += a->ahead;
    } else {
      merged[nm++] = *a;
    }
  }
  free(ids);
  free(c->v);
  c->v = merged;
  c->n = nm;
  c->cap = c->n;
  rc = SCP_OK;
fail:
  free(taken);
  free(todo);
  scp_out_kids_free(&k);
  scp_out_labels_free(&l);
  return rc;
}

static uint64_t file_cost(const ann_ctx *c, uint32_t file) {
  uint64_t sum = 0;
  for (size_t i = 0; i < c->n; i++)
    if (c->v[i].file == file) sum += c->v[i].cost[c->o->metric];
  return sum;
}

static int cmp_files(void *ctx, uint32_t a, uint32_t b) {
  const ann_ctx *c = ctx;
  uint64_t x = file_cost(c, a), y = file_cost(c, b);
  if (x != y) return x > y ? -1 : 1;
  return strcmp(scp_prof_str(c->p, a), scp_prof_str(c->p, b));
}

static size_t digits(uint64_t v) {
  scp_buf t = {0};
  scp_buf_put_grouped(&t, v);
  size_t n = t.len;
  scp_buf_free(&t);
  return n;
}

static void pad_left(scp_buf *b, size_t have, size_t width) {
  for (; have < width; have++) scp_buf_putc(b, ' ');
}

typedef struct ann_cols {
  size_t w[SCP_MAX_METRICS];  /* by column, not by metric */
  size_t wline, wahead;
} ann_cols;

static void put_num_or_dot(scp_buf *b, uint64_t v, size_t width) {
  if (v) {
    pad_left(b, digits(v), width);
    scp_buf_put_grouped(b, v);
  } else {
    pad_left(b, 1, width);
    scp_buf_putc(b, '.');
  }
  scp_buf_puts(b, "  ");
}

/* One row: costs (or "."), %, line number, text. */
static void put_row(scp_buf *b, const ann_ctx *c, const ann_cols *w, const ann_line *a,
                    uint32_t line, const char *text, size_t len) {
  scp_buf_puts(b, "  ");
  for (unsigned k = 0; k < c->nm; k++) {
    unsigned m = col_metric(c, k);
    uint64_t v = a ? a->cost[m] : 0;
    if (v) {
      pad_left(b, digits(v), w->w[k]);
      scp_buf_put_grouped(b, v);
    } else {
      pad_left(b, 1, w->w[k]);
      scp_buf_putc(b, '.');
    }
    scp_buf_puts(b, "  ");
    if (k == 0) {
      if (v) {
        scp_buf t = {0};
        scp_out_put_pct(&t, v, c->total);
        pad_left(b, t.len, 7);
        scp_buf_put(b, t.data, t.len);
        scp_buf_free(&t);
      } else {
        pad_left(b, 1, 7);
        scp_buf_putc(b, '.');
      }
      scp_buf_puts(b, "  ");
      if (c->ahead) put_num_or_dot(b, a ? a->ahead : 0, w->wahead);
    }
  }
  scp_buf t = {0};
  scp_out_put_u64(&t, line);
  pad_left(b, t.len, w->wline);
  scp_buf_put(b, t.data, t.len);
  scp_buf_free(&t);
  if (len) {
    scp_buf_puts(b, "  ");
    scp_buf_put(b, text, len);
  }
  scp_buf_putc(b, '\n');
}

static void put_file(scp_buf *b, const ann_ctx *c, uint32_t file, bool fn_mode) {
  const scp_profile *p = c->p;
  const char *name = scp_prof_str(p, file);
  size_t first = 0, last = 0;  /* this file's rows in c->v: [first, last) */
  while (first < c->n && c->v[first].file != file) first++;
  for (last = first; last < c->n && c->v[last].file == file; last++) {}
  ann_cols w = {.wline = 4, .wahead = 5};
  uint64_t sum[SCP_MAX_METRICS] = {0}, ahead = 0;
  for (unsigned k = 0; k < c->nm; k++) {
    const scp_metric *me = &p->metrics[col_metric(c, k)];
    w.w[k] = strlen(me->name && *me->name ? me->name : "cost");
  }
  for (size_t i = first; i < last; i++) {
    for (unsigned k = 0; k < c->nm; k++) {
      unsigned m = col_metric(c, k);
      sum[m] += c->v[i].cost[m];
      size_t d = digits(c->v[i].cost[m]);
      if (d > w.w[k]) w.w[k] = d;
    }
    ahead += c->v[i].ahead;
    if (digits(c->v[i].ahead) > w.wahead) w.wahead = digits(c->v[i].ahead);
  }
  size_t len = 0;
  const char *text = c->o->load ? c->o->load(c->o->ctx, name, &len) : NULL;
  /* count source lines to size the line-number column */
  uint32_t nsrc = 0;
  for (size_t i = 0; text && i < len; i++) nsrc += text[i] == '\n';
  if (text && len && text[len - 1] != '\n') nsrc++;
  uint32_t maxline = nsrc;
  if (last > first && c->v[last - 1].line > maxline) maxline = c->v[last - 1].line;
  scp_buf t = {0};
  scp_out_put_u64(&t, maxline);
  if (t.len > w.wline) w.wline = t.len;
  scp_buf_free(&t);

  scp_buf_printf(b, "-- %s --", name);
  for (unsigned k = 0; k < c->nm; k++) {
    unsigned m = col_metric(c, k);
    const scp_metric *me = &p->metrics[m];
    scp_buf_printf(b, "%s %s ", k ? "," : "", me->name && *me->name ? me->name : "cost");
    scp_buf_put_grouped(b, sum[m]);
    if (k == 0) {
      scp_buf_puts(b, " (");
      scp_out_put_pct(b, sum[m], c->total);
      scp_buf_puts(b, " of the run");
      if (c->ahead) {
        scp_buf_puts(b, "; ");
        scp_buf_put_grouped(b, ahead);
        scp_buf_puts(b, " of it charged ahead: paid on entering a block, not run");
      }
      scp_buf_putc(b, ')');
    }
  }
  if (!text) scp_buf_puts(b, "; source not available, lines with cost only");
  scp_buf_puts(b, "\n  ");
  for (unsigned k = 0; k < c->nm; k++) {
    const scp_metric *me = &p->metrics[col_metric(c, k)];
    const char *mn = me->name && *me->name ? me->name : "cost";
    pad_left(b, strlen(mn), w.w[k]);
    scp_buf_puts(b, mn);
    scp_buf_puts(b, k == 0 ? "        %  " : "  ");
    if (k == 0 && c->ahead) {
      pad_left(b, 5, w.wahead);
      scp_buf_puts(b, "ahead  ");
    }
  }
  pad_left(b, 4, w.wline);
  scp_buf_puts(b, text ? "line  source\n" : "line\n");

  size_t i = first;
  if (i < last && c->v[i].line == 0) {  /* cost the compiler gave no line */
    put_row(b, c, &w, &c->v[i], 0, "(no line: compiler-generated code)", 34);
    i++;
  }
  if (!text) {
    for (; i < last; i++) put_row(b, c, &w, &c->v[i], c->v[i].line, "", 0);
    return;
  }
  /* function mode: only around the lines with cost */
  uint32_t from = 1, to = nsrc;
  if (fn_mode && i < last) {
    from = c->v[i].line > 3 ? c->v[i].line - 3 : 1;
    to = c->v[last - 1].line + 3 < nsrc ? c->v[last - 1].line + 3 : nsrc;
  }
  const char *s = text, *end = text + len;
  for (uint32_t ln = 1; ln <= to && s < end; ln++) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    const char *e = nl ? nl : end;
    size_t n = (size_t)(e - s);
    if (n && s[n - 1] == '\r') n--;
    if (ln >= from) {
      const ann_line *a = i < last && c->v[i].line == ln ? &c->v[i] : NULL;
      put_row(b, c, &w, a, ln, s, n);
      if (a) i++;
    }
    s = nl ? nl + 1 : end;
  }
  /* costs on lines the source no longer has (edited since the build) */
  for (; i < last; i++)
    put_row(b, c, &w, &c->v[i], c->v[i].line, "(beyond the end of the file)", 28);
}

/* ---- code without source lines: its instructions ------------------------ */

static int cmp_pc_rows(const void *a, const void *b) {
  const scp_prof_pc *x = a, *y = b;
  return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* The instruction rows of every node of function fn_name, merged by pc
 * (the function's nodes on several call paths), and its self cost. */
static int gather_pcs(const scp_profile *p, const char *fn_name, scp_prof_pc **out, size_t *nout,
                      uint64_t *self) {
  size_t n = 0;
  for (size_t i = 0; i < p->nnodes; i++)
    if (fn_matches(scp_prof_str(p, p->frames[p->nodes[i].frame].name), fn_name)) n += p->nodes[i].npcs;
  scp_prof_pc *v = malloc((n ? n : 1) * sizeof *v);
  if (!v) return SCP_ERR_NOMEM;
  n = 0;
  for (size_t i = 0; i < p->nnodes; i++) {
    const scp_prof_node *nd = &p->nodes[i];
    if (!fn_matches(scp_prof_str(p, p->frames[nd->frame].name), fn_name)) continue;
    for (unsigned m = 0; m < p->nmetrics && m < SCP_MAX_METRICS; m++) self[m] += nd->self[m];
    for (uint32_t j = 0; j < nd->npcs && nd->pcs_first + j < p->npcs; j++) v[n++] = p->pcs[nd->pcs_first + j];
  }
  if (n) qsort(v, n, sizeof *v, cmp_pc_rows);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (k && v[k - 1].pc == v[i].pc) {
      for (unsigned m = 0; m < SCP_MAX_METRICS; m++) v[k - 1].cost[m] += v[i].cost[m];
      v[k - 1].runs += v[i].runs;
    } else {
      v[k++] = v[i];
    }
  }
  *out = v;
  *nout = k;
  return SCP_OK;
}

/* One listing row: the costs, the chosen metric's %, the times it ran
 * (wruns wide; none when 0), the address, text; runs NULL: "-" there. */
static void put_insn_row(scp_buf *b, const ann_ctx *c, const size_t *w, const uint64_t *cost,
                         const uint64_t *runs, size_t wruns, const char *addr, const char *text) {
  scp_buf_puts(b, "  ");
  for (unsigned k = 0; k < c->nm; k++) {
    put_num_or_dot(b, cost[col_metric(c, k)], w[k]);
    if (k) continue;
    scp_buf t = {0};
    scp_out_put_pct(&t, cost[c->o->metric], c->total);
    pad_left(b, t.len, 7);
    scp_buf_put(b, t.data, t.len);
    scp_buf_free(&t);
    scp_buf_puts(b, "  ");
  }
  if (wruns && runs) {
    pad_left(b, digits(*runs), wruns);
    scp_buf_put_grouped(b, *runs);
  } else if (wruns) {
    pad_left(b, 1, wruns);
    scp_buf_putc(b, '-');
  }
  pad_left(b, strlen(addr), 10);
  scp_buf_printf(b, "%s  %s\n", addr, text);
}

/* What a listing row's cost is: in sBPF one CU per instruction run; in
 * WASM the instruction's fuel, charged with its whole block on entry
 * (wasmi 0.31), so a row's cost is not a count of runs: the engine counts
 * those apart (the runs column, when the profile has them). */
static void put_insns_note(scp_buf *b, const scp_profile *p, const char *mn) {
  if (p->chain == SCP_CHAIN_SOLANA) {
    scp_buf_puts(b, " of the run; the syscalls and calls it makes are their own frames, not in self)");
    if (!strcmp(mn, "CU")) scp_buf_puts(b, "; one CU per instruction run, so CU is also the times each ran");
    return;
  }
  scp_buf_puts(b, " of the run; the host functions and calls it makes are their own frames, not in self)");
  if (!strcmp(mn, "CPU"))
    scp_buf_puts(b, "; CPU at an instruction is its wasmi fuel times the Budget's WasmInsnExec CPU, for"
                    " every entry of its block, as wasmi charges a block's fuel on entry (also for the"
                    " part an early exit skips)");
  scp_buf_puts(b, p->pc_runs ? "; runs: how often each instruction ran"
                             : "; how often each instruction ran is not kept");
}

/* Function fn_name's instructions with their self cost, for code without
 * source lines (c->p has the rows when its engine can print instructions).
 * The rows add up to the function's self cost; what self holds at no
 * instruction (none in the engines today) is a last row, so the listing
 * still adds up.  SCP_ERR_DWARF when the function has no rows. */
static int put_insns(scp_buf *b, const ann_ctx *c, const char *fn_name) {
  const scp_profile *p = c->p;
  scp_prof_pc *v = NULL;
  size_t n = 0;
  uint64_t self[SCP_MAX_METRICS] = {0}, rest[SCP_MAX_METRICS];
  int rc = gather_pcs(p, fn_name, &v, &n, self);
  if (rc || !n) {
    free(v);
    return rc ? rc : SCP_ERR_DWARF;
  }
  size_t w[SCP_MAX_METRICS];
  memcpy(rest, self, sizeof rest);
  for (unsigned k = 0; k < c->nm; k++) {
    const scp_metric *me = &p->metrics[col_metric(c, k)];
    w[k] = strlen(me->name && *me->name ? me->name : "cost");
    if (digits(self[col_metric(c, k)]) > w[k]) w[k] = digits(self[col_metric(c, k)]);
  }
  for (size_t i = 0; i < n; i++)
    for (unsigned m = 0; m < SCP_MAX_METRICS; m++) rest[m] -= v[i].cost[m];
  const scp_metric *m0 = &p->metrics[c->o->metric];
  const char *mn = m0->name && *m0->name ? m0->name : "cost";
  scp_buf_printf(b, "-- %s: no source lines, its %zu instructions -- self %s ", fn_name, n, mn);
  scp_buf_put_grouped(b, self[c->o->metric]);
  scp_buf_puts(b, " (");
  scp_out_put_pct(b, self[c->o->metric], c->total);
  put_insns_note(b, p, mn);
  scp_buf_puts(b, "\n  ");
  for (unsigned k = 0; k < c->nm; k++) {
    const scp_metric *me = &p->metrics[col_metric(c, k)];
    const char *name = me->name && *me->name ? me->name : "cost";
    pad_left(b, strlen(name), w[k]);
    scp_buf_puts(b, name);
    scp_buf_puts(b, k == 0 ? "        %  " : "  ");
  }
  size_t wruns = 0;
  for (size_t i = 0; p->pc_runs && i < n; i++)
    if (digits(v[i].runs) > wruns) wruns = digits(v[i].runs);
  if (p->pc_runs && wruns < 4) wruns = 4;
  if (wruns) {
    pad_left(b, 4, wruns);
    scp_buf_puts(b, "runs");
  }
  scp_buf_puts(b, "   address  instruction\n");
  for (size_t i = 0; i < n; i++) {
    char addr[24];
    snprintf(addr, sizeof addr, "0x%llx", (unsigned long long)v[i].pc);
    put_insn_row(b, c, w, v[i].cost, &v[i].runs, wruns, addr, scp_prof_str(p, v[i].text));
  }
  bool any = false;
  for (unsigned m = 0; m < SCP_MAX_METRICS; m++) any |= rest[m] != 0;
  if (any) put_insn_row(b, c, w, rest, NULL, wruns, "-", "(at no instruction)");
  free(v);
  return scp_out_done(b);
}

int scp_out_annotate(const scp_profile *p, const scp_annotate_opts *o, scp_buf *b) {
  static const scp_annotate_opts defaults = {0};
  if (!o) o = &defaults;
  if (o->metric >= p->nmetrics || o->metric >= SCP_MAX_METRICS) return SCP_ERR_ARG;
  if (!p->nnodes) return SCP_ERR_ARG;
  ann_ctx c = {.p = p, .o = o,
               .nm = p->nmetrics < SCP_MAX_METRICS ? p->nmetrics : SCP_MAX_METRICS,
               .total = scp_out_total(p, o->metric),
               .ahead = p->ahead && o->metric == 0};
  int rc = SCP_ERR_NOMEM;
  bool fn_mode = false;
  if (o->only && *o->only) {
    bool any_file = false;
    for (size_t i = 0; i < p->nlines && !any_file; i++)
      any_file = p->lines[i].file && file_matches(scp_prof_str(p, p->lines[i].file), o->only);
    fn_mode = !any_file;
  }
  if ((rc = collect(&c, fn_mode ? o->only : NULL))) goto fail;
  bool any_line = false;
  for (size_t i = 0; i < c.n && !any_line; i++) any_line = c.v[i].file != 0;
  rc = SCP_ERR_NOMEM;
  c.files = malloc((c.n ? c.n : 1) * sizeof *c.files);
  if (!c.files) goto fail;
  for (size_t i = 0; i < c.n; i++) {
    uint32_t f = c.v[i].file;
    if (c.nfiles && c.files[c.nfiles - 1] == f) continue;
    if (o->only && *o->only && !fn_mode && !file_matches(scp_prof_str(p, f), o->only)) continue;
    c.files[c.nfiles++] = f;
  }
  if (!any_line || (o->only && *o->only && !c.nfiles)) {
    rc = fn_mode && !fn_present(p, o->only) ? SCP_ERR_NOTFOUND
         : fn_mode                          ? put_insns(b, &c, o->only)
                                            : SCP_ERR_DWARF;
    goto fail;
  }
  if (scp_out_sort_ids(c.files, c.nfiles, cmp_files, &c)) goto fail;
  for (size_t i = 0; i < c.nfiles; i++) {
    if (i) scp_buf_putc(b, '\n');
    put_file(b, &c, c.files[i], fn_mode);
  }
  rc = scp_out_done(b);
fail:
  free(c.v);
  free(c.files);
  return rc;
}
