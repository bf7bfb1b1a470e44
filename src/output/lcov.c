/*
 * lcov.c — coverage in lcov's tracefile format (geninfo(1) "FILES"), so
 * genhtml renders it and CI services read it: per source file the
 * functions that ran (FN/FNDA: declaration line, calls) and the lines
 * (DA: line, count).  A line's count is what of metric 0 ran there:
 * its cost less the part charged ahead for code that did not run, so a
 * line only charged ahead shows as not run.  Only lines the profile has
 * appear (lines that cost nothing are not in a profile); `scprof size
 * --profile` knows every line of the binary.
 */
#include "output/out_private.h"

#include <stdlib.h>
#include <string.h>

typedef struct lc_row {
  uint32_t file, line, name;   /* ids in the accumulator's strtab; name 0: a line row */
  uint64_t count;
} lc_row;

struct scp_lcov {
  scp_strtab strs;
  lc_row *v;
  size_t n, cap;
};

static int cmp_row(const void *a, const void *b, void *ctx) {
  const scp_strtab *t = ctx;
  const lc_row *x = a, *y = b;
  int c = strcmp(scp_strtab_get(t, x->file), scp_strtab_get(t, y->file));
  if (c) return c;
  if ((x->name != 0) != (y->name != 0)) return x->name ? -1 : 1;  /* functions first */
  if (x->name && (c = strcmp(scp_strtab_get(t, x->name), scp_strtab_get(t, y->name)))) return c;
  return x->line < y->line ? -1 : x->line > y->line;
}

static bool add(scp_lcov *c, const scp_profile *p, uint32_t file, uint32_t line, uint32_t name,
                uint64_t count) {
  const char *f = scp_prof_str(p, file), *nm = scp_prof_str(p, name);
  lc_row r = {.file = scp_strtab_intern(&c->strs, f), .line = line, .name = name ? scp_strtab_intern(&c->strs, nm) : 0,
              .count = count};
  if (r.file == UINT32_MAX || r.name == UINT32_MAX ||
      !scp_grow(&c->v, &c->cap, c->n + 1, sizeof *c->v))
    return false;
  c->v[c->n++] = r;
  return true;
}

int scp_lcov_new(scp_lcov **out) {
  *out = calloc(1, sizeof **out);
  return *out ? SCP_OK : SCP_ERR_NOMEM;
}

void scp_lcov_free(scp_lcov *c) {
  if (!c) return;
  scp_strtab_free(&c->strs);
  free(c->v);
  free(c);
}

/* Rows of every guest function with a declaration and every source line
 * of p; write() sorts and merges them. */
int scp_lcov_add(scp_lcov *c, const scp_profile *p) {
  for (size_t i = 0; i < p->nnodes; i++) {
    const scp_prof_node *n = &p->nodes[i];
    const scp_prof_frame *f = &p->frames[n->frame];
    if (f->kind == SCP_KIND_GUEST && f->decl_line && *scp_prof_str(p, f->file) &&
        !add(c, p, f->file, f->decl_line, f->name, n->calls))
      return SCP_ERR_NOMEM;
    for (uint32_t k = 0; k < n->nlines; k++) {
      const scp_prof_line *l = &p->lines[n->lines_first + k];
      if (l->line && *scp_prof_str(p, l->file) &&
          !add(c, p, l->file, l->line, 0, l->cost[0] - l->ahead))
        return SCP_ERR_NOMEM;
    }
  }
  return SCP_OK;
}

/* One per (file, function) and per (file, line), sorted. */
static size_t merge(scp_lcov *c) {
  if (c->n) qsort_r(c->v, c->n, sizeof *c->v, cmp_row, &c->strs);   /* no rows: v may be NULL */
  size_t out = 0;
  for (size_t i = 0; i < c->n; i++) {
    lc_row *last = out ? &c->v[out - 1] : NULL;
    if (last && last->file == c->v[i].file && last->name == c->v[i].name &&
        (last->name || last->line == c->v[i].line)) {
      last->count += c->v[i].count;
      continue;
    }
    c->v[out++] = c->v[i];
  }
  return c->n = out;
}

static void put_file(const scp_lcov *c, size_t from, size_t to, scp_buf *b) {
  const char *file = scp_strtab_get(&c->strs, c->v[from].file);
  size_t fnf = 0, fnh = 0, lf = 0, lh = 0;
  scp_buf_puts(b, "TN:\nSF:");
  scp_buf_put_safe(b, file, strlen(file));
  scp_buf_putc(b, '\n');
  for (size_t i = from; i < to && c->v[i].name; i++) {
    const char *name = scp_strtab_get(&c->strs, c->v[i].name);
    scp_buf_printf(b, "FN:%u,", c->v[i].line);
    scp_buf_put_safe(b, name, strlen(name));
    scp_buf_putc(b, '\n');
  }
  for (size_t i = from; i < to && c->v[i].name; i++) {
    const char *name = scp_strtab_get(&c->strs, c->v[i].name);
    scp_buf_printf(b, "FNDA:%llu,", (unsigned long long)c->v[i].count);
    scp_buf_put_safe(b, name, strlen(name));
    scp_buf_putc(b, '\n');
    fnf++;
    fnh += c->v[i].count != 0;
  }
  scp_buf_printf(b, "FNF:%zu\nFNH:%zu\n", fnf, fnh);
  for (size_t i = from; i < to; i++) {
    if (c->v[i].name) continue;
    scp_buf_printf(b, "DA:%u,%llu\n", c->v[i].line, (unsigned long long)c->v[i].count);
    lf++;
    lh += c->v[i].count != 0;
  }
  scp_buf_printf(b, "LF:%zu\nLH:%zu\nend_of_record\n", lf, lh);
}

int scp_lcov_write(scp_lcov *c, scp_buf *b) {
  merge(c);
  for (size_t i = 0; i < c->n;) {
    size_t j = i;
    while (j < c->n && c->v[j].file == c->v[i].file) j++;
    put_file(c, i, j, b);
    i = j;
  }
  if (b->oom) return SCP_ERR_NOMEM;
  return b->io_err ? SCP_ERR_IO : SCP_OK;
}

int scp_out_lcov(const scp_profile *p, scp_buf *b) {
  if (!p || !p->nnodes) return SCP_ERR_ARG;
  scp_lcov *c;
  int rc = scp_lcov_new(&c);
  if (!rc) rc = scp_lcov_add(c, p);
  if (!rc) rc = scp_lcov_write(c, b);
  scp_lcov_free(c);
  return rc;
}
