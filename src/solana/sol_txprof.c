/* sol_txprof.c — a transaction's profile from its instructions' profiles
 * (see sol_txprof.h).  Nodes are appended in preorder, children in call
 * order, so instruction #k stays the k-th child of the root. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "solana/sol_txprof.h"
#include "solana/scp_sol_names.h"

/* the text rule of every profile string (scp_prof.c), so names match */
static uint32_t str(scp_profile *p, const char *s) {
  if (!s) s = "";
  return scp_strtab_intern_safe(&p->strs, s, strlen(s));
}

/* A frame's identity: its text fields and kind; owner fields "" for none. */
typedef struct fkey {
  const char *name, *file;
  uint32_t decl;
  uint8_t kind, source;
  const char *owner, *owner_id, *detail;
} fkey;

/* The frame of these string ids (p's), found or appended. */
static int frame_ids(scp_profile *p, uint32_t n, uint32_t f, const fkey *k, uint32_t o, uint32_t oid,
                     uint32_t d, uint32_t *out) {
  if (n == UINT32_MAX || f == UINT32_MAX || o == UINT32_MAX || oid == UINT32_MAX || d == UINT32_MAX)
    return SCP_ERR_NOMEM;
  for (size_t i = 0; i < p->nframes; i++) {
    const scp_prof_frame *x = &p->frames[i];
    if (x->name == n && x->file == f && x->decl_line == k->decl && x->kind == k->kind &&
        x->source == k->source && x->owner == o && x->owner_id == oid && x->detail == d) {
      *out = (uint32_t)i;
      return SCP_OK;
    }
  }
  if (!scp_grow(&p->frames, &p->capframes, p->nframes + 1, sizeof *p->frames)) return SCP_ERR_NOMEM;
  p->frames[p->nframes] = (scp_prof_frame){.name = n, .file = f, .decl_line = k->decl, .kind = k->kind,
                                           .source = k->source, .owner = o, .owner_id = oid, .detail = d};
  *out = (uint32_t)p->nframes++;
  return SCP_OK;
}

static int frame(scp_profile *p, const fkey *k, uint32_t *out) {
  /* in this order: a new string's id is the next one */
  uint32_t n = str(p, k->name), f = str(p, k->file), o = str(p, k->owner), oid = str(p, k->owner_id),
           d = str(p, k->detail);
  return frame_ids(p, n, f, k, o, oid, d, out);
}

static int host_frame(scp_profile *p, const char *name, uint8_t kind, uint32_t *out) {
  fkey k = {.name = name, .file = "", .kind = kind, .source = SCP_SRC_HOST};
  return frame(p, &k, out);
}

static int prog_frame(scp_profile *p, const sol_progframe *pf, uint32_t *out) {
  fkey k = {.name = pf->name, .file = "", .kind = SCP_KIND_CONTRACT, .source = SCP_SRC_HOST,
            .owner = pf->owner, .owner_id = pf->owner_id, .detail = pf->detail};
  return frame(p, &k, out);
}

void sol_progframe_of(sol_progframe *f, const uint8_t id[32], const char *given, const uint8_t *data,
                      size_t len, const struct scp_sol_idls *idls) {
  scp_sol_program_name(id, given, f->owner, sizeof f->owner);
  scp_sol_key_str(id, f->owner_id);
  scp_sol_ix_name(id, data, len, idls, f->detail, sizeof f->detail);
  snprintf(f->name, sizeof f->name, "program:%s%s%s", f->owner, f->detail[0] ? " " : "", f->detail);
}

int sol_txprof_own(scp_profile *p, const sol_progframe *pf) {
  uint32_t o = str(p, pf->owner), oid = str(p, pf->owner_id), d = str(p, pf->detail);
  if (o == UINT32_MAX || oid == UINT32_MAX || d == UINT32_MAX) return SCP_ERR_NOMEM;
  for (size_t i = 0; i < p->nframes; i++) {
    scp_prof_frame *x = &p->frames[i];
    if (x->owner_id) continue;
    x->owner = o;
    x->owner_id = oid;
  }
  if (p->nnodes) p->frames[p->nodes[0].frame].detail = d;
  return SCP_OK;
}

/* Append a node as the last child of parent. */
static int node(scp_profile *p, uint32_t parent, uint32_t fr, uint32_t *out) {
  if (!scp_grow(&p->nodes, &p->capnodes, p->nnodes + 1, sizeof *p->nodes)) return SCP_ERR_NOMEM;
  uint32_t id = (uint32_t)p->nnodes++;
  scp_prof_node *n = &p->nodes[id];
  memset(n, 0, sizeof *n);
  n->frame = fr;
  n->parent = parent;
  n->first_child = n->next_sibling = SCP_NODE_NONE;
  n->call_file = str(p, "");
  if (parent != SCP_NODE_NONE) {
    uint32_t *link = &p->nodes[parent].first_child;
    while (*link != SCP_NODE_NONE) link = &p->nodes[*link].next_sibling;
    *link = id;
  }
  *out = id;
  return SCP_OK;
}

int sol_txprof_new(uint64_t limit, scp_profile **out) {
  scp_profile *p = calloc(1, sizeof *p);
  uint32_t fr, id;
  *out = NULL;
  if (!p) return SCP_ERR_NOMEM;
  p->nmetrics = 1;
  p->chain = SCP_CHAIN_SOLANA;
  p->metrics[0] = (scp_metric){.name = "CU", .unit = "compute units", .limit = limit};
  p->status_msg = str(p, "");
  int rc = p->status_msg == UINT32_MAX ? SCP_ERR_NOMEM : host_frame(p, "transaction", SCP_KIND_ROOT, &fr);
  if (!rc) rc = node(p, SCP_NODE_NONE, fr, &id);
  if (rc) {
    scp_profile_destroy(p);
    return rc;
  }
  *out = p;
  return SCP_OK;
}

int sol_txprof_ix(scp_profile *p, size_t k, const char *label, uint32_t *id) {
  char name[300];
  uint32_t fr;
  snprintf(name, sizeof name, "instruction #%zu%s%.250s", k, label ? " " : "", label ? label : "");
  int rc = host_frame(p, name, SCP_KIND_CONTRACT, &fr);
  if (!rc) rc = node(p, 0, fr, id);
  if (!rc) p->nodes[*id].calls = 1;
  return rc;
}

int sol_txprof_leaf(scp_profile *p, uint32_t at, const sol_progframe *pf, uint64_t cu) {
  uint32_t fr, id;
  int rc = prog_frame(p, pf, &fr);
  if (!rc) rc = node(p, at, fr, &id);
  if (rc) return rc;
  p->nodes[id].calls = 1;
  p->nodes[id].self[0] = cu;
  if (!cu) return SCP_OK;
  /* self cost is split by line: one line without a source */
  if (!scp_grow(&p->lines, &p->caplines, p->nlines + 1, sizeof *p->lines)) return SCP_ERR_NOMEM;
  scp_prof_line *l = &p->lines[p->nlines];
  memset(l, 0, sizeof *l);
  l->file = str(p, "");
  l->cost[0] = cu;
  p->nodes[id].lines_first = (uint32_t)p->nlines++;
  p->nodes[id].nlines = 1;
  return SCP_OK;
}

/* How a graft takes sub's strings and rows. */
typedef enum graft_how {
  GRAFT_COPY,              /* strings mapped into p's table, rows copied */
  GRAFT_SAME,              /* sub's string ids are p's (its table is p's now) */
  GRAFT_TAKEN              /* that, and p has taken sub's rows and lines whole */
} graft_how;

static int graft(scp_profile *p, uint32_t at, const scp_profile *sub, bool merge_root, graft_how how);

int sol_txprof_graft(scp_profile *p, uint32_t at, const scp_profile *sub) {
  return graft(p, at, sub, false, GRAFT_COPY);
}

int sol_txprof_merge(scp_profile *p, uint32_t at, const scp_profile *sub) {
  return graft(p, at, sub, true, GRAFT_COPY);
}

/* sub's strings begin with all of p's, id for id */
static bool strs_extend(const scp_profile *sub, const scp_profile *p) {
  if (!p->strs.n || sub->strs.n < p->strs.n) return false;
  for (uint32_t i = 0; i < p->strs.n; i++)
    if (strcmp(scp_prof_str(sub, i), scp_prof_str(p, i))) return false;
  return true;
}

#define SWAP(T, a, b) do { T swap_ = (a); (a) = (b); (b) = swap_; } while (0)

int sol_txprof_graft_take(scp_profile *p, uint32_t at, scp_profile *sub) {
  if (!strs_extend(sub, p)) return graft(p, at, sub, false, GRAFT_COPY);
  /* p's ids keep their strings in sub's table, and sub's are p's now */
  SWAP(scp_strtab, p->strs, sub->strs);
  if (p->npcs || p->nlines) return graft(p, at, sub, false, GRAFT_SAME);
  /* p has no rows or lines yet: sub's become p's where they are (each
   * node keeps its ranges), only the rows' nodes renumbered */
  SWAP(scp_prof_pc *, p->pcs, sub->pcs);
  SWAP(size_t, p->npcs, sub->npcs);
  SWAP(size_t, p->cappcs, sub->cappcs);
  SWAP(scp_prof_line *, p->lines, sub->lines);
  SWAP(size_t, p->nlines, sub->nlines);
  SWAP(size_t, p->caplines, sub->caplines);
  return graft(p, at, sub, false, GRAFT_TAKEN);
}

int sol_txprof_frame(scp_profile *p, const sol_progframe *pf, uint32_t *fr) {
  return prog_frame(p, pf, fr);
}

/* sub's strings and frames as p's, each looked up once per graft: a
 * program's profile names the same instruction texts, files and frames
 * on many nodes, and frame() searches p's frames. */
typedef struct graft_map {
  scp_profile *p;
  const scp_profile *sub;
  graft_how how;
  bool same;               /* sub's string ids are p's (how is not GRAFT_COPY) */
  uint32_t *str;           /* sub's string id -> p's; UINT32_MAX: not yet */
  uint32_t *frame;         /* sub's frame id -> p's (not the root's) */
} graft_map;

/* sub's string id as p's: interned under the text rule, as str() does,
 * with the hash sub's table keeps when the rule leaves the text as it is */
static uint32_t map_str(graft_map *m, uint32_t id) {
  if (m->same) return id;
  if (id >= m->sub->strs.n) return str(m->p, scp_prof_str(m->sub, id));
  if (m->str[id] == UINT32_MAX) {
    const char *s = scp_prof_str(m->sub, id);
    size_t len = strlen(s);
    m->str[id] = scp_text_is_safe(s, len) ? scp_strtab_intern_h(&m->p->strs, s, len, m->sub->strs.hash[id])
                                          : scp_strtab_intern_safe(&m->p->strs, s, len);
  }
  return m->str[id];
}

/* The frame of sub's node i in p (the root's is a program node here). */
static int map_frame(graft_map *m, size_t i, uint32_t *out) {
  const scp_profile *sub = m->sub;
  uint32_t f = sub->nodes[i].frame;
  if (i && m->frame[f] != UINT32_MAX) {
    *out = m->frame[f];
    return SCP_OK;
  }
  const scp_prof_frame *sf = &sub->frames[f];
  fkey k = {.decl = sf->decl_line, .kind = i == 0 ? SCP_KIND_CONTRACT : sf->kind, .source = sf->source};
  /* the strings through the graft's map, in frame()'s order */
  uint32_t n = map_str(m, sf->name), fl = map_str(m, sf->file), o = map_str(m, sf->owner),
           oid = map_str(m, sf->owner_id), d = map_str(m, sf->detail);
  int rc = frame_ids(m->p, n, fl, &k, o, oid, d, out);
  if (!rc && i) m->frame[f] = *out;
  return rc;
}

/* The instruction rows of sub's node s, for annotate, on p's node id. */
static int graft_pcs(graft_map *m, uint32_t id, const scp_prof_node *s) {
  scp_profile *p = m->p;
  const scp_profile *sub = m->sub;
  if (!scp_grow(&p->pcs, &p->cappcs, p->npcs + s->npcs, sizeof *p->pcs)) return SCP_ERR_NOMEM;
  p->nodes[id].pcs_first = (uint32_t)p->npcs;
  p->nodes[id].npcs = s->npcs;
  for (uint32_t k = 0; k < s->npcs; k++) {
    scp_prof_pc x = sub->pcs[s->pcs_first + k];
    x.node = id;
    if ((x.text = map_str(m, x.text)) == UINT32_MAX) return SCP_ERR_NOMEM;
    p->pcs[p->npcs++] = x;
  }
  return SCP_OK;
}

/* sub's "source lines" notes (a program without DWARF) and the notes of
 * its tree's shape (a node budget reached, recursion folded: the grafted
 * tree is not whole, and the reader and the CLI's warning must know it),
 * each distinct one once; names holds sub's strings. */
static int graft_notes(scp_profile *p, const scp_profile *sub, const scp_profile *names) {
  static const char *const kept[] = {"source lines", "call tree", "recursion"};
  for (size_t i = 0; i < sub->nmeta; i++) {
    const char *key = scp_prof_str(names, sub->meta[i].key);
    size_t j = 0;
    while (j < sizeof kept / sizeof *kept && strcmp(key, kept[j])) j++;
    if (j == sizeof kept / sizeof *kept) continue;
    const char *v = scp_prof_str(names, sub->meta[i].value);
    bool have = false;
    for (size_t k = 0; k < p->nmeta && !have; k++)
      have = !strcmp(scp_prof_str(p, p->meta[k].key), kept[j]) && !strcmp(scp_prof_str(p, p->meta[k].value), v);
    int rc = have ? SCP_OK : scp_prof_meta(p, kept[j], v);
    if (rc) return rc;
  }
  return SCP_OK;
}

/* sub's node s's self cost by line onto p's node n */
static int graft_lines(graft_map *m, scp_prof_node *n, const scp_prof_node *s) {
  scp_profile *p = m->p;
  if (!s->nlines) return SCP_OK;
  if (n->nlines) return SCP_ERR_INTERNAL;   /* a placeholder has no lines of its own */
  if (!scp_grow(&p->lines, &p->caplines, p->nlines + s->nlines, sizeof *p->lines)) return SCP_ERR_NOMEM;
  n->lines_first = (uint32_t)p->nlines;
  n->nlines = s->nlines;
  for (uint32_t l = 0; l < s->nlines; l++) {
    scp_prof_line x = m->sub->lines[s->lines_first + l];
    x.file = map_str(m, x.file);
    p->lines[p->nlines++] = x;
  }
  return SCP_OK;
}

static int graft_nodes(graft_map *m, uint32_t at, bool merge_root, uint32_t *map) {
  scp_profile *p = m->p;
  const scp_profile *sub = m->sub;
  int rc = SCP_OK;
  /* sub's nodes are in preorder: a parent is mapped before its children */
  for (size_t i = 0; i < sub->nnodes && !rc; i++) {
    const scp_prof_node *s = &sub->nodes[i];
    uint32_t fr, id = at;
    if (!(merge_root && i == 0) &&
        ((rc = map_frame(m, i, &fr)) || (rc = node(p, i == 0 ? at : map[s->parent], fr, &id))))
      break;
    map[i] = id;
    scp_prof_node *n = &p->nodes[id];
    n->calls = i == 0 ? 1 : s->calls;
    n->self[0] += s->self[0];
    n->call_line = s->call_line;
    n->call_file = map_str(m, s->call_file);
    if (m->how == GRAFT_TAKEN) {   /* p's rows and lines are sub's */
      n->lines_first = s->lines_first;
      n->nlines = s->nlines;
      n->pcs_first = s->pcs_first;
      n->npcs = s->npcs;
    } else {
      if ((rc = graft_lines(m, n, s))) break;
      if (s->npcs && !n->npcs) rc = graft_pcs(m, id, s);
    }
    if (n->call_file == UINT32_MAX) rc = SCP_ERR_NOMEM;
  }
  if (rc || m->how != GRAFT_TAKEN) return rc;
  /* the rows taken: on sub's nodes as p numbers them, which (each node
   * appended in sub's order) is sub's number plus the root's */
  uint32_t base = map[0], nn = (uint32_t)sub->nnodes;
  for (uint32_t i = 0; i < nn; i++)
    if (map[i] != base + i) return SCP_ERR_INTERNAL;
  for (size_t i = 0; i < p->npcs; i++) {
    uint32_t node = p->pcs[i].node;
    if (node >= nn) return SCP_ERR_INTERNAL;
    p->pcs[i].node = node + base;
  }
  return SCP_OK;
}

static int graft(scp_profile *p, uint32_t at, const scp_profile *sub, bool merge_root, graft_how how) {
  bool same = how != GRAFT_COPY;
  int nrc = graft_notes(p, sub, same ? p : sub);
  if (nrc) return nrc;
  graft_map m = {.p = p, .sub = sub, .how = how, .same = same};
  uint32_t *map = malloc((sub->nnodes ? sub->nnodes : 1) * sizeof *map);
  m.str = malloc((sub->strs.n ? sub->strs.n : 1) * sizeof *m.str);
  m.frame = malloc((sub->nframes ? sub->nframes : 1) * sizeof *m.frame);
  int rc = map && m.str && m.frame ? SCP_OK : SCP_ERR_NOMEM;
  /* room for all of sub at once, so p's rows are not copied as they grow */
  if (!rc && (!scp_grow(&p->nodes, &p->capnodes, p->nnodes + sub->nnodes, sizeof *p->nodes) ||
              !scp_grow(&p->lines, &p->caplines, p->nlines + sub->nlines, sizeof *p->lines) ||
              !scp_grow(&p->pcs, &p->cappcs, p->npcs + sub->npcs, sizeof *p->pcs)))
    rc = SCP_ERR_NOMEM;
  if (!rc) {
    memset(m.str, 0xff, (sub->strs.n ? sub->strs.n : 1) * sizeof *m.str);
    memset(m.frame, 0xff, (sub->nframes ? sub->nframes : 1) * sizeof *m.frame);
    rc = graft_nodes(&m, at, merge_root, map);
  }
  free(map);
  free(m.str);
  free(m.frame);
  return rc;
}

int sol_txprof_settle(scp_profile *p) {
  int rc = scp_prof_preorder(p, NULL, NULL);
  if (rc) return rc;
  scp_prof_totals(p);
  return scp_prof_check(p) ? SCP_OK : SCP_ERR_INTERNAL;
}

int sol_txprof_finish(scp_profile *p, uint64_t cu) {
  uint64_t self = 0;
  for (size_t i = 0; i < p->nnodes; i++) self += p->nodes[i].self[0];
  scp_prof_totals(p);
  p->nodes[0].calls = 1;
  if (self != cu || !scp_prof_check(p)) return SCP_ERR_INTERNAL;
  return SCP_OK;
}

/* ---- the Programs table ---- */

static bool is_program(const scp_profile *p, uint32_t n) {
  const scp_prof_frame *f = &p->frames[p->nodes[n].frame];
  return f->owner_id && (f->kind == SCP_KIND_CONTRACT || f->kind == SCP_KIND_ROOT);
}

typedef struct prog_row {
  uint32_t frame;
  uint64_t v[3];           /* invocations, self CU, total CU */
} prog_row;

static int cmp_rows(const void *a, const void *b, void *ctx) {
  const scp_profile *p = ctx;
  const prog_row *x = a, *y = b;
  if (x->v[2] != y->v[2]) return x->v[2] > y->v[2] ? -1 : 1;
  int c = strcmp(scp_prof_str(p, p->frames[x->frame].name), scp_prof_str(p, p->frames[y->frame].name));
  return c ? c : (x->frame > y->frame) - (x->frame < y->frame);
}

/* A node's CU are its nearest program's (itself when it is one); a
 * program's total counts its outermost invocations only (a program that
 * invokes itself is inside its own total already). */
static void tally(const scp_profile *p, prog_row *row) {
  for (uint32_t n = 0; n < p->nnodes; n++) {
    uint32_t at = n;
    while (at != SCP_NODE_NONE && !is_program(p, at)) at = p->nodes[at].parent;
    if (at == SCP_NODE_NONE) continue;
    uint32_t f = p->nodes[at].frame;
    row[f].frame = f;
    row[f].v[1] += p->nodes[n].self[0];
    if (at != n) continue;
    row[f].v[0]++;
    bool nested = false;
    for (uint32_t up = p->nodes[n].parent; up != SCP_NODE_NONE && !nested; up = p->nodes[up].parent)
      nested = p->nodes[up].frame == f;
    if (!nested) row[f].v[2] += p->nodes[n].total[0];
  }
}

int sol_txprof_programs(scp_profile *p) {
  static const char *const cols[3] = {"invocations", "self CU", "total CU"};
  /* self CU break the CU down: every CU is some program's */
  static const int metric[3] = {-1, 0, -1};
  prog_row *row = calloc(p->nframes ? p->nframes : 1, sizeof *row);
  if (!row) return SCP_ERR_NOMEM;
  tally(p, row);
  size_t n = 0;
  for (size_t f = 0; f < p->nframes; f++)
    if (row[f].v[0]) row[n++] = row[f];
  int rc = SCP_OK;
  if (n) {
    qsort_r(row, n, sizeof *row, cmp_rows, p);
    rc = scp_prof_table_begin(p, "Programs", "program", 3, cols, metric);
    for (size_t i = 0; i < n && !rc; i++)
      rc = scp_prof_table_row(p, scp_prof_str(p, p->frames[row[i].frame].name), row[i].v);
  }
  free(row);
  return rc;
}
