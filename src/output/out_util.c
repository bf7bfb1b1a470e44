/*
 * out_util.c — what every writer shares: frame labels, the label table,
 * children in display order, per-frame sums, number and location
 * formatting, JSON string escaping.  Calls no writer: the writers call it,
 * and out.c's format table calls the writers.
 */
#include "output/out_private.h"

#include <stdlib.h>
#include <string.h>

void scp_out_label(const scp_profile *p, uint32_t frame, scp_buf *b) {
  if (frame >= p->nframes) {
    scp_buf_puts(b, "[unknown]");
    return;
  }
  const scp_prof_frame *f = &p->frames[frame];
  const char *name = scp_prof_str(p, f->name);
  if (!*name) name = f->kind == SCP_KIND_ROOT ? "all" : "[unknown]";
  scp_buf_puts(b, name);
  /* Only guest code has a declaration worth showing; host/contract/vm
   * names are already unique and carry their prefix. */
  if ((f->kind == SCP_KIND_GUEST || f->kind == SCP_KIND_INLINED) &&
      f->file != 0 && f->decl_line != 0) {
    scp_buf_printf(b, " (%s:%u)", scp_prof_str(p, f->file), f->decl_line);
  }
  /* A guest name that did not come from DWARF says where it came from, so
   * nobody looks for source lines that cannot be there. */
  if (f->kind == SCP_KIND_GUEST || f->kind == SCP_KIND_INLINED) {
    static const char *const marks[] = {
      [SCP_SRC_NAMESEC] = " [name section]", [SCP_SRC_SYMTAB] = " [symtab]",
      [SCP_SRC_RAW] = " [no symbols]", [SCP_SRC_EXPORT] = " [export]"};
    if (f->source < SCP_ARRAY_LEN(marks) && marks[f->source]) scp_buf_puts(b, marks[f->source]);
  }
}

int scp_out_labels_build(const scp_profile *p, scp_out_labels *l) {
  memset(l, 0, sizeof *l);
  scp_buf text = {0};
  size_t *off = malloc((p->nframes + 1) * sizeof *off);
  if (!off) return SCP_ERR_NOMEM;
  for (size_t i = 0; i < p->nframes; i++) {
    off[i] = text.len;
    scp_out_label(p, (uint32_t)i, &text);
    scp_buf_putc(&text, '\0');
  }
  /* Pointers are taken only now: the buffer may have moved while growing. */
  l->label = malloc((p->nframes + 1) * sizeof *l->label);
  if (text.oom || !l->label) {
    free(off);
    free(l->label);
    scp_buf_free(&text);
    l->label = NULL;
    return SCP_ERR_NOMEM;
  }
  for (size_t i = 0; i < p->nframes; i++) l->label[i] = text.data + off[i];
  free(off);
  l->text = text.data;
  l->n = p->nframes;
  return SCP_OK;
}

void scp_out_labels_free(scp_out_labels *l) {
  free(l->text);
  free(l->label);
  memset(l, 0, sizeof *l);
}

/* Stable: an element moves left only past greater ones (insertion sort
 * below 9 elements, where it beats the merges; most siblings are few). */
static void merge_sort(uint32_t *v, uint32_t *tmp, size_t n, scp_out_cmp cmp,
                       void *ctx) {
  if (n < 9) {
    for (size_t i = 1; i < n; i++) {
      uint32_t x = v[i];
      size_t j = i;
      for (; j > 0 && cmp(ctx, x, v[j - 1]) < 0; j--) v[j] = v[j - 1];
      v[j] = x;
    }
    return;
  }
  size_t h = n / 2;
  merge_sort(v, tmp, h, cmp, ctx);
  merge_sort(v + h, tmp, n - h, cmp, ctx);
  size_t i = 0, j = h, o = 0;
  while (i < h && j < n) tmp[o++] = cmp(ctx, v[j], v[i]) < 0 ? v[j++] : v[i++];
  while (i < h) tmp[o++] = v[i++];
  while (j < n) tmp[o++] = v[j++];
  memcpy(v, tmp, n * sizeof *v);
}

int scp_out_sort_ids(uint32_t *ids, size_t n, scp_out_cmp cmp, void *ctx) {
  if (n < 2) return SCP_OK;
  uint32_t *tmp = malloc(n * sizeof *tmp);
  if (!tmp) return SCP_ERR_NOMEM;
  merge_sort(ids, tmp, n, cmp, ctx);
  free(tmp);
  return SCP_OK;
}

int scp_out_top_ids(uint32_t *ids, size_t *n, size_t k, scp_out_cmp cmp, void *ctx) {
  if (k > SCP_OUT_TOP_PICKED) {   /* a kept id may move k places: sort instead */
    int rc = scp_out_sort_ids(ids, *n, cmp, ctx);
    if (*n > k) *n = k;
    return rc;
  }
  size_t kept = 0;
  for (size_t i = 0; i < *n && k; i++) {
    uint32_t x = ids[i];
    /* an id equal to the last kept comes after it, as a stable sort has it */
    if (kept == k && cmp(ctx, ids[k - 1], x) <= 0) continue;
    size_t lo = 0, hi = kept;   /* the first kept that comes after x */
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (cmp(ctx, ids[mid], x) <= 0) lo = mid + 1;
      else hi = mid;
    }
    size_t end = kept < k ? kept : k - 1;   /* ids[lo..end) move up one */
    memmove(ids + lo + 1, ids + lo, (end - lo) * sizeof *ids);
    ids[lo] = x;
    if (kept < k) kept++;
  }
  *n = kept;
  return SCP_OK;
}

typedef struct kid_sort {
  const scp_profile *p;
  const scp_out_labels *l;
} kid_sort;

/* Display order of siblings: label, then kind, then node id. */
static int kid_cmp(void *ctx, uint32_t a, uint32_t b) {
  const kid_sort *s = ctx;
  const scp_prof_node *na = &s->p->nodes[a], *nb = &s->p->nodes[b];
  if (na->frame == nb->frame) return a < b ? -1 : a > b;   /* same label and kind */
  int c = strcmp(scp_out_label_of(s->l, na->frame), scp_out_label_of(s->l, nb->frame));
  if (c) return c;
  unsigned ka = na->frame < s->p->nframes ? s->p->frames[na->frame].kind : 0;
  unsigned kb = nb->frame < s->p->nframes ? s->p->frames[nb->frame].kind : 0;
  if (ka != kb) return ka < kb ? -1 : 1;
  return a < b ? -1 : a > b;
}

int scp_out_kids_build(const scp_profile *p, const scp_out_labels *l,
                       scp_out_kids *k) {
  size_t n = p->nnodes;
  k->start = calloc(n + 1, sizeof *k->start);
  k->ids = malloc((n ? n : 1) * sizeof *k->ids);
  uint32_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
  if (!k->start || !k->ids || !tmp) {
    free(tmp);
    scp_out_kids_free(k);
    return SCP_ERR_NOMEM;
  }
  /* Count children through the parent links (the sibling lists are the
   * builder's; the parent link is the one thing every node must have). */
  for (size_t i = 1; i < n; i++) {
    uint32_t par = p->nodes[i].parent;
    if (par < n) k->start[par + 1]++;
  }
  for (size_t i = 0; i < n; i++) k->start[i + 1] += k->start[i];
  uint32_t *fill = tmp;  /* reuse as per-node write cursor */
  for (size_t i = 0; i < n; i++) fill[i] = k->start[i];
  for (size_t i = 1; i < n; i++) {
    uint32_t par = p->nodes[i].parent;
    if (par < n) k->ids[fill[par]++] = (uint32_t)i;
  }
  /* tmp, free again, is the merges' room for every node's children */
  kid_sort s = {.p = p, .l = l};
  for (size_t i = 0; i < n; i++)
    merge_sort(k->ids + k->start[i], tmp, k->start[i + 1] - k->start[i], kid_cmp, &s);
  free(tmp);
  return SCP_OK;
}

void scp_out_kids_free(scp_out_kids *k) {
  free(k->start);
  free(k->ids);
  k->start = k->ids = NULL;
}

/* A recursive function's inclusive cost is counted only at its outermost
 * activation on each path: the inner ones are already inside it. */
scp_out_frame_agg *scp_out_frame_aggregate(const scp_profile *p, const scp_out_kids *k) {
  unsigned nm = p->nmetrics < SCP_MAX_METRICS ? p->nmetrics : SCP_MAX_METRICS;
  scp_out_frame_agg *agg = calloc(p->nframes ? p->nframes : 1, sizeof *agg);
  uint32_t *open = calloc(p->nframes ? p->nframes : 1, sizeof *open);
  uint32_t *todo = malloc((2 * p->nnodes + 1) * sizeof *todo);
  if (!agg || !open || !todo) {
    free(agg);
    free(open);
    free(todo);
    return NULL;
  }
  /* Explicit stack; an entry with the top bit set means "leaving node". */
  const uint32_t leave = 0x80000000u;
  size_t ntodo = 0;
  if (p->nnodes) todo[ntodo++] = 0;
  while (ntodo) {
    uint32_t e = todo[--ntodo];
    uint32_t id = e & ~leave;
    uint32_t f = p->nodes[id].frame;
    if (e & leave) {
      if (f < p->nframes) open[f]--;
      continue;
    }
    const scp_prof_node *n = &p->nodes[id];
    if (f < p->nframes) {
      scp_out_frame_agg *a = &agg[f];
      a->seen = true;
      a->calls += n->calls;
      for (unsigned m = 0; m < nm; m++) {
        a->self[m] += n->self[m];
        if (!open[f]) a->total[m] += n->total[m];
      }
      open[f]++;
    }
    todo[ntodo++] = id | leave;
    for (uint32_t i = k->start[id + 1]; i-- > k->start[id];)
      todo[ntodo++] = k->ids[i];
  }
  free(open);
  free(todo);
  return agg;
}

void scp_out_put_location(scp_buf *b, const char *file, uint32_t line) {
  scp_buf_puts(b, *file ? file : "?");
  if (line) scp_buf_printf(b, ":%u", line);
  else scp_buf_puts(b, " (no line)");
}

void scp_out_put_u64(scp_buf *b, uint64_t v) {
  char *o = scp_buf_room(b, 20);
  if (o) scp_buf_commit(b, scp_out_dec(o, v));
}

const char *scp_out_status_text(const scp_profile *p) {
  if (p->chain != SCP_CHAIN_SOLANA) return scp_strerror(p->status);
  switch (p->status) {
  case SCP_OK: return "success";
  case SCP_ERR_BUDGET: return "out of compute units";
  /* an instruction error; "host function error" names no Solana thing */
  case SCP_ERR_TRAP: case SCP_ERR_HOST: return "failed";
  default: return scp_strerror(p->status);
  }
}

void scp_out_put_ended(scp_buf *b, const scp_profile *p) {
  const char *msg = scp_prof_str(p, p->status_msg);
  bool said = p->chain == SCP_CHAIN_SOLANA && *msg;
  if (!said) scp_buf_puts(b, scp_out_status_text(p));
  if (*msg && !said) scp_buf_puts(b, ": ");
  scp_buf_puts(b, msg);
}

char *scp_out_fixed(char *o, double x, int prec) {
  size_t n = scp_fmt_fixed(o, x, prec);
  if (!n) n = (size_t)snprintf(o, SCP_OUT_FIXED_ROOM, "%.*f", prec, x);
  return o + n;
}

void scp_out_put_pct(scp_buf *b, uint64_t part, uint64_t whole) {
  if (!whole) {
    scp_buf_putc(b, '-');
    return;
  }
  char t[48], g[80];
  double pct = 100.0 * (double)part / (double)whole;
  int n = (int)scp_fmt_fixed(t, pct, 2);
  if (!n) n = snprintf(t, sizeof t, "%.2f", pct);
  /* the whole part grouped as every other number is (a limit overrun can
   * be 2,117,860.00%) */
  int whole_digits = n - 3, o = 0;
  for (int i = 0; i < n; i++) {
    if (i && i < whole_digits && (whole_digits - i) % 3 == 0) g[o++] = ',';
    g[o++] = t[i];
  }
  g[o++] = '%';
  scp_buf_put(b, g, (size_t)o);
}

size_t scp_out_utf8_len(const char *str) {
  const unsigned char *s = (const unsigned char *)str;
  size_t n;
  if (s[0] < 0x80) return 1;
  if (s[0] >= 0xc2 && s[0] <= 0xdf) n = 2;
  else if (s[0] >= 0xe0 && s[0] <= 0xef) n = 3;
  else if (s[0] >= 0xf0 && s[0] <= 0xf4) n = 4;
  else return 0;
  for (size_t i = 1; i < n; i++)  /* stops at the NUL: it is no continuation */
    if ((s[i] & 0xc0) != 0x80) return 0;
  if (n == 3 && s[0] == 0xe0 && s[1] < 0xa0) return 0;   /* overlong */
  if (n == 3 && s[0] == 0xed && s[1] >= 0xa0) return 0;  /* surrogate */
  if (n == 4 && s[0] == 0xf0 && s[1] < 0x90) return 0;   /* overlong */
  if (n == 4 && s[0] == 0xf4 && s[1] >= 0x90) return 0;  /* > U+10FFFF */
  return n;
}

/* a table rather than four comparisons a byte: report.json's instruction
 * texts are scanned byte by byte; printable ASCII but '"' (0x22) and '\\'
 * (0x5c) */
const unsigned char scp_out_json_plain_byte[256] = {
    [0x20 ... 0x21] = 1, [0x23 ... 0x5b] = 1, [0x5d ... 0x7e] = 1};

void scp_out_put_json_str(scp_buf *b, const char *s) {
  /* a short string with nothing to escape, quotes and all, in one append */
  char whole[128];
  size_t plain = scp_out_json_plain(s, sizeof whole - 2);
  if (!s[plain]) {
    whole[0] = '"';
    memcpy(whole + 1, s, plain);
    whole[plain + 1] = '"';
    scp_buf_put(b, whole, plain + 2);
    return;
  }
  scp_buf_putc(b, '"');
  while (*s) {
    /* a run of printable ASCII that needs no escape goes in one append */
    size_t run = scp_out_json_plain(s, SIZE_MAX);
    if (run) {
      scp_buf_put(b, s, run);
      s += run;
      continue;
    }
    unsigned char c = (unsigned char)*s;
    size_t n = scp_out_utf8_len(s);
    if (n == 0) {
      scp_buf_puts(b, "\xef\xbf\xbd");  /* U+FFFD */
      s++;
      continue;
    }
    if (c == '"' || c == '\\') {
      scp_buf_putc(b, '\\');
      scp_buf_putc(b, (char)c);
    } else if (c == '\n') {
      scp_buf_puts(b, "\\n");
    } else if (c == '\t') {
      scp_buf_puts(b, "\\t");
    } else if (c < 0x20 || c == 0x7f) {
      scp_buf_printf(b, "\\u%04x", c);
    } else {
      scp_buf_put(b, s, n);
    }
    s += n;
  }
  scp_buf_putc(b, '"');
}

size_t scp_out_node_path(const scp_profile *p, uint32_t node, uint32_t *path) {
  size_t depth = 0;
  for (uint32_t n = node; n != 0 && n < p->nnodes && depth < p->nnodes; n = p->nodes[n].parent)
    path[depth++] = n;
  for (size_t i = 0; i < depth / 2; i++) {  /* leaf first -> root first */
    uint32_t t = path[i];
    path[i] = path[depth - 1 - i];
    path[depth - 1 - i] = t;
  }
  return depth;
}
