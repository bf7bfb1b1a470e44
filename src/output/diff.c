/*
 * diff.c — comparing two profiles: the differential flamegraph (layout of
 * the newer profile, colour by change) and a text table of the largest
 * changes.  Nodes are matched by the path of their frames from the root,
 * frames as diff_match.c matches them (functions by name, else by body
 * hash, so two builds of a contract compare function by function; a
 * program's frames within its program's id), lines by file:line; the two
 * profiles need not share ids.
 */
#include "output/out_private.h"

#include <stdlib.h>
#include <string.h>

/* Gives every node of p (side of m) a path key in `keys`: key(root) = ""
 * and key(n) = "<key id of parent>\x1f<frame's match key>", interned, so
 * equal frame paths get equal ids in both profiles.  Returns NULL on OOM. */
static uint32_t *path_keys(const scp_profile *p, const scp_out_match *m, unsigned side,
                           scp_strtab *keys) {
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
      uint32_t f = p->nodes[kid].frame;
      scp_buf_printf(&s, "%u\x1f%u", key[id], f < p->nframes ? m->key[side][f] : 0);
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
  scp_out_match m;
  uint64_t *by_key = NULL, *was = NULL;
  uint32_t *kb = NULL, *kn = NULL;
  if (scp_out_match_build(before, now, &m)) return rc;
  kb = path_keys(before, &m, 0, &keys);
  size_t nbefore_keys = keys.n;
  kn = kb ? path_keys(now, &m, 1, &keys) : NULL;
  if (!kn) goto fail;
  by_key = calloc(nbefore_keys + 1, sizeof *by_key);
  was = calloc(now->nnodes + 1, sizeof *was);
  if (!by_key || !was) goto fail;
  for (size_t i = 0; i < before->nnodes; i++) by_key[kb[i]] += before->nodes[i].total[o->metric];
  for (size_t i = 0; i < now->nnodes; i++) was[i] = kn[i] < nbefore_keys ? by_key[kn[i]] : 0;
  rc = scp_out_svg_with(now, o, was, scp_out_total(before, o->metric), NULL, b);
fail:
  free(kb);
  free(kn);
  free(by_key);
  free(was);
  scp_strtab_free(&keys);
  scp_out_match_free(&m);
  return rc;
}

/* ---- the text diff ----------------------------------------------------- */

typedef struct diff_row {
  uint64_t before, now;
  uint8_t seen;          /* bit 0: in before, bit 1: in now */
} diff_row;

/* Values keyed by a string (function label or file:line), both sides. */
typedef struct diff_set {
  scp_strtab keys;
  diff_row *rows;
  size_t nrows, cap;     /* rows[0..nrows) initialised */
  bool oom;
} diff_set;

static void diff_add(diff_set *d, const char *key, bool is_now, uint64_t v) {
  uint32_t id = scp_strtab_intern(&d->keys, key);
  if (id == UINT32_MAX || !scp_grow(&d->rows, &d->cap, d->keys.n, sizeof *d->rows)) {
    d->oom = true;
    return;
  }
  while (d->nrows < d->keys.n) d->rows[d->nrows++] = (diff_row){.before = 0, .now = 0};
  if (is_now) d->rows[id].now += v;
  else d->rows[id].before += v;
  d->rows[id].seen |= is_now ? 2 : 1;
}

static uint64_t change_of(const diff_row *r) {
  return r->now > r->before ? r->now - r->before : r->before - r->now;
}

static int cmp_change(void *ctx, uint32_t a, uint32_t b) {
  const diff_set *d = ctx;
  uint64_t ca = change_of(&d->rows[a]), cb = change_of(&d->rows[b]);
  if (ca != cb) return ca > cb ? -1 : 1;
  return strcmp(d->keys.strs[a], d->keys.strs[b]);
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
        case 3:
          /* only one build has it: not a change of the same thing */
          if (row->seen == 1) scp_buf_puts(&cells, "gone");
          else if (row->seen == 2) scp_buf_puts(&cells, "new");
          else put_signed_pct(&cells, row->before, row->now);
          break;
        default: scp_buf_puts(&cells, d->keys.strs[ids[r - 1]]); break;
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
  free(d->rows);
}

/* Adds one profile's functions (self or total), named as m shows them, and
 * lines to the sets. */
/* What a row of the function tables shows: the label the match gives the
 * frame and, for a program's function, whose it is ("token: entrypoint"),
 * so two programs' functions of the same name are two rows. */
static void shown_label(const scp_profile *p, const scp_out_match *m, unsigned side, uint32_t f,
                        scp_buf *b) {
  /* a frame both sides have shows as the newer profile names it */
  uint32_t g = m->now_frame[m->key[side][f]];
  if (g != UINT32_MAX) p = m->side[1];
  const scp_prof_frame *fr = &p->frames[g != UINT32_MAX ? g : f];
  if (fr->owner && fr->kind != SCP_KIND_CONTRACT) scp_buf_printf(b, "%s: ", scp_prof_str(p, fr->owner));
  scp_buf_puts(b, scp_out_match_label(m, side, f));
}

static int add_profile(const scp_profile *p, const scp_out_match *m, unsigned metric, bool is_now,
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
    shown_label(p, m, is_now, f, &key);
    if (key.oom) goto fail;
    diff_add(self, key.data, is_now, agg[f].self[metric]);
    diff_add(total, key.data, is_now, agg[f].total[metric]);
  }
  for (size_t i = 0; i < p->nlines; i++) {
    const scp_prof_line *ln = &p->lines[i];
    /* line 0 is compiler-generated code: it stays with its function and,
     * as in the report, is not ranked as a source line */
    if (!ln->line) continue;
    key.len = 0;
    scp_out_put_location(&key, scp_prof_str(p, ln->file), ln->line);
    if (key.oom) goto fail;
    diff_add(lines, key.data, is_now, ln->cost[metric]);
  }
  rc = self->oom || total->oom || lines->oom ? SCP_ERR_NOMEM : SCP_OK;
fail:
  scp_buf_free(&key);
  free(agg);
  scp_out_kids_free(&k);
  scp_out_labels_free(&l);
  return rc;
}

static const char *meta_of(const scp_profile *p, const char *key) {
  for (size_t i = 0; i < p->nmeta; i++)
    if (!strcmp(scp_prof_str(p, p->meta[i].key), key)) return scp_prof_str(p, p->meta[i].value);
  return NULL;
}

/* Two builds: a warning when the profiles ran different Wasm files, and
 * how their functions were paired; the functions only one side has are
 * listed by name in the tables below ("new", "gone"). */
static void put_builds(scp_buf *b, const scp_profile *before, const scp_profile *now,
                       const scp_out_match *m) {
  const char *hb = meta_of(before, "wasm sha256"), *hn = meta_of(now, "wasm sha256");
  if (hb && hn && strcmp(hb, hn))
    scp_buf_printf(b, "  warning  different Wasm files (sha256 %.12s... before, %.12s... now): "
                   "functions are matched by name, else by body hash\n", hb, hn);
  if (!m->matched && !m->only[0] && !m->only[1]) return;
  scp_buf_puts(b, "  functions  ");
  scp_buf_put_grouped(b, m->matched);
  scp_buf_puts(b, " matched");
  if (m->by_body) {
    scp_buf_puts(b, " (");
    scp_buf_put_grouped(b, m->by_body);
    scp_buf_puts(b, " by body hash)");
  }
  scp_buf_puts(b, ", ");
  scp_buf_put_grouped(b, m->only[0]);
  scp_buf_puts(b, " only before, ");
  scp_buf_put_grouped(b, m->only[1]);
  scp_buf_puts(b, " only now\n");
}

int scp_out_diff_report(const scp_profile *before, const scp_profile *now,
                        const scp_report_opts *o, scp_buf *b) {
  static const scp_report_opts defaults = {0};
  if (!o) o = &defaults;
  unsigned metric = o->metric, top = o->top ? o->top : 20;
  if (metric >= before->nmetrics || metric >= now->nmetrics || metric >= SCP_MAX_METRICS)
    return SCP_ERR_ARG;
  diff_set self = {0}, total = {0}, lines = {0};
  scp_out_match match;
  if (scp_out_match_build(before, now, &match)) return SCP_ERR_NOMEM;
  int rc = SCP_ERR_NOMEM;
  /* id 0 of every set is "" and stays unused */
  if (scp_strtab_intern(&self.keys, "") || scp_strtab_intern(&total.keys, "") ||
      scp_strtab_intern(&lines.keys, ""))
    goto fail;
  if (add_profile(before, &match, metric, false, &self, &total, &lines) ||
      add_profile(now, &match, metric, true, &self, &total, &lines))
    goto fail;

  const char *mname = now->metrics[metric].name ? now->metrics[metric].name : "cost";
  const char *before_title = scp_prof_str(before, before->title);
  const char *now_title = scp_prof_str(now, now->title);
  scp_buf_printf(b, "scprof diff\n  before  %s\n  now     %s\n",
                 *before_title ? before_title : "-", *now_title ? now_title : "-");
  put_builds(b, before, now, &match);
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
  scp_out_match_free(&match);
  return rc;
}
