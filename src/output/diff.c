/*
 * diff.c — comparing two profiles: the differential flamegraph (layout of
 * the newer profile, colour by change) and a text table of the largest
 * changes.  Nodes are matched by their label path from the root, functions
 * by label and lines by file:line, so the two profiles need not share ids.
 * A frame with an owner (a program's code) is matched within its owner's
 * id, and a program's own frame by its id and what it ran, so a program
 * its inputs name differently is still the same program.
 */
#include "output/out_private.h"

#include <stdlib.h>
#include <string.h>

/* The key frame f is matched by (above) into key. */
static void match_key(const scp_profile *p, const scp_out_labels *l, uint32_t f, scp_buf *key) {
  const scp_prof_frame *fr = f < p->nframes ? &p->frames[f] : NULL;
  if (!fr || !fr->owner_id) {
    scp_buf_puts(key, scp_out_label_of(l, f));
    return;
  }
  scp_buf_printf(key, "%s\x1e", scp_prof_str(p, fr->owner_id));
  if (fr->kind == SCP_KIND_CONTRACT) scp_buf_printf(key, "\x1e%s", scp_prof_str(p, fr->detail));
  else scp_buf_puts(key, scp_out_label_of(l, f));
}

/* What a row of the function tables shows: the label, and whose
 * function it is when it is a program's. */
static void shown_label(const scp_profile *p, const scp_out_labels *l, uint32_t f, scp_buf *b) {
  const scp_prof_frame *fr = &p->frames[f];
  if (fr->owner && fr->kind != SCP_KIND_CONTRACT) scp_buf_printf(b, "%s: ", scp_prof_str(p, fr->owner));
  scp_buf_puts(b, scp_out_label_of(l, f));
}

/* Gives every node of p a path key in `keys`: key(root) = "" and
 * key(n) = "<key id of parent>\x1f<label>", interned, so equal label paths
 * get equal ids in both profiles.  Returns NULL on OOM. */
static uint32_t *path_keys(const scp_profile *p, scp_strtab *keys) {
  scp_out_labels l = {0};
  scp_out_kids k = {0};
  uint32_t *key = malloc((p->nnodes ? p->nnodes : 1) * sizeof *key);
  uint32_t *todo = malloc((p->nnodes ? p->nnodes : 1) * sizeof *todo);
  scp_buf s = {0};
  bool ok = key && todo && !scp_out_labels_build(p, &l) && !scp_out_kids_build(p, &l, &k) &&
            scp_strtab_intern(keys, "") == 0;
  size_t ntodo = 0;
  if (ok && p->nnodes) {
    key[0] = 0;
    todo[ntodo++] = 0;
  }
  while (ok && ntodo) {
    uint32_t id = todo[--ntodo];
    for (uint32_t i = k.start[id]; i < k.start[id + 1]; i++) {
      uint32_t kid = k.ids[i];
      s.len = 0;
      scp_buf_printf(&s, "%u\x1f", key[id]);
      match_key(p, &l, p->nodes[kid].frame, &s);
      key[kid] = s.oom ? UINT32_MAX : scp_strtab_intern(keys, s.data);
      if (key[kid] == UINT32_MAX) ok = false;
      todo[ntodo++] = kid;
    }
  }
  scp_buf_free(&s);
  free(todo);
  scp_out_kids_free(&k);
  scp_out_labels_free(&l);
  if (!ok) {
    free(key);
    return NULL;
  }
  return key;
}

int scp_out_diff_svg(const scp_profile *before, const scp_profile *now,
                     const scp_svg_opts *o, scp_buf *b) {
  static const scp_svg_opts defaults = {0};
  if (!o) o = &defaults;
  if (o->metric >= before->nmetrics || o->metric >= now->nmetrics ||
      o->metric >= SCP_MAX_METRICS)
    return SCP_ERR_ARG;
  int rc = SCP_ERR_NOMEM;
  scp_strtab keys = {0};
  uint64_t *by_key = NULL, *was = NULL;
  uint32_t *kb = path_keys(before, &keys);
  size_t nbefore_keys = keys.n;
  uint32_t *kn = kb ? path_keys(now, &keys) : NULL;
  if (!kn) goto fail;
  by_key = calloc(nbefore_keys + 1, sizeof *by_key);
  was = calloc(now->nnodes + 1, sizeof *was);
  if (!by_key || !was) goto fail;
  for (size_t i = 0; i < before->nnodes; i++) by_key[kb[i]] += before->nodes[i].total[o->metric];
  for (size_t i = 0; i < now->nnodes; i++) was[i] = kn[i] < nbefore_keys ? by_key[kn[i]] : 0;
  rc = scp_out_svg_with(now, o, was, scp_out_total(before, o->metric), b);
fail:
  free(kb);
  free(kn);
  free(by_key);
  free(was);
  scp_strtab_free(&keys);
  return rc;
}

/* ---- the text diff ----------------------------------------------------- */

typedef struct diff_row {
  uint64_t before, now;
  uint32_t shown;        /* its text in shown: the newer profile's when both have it */
} diff_row;

/* Values keyed by a string (function label or file:line), both sides. */
typedef struct diff_set {
  scp_strtab keys, shown;
  diff_row *rows;
  size_t nrows, cap;     /* rows[0..nrows) initialised */
  bool oom;
} diff_set;

static void diff_add(diff_set *d, const char *key, const char *shown, bool is_now, uint64_t v) {
  uint32_t id = scp_strtab_intern(&d->keys, key), sh = scp_strtab_intern(&d->shown, shown);
  if (id == UINT32_MAX || sh == UINT32_MAX || !scp_grow(&d->rows, &d->cap, d->keys.n, sizeof *d->rows)) {
    d->oom = true;
    return;
  }
  while (d->nrows < d->keys.n) d->rows[d->nrows++] = (diff_row){.shown = sh};
  if (is_now) d->rows[id].shown = sh;
  if (is_now) d->rows[id].now += v;
  else d->rows[id].before += v;
}

static uint64_t change_of(const diff_row *r) {
  return r->now > r->before ? r->now - r->before : r->before - r->now;
}

static int cmp_change(void *ctx, uint32_t a, uint32_t b) {
  const diff_set *d = ctx;
  uint64_t ca = change_of(&d->rows[a]), cb = change_of(&d->rows[b]);
  if (ca != cb) return ca > cb ? -1 : 1;
  int c = strcmp(d->shown.strs[d->rows[a].shown], d->shown.strs[d->rows[b].shown]);
  return c ? c : strcmp(d->keys.strs[a], d->keys.strs[b]);
}

static void put_signed(scp_buf *b, uint64_t before, uint64_t now) {
  scp_buf_putc(b, now > before ? '+' : now < before ? '-' : ' ');
  scp_buf_put_grouped(b, now > before ? now - before : before - now);
}

static void put_signed_pct(scp_buf *b, uint64_t before, uint64_t now) {
  if (!before) {
    scp_buf_puts(b, now ? "new" : "-");
    return;
  }
  if (now != before) scp_buf_putc(b, now > before ? '+' : '-');
  scp_out_put_pct(b, now > before ? now - before : before - now, before);
}

/* Rows: before, now, change, change %, key; sorted by |change|, top n. */
static void diff_table(scp_buf *b, diff_set *d, const char *heading,
                       const char *key_title, unsigned top) {
  scp_buf_printf(b, "\n%s\n", heading);
  uint32_t *ids = malloc((d->keys.n ? d->keys.n : 1) * sizeof *ids);
  if (!ids) {
    b->oom = true;
    return;
  }
  size_t n = 0;
  for (uint32_t i = 1; i < d->keys.n && i < d->nrows; i++)
    if (change_of(&d->rows[i])) ids[n++] = i;
  if (scp_out_sort_ids(ids, n, cmp_change, d)) {
    free(ids);
    b->oom = true;
    return;
  }
  if (n > top) n = top;
  if (!n) {
    scp_buf_puts(b, "  (no change)\n");
    free(ids);
    return;
  }
  /* Cells formatted first so the columns can be aligned. */
  scp_buf cells = {0};
  size_t *off = malloc((n + 1) * 5 * sizeof *off);
  if (!off) {
    free(ids);
    b->oom = true;
    return;
  }
  const char *titles[5] = {"before", "now", "change", "%", key_title};
  for (size_t r = 0; r <= n; r++) {
    for (int c = 0; c < 5; c++) {
      off[r * 5 + c] = cells.len;
      if (r == 0) {
        scp_buf_puts(&cells, titles[c]);
      } else {
        const diff_row *row = &d->rows[ids[r - 1]];
        switch (c) {
        case 0: scp_buf_put_grouped(&cells, row->before); break;
        case 1: scp_buf_put_grouped(&cells, row->now); break;
        case 2: put_signed(&cells, row->before, row->now); break;
        case 3: put_signed_pct(&cells, row->before, row->now); break;
        default: scp_buf_puts(&cells, d->shown.strs[row->shown]); break;
        }
      }
      scp_buf_putc(&cells, '\0');
    }
  }
  if (cells.oom) {
    b->oom = true;
  } else {
    size_t width[5] = {0};
    for (size_t i = 0; i < (n + 1) * 5; i++) {
      size_t w = strlen(cells.data + off[i]);
      if (w > width[i % 5]) width[i % 5] = w;
    }
    for (size_t r = 0; r <= n; r++) {
      scp_buf_puts(b, "  ");
      for (int c = 0; c < 5; c++) {
        const char *s = cells.data + off[r * 5 + c];
        if (c < 4) {
          for (size_t w = strlen(s); w < width[c]; w++) scp_buf_putc(b, ' ');
          scp_buf_puts(b, s);
          scp_buf_puts(b, "  ");
        } else {
          scp_buf_puts(b, s);
        }
      }
      scp_buf_putc(b, '\n');
    }
  }
  scp_buf_free(&cells);
  free(off);
  free(ids);
}

static void diff_set_free(diff_set *d) {
  scp_strtab_free(&d->keys);
  scp_strtab_free(&d->shown);
  free(d->rows);
}

/* Adds one profile's functions (self or total) and lines to the sets. */
static int add_profile(const scp_profile *p, unsigned metric, bool is_now,
                       diff_set *self, diff_set *total, diff_set *lines) {
  scp_out_labels l = {0};
  scp_out_kids k = {0};
  scp_out_frame_agg *agg = NULL;
  scp_buf key = {0};
  int rc = SCP_ERR_NOMEM;
  if (scp_out_labels_build(p, &l) || scp_out_kids_build(p, &l, &k) ||
      !(agg = scp_out_frame_aggregate(p, &k)))
    goto fail;
  for (uint32_t f = 0; f < p->nframes; f++) {
    if (!agg[f].seen || p->frames[f].kind == SCP_KIND_ROOT) continue;
    key.len = 0;
    match_key(p, &l, f, &key);
    scp_buf_putc(&key, '\0');
    size_t at = key.len;
    shown_label(p, &l, f, &key);
    if (key.oom) goto fail;
    diff_add(self, key.data, key.data + at, is_now, agg[f].self[metric]);
    diff_add(total, key.data, key.data + at, is_now, agg[f].total[metric]);
  }
  for (size_t i = 0; i < p->nlines; i++) {
    const scp_prof_line *ln = &p->lines[i];
    /* line 0 is compiler-generated code: it stays with its function and,
     * as in the report, is not ranked as a source line */
    if (!ln->line) continue;
    key.len = 0;
    scp_out_put_location(&key, scp_prof_str(p, ln->file), ln->line);
    if (key.oom) goto fail;
    diff_add(lines, key.data, key.data, is_now, ln->cost[metric]);
  }
  rc = self->oom || total->oom || lines->oom ? SCP_ERR_NOMEM : SCP_OK;
fail:
  scp_buf_free(&key);
  free(agg);
  scp_out_kids_free(&k);
  scp_out_labels_free(&l);
  return rc;
}

int scp_out_diff_report(const scp_profile *before, const scp_profile *now,
                        const scp_report_opts *o, scp_buf *b) {
  static const scp_report_opts defaults = {0};
  if (!o) o = &defaults;
  unsigned metric = o->metric, top = o->top ? o->top : 20;
  if (metric >= before->nmetrics || metric >= now->nmetrics || metric >= SCP_MAX_METRICS)
    return SCP_ERR_ARG;
  diff_set self = {0}, total = {0}, lines = {0};
  int rc = SCP_ERR_NOMEM;
  /* id 0 of every set is "" and stays unused */
  if (scp_strtab_intern(&self.keys, "") || scp_strtab_intern(&total.keys, "") ||
      scp_strtab_intern(&lines.keys, ""))
    goto fail;
  if (add_profile(before, metric, false, &self, &total, &lines) ||
      add_profile(now, metric, true, &self, &total, &lines))
    goto fail;

  const char *mname = now->metrics[metric].name ? now->metrics[metric].name : "cost";
  const char *before_title = scp_prof_str(before, before->title);
  const char *now_title = scp_prof_str(now, now->title);
  scp_buf_printf(b, "scprof diff\n  before  %s\n  now     %s\n",
                 *before_title ? before_title : "-", *now_title ? now_title : "-");
  scp_buf_puts(b, "\nTotals\n");
  /* Totals: one row per metric, unsorted (metric order). */
  unsigned nm = now->nmetrics < before->nmetrics ? now->nmetrics : before->nmetrics;
  if (nm > SCP_MAX_METRICS) nm = SCP_MAX_METRICS;
  size_t wname = strlen("metric"), wb = strlen("before"), wn = strlen("now"), wc = strlen("change");
  scp_buf cells = {0};
  size_t off[SCP_MAX_METRICS][4];
  for (unsigned m = 0; m < nm; m++) {
    uint64_t x = scp_out_total(before, m), y = scp_out_total(now, m);
    off[m][0] = cells.len;
    scp_buf_puts(&cells, now->metrics[m].name ? now->metrics[m].name : "cost");
    scp_buf_putc(&cells, '\0');
    off[m][1] = cells.len;
    scp_buf_put_grouped(&cells, x);
    scp_buf_putc(&cells, '\0');
    off[m][2] = cells.len;
    scp_buf_put_grouped(&cells, y);
    scp_buf_putc(&cells, '\0');
    off[m][3] = cells.len;
    put_signed(&cells, x, y);
    scp_buf_putc(&cells, '\0');
  }
  if (cells.oom) {
    scp_buf_free(&cells);
    goto fail;
  }
  for (unsigned m = 0; m < nm; m++) {
    size_t w[4] = {strlen(cells.data + off[m][0]), strlen(cells.data + off[m][1]),
                   strlen(cells.data + off[m][2]), strlen(cells.data + off[m][3])};
    if (w[0] > wname) wname = w[0];
    if (w[1] > wb) wb = w[1];
    if (w[2] > wn) wn = w[2];
    if (w[3] > wc) wc = w[3];
  }
  scp_buf_printf(b, "  %-*s  %*s  %*s  %*s  %%\n", (int)wname, "metric", (int)wb, "before",
                 (int)wn, "now", (int)wc, "change");
  for (unsigned m = 0; m < nm; m++) {
    scp_buf_printf(b, "  %-*s  %*s  %*s  %*s  ", (int)wname, cells.data + off[m][0], (int)wb,
                   cells.data + off[m][1], (int)wn, cells.data + off[m][2], (int)wc,
                   cells.data + off[m][3]);
    put_signed_pct(b, scp_out_total(before, m), scp_out_total(now, m));
    scp_buf_putc(b, '\n');
  }
  scp_buf_free(&cells);

  scp_buf heading = {0};
  scp_buf_printf(&heading, "Largest changes by function, self %s", mname);
  if (!heading.oom) diff_table(b, &self, heading.data, "function", top);
  heading.len = 0;
  scp_buf_printf(&heading, "Largest changes by function, total %s", mname);
  if (!heading.oom) diff_table(b, &total, heading.data, "function", top);
  heading.len = 0;
  scp_buf_printf(&heading, "Largest changes by source line, %s", mname);
  if (!heading.oom) diff_table(b, &lines, heading.data, "line", top);
  if (heading.oom) b->oom = true;
  scp_buf_free(&heading);
  rc = scp_out_done(b);
fail:
  diff_set_free(&self);
  diff_set_free(&total);
  diff_set_free(&lines);
  return rc;
}
