/*
 * folded.c — folded stacks ("root;..;leaf COUNT"), the format flamegraph.pl,
 * inferno and speedscope read.  Every stack starts with the root frame
 * (the contract invoked), so a profile of several contracts or a diff of
 * two runs keeps its top level; the root's own cost is the stack of one.
 *
 * The file can be far larger than the tree (a deep tree repeats every
 * ancestor on every line), so lines are written as the tree is walked and
 * never held: memory is a few ids per node plus the current stack's text.
 * One stack is one line, so siblings whose folded labels are equal (two
 * call sites of one function, two names that fold to the same text) are
 * walked as one group: its count is the sum of theirs and its children are
 * all of theirs, grouped again the same way.  Groups go in bytewise order
 * of their labels, each group's own line before its callees', so lines are
 * sorted by their sequence of frame labels.  That is the bytewise order of
 * whole lines (what `sort` gives) except where one sibling's label is a
 * prefix of another's: bytewise, "f (x.c:1) 3" would sort among "f 5" and
 * "f;g 2" (its ' ' and '(' against " 5" and ";g"), while here "f" with its
 * callees comes whole before "f (x.c:1)" — a group's lines must be
 * contiguous for the file to be written in one pass.
 */
#include "output/out_private.h"

#include <stdlib.h>
#include <string.h>

/* ';' separates frames and '\n' lines: neither may appear inside a label.
 * ',' keeps "[u8; 32]" readable as "[u8, 32]". */
static void put_folded_label(scp_buf *b, const char *s) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    scp_buf_putc(b, c == ';' ? ',' : c < 0x20 || c == 0x7f ? ' ' : (char)c);
  }
}

/* Folded label of every frame, and of node ids through their frame. */
typedef struct folded_labels {
  const scp_profile *p;
  char *text;            /* all labels, NUL-separated */
  size_t *off;           /* nframes + 1 entries: the last is "[unknown]" */
} folded_labels;

static const char *label_of_node(const folded_labels *fl, uint32_t node) {
  uint32_t f = fl->p->nodes[node].frame;
  return fl->text + fl->off[f < fl->p->nframes ? f : fl->p->nframes];
}

static int cmp_by_label(void *ctx, uint32_t a, uint32_t b) {
  return strcmp(label_of_node(ctx, a), label_of_node(ctx, b));
}

/* From the display labels l, already built for the children's order. */
static int folded_labels_build(const scp_profile *p, const scp_out_labels *l, folded_labels *fl) {
  scp_buf text = {0};
  fl->p = p;
  fl->off = malloc((p->nframes + 1) * sizeof *fl->off);
  if (!fl->off) return SCP_ERR_NOMEM;
  for (size_t f = 0; f <= p->nframes; f++) {
    fl->off[f] = text.len;
    put_folded_label(&text, f < p->nframes ? scp_out_label_of(l, (uint32_t)f) : "[unknown]");
    scp_buf_putc(&text, '\0');
  }
  if (text.oom) {
    scp_buf_free(&text);
    free(fl->off);
    fl->off = NULL;
    return SCP_ERR_NOMEM;
  }
  fl->text = text.data;
  return SCP_OK;
}

/* The children of one group, sorted by label, in ids[lo..hi); the groups
 * before `next` are done.  plen: the group's stack text length. */
typedef struct level {
  size_t lo, hi, next, plen;
} level;

typedef struct walk {
  const scp_profile *p;
  unsigned metric;
  scp_out_kids k;
  folded_labels fl;
  uint32_t *ids;         /* the groups on the stack and their children */
  size_t top;            /* ids in use */
  level *lv;             /* one per group on the stack */
  size_t nlv, caplv;
  scp_buf path;          /* the current stack's text */
  scp_buf *b;
} walk;

/* The group ids[lo..hi) (one label, its stack in w->path): writes its
 * line, then lays out its children at w->top, sorted, and opens a level
 * over them.  False on OOM. */
static bool open_group(walk *w, size_t lo, size_t hi) {
  if (w->path.oom) return false;
  uint64_t self = 0;
  size_t at = w->top;
  for (size_t i = lo; i < hi; i++) {
    uint32_t n = w->ids[i];
    self += w->p->nodes[n].self[w->metric];
    /* every node is the child of one node, so the groups on the stack and
     * their children never need more than nnodes ids */
    for (uint32_t c = w->k.start[n]; c < w->k.start[n + 1]; c++) w->ids[at++] = w->k.ids[c];
  }
  if (self) {
    scp_buf_put(w->b, w->path.data, w->path.len);
    scp_buf_putc(w->b, ' ');
    scp_out_put_u64(w->b, self);
    scp_buf_putc(w->b, '\n');
  }
  if (at == w->top) return true;
  if (scp_out_sort_ids(w->ids + w->top, at - w->top, cmp_by_label, &w->fl)) return false;
  if (!scp_grow(&w->lv, &w->caplv, w->nlv + 1, sizeof *w->lv)) return false;
  w->lv[w->nlv++] = (level){.lo = w->top, .hi = at, .next = w->top, .plen = w->path.len};
  w->top = at;
  return true;
}

/* Depth first, one level per group on the current stack. */
static bool walk_groups(walk *w) {
  w->ids[0] = 0;
  w->top = 1;
  scp_buf_puts(&w->path, label_of_node(&w->fl, 0));
  if (!open_group(w, 0, 1)) return false;
  while (w->nlv && !w->b->oom && !w->b->io_err) {
    level *v = &w->lv[w->nlv - 1];
    if (v->next == v->hi) {
      w->top = v->lo;
      w->nlv--;
      continue;
    }
    size_t lo = v->next, hi = lo + 1;
    const char *name = label_of_node(&w->fl, w->ids[lo]);
    while (hi < v->hi && strcmp(label_of_node(&w->fl, w->ids[hi]), name) == 0) hi++;
    v->next = hi;
    w->path.len = v->plen;
    scp_buf_putc(&w->path, ';');
    scp_buf_puts(&w->path, name);
    if (!open_group(w, lo, hi)) return false;
  }
  return true;
}

int scp_out_folded(const scp_profile *p, unsigned metric, scp_buf *b) {
  return scp_out_folded_sh(p, metric, NULL, b);
}

int scp_out_folded_sh(const scp_profile *p, unsigned metric, const scp_out_shared *sh, scp_buf *b) {
  if (metric >= p->nmetrics || metric >= SCP_MAX_METRICS) return SCP_ERR_ARG;
  if (!p->nnodes) return SCP_OK;
  int rc = SCP_ERR_NOMEM;
  scp_out_labels l = {0};
  walk w = {.p = p, .metric = metric, .b = b};
  if (scp_out_tree(p, sh, &l, &w.k) || folded_labels_build(p, &l, &w.fl)) goto fail;
  if (!(w.ids = malloc(p->nnodes * sizeof *w.ids))) goto fail;
  if (walk_groups(&w)) rc = scp_out_done(b);
fail:
  free(w.ids);
  free(w.lv);
  free(w.fl.text);
  free(w.fl.off);
  scp_buf_free(&w.path);
  scp_out_tree_done(p, sh, &l, &w.k);
  return rc;
}
