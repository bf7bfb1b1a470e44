/*
 * folded.c — folded stacks ("root;..;leaf COUNT"), the format flamegraph.pl,
 * inferno and speedscope read.  Every stack starts with the root frame
 * (the contract invoked), so a profile of several contracts or a diff of
 * two runs keeps its top level; the root's own cost is the stack of one.
 */
#include "output/out_private.h"

#include <stdlib.h>
#include <string.h>

typedef struct stack_line {
  const char *s;
  size_t len;
  uint64_t count;
} stack_line;

static int cmp_bytes(const char *a, size_t alen, const char *b, size_t blen) {
  int c = memcmp(a, b, alen < blen ? alen : blen);
  if (c) return c;
  return alen < blen ? -1 : alen > blen;
}

static int cmp_stack_line(const void *pa, const void *pb) {
  const stack_line *a = pa, *b = pb;
  return cmp_bytes(a->s, a->len, b->s, b->len);
}

/* ';' separates frames and '\n' lines: neither may appear inside a label.
 * ',' keeps "[u8; 32]" readable as "[u8, 32]". */
static void put_folded_label(scp_buf *b, const char *s) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    scp_buf_putc(b, c == ';' ? ',' : c < 0x20 || c == 0x7f ? ' ' : (char)c);
  }
}

typedef struct walk_item {
  uint32_t node;
  size_t prefix;  /* length of the parent's path in the path buffer */
} walk_item;

typedef struct raw_line {
  size_t off, len;
  uint64_t count;
} raw_line;

int scp_out_folded(const scp_profile *p, unsigned metric, scp_buf *b) {
  if (metric >= p->nmetrics || metric >= SCP_MAX_METRICS) return SCP_ERR_ARG;
  if (!p->nnodes) return SCP_OK;
  int rc = SCP_ERR_NOMEM;
  scp_out_labels l = {0};
  scp_out_kids k = {0};
  scp_buf path = {0}, stacks = {0}, text = {0};
  walk_item *todo = NULL;
  raw_line *raw = NULL;
  stack_line *lines = NULL;
  size_t nraw = 0, capraw = 0;

  if (scp_out_labels_build(p, &l) || scp_out_kids_build(p, &l, &k)) goto fail;
  todo = malloc(p->nnodes * sizeof *todo);
  if (!todo) goto fail;

  /* Pre-order walk; each stack is copied out when its node has self cost. */
  size_t ntodo = 0;
  put_folded_label(&path, scp_out_label_of(&l, p->nodes[0].frame));
  size_t root_len = path.len;
  if (p->nodes[0].self[metric]) {
    if (!scp_grow(&raw, &capraw, nraw + 1, sizeof *raw)) goto fail;
    raw[nraw] = (raw_line){stacks.len, 0, p->nodes[0].self[metric]};
    scp_buf_put(&stacks, path.data, root_len);
    raw[nraw].len = stacks.len - raw[nraw].off;
    nraw++;
  }
  for (uint32_t i = k.start[1]; i-- > k.start[0];) todo[ntodo++] = (walk_item){k.ids[i], root_len};
  while (ntodo) {
    walk_item w = todo[--ntodo];
    const scp_prof_node *n = &p->nodes[w.node];
    path.len = w.prefix;
    if (w.prefix) scp_buf_putc(&path, ';');
    put_folded_label(&path, scp_out_label_of(&l, n->frame));
    if (path.oom) goto fail;
    if (n->self[metric]) {
      if (!scp_grow(&raw, &capraw, nraw + 1, sizeof *raw)) goto fail;
      raw[nraw++] = (raw_line){stacks.len, path.len, n->self[metric]};
      scp_buf_put(&stacks, path.data, path.len);
    }
    /* Children pushed in reverse so they pop in display order (the order
     * does not matter for the output, which is sorted, but keeps walks alike). */
    for (uint32_t i = k.start[w.node + 1]; i-- > k.start[w.node];)
      todo[ntodo++] = (walk_item){k.ids[i], path.len};
  }
  if (stacks.oom) goto fail;

  /* Equal stacks (two nodes with the same labels) merge into one line. */
  lines = malloc((nraw ? nraw : 1) * sizeof *lines);
  if (!lines) goto fail;
  for (size_t i = 0; i < nraw; i++)
    lines[i] = (stack_line){stacks.data + raw[i].off, raw[i].len, raw[i].count};
  qsort(lines, nraw, sizeof *lines, cmp_stack_line);
  size_t nlines = 0;
  for (size_t i = 0; i < nraw; i++) {
    if (nlines && cmp_stack_line(&lines[nlines - 1], &lines[i]) == 0)
      lines[nlines - 1].count += lines[i].count;
    else
      lines[nlines++] = lines[i];
  }

  /* Sort the finished lines bytewise, count included, as `sort` would. */
  size_t *offs = malloc((nlines ? nlines : 1) * sizeof *offs);
  if (!offs) goto fail;
  for (size_t i = 0; i < nlines; i++) {
    offs[i] = text.len;
    scp_buf_put(&text, lines[i].s, lines[i].len);
    scp_buf_putc(&text, ' ');
    scp_out_put_u64(&text, lines[i].count);
    lines[i].len = text.len - offs[i];
  }
  if (text.oom) {
    free(offs);
    goto fail;
  }
  for (size_t i = 0; i < nlines; i++) lines[i].s = text.data + offs[i];
  free(offs);
  qsort(lines, nlines, sizeof *lines, cmp_stack_line);
  for (size_t i = 0; i < nlines; i++) {
    scp_buf_put(b, lines[i].s, lines[i].len);
    scp_buf_putc(b, '\n');
  }
  rc = scp_out_done(b);

fail:
  free(lines);
  free(raw);
  free(todo);
  scp_buf_free(&path);
  scp_buf_free(&stacks);
  scp_buf_free(&text);
  scp_out_kids_free(&k);
  scp_out_labels_free(&l);
  return rc;
}
