/*
 * scp_prof_rows.c — a built profile's instruction rows put in their
 * final order (scp_prof_rows_lay_out in scp_prof_private.h).
 *
 * A program's profile has thousands of rows of 88 bytes, most already in
 * pc order within their node: the order is worked out on row numbers and
 * keys, and each row is copied once, into its place, merged there with
 * the rows of its node and pc before it.
 */
#include "profile/scp_prof_private.h"

#include <stdlib.h>
#include <string.h>

/* pc's text id when the memo has no answer for this build yet */
static int text_id_missed(scp_profile *p, const scp_resolver *r, uint32_t module, uint64_t pc, uint32_t *id) {
  if (r->memo && r->pc_text_key) {
    bool kept = false;
    int rc = scp_prof_memo_text(r->memo, r, &p->strs, module, pc, id, &kept);
    if (rc || kept) return rc;
  }
  char text[96];
  size_t n = r->pc_text(r->ctx, module, pc, text, sizeof text);
  const char *s = n < sizeof text ? text : "";
  *id = scp_strtab_intern_safe(&p->strs, s, strlen(s));
  return *id == UINT32_MAX ? SCP_ERR_NOMEM : SCP_OK;
}

int scp_prof_pc_text_id(scp_profile *p, const scp_resolver *r, uint32_t module, uint64_t pc, uint32_t *id) {
  if (r->memo && scp_prof_memo_hit(r->memo, module, pc, id)) return SCP_OK;
  return text_id_missed(p, r, module, pc, id);
}

int scp_prof_row_add(scp_profile *p, const scp_resolver *r, uint32_t node, uint32_t module, const scp_pc_cost *e,
                     const uint64_t *cost) {
  uint32_t id;
  int rc = scp_prof_pc_text_id(p, r, module, e->pc, &id);
  if (rc) return rc;
  if (p->npcs == p->cappcs && !scp_grow(&p->pcs, &p->cappcs, p->npcs + 1, sizeof *p->pcs)) return SCP_ERR_NOMEM;
  scp_prof_pc *row = &p->pcs[p->npcs++];
  *row = (scp_prof_pc){.pc = e->pc, .node = node, .text = id, .runs = e->runs};
  memcpy(row->cost, cost, sizeof row->cost);
  return SCP_OK;
}

/* Raw node raw's rows on node, written from at (room made by the
 * caller).  SCP_OK, SCP_ERR_NOMEM. */
static int write_rows(scp_profile *p, const scp_tree *t, const scp_resolver *r, uint32_t raw, uint32_t node,
                      scp_prof_pc *at) {
  const scp_tree_node *rn = &t->nodes[raw];
  for (uint32_t i = 0; i < rn->npcs; i++) {
    const scp_pc_cost *e = &rn->pcs[i];
    scp_prof_pc *row = &at[i];
    /* the usual case inline: a text this build has interned already */
    if (!r->memo || !scp_prof_memo_hit(r->memo, rn->module, e->pc, &row->text)) {
      int rc = text_id_missed(p, r, rn->module, e->pc, &row->text);
      if (rc) return rc;
    }
    row->pc = e->pc;
    row->node = node;
    row->runs = e->runs;
    memset(row->cost, 0, sizeof row->cost);
    row->cost[0] = e->cost0;
    for (unsigned m = 1; m < t->nmetrics; m++) row->cost[m] = scp_tree_pc_cost(t, e, m);
  }
  return SCP_OK;
}

/* Room for the rows of d[0, n) after p's. */
static bool rows_room(scp_profile *p, const scp_tree *t, const scp_prof_defer *d, size_t n) {
  size_t need = p->npcs;
  for (size_t i = 0; i < n; i++) need += t->nodes[d[i].raw].npcs;
  return scp_grow(&p->pcs, &p->cappcs, need, sizeof *p->pcs);
}

int scp_prof_rows_append(scp_profile *p, const scp_tree *t, const scp_resolver *r, const scp_prof_defer *d,
                         size_t n) {
  if (!rows_room(p, t, d, n)) return SCP_ERR_NOMEM;
  for (size_t i = 0; i < n; i++) {
    int rc = write_rows(p, t, r, d[i].raw, d[i].node, p->pcs + p->npcs);
    if (rc) return rc;
    p->npcs += t->nodes[d[i].raw].npcs;
  }
  return SCP_OK;
}

/* r's costs and runs added to into's, a row of the same node and pc */
static void row_absorb(scp_prof_pc *into, const scp_prof_pc *r) {
  for (unsigned m = 0; m < SCP_MAX_METRICS; m++) into->cost[m] += r->cost[m];
  into->runs += r->runs;
}

static int cmp_pc(const void *a, const void *b) {
  const scp_prof_pc *x = a, *y = b;
  if (x->node != y->node) return x->node < y->node ? -1 : 1;
  return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* A row's pc and its number, sorted in its stead. */
typedef struct pc_key {
  uint64_t pc;
  uint32_t at;
} pc_key;

/* keys by pc, keys of one pc in the order they came: a stable natural
 * merge sort (tmp holds n keys).  The rows of a node come as a few runs
 * already in pc order (one per raw node merged into it): each pass
 * merges them two by two, so two runs cost one pass. */
static void sort_keys(pc_key *v, pc_key *tmp, size_t n) {
  pc_key *src = v, *dst = tmp;
  for (size_t runs = 2; runs > 1;) {
    runs = 0;
    for (size_t a = 0; a < n; runs++) {
      size_t m = a + 1, e;
      while (m < n && src[m - 1].pc <= src[m].pc) m++;
      for (e = m < n ? m + 1 : m; e < n && src[e - 1].pc <= src[e].pc;) e++;
      size_t x = a, y = m, o = a;
      while (x < m && y < e) dst[o++] = src[y].pc < src[x].pc ? src[y++] : src[x++];
      while (x < m) dst[o++] = src[x++];
      while (y < e) dst[o++] = src[y++];
      a = e;
    }
    pc_key *t = src;
    src = dst;
    dst = t;
  }
  if (src != v) memcpy(v, src, n * sizeof *v);
}

typedef struct order {
  uint32_t *start, *idx;
  pc_key *k, *ktmp;        /* made when a node's rows are out of pc order */
} order;

/* One node's row numbers idx[0, n) by their rows' pc, rows of one pc in
 * the order they came.  false: out of memory. */
static bool node_by_pc(const scp_prof_pc *rows, order *o, uint32_t *idx, size_t n, size_t all) {
  size_t i = 1;
  while (i < n && rows[idx[i - 1]].pc <= rows[idx[i]].pc) i++;
  if (i >= n) return true;
  if (!o->k && (!(o->k = malloc(all * sizeof *o->k)) || !(o->ktmp = malloc(all * sizeof *o->ktmp))))
    return false;
  for (size_t j = 0; j < n; j++) o->k[j] = (pc_key){.pc = rows[idx[j]].pc, .at = idx[j]};
  sort_keys(o->k, o->ktmp, n);
  for (size_t j = 0; j < n; j++) idx[j] = o->k[j].at;
  return true;
}

/* The row numbers in (node, pc) order: counted out by node (row order
 * kept), then each node's by pc.  false: out of memory, or a row of no
 * node (the rows are renumbered all the same). */
static bool order_rows(scp_profile *p, const uint32_t *newid, order *o) {
  size_t n = p->npcs, nn = p->nnodes;
  bool ok = n <= UINT32_MAX && (o->start = calloc(nn + 1, sizeof *o->start)) && (o->idx = malloc(n * sizeof *o->idx));
  for (size_t i = 0; i < n; i++) {
    uint32_t node = p->pcs[i].node = newid[p->pcs[i].node];
    if (node >= nn) ok = false;
    else if (ok) o->start[node + 1]++;
  }
  if (!ok) return false;
  for (size_t j = 0; j < nn; j++) o->start[j + 1] += o->start[j];
  for (size_t i = 0; i < n; i++) o->idx[o->start[p->pcs[i].node]++] = (uint32_t)i;
  /* start[j] is now the end of node j's rows */
  for (size_t j = 0, from = 0; j < nn; from = o->start[j++])
    if (!node_by_pc(p->pcs, o, o->idx + from, o->start[j] - from, n)) return false;
  return true;
}

/* Merge rows of one node and pc, in place (rows sorted by (node, pc)). */
static size_t merge_in_place(scp_prof_pc *v, size_t n) {
  size_t out = 0;
  for (size_t i = 0; i < n; i++) {
    scp_prof_pc *last = out ? &v[out - 1] : NULL;
    if (last && last->node == v[i].node && last->pc == v[i].pc) {
      row_absorb(last, &v[i]);
      continue;
    }
    if (out != i) v[out] = v[i];
    out++;
  }
  return out;
}

void scp_prof_rows_lay_out(scp_profile *p, const uint32_t *newid) {
  size_t n = p->npcs, o = 0;
  order ord = {.start = NULL};
  scp_prof_pc *out = NULL;
  if (order_rows(p, newid, &ord) && (out = malloc(n * sizeof *out))) {
    for (size_t j = 0; j < n; j++) {
      const scp_prof_pc *r = &p->pcs[ord.idx[j]];
      scp_prof_pc *last = o ? &out[o - 1] : NULL;
      if (last && last->node == r->node && last->pc == r->pc) {
        row_absorb(last, r);
      } else {
        out[o++] = *r;
      }
    }
    free(p->pcs);
    p->pcs = out;
    p->cappcs = n;
  } else {   /* out of memory, or a row of no node: the general sort */
    qsort(p->pcs, n, sizeof *p->pcs, cmp_pc);
    o = merge_in_place(p->pcs, n);
  }
  free(ord.start);
  free(ord.idx);
  free(ord.k);
  free(ord.ktmp);
  p->npcs = o;
  for (size_t i = o; i-- > 0;) {
    scp_prof_node *nd = &p->nodes[p->pcs[i].node];
    nd->pcs_first = (uint32_t)i;
    nd->npcs++;
  }
}

/* A deferred raw node by its node's final number, then by when it came. */
typedef struct placed {
  uint32_t node, at;
} placed;

static int cmp_placed(const void *a, const void *b) {
  const placed *x = a, *y = b;
  if (x->node != y->node) return x->node < y->node ? -1 : 1;
  return (x->at > y->at) - (x->at < y->at);
}

/* Room to sort a node's rows (scratch for node_rows). */
typedef struct scratch {
  scp_prof_pc *tmp;
  pc_key *k, *ktmp;
  size_t cap;
} scratch;

/* Room for n rows in s; false: out of memory. */
static bool scratch_room(scratch *s, size_t n) {
  if (n <= s->cap) return true;
  free(s->tmp); free(s->k); free(s->ktmp);
  s->tmp = malloc(n * sizeof *s->tmp), s->k = malloc(n * sizeof *s->k), s->ktmp = malloc(n * sizeof *s->ktmp);
  s->cap = s->tmp && s->k && s->ktmp ? n : 0;
  return s->cap != 0;
}

/* One node's rows from[0, n) into v by pc, rows of one pc in the order
 * they came merged into the first; returns how many are left. */
static size_t sort_into(scp_prof_pc *v, const scp_prof_pc *from, size_t n, scratch *s) {
  for (size_t j = 0; j < n; j++) s->k[j] = (pc_key){.pc = from[j].pc, .at = (uint32_t)j};
  sort_keys(s->k, s->ktmp, n);
  size_t o = 0;
  for (size_t j = 0; j < n; j++) {
    const scp_prof_pc *r = &from[s->k[j].at];
    if (o && v[o - 1].pc == r->pc) {
      row_absorb(&v[o - 1], r);
    } else {
      v[o++] = *r;
    }
  }
  return o;
}

/* The rows of the deferred raw nodes ord[g0, g1) (all on node) from v:
 * one raw node's written in place (already in pc order, the usual case,
 * they stay), several raw nodes' written aside and sorted into place.
 * *left is how many rows are left.  SCP_OK, SCP_ERR_NOMEM. */
static int place_node(scp_profile *p, const scp_tree *t, const scp_resolver *r, const scp_prof_defer *d,
                      const placed *ord, size_t g0, size_t g1, scp_prof_pc *v, scratch *s, size_t *left) {
  uint32_t node = ord[g0].node;
  size_t n = 0;
  for (size_t g = g0; g < g1; g++) n += t->nodes[d[ord[g].at].raw].npcs;
  *left = 0;
  if (g1 - g0 > 1) {
    if (!scratch_room(s, n)) return SCP_ERR_NOMEM;
    for (size_t g = g0, o = 0; g < g1; o += t->nodes[d[ord[g++].at].raw].npcs) {
      int rc = write_rows(p, t, r, d[ord[g].at].raw, node, s->tmp + o);
      if (rc) return rc;
    }
    *left = sort_into(v, s->tmp, n, s);
    return SCP_OK;
  }
  int rc = write_rows(p, t, r, d[ord[g0].at].raw, node, v);
  if (rc) return rc;
  size_t i = 1;
  while (i < n && v[i - 1].pc < v[i].pc) i++;
  *left = n;
  if (i >= n) return SCP_OK;
  if (!scratch_room(s, n)) return SCP_ERR_NOMEM;
  memcpy(s->tmp, v, n * sizeof *v);
  *left = sort_into(v, s->tmp, n, s);
  return SCP_OK;
}

int scp_prof_rows_place(scp_profile *p, const scp_tree *t, const scp_resolver *r, const scp_prof_defer *d,
                        size_t n, const uint32_t *newid) {
  placed *ord = malloc(n * sizeof *ord);
  scratch sc = {.cap = 0};
  int rc = ord && rows_room(p, t, d, n) ? SCP_OK : SCP_ERR_NOMEM;
  for (size_t i = 0; !rc && i < n; i++) {
    ord[i] = (placed){.node = newid[d[i].node], .at = (uint32_t)i};
    if (ord[i].node >= p->nnodes) rc = SCP_ERR_INTERNAL;
  }
  if (!rc) qsort(ord, n, sizeof *ord, cmp_placed);
  size_t o = 0;
  for (size_t g = 0, g1; !rc && g < n; g = g1) {
    for (g1 = g + 1; g1 < n && ord[g1].node == ord[g].node;) g1++;
    size_t left = 0;
    rc = place_node(p, t, r, d, ord, g, g1, p->pcs + o, &sc, &left);
    if (rc || !left) continue;
    p->nodes[ord[g].node].pcs_first = (uint32_t)o;
    p->nodes[ord[g].node].npcs = (uint32_t)left;
    o += left;
  }
  p->npcs = rc ? 0 : o;
  free(ord);
  free(sc.tmp);
  free(sc.k);
  free(sc.ktmp);
  return rc;
}
