/*
 * callgrind.c — the callgrind profile format, read by callgrind_annotate and
 * KCachegrind.  Callgrind has no calling contexts: a function's cost is the
 * sum over every node of its frame.  Code the compiler inlined is reported
 * the way valgrind reports it: under the function it was inlined into, with
 * fi=/fe= switching the source file of the following cost lines.
 */
#include "output/out_private.h"

#include <stdlib.h>
#include <string.h>

typedef struct cost_rec {
  uint32_t fn, file, line;          /* fn: frame id of the function */
  uint64_t cost[SCP_MAX_METRICS];
} cost_rec;

typedef struct call_rec {
  uint32_t fn, callee, file, line;  /* call site file:line in fn */
  uint64_t calls;
  uint64_t cost[SCP_MAX_METRICS];   /* inclusive cost of the calls */
} call_rec;

typedef struct cg_ctx {
  const scp_profile *p;
  unsigned nm;
  scp_out_labels labels;
  scp_out_kids kids;
  uint32_t *owner;                  /* node -> node of its function */
  cost_rec *costs;
  size_t ncosts, capcosts;
  call_rec *calls;
  size_t ncalls, capcalls;
  uint32_t *file_id, nfile_ids;     /* string id -> compressed id (0: none) */
  uint32_t *fn_id, nfn_ids;         /* frame id -> compressed id */
  uint32_t *rank;                   /* frame id -> place in label order */
  bool emit_root;                   /* the root has cost of its own */
} cg_ctx;

static unsigned kind_of(const scp_profile *p, uint32_t node) {
  uint32_t f = p->nodes[node].frame;
  return f < p->nframes ? p->frames[f].kind : SCP_KIND_ROOT;
}

static uint32_t frame_file(const scp_profile *p, uint32_t f) {
  return f < p->nframes ? p->frames[f].file : 0;
}

/* Owners in pre-order (a parent's owner is known before its children's). */
static int find_owners(cg_ctx *c) {
  const scp_profile *p = c->p;
  uint32_t *todo = malloc(p->nnodes * sizeof *todo);
  c->owner = malloc(p->nnodes * sizeof *c->owner);
  if (!todo || !c->owner) {
    free(todo);
    return SCP_ERR_NOMEM;
  }
  size_t ntodo = 0;
  todo[ntodo++] = 0;
  c->owner[0] = 0;
  while (ntodo) {
    uint32_t id = todo[--ntodo];
    if (id != 0)
      c->owner[id] = kind_of(p, id) == SCP_KIND_INLINED ? c->owner[p->nodes[id].parent] : id;
    for (uint32_t i = c->kids.start[id + 1]; i-- > c->kids.start[id];) todo[ntodo++] = c->kids.ids[i];
  }
  free(todo);
  return SCP_OK;
}

static int collect(cg_ctx *c) {
  const scp_profile *p = c->p;
  /* at most a cost record per line and one more per node, a call per
   * node: room for all of them first, so none is copied as they grow */
  if (!scp_grow(&c->costs, &c->capcosts, p->nlines + p->nnodes, sizeof *c->costs) ||
      !scp_grow(&c->calls, &c->capcalls, p->nnodes, sizeof *c->calls))
    return SCP_ERR_NOMEM;
  for (uint32_t id = 0; id < p->nnodes; id++) {
    const scp_prof_node *n = &p->nodes[id];
    uint32_t fn = p->nodes[c->owner[id]].frame;
    if (id == 0 && !c->emit_root) continue;
    if (fn >= p->nframes || n->frame >= p->nframes) continue;  /* malformed */
    /* self cost by line, and whatever the lines do not cover at line 0 */
    uint64_t rest[SCP_MAX_METRICS];
    memcpy(rest, n->self, sizeof rest);
    for (uint32_t j = 0; j < n->nlines && n->lines_first + j < p->nlines; j++) {
      const scp_prof_line *l = &p->lines[n->lines_first + j];
      if (!scp_grow(&c->costs, &c->capcosts, c->ncosts + 1, sizeof *c->costs)) return SCP_ERR_NOMEM;
      cost_rec *r = &c->costs[c->ncosts++];
      *r = (cost_rec){.fn = fn, .file = l->file, .line = l->line, .cost = {0}};
      for (unsigned m = 0; m < c->nm; m++) {
        r->cost[m] = l->cost[m];
        rest[m] = rest[m] > l->cost[m] ? rest[m] - l->cost[m] : 0;
      }
    }
    bool any = false;
    for (unsigned m = 0; m < c->nm; m++) any |= rest[m] != 0;
    if (any) {
      if (!scp_grow(&c->costs, &c->capcosts, c->ncosts + 1, sizeof *c->costs)) return SCP_ERR_NOMEM;
      cost_rec *r = &c->costs[c->ncosts++];
      *r = (cost_rec){.fn = fn, .file = frame_file(p, n->frame), .line = 0, .cost = {0}};
      memcpy(r->cost, rest, sizeof r->cost);
    }
    /* a real call: from the function holding the parent to this one */
    if (id == 0 || kind_of(p, id) == SCP_KIND_INLINED) continue;
    uint32_t caller = c->owner[n->parent];
    if (caller == 0 && !c->emit_root) continue;  /* top-level function */
    if (!scp_grow(&c->calls, &c->capcalls, c->ncalls + 1, sizeof *c->calls)) return SCP_ERR_NOMEM;
    call_rec *e = &c->calls[c->ncalls++];
    *e = (call_rec){.fn = p->nodes[caller].frame, .callee = n->frame, .file = n->call_file, .line = n->call_line,
                    .calls = n->calls, .cost = {0}};
    memcpy(e->cost, n->total, sizeof e->cost);
  }
  return SCP_OK;
}

/* ---- ordering -----------------------------------------------------------
 * Functions by label; inside one, cost lines by (file, line) and calls by
 * (callee, file, line).  Equal keys are merged after sorting. */

static int cmp_label(void *ctx, uint32_t a, uint32_t b) {
  const cg_ctx *c = ctx;
  if (a == b) return 0;
  int r = strcmp(scp_out_label_of(&c->labels, a), scp_out_label_of(&c->labels, b));
  if (r) return r;
  return a < b ? -1 : 1;
}

/* Functions by label, then id: their places in that order, worked out
 * once (the records' sorts compare functions many times over). */
static int cmp_fn(const cg_ctx *c, uint32_t a, uint32_t b) {
  return c->rank[a] < c->rank[b] ? -1 : c->rank[a] > c->rank[b];
}

static int rank_frames(cg_ctx *c) {
  uint32_t n = c->p->nframes, *ids = malloc((n ? n : 1) * sizeof *ids);
  c->rank = malloc((n ? n : 1) * sizeof *c->rank);
  if (!ids || !c->rank) {
    free(ids);
    return SCP_ERR_NOMEM;
  }
  for (uint32_t f = 0; f < n; f++) ids[f] = f;
  int rc = scp_out_sort_ids(ids, n, cmp_label, c);
  for (uint32_t i = 0; i < n; i++) c->rank[ids[i]] = i;
  free(ids);
  return rc;
}

static int cmp_file_line(const cg_ctx *c, uint32_t fa, uint32_t la, uint32_t fb,
                         uint32_t lb) {
  if (fa != fb) {
    int r = strcmp(scp_prof_str(c->p, fa), scp_prof_str(c->p, fb));
    if (r) return r;
    return fa < fb ? -1 : 1;
  }
  return la < lb ? -1 : la > lb;
}

static int cmp_cost(void *ctx, uint32_t a, uint32_t b) {
  const cg_ctx *c = ctx;
  const cost_rec *x = &c->costs[a], *y = &c->costs[b];
  int r = cmp_fn(c, x->fn, y->fn);
  if (r) return r;
  return cmp_file_line(c, x->file, x->line, y->file, y->line);
}

static int cmp_call(void *ctx, uint32_t a, uint32_t b) {
  const cg_ctx *c = ctx;
  const call_rec *x = &c->calls[a], *y = &c->calls[b];
  int r = cmp_fn(c, x->fn, y->fn);
  if (r) return r;
  if ((r = cmp_fn(c, x->callee, y->callee))) return r;
  return cmp_file_line(c, x->file, x->line, y->file, y->line);
}

/* ---- writing ------------------------------------------------------------ */

/* Names must stay on one line. */
static void put_name(scp_buf *b, const char *s) {
  while (*s) {
    size_t run = strcspn(s, "\n\r");
    scp_buf_put(b, s, run);
    s += run;
    if (*s) scp_buf_putc(b, ' '), s++;
  }
}

/* "(id)" and what follows it, in one append */
static void put_id(scp_buf *b, uint32_t id, char after) {
  char t[16], *o = t;
  *o++ = '(';
  o = scp_out_dec(o, id);
  *o++ = ')';
  *o++ = after;
  scp_buf_put(b, t, (size_t)(o - t));
}

/* "(id) name" the first time a file is named, "(id)" after. */
static void put_file(scp_buf *b, cg_ctx *c, uint32_t file) {
  if (file >= c->p->strs.n) file = 0;
  if (c->file_id[file]) {
    put_id(b, c->file_id[file], '\n');
    return;
  }
  c->file_id[file] = ++c->nfile_ids;
  put_id(b, c->file_id[file], ' ');
  const char *s = scp_prof_str(c->p, file);
  put_name(b, *s ? s : "???");
  scp_buf_putc(b, '\n');
}

static void put_fn(scp_buf *b, cg_ctx *c, uint32_t f) {
  if (c->fn_id[f]) {
    put_id(b, c->fn_id[f], '\n');
    return;
  }
  c->fn_id[f] = ++c->nfn_ids;
  put_id(b, c->fn_id[f], ' ');
  const scp_prof_frame *fr = &c->p->frames[f];
  const char *s = scp_prof_str(c->p, fr->name);
  put_name(b, *s ? s : fr->kind == SCP_KIND_ROOT ? "all" : "[unknown]");
  scp_buf_putc(b, '\n');
}

static void put_costs(scp_buf *b, const cg_ctx *c, uint32_t line, const uint64_t *cost) {
  char row[11 + 21 * SCP_MAX_METRICS + 1], *o = scp_out_dec(row, line);
  for (unsigned m = 0; m < c->nm; m++) {
    *o++ = ' ';
    o = scp_out_dec(o, cost[m]);
  }
  *o++ = '\n';
  scp_buf_put(b, row, (size_t)(o - row));
}

/* Cost lines name their file only when it is not the function's own. */
static void switch_file(scp_buf *b, cg_ctx *c, uint32_t fn_file, uint32_t *cur,
                        uint32_t file) {
  if (file == 0) file = fn_file;  /* unknown: the function's file */
  if (file == *cur) return;
  scp_buf_puts(b, file == fn_file ? "fe=" : "fi=");
  put_file(b, c, file);
  *cur = file;
}

static void put_event_name(scp_buf *b, const scp_metric *m) {
  const char *s = m->name && *m->name ? m->name : "cost";
  if (strcmp(s, "Memory") == 0) s = "Mem";  /* the name valgrind users know */
  for (; *s; s++) {
    char ch = *s;
    bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch >= '0' && ch <= '9') || ch == '_';
    scp_buf_putc(b, ok ? ch : '_');
  }
}

int scp_out_callgrind(const scp_profile *p, scp_buf *b) { return scp_out_callgrind_sh(p, NULL, b); }

int scp_out_callgrind_sh(const scp_profile *p, const scp_out_shared *sh, scp_buf *b) {
  int rc = SCP_ERR_NOMEM;
  cg_ctx c = {.p = p, .nm = p->nmetrics < SCP_MAX_METRICS ? p->nmetrics : SCP_MAX_METRICS};
  uint32_t *cost_ids = NULL, *call_ids = NULL;
  if (!p->nnodes) return SCP_ERR_ARG;
  for (unsigned m = 0; m < c.nm; m++) c.emit_root |= p->nodes[0].self[m] != 0;
  if (scp_out_tree(p, sh, &c.labels, &c.kids) || find_owners(&c) || collect(&c) || rank_frames(&c))
    goto fail;
  c.file_id = calloc(p->strs.n + 1, sizeof *c.file_id);
  c.fn_id = calloc(p->nframes + 1, sizeof *c.fn_id);
  cost_ids = malloc((c.ncosts + 1) * sizeof *cost_ids);
  call_ids = malloc((c.ncalls + 1) * sizeof *call_ids);
  if (!c.file_id || !c.fn_id || !cost_ids || !call_ids) goto fail;
  for (size_t i = 0; i < c.ncosts; i++) cost_ids[i] = (uint32_t)i;
  for (size_t i = 0; i < c.ncalls; i++) call_ids[i] = (uint32_t)i;
  if (scp_out_sort_ids(cost_ids, c.ncosts, cmp_cost, &c) ||
      scp_out_sort_ids(call_ids, c.ncalls, cmp_call, &c))
    goto fail;

  scp_buf_puts(b, "# callgrind format\nversion: 1\ncreator: scprof\n");
  const char *title = scp_prof_str(p, p->title);
  if (*title) {
    scp_buf_puts(b, "cmd: ");
    put_name(b, title);
    scp_buf_putc(b, '\n');
  }
  scp_buf_puts(b, "positions: line\n");
  for (unsigned m = 0; m < c.nm; m++) {
    const scp_metric *me = &p->metrics[m];
    scp_buf_puts(b, "event: ");
    put_event_name(b, me);
    scp_buf_puts(b, " : ");
    put_name(b, me->name && *me->name ? me->name : "cost");
    if (me->unit && *me->unit) {
      scp_buf_putc(b, ' ');
      put_name(b, me->unit);
    }
    scp_buf_putc(b, '\n');
  }
  scp_buf_puts(b, "events:");
  for (unsigned m = 0; m < c.nm; m++) {
    scp_buf_putc(b, ' ');
    put_event_name(b, &p->metrics[m]);
  }
  /* Viewers take the summary as 100%: it is the sum of all self costs. */
  scp_buf_puts(b, "\nsummary:");
  for (unsigned m = 0; m < c.nm; m++)
    scp_buf_printf(b, " %llu", (unsigned long long)scp_out_total(p, m));
  scp_buf_putc(b, '\n');

  size_t i = 0, j = 0;
  while (i < c.ncosts || j < c.ncalls) {
    /* next function: the smaller of the two lists' heads */
    uint32_t fn;
    if (j >= c.ncalls) fn = c.costs[cost_ids[i]].fn;
    else if (i >= c.ncosts) fn = c.calls[call_ids[j]].fn;
    else {
      uint32_t a = c.costs[cost_ids[i]].fn, d = c.calls[call_ids[j]].fn;
      fn = cmp_fn(&c, a, d) <= 0 ? a : d;
    }
    uint32_t fn_file = frame_file(p, fn), cur = fn_file;
    scp_buf_puts(b, "\nfl=");
    put_file(b, &c, fn_file);
    scp_buf_puts(b, "fn=");
    put_fn(b, &c, fn);
    while (i < c.ncosts && c.costs[cost_ids[i]].fn == fn) {
      cost_rec sum = c.costs[cost_ids[i++]];
      while (i < c.ncosts && cmp_cost(&c, cost_ids[i - 1], cost_ids[i]) == 0) {
        for (unsigned m = 0; m < c.nm; m++) sum.cost[m] += c.costs[cost_ids[i]].cost[m];
        i++;
      }
      switch_file(b, &c, fn_file, &cur, sum.file);
      put_costs(b, &c, sum.line, sum.cost);
    }
    while (j < c.ncalls && c.calls[call_ids[j]].fn == fn) {
      call_rec sum = c.calls[call_ids[j++]];
      while (j < c.ncalls && cmp_call(&c, call_ids[j - 1], call_ids[j]) == 0) {
        sum.calls += c.calls[call_ids[j]].calls;
        for (unsigned m = 0; m < c.nm; m++) sum.cost[m] += c.calls[call_ids[j]].cost[m];
        j++;
      }
      switch_file(b, &c, fn_file, &cur, sum.file);
      scp_buf_puts(b, "cfl=");  /* cfl= must come before cfn= */
      put_file(b, &c, frame_file(p, sum.callee));
      scp_buf_puts(b, "cfn=");
      put_fn(b, &c, sum.callee);
      /* calls=COUNT LINE, a line per call: in one append, without printf */
      char row[6 + 20 + 1 + 10 + 1], *o = SCP_OUT_LIT(row, "calls=");
      o = scp_out_dec(o, sum.calls);
      *o++ = ' ';
      o = scp_out_dec(o, sum.callee < p->nframes ? p->frames[sum.callee].decl_line : 0);
      *o++ = '\n';
      scp_buf_put(b, row, (size_t)(o - row));
      put_costs(b, &c, sum.line, sum.cost);
    }
  }
  rc = scp_out_done(b);
fail:
  free(cost_ids);
  free(call_ids);
  free(c.file_id);
  free(c.fn_id);
  free(c.rank);
  free(c.costs);
  free(c.calls);
  free(c.owner);
  scp_out_tree_done(p, sh, &c.labels, &c.kids);
  return rc;
}
