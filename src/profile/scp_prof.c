/*
 * scp_prof.c — turn the raw calling-context tree into the final profile:
 * name every node through the resolver, split guest nodes' per-pc costs
 * by inline chain into inlined child frames and source lines, hang calls
 * made from inlined code under the inlined frame (by callsite pc), merge
 * siblings with the same frame, sort, and derive inclusive costs.
 *
 * Everything here is chain-neutral: WASM, Soroban or sBPF knowledge lives
 * behind the resolver.
 */
#include "profile/scp_prof_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* (node, file, line) -> cost accumulator, open addressing. */
typedef struct line_acc {
  uint32_t node, file, line;
  uint64_t cost[SCP_MAX_METRICS];
  uint64_t ahead;
} line_acc;

typedef struct builder {
  const scp_tree *t;
  const scp_resolver *r;
  scp_profile *p;
  /* frame lookup: a frame's fields -> its id, open addressing */
  uint32_t *fslots; size_t nfslots;
  line_acc *acc; size_t nacc, capacc;
  uint32_t *slots; size_t nslots;
  /* child lookup: (parent, frame) -> node, open addressing */
  uint32_t *cslots; size_t ncslots;
  unsigned nm;
  /* the last string interned and its id: most rows of a node name the
   * file the row before named, from the same resolver storage */
  const char *last_s;
  uint32_t last_id;
  /* the line accumulator booked last (index in acc + 1, 0 none) */
  size_t last_acc;
  /* raw nodes of modules without lines whose rows are made at the end,
   * in their final order (scp_prof_rows_place); once a row of another
   * module comes after them, they are made then and no more deferred */
  scp_prof_defer *defer;
  size_t ndefer, capdefer;
  bool defer_off;
} builder;

static int intern(builder *b, const char *s, uint32_t *id) {
  if (!s) s = "";
  /* "" is id 0 of a table that has begun (scp_strtab) */
  if (!*s && b->p->strs.n) {
    *id = 0;
    return SCP_OK;
  }
  /* the same pointer with the same text as that id's: the same id (a
   * text the rule escaped differs from its stored copy and goes on) */
  if (s == b->last_s && !strcmp(s, scp_prof_str(b->p, b->last_id))) {
    *id = b->last_id;
    return SCP_OK;
  }
  *id = scp_strtab_intern_safe(&b->p->strs, s, strlen(s));
  if (*id == UINT32_MAX) return SCP_ERR_NOMEM;
  b->last_s = s;
  b->last_id = *id;
  return SCP_OK;
}

static uint64_t pair_hash(uint32_t a, uint32_t c);

/* A frame's identity: its fields as frame_id gives them */
static uint64_t frame_hash(const scp_prof_frame *f) {
  return scp_hash64(pair_hash(f->name, f->file) ^ (uint64_t)f->decl_line << 16 ^ (uint64_t)f->kind << 8 ^
                    f->source ^ (uint64_t)f->body << 40);
}

static bool frame_rehash(builder *b, size_t n) {
  uint32_t *s = malloc(n * sizeof *s);
  if (!s) return false;
  memset(s, 0xff, n * sizeof *s);
  for (size_t i = 0; i < b->p->nframes; i++) {
    size_t h = frame_hash(&b->p->frames[i]) & (n - 1);
    while (s[h] != UINT32_MAX) h = (h + 1) & (n - 1);
    s[h] = (uint32_t)i;
  }
  free(b->fslots);
  b->fslots = s;
  b->nfslots = n;
  return true;
}

/* The frame of these fields, found or appended (frames in the order
 * first met). */
static int frame_id(builder *b, const scp_frame_info *fi, scp_kind kind, uint32_t *out) {
  uint32_t name, file, body;
  const char *decl_file = fi->decl_file ? fi->decl_file : fi->file;
  int rc;
  if ((rc = intern(b, fi->name, &name)) || (rc = intern(b, decl_file, &file)) ||
      (rc = intern(b, fi->body, &body)))
    return rc;
  scp_profile *p = b->p;
  const scp_prof_frame f = {.name = name, .file = file, .decl_line = fi->decl_line, .kind = (uint8_t)kind,
                            .source = fi->source, .body = body};
  size_t mask = b->nfslots - 1, h = frame_hash(&f) & mask;
  for (; b->fslots[h] != UINT32_MAX; h = (h + 1) & mask) {
    const scp_prof_frame *x = &p->frames[b->fslots[h]];
    if (x->name == name && x->file == file && x->decl_line == f.decl_line && x->kind == f.kind &&
        x->source == f.source && x->body == body) {
      *out = b->fslots[h];
      return SCP_OK;
    }
  }
  if (!scp_grow(&p->frames, &p->capframes, p->nframes + 1, sizeof *p->frames)) return SCP_ERR_NOMEM;
  *out = (uint32_t)p->nframes;
  p->frames[p->nframes++] = f;
  b->fslots[h] = *out;
  if (p->nframes * 2 > b->nfslots && !frame_rehash(b, b->nfslots * 2)) return SCP_ERR_NOMEM;
  return SCP_OK;
}

static uint64_t pair_hash(uint32_t a, uint32_t c) {
  return scp_hash64((uint64_t)a << 32 | c);
}

static bool child_rehash(builder *b, size_t n) {
  uint32_t *s = malloc(n * sizeof *s);
  if (!s) return false;
  memset(s, 0xff, n * sizeof *s);
  for (size_t i = 1; i < b->p->nnodes; i++) {
    const scp_prof_node *pn = &b->p->nodes[i];
    size_t h = pair_hash(pn->parent, pn->frame) & (n - 1);
    while (s[h] != UINT32_MAX) h = (h + 1) & (n - 1);
    s[h] = (uint32_t)i;
  }
  free(b->cslots);
  b->cslots = s;
  b->ncslots = n;
  return true;
}

/* Find or create the child of `parent` with frame `frame`. */
static int child(builder *b, uint32_t parent, uint32_t frame, uint32_t *out) {
  scp_profile *p = b->p;
  size_t mask = b->ncslots - 1;
  size_t h = pair_hash(parent, frame) & mask;
  for (; b->cslots[h] != UINT32_MAX; h = (h + 1) & mask) {
    const scp_prof_node *pn = &p->nodes[b->cslots[h]];
    if (pn->parent == parent && pn->frame == frame) { *out = b->cslots[h]; return SCP_OK; }
  }
  if (!scp_grow(&p->nodes, &p->capnodes, p->nnodes + 1, sizeof *p->nodes)) return SCP_ERR_NOMEM;
  uint32_t id = (uint32_t)p->nnodes++;
  scp_prof_node *pn = &p->nodes[id];
  memset(pn, 0, sizeof *pn);
  pn->frame = frame;
  pn->parent = parent;
  pn->first_child = SCP_NODE_NONE;
  pn->next_sibling = p->nodes[parent].first_child;
  pn->depth = p->nodes[parent].depth + 1;
  p->nodes[parent].first_child = id;
  b->cslots[h] = id;
  if (p->nnodes * 2 > b->ncslots && !child_rehash(b, b->ncslots * 2)) return SCP_ERR_NOMEM;
  *out = id;
  return SCP_OK;
}

static bool acc_rehash(builder *b, size_t n) {
  uint32_t *s = malloc(n * sizeof *s);
  if (!s) return false;
  memset(s, 0xff, n * sizeof *s);
  for (size_t i = 0; i < b->nacc; i++) {
    const line_acc *a = &b->acc[i];
    size_t h = scp_hash64(pair_hash(a->node, a->file) ^ a->line) & (n - 1);
    while (s[h] != UINT32_MAX) h = (h + 1) & (n - 1);
    s[h] = (uint32_t)i;
  }
  free(b->slots);
  b->slots = s;
  b->nslots = n;
  return true;
}

/* Book cost as self of node, on (file, line). */
static int book(builder *b, uint32_t node, uint32_t file, uint32_t line, const uint64_t *cost,
                uint64_t ahead) {
  scp_prof_node *pn = &b->p->nodes[node];
  for (unsigned m = 0; m < b->nm; m++) pn->self[m] += cost[m];
  pn->ahead += ahead;
  b->p->ahead += ahead;
  if (b->last_acc) {
    line_acc *a = &b->acc[b->last_acc - 1];
    if (a->node == node && a->file == file && a->line == line) {
      for (unsigned m = 0; m < b->nm; m++) a->cost[m] += cost[m];
      a->ahead += ahead;
      return SCP_OK;
    }
  }
  size_t mask = b->nslots - 1;
  size_t h = scp_hash64(pair_hash(node, file) ^ line) & mask;
  for (; b->slots[h] != UINT32_MAX; h = (h + 1) & mask) {
    line_acc *a = &b->acc[b->slots[h]];
    if (a->node == node && a->file == file && a->line == line) {
      for (unsigned m = 0; m < b->nm; m++) a->cost[m] += cost[m];
      a->ahead += ahead;
      b->last_acc = b->slots[h] + 1;
      return SCP_OK;
    }
  }
  if (!scp_grow(&b->acc, &b->capacc, b->nacc + 1, sizeof *b->acc)) return SCP_ERR_NOMEM;
  line_acc *a = &b->acc[b->nacc];
  memset(a, 0, sizeof *a);
  a->node = node; a->file = file; a->line = line;
  a->ahead = ahead;
  for (unsigned m = 0; m < b->nm; m++) a->cost[m] = cost[m];
  b->slots[h] = (uint32_t)b->nacc++;
  b->last_acc = b->nacc;
  if (b->nacc * 2 > b->nslots && !acc_rehash(b, b->nslots * 2)) return SCP_ERR_NOMEM;
  return SCP_OK;
}

/* Descend from prof node `at` through the inlined frames of chain (all but
 * the outermost entry, which is the function `at` stands for). */
static int descend_inline(builder *b, uint32_t at, const scp_frame_info *chain, size_t n,
                          uint32_t *out) {
  for (size_t i = n - 1; i-- > 0;) {
    uint32_t fr, next;
    int rc = frame_id(b, &chain[i], SCP_KIND_INLINED, &fr);
    if (rc) return rc;
    if ((rc = child(b, at, fr, &next))) return rc;
    scp_prof_node *pn = &b->p->nodes[next];
    if (!pn->call_line && !pn->call_file) {
      uint32_t cf;
      if ((rc = intern(b, chain[i + 1].file, &cf))) return rc;
      pn->call_file = cf;
      pn->call_line = chain[i + 1].line;
    }
    at = next;
  }
  *out = at;
  return SCP_OK;
}

typedef struct work { uint32_t raw, attach, call_file, call_line; } work;

/* A row of a module with lines, after the deferred rows' (made now, in
 * the order they came, so that rows of one node keep their order). */
static int add_row(builder *b, uint32_t node, uint32_t module, const scp_pc_cost *e, const uint64_t *cost) {
  if (b->ndefer) {
    int rc = scp_prof_rows_append(b->p, b->t, b->r, b->defer, b->ndefer);
    if (rc) return rc;
    b->ndefer = 0;
    b->defer_off = true;
  }
  return scp_prof_row_add(b->p, b->r, node, module, e, cost);
}

/* Rows booked to one (node, file, line) in a row: summed here and booked
 * once (sums are the same in any order, and book interns nothing). */
typedef struct pending {
  uint32_t node, file, line;
  bool any;
  uint64_t cost[SCP_MAX_METRICS];
  uint64_t ahead;
} pending;

static int flush(builder *b, pending *q) {
  if (!q->any) return SCP_OK;
  q->any = false;
  int rc = book(b, q->node, q->file, q->line, q->cost, q->ahead);
  memset(q->cost, 0, sizeof q->cost);
  q->ahead = 0;
  return rc;
}

static int book_flat(builder *b, uint32_t raw, const scp_tree_node *rn, uint32_t pn, uint64_t *rest);

/* Raw node rn's (raw id raw, profile node pn) per-pc costs through their
 * inline chains; rest keeps what no pc holds.  Where a chain leads is
 * worked out once per run of pcs that share it: the resolver's storage
 * is not rewritten during a build, so the same pointer and count are the
 * same chain, and descending it again would find the nodes and strings
 * the first descent made. */
static int book_pcs(builder *b, uint32_t raw, const scp_tree_node *rn, uint32_t pn, uint64_t *rest) {
  /* no chain, or one of the node's own frame without a file: every pc
   * goes to the node, file "" (id 0), line 0, as descending would */
  if (b->r->no_lines && b->r->no_lines(b->r->ctx, rn->module)) return book_flat(b, raw, rn, pn, rest);
  const scp_tree *t = b->t;
  const scp_frame_info *last = NULL;
  size_t last_n = 0;
  bool known = false, rows = false;
  pending q = {.any = false};
  int rc = SCP_OK;
  for (uint32_t i = 0; i < rn->npcs; i++) {
    const scp_pc_cost *pc = &rn->pcs[i];
    uint64_t cost[SCP_MAX_METRICS] = {0};
    for (unsigned m = 0; m < b->nm; m++) rest[m] -= cost[m] = scp_tree_pc_cost(t, pc, m);
    const scp_frame_info *chain = NULL;
    size_t cn = b->r->pc_chain(b->r->ctx, rn->module, pc->pc, &chain);
    if (!known || chain != last || cn != last_n) {
      uint32_t at = pn, file = 0, line = 0;
      if (cn) {
        if ((rc = descend_inline(b, pn, chain, cn, &at)) || (rc = intern(b, chain[0].file, &file))) return rc;
        line = chain[0].line;
      }
      if (q.any && (at != q.node || file != q.file || line != q.line) && (rc = flush(b, &q))) return rc;
      q.node = at;
      q.file = file;
      q.line = line;
      rows = b->r->pc_text && !*scp_prof_str(b->p, file);
      known = true;
      last = chain;
      last_n = cn;
    }
    q.any = true;
    for (unsigned m = 0; m < b->nm; m++) q.cost[m] += cost[m];
    q.ahead += pc->ahead;
    if (rows && (rc = add_row(b, q.node, rn->module, pc, cost))) return rc;
    /* a pc that went to the raw node's own node needs no link: that is
     * scp_prof_node_of_raw_pc's answer without one */
    scp_profile *p = b->p;
    if (q.node == pn) continue;
    if (p->nraw_pcs == p->capraw_pcs && !scp_grow(&p->raw_pcs, &p->capraw_pcs, p->nraw_pcs + 1, sizeof *p->raw_pcs))
      return SCP_ERR_NOMEM;
    p->raw_pcs[p->nraw_pcs++] = (scp_prof_rawpc){.raw = raw, .node = q.node, .pc = pc->pc};
  }
  return flush(b, &q);
}

/* A module without lines: the pcs' costs booked at once on the node, and
 * their rows (one per pc, all on the node) made at the end. */
static int book_flat(builder *b, uint32_t raw, const scp_tree_node *rn, uint32_t pn, uint64_t *rest) {
  const scp_tree *t = b->t;
  uint64_t sum[SCP_MAX_METRICS] = {0}, ahead = 0;
  if (!rn->npcs) return SCP_OK;
  for (uint32_t i = 0; i < rn->npcs; i++) {
    const scp_pc_cost *e = &rn->pcs[i];
    sum[0] += e->cost0;
    ahead += e->ahead;
    if (e->more)
      for (unsigned m = 1; m < b->nm; m++) sum[m] += t->more[e->more - 1][m];
  }
  for (unsigned m = 0; m < b->nm; m++) rest[m] -= sum[m];
  int rc = book(b, pn, 0, 0, sum, ahead);
  if (rc || !b->r->pc_text) return rc;
  const scp_prof_defer d = {.raw = raw, .node = pn};
  if (b->defer_off) return scp_prof_rows_append(b->p, t, b->r, &d, 1);
  if (!scp_grow(&b->defer, &b->capdefer, b->ndefer + 1, sizeof *b->defer)) return SCP_ERR_NOMEM;
  b->defer[b->ndefer++] = d;
  return SCP_OK;
}

static int build_tree(builder *b) {
  const scp_tree *t = b->t;
  work *stack = NULL;
  size_t n = 0, cap = 0;
  int rc = SCP_OK;
  if (!scp_grow(&stack, &cap, 1, sizeof *stack)) return SCP_ERR_NOMEM;
  /* the raw root maps to the profile root (node 0) */
  stack[n++] = (work){.raw = 0, .attach = UINT32_MAX, .call_file = 0, .call_line = 0};
  while (n && !rc) {
    work w = stack[--n];
    const scp_tree_node *rn = &t->nodes[w.raw];
    uint32_t pn;
    scp_frame_info fi;
    memset(&fi, 0, sizeof fi);
    fi.source = SCP_SRC_HOST;
    if (rn->kind == SCP_KIND_TRUNCATED) fi.name = "[truncated]";
    else if ((rc = b->r->node_frame(b->r->ctx, rn, &fi))) break;
    uint32_t fr;
    if ((rc = frame_id(b, &fi, (scp_kind)rn->kind, &fr))) break;
    if (w.attach == UINT32_MAX) {
      pn = 0;
      b->p->nodes[0].frame = fr;
    } else if ((rc = child(b, w.attach, fr, &pn))) {
      break;
    }
    b->p->raw_node[w.raw] = pn;
    b->p->nodes[pn].calls += rn->calls;
    if (w.call_line && !b->p->nodes[pn].call_line) {
      b->p->nodes[pn].call_file = w.call_file;
      b->p->nodes[pn].call_line = w.call_line;
    }
    /* self costs: per pc through the inline chain, the rest on the node */
    uint64_t rest[SCP_MAX_METRICS];
    memcpy(rest, rn->self, sizeof rest);
    if ((rc = book_pcs(b, w.raw, rn, pn, rest))) break;
    bool any = false;
    for (unsigned m = 0; m < b->nm; m++) any |= rest[m] != 0;
    if (any && (rc = book(b, pn, 0, 0, rest, 0))) break;
    /* children: calls from inlined code hang under the inlined frame */
    for (uint32_t c = rn->first_child; c != SCP_NODE_NONE; c = t->nodes[c].next_sibling) {
      uint32_t at = pn;
      uint32_t call_file = 0, call_line = 0;
      /* under a [truncated] marker call sites are not kept (all 0) */
      if (rn->kind == SCP_KIND_GUEST && rn->marker == SCP_NODE_NONE) {
        const scp_frame_info *chain = NULL;
        size_t cn = b->r->pc_chain(b->r->ctx, rn->module, t->nodes[c].callsite, &chain);
        if (cn) {
          if ((rc = descend_inline(b, pn, chain, cn, &at))) break;
          if ((rc = intern(b, chain[0].file, &call_file))) break;
          call_line = chain[0].line;
        }
      }
      if (!scp_grow(&stack, &cap, n + 1, sizeof *stack)) { rc = SCP_ERR_NOMEM; break; }
      stack[n++] = (work){.raw = c, .attach = at, .call_file = call_file, .call_line = call_line};
    }
  }
  free(stack);
  return rc;
}

/* ---- finishing: sort children and lines, totals --------------------------- */

static int cmp_node(const void *a, const void *b, void *ctx) {
  const scp_profile *p = ctx;
  const scp_prof_frame *x = &p->frames[p->nodes[*(const uint32_t *)a].frame];
  const scp_prof_frame *y = &p->frames[p->nodes[*(const uint32_t *)b].frame];
  int c = strcmp(scp_prof_str(p, x->name), scp_prof_str(p, y->name));
  if (c) return c;
  if ((c = strcmp(scp_prof_str(p, x->file), scp_prof_str(p, y->file)))) return c;
  if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
  if (x->decl_line != y->decl_line) return x->decl_line < y->decl_line ? -1 : 1;
  return x->source < y->source ? -1 : x->source > y->source;
}

static int cmp_line(const void *a, const void *b, void *ctx) {
  const scp_profile *p = ctx;
  const line_acc *x = a, *y = b;
  if (x->node != y->node) return x->node < y->node ? -1 : 1;
  int c = strcmp(scp_prof_str(p, x->file), scp_prof_str(p, y->file));
  if (c) return c;
  return x->line < y->line ? -1 : x->line > y->line;
}

int scp_prof_preorder(scp_profile *p, int (*cmp)(const void *, const void *, void *),
                      uint32_t **newid_out) {
  size_t nn = p->nnodes, no = 0, ns = 0;
  if (newid_out) *newid_out = NULL;
  if (!nn) return SCP_OK;
  uint32_t *order = malloc(nn * sizeof *order), *newid = malloc(nn * sizeof *newid);
  uint32_t *kids = malloc(nn * sizeof *kids), *stack = malloc(nn * sizeof *stack);
  scp_prof_node *nodes = malloc(nn * sizeof *nodes);
  if (!order || !newid || !kids || !stack || !nodes) {
    free(order); free(newid); free(kids); free(stack); free(nodes);
    return SCP_ERR_NOMEM;
  }
  memset(newid, 0xff, nn * sizeof *newid);
  stack[ns++] = 0;
  while (ns) {
    uint32_t id = stack[--ns];
    order[no] = id;
    newid[id] = (uint32_t)no++;
    size_t k = 0;
    for (uint32_t c = p->nodes[id].first_child; c != SCP_NODE_NONE; c = p->nodes[c].next_sibling)
      kids[k++] = c;
    if (cmp) qsort_r(kids, k, sizeof *kids, cmp, p);
    for (size_t i = k; i-- > 0;) stack[ns++] = kids[i];   /* first child on top */
  }
  for (size_t i = 0; i < no; i++) {
    nodes[i] = p->nodes[order[i]];
    nodes[i].parent = i ? newid[nodes[i].parent] : SCP_NODE_NONE;
    nodes[i].first_child = nodes[i].next_sibling = SCP_NODE_NONE;
  }
  /* relink children in preorder: iterate backwards */
  for (size_t i = no; i-- > 1;) {
    uint32_t par = nodes[i].parent;
    nodes[i].next_sibling = nodes[par].first_child;
    nodes[par].first_child = (uint32_t)i;
  }
  free(p->nodes);
  p->nodes = nodes;
  p->nnodes = p->capnodes = no;
  for (size_t i = 0; i < p->npcs; i++) p->pcs[i].node = newid[p->pcs[i].node];
  /* the raw nodes' links and the table rows' follow the renumbering */
  for (size_t i = 0; i < p->nraw; i++)
    if (p->raw_node[i] != SCP_NODE_NONE) p->raw_node[i] = newid[p->raw_node[i]];
  for (size_t i = 0; i < p->nraw_pcs; i++) p->raw_pcs[i].node = newid[p->raw_pcs[i].node];
  for (size_t i = 0; i < p->ntrows; i++)
    if (p->trows[i].has_node) p->trows[i].node = newid[p->trows[i].node];
  free(order); free(kids); free(stack);
  if (newid_out) *newid_out = newid;
  else free(newid);
  return SCP_OK;
}

void scp_prof_totals(scp_profile *p) {
  size_t nn = p->nnodes;
  for (size_t i = 0; i < nn; i++) memcpy(p->nodes[i].total, p->nodes[i].self, sizeof p->nodes[i].total);
  /* children come after parents in preorder */
  for (size_t i = nn; i-- > 1;) {
    scp_prof_node *pn = &p->nodes[i];
    for (unsigned m = 0; m < p->nmetrics; m++) p->nodes[pn->parent].total[m] += pn->total[m];
  }
  for (size_t i = 1; i < nn; i++) p->nodes[i].depth = p->nodes[p->nodes[i].parent].depth + 1;
}

/* Renumber nodes in depth-first preorder with sorted children, so node ids
 * (and everything written from them) are deterministic. */
static int finish(builder *b) {
  scp_profile *p = b->p;
  uint32_t *newid;
  /* the rows are renumbered as they are laid out, not here */
  size_t npcs = p->npcs;
  p->npcs = 0;
  int rc = scp_prof_preorder(p, cmp_node, &newid);
  p->npcs = npcs;
  if (rc) return rc;
  for (size_t i = 0; i < b->nacc; i++) b->acc[i].node = newid[b->acc[i].node];
  if (b->ndefer && !p->npcs) {
    rc = scp_prof_rows_place(p, b->t, b->r, b->defer, b->ndefer, newid);
  } else {
    if (b->ndefer) rc = scp_prof_rows_append(p, b->t, b->r, b->defer, b->ndefer);
    if (!rc && p->npcs) scp_prof_rows_lay_out(p, newid);
  }
  free(newid);
  if (rc) return rc;

  /* lines, sorted, laid out per node */
  if (b->nacc) qsort_r(b->acc, b->nacc, sizeof *b->acc, cmp_line, p);   /* none: acc may be NULL */
  if (!scp_grow(&p->lines, &p->caplines, b->nacc + 1, sizeof *p->lines)) return SCP_ERR_NOMEM;
  for (size_t i = 0; i < b->nacc; i++) {
    const line_acc *a = &b->acc[i];
    scp_prof_line *l = &p->lines[i];
    memset(l, 0, sizeof *l);
    l->file = a->file;
    l->line = a->line;
    memcpy(l->cost, a->cost, sizeof l->cost);
    l->ahead = a->ahead;
    scp_prof_node *pn = &p->nodes[a->node];
    if (pn->nlines == 0) pn->lines_first = (uint32_t)i;
    pn->nlines++;
  }
  p->nlines = b->nacc;
  scp_prof_totals(p);
  return SCP_OK;
}

/* Room for every per-pc row at once (a row per raw pc at most), so the
 * rows are not copied as they grow; and a new generation of the memo,
 * its mirrored texts taken at once. */
static int reserve(builder *b) {
  size_t n = 0;
  for (size_t i = 0; i < b->t->n; i++) n += b->t->nodes[i].npcs;
  scp_profile *p = b->p;
  if (n && b->r->pc_text && !scp_grow(&p->pcs, &p->cappcs, n, sizeof *p->pcs)) return SCP_ERR_NOMEM;
  /* the texts the program's profiles had before, at once */
  return b->r->memo ? scp_prof_memo_begin(b->r->memo, &p->strs) : SCP_OK;
}

/* The resolver's seed strings after "" (id 0), each at its seed id. */
static int seed(builder *b) {
  const scp_strtab *s = b->r->seed;
  for (uint32_t i = 1; s && i < s->n; i++) {
    const char *x = scp_strtab_get(s, i);
    uint32_t id = scp_strtab_intern_h(&b->p->strs, x, strlen(x), s->hash[i]);
    if (id == UINT32_MAX) return SCP_ERR_NOMEM;
    if (id != i) return SCP_ERR_ARG;   /* not a table's strings */
  }
  return SCP_OK;
}

/* Slots for a table of about n entries at most half full (it grows past
 * that): a program's small profiles do not clear a large table each. */
static size_t slots_for(size_t n) {
  size_t s = 16;
  while (s < 2 * n && s < 1024) s *= 2;
  return s;
}

int scp_prof_build(const scp_tree *t, const scp_metric *metrics, const scp_resolver *r,
                   scp_profile **out, scp_error *err) {
  *out = NULL;
  builder b;
  memset(&b, 0, sizeof b);
  b.t = t;
  b.r = r;
  b.nm = t->nmetrics;
  scp_profile *p = calloc(1, sizeof *p);
  if (!p) return scp_fail(err, SCP_ERR_NOMEM, "out of memory building profile");
  b.p = p;
  p->nmetrics = t->nmetrics;
  p->pc_runs = t->pc_runs;
  for (unsigned m = 0; m < t->nmetrics; m++) p->metrics[m] = metrics[m];
  int rc = SCP_OK;
  p->nraw = t->n;
  if (!(p->raw_node = malloc((t->n ? t->n : 1) * sizeof *p->raw_node))) {
    rc = SCP_ERR_NOMEM;
    goto done;
  }
  memset(p->raw_node, 0xff, (t->n ? t->n : 1) * sizeof *p->raw_node);
  if (intern(&b, "", &p->status_msg) || !scp_grow(&p->nodes, &p->capnodes, 1, sizeof *p->nodes) ||
      !child_rehash(&b, slots_for(t->n)) || !acc_rehash(&b, slots_for(t->n)) || !frame_rehash(&b, 64)) {
    rc = SCP_ERR_NOMEM;
    goto done;
  }
  if ((rc = seed(&b))) goto done;
  memset(&p->nodes[0], 0, sizeof p->nodes[0]);
  p->nodes[0].parent = p->nodes[0].first_child = p->nodes[0].next_sibling = SCP_NODE_NONE;
  p->nnodes = 1;
  if ((rc = reserve(&b))) goto done;
  if ((rc = build_tree(&b))) goto done;
  rc = finish(&b);
done:
  free(b.fslots);
  free(b.defer);
  free(b.acc);
  free(b.slots);
  free(b.cslots);
  if (rc) {
    scp_profile_destroy(p);
    return scp_fail(err, rc, "building profile: %s", scp_strerror(rc));
  }
  *out = p;
  return SCP_OK;
}

int scp_prof_frame_printf(scp_frame_info *out, char *buf, size_t size, uint8_t source,
                          const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, size, fmt, ap);
  va_end(ap);
  out->name = buf;
  out->source = source;
  return SCP_OK;
}

int scp_prof_meta(scp_profile *p, const char *key, const char *value) {
  uint32_t k = scp_strtab_intern_safe(&p->strs, key, strlen(key)),
           v = scp_strtab_intern_safe(&p->strs, value, strlen(value));
  if (k == UINT32_MAX || v == UINT32_MAX ||
      !scp_grow(&p->meta, &p->capmeta, p->nmeta + 1, sizeof *p->meta))
    return SCP_ERR_NOMEM;
  p->meta[p->nmeta++] = (scp_meta){.key = k, .value = v};
  return SCP_OK;
}

bool scp_prof_check(const scp_profile *p) {
  for (size_t i = 0; i < p->nnodes; i++) {
    uint64_t sum[SCP_MAX_METRICS];
    memcpy(sum, p->nodes[i].self, sizeof sum);
    for (uint32_t c = p->nodes[i].first_child; c != SCP_NODE_NONE; c = p->nodes[c].next_sibling)
      for (unsigned m = 0; m < p->nmetrics; m++) sum[m] += p->nodes[c].total[m];
    for (unsigned m = 0; m < p->nmetrics; m++)
      if (sum[m] != p->nodes[i].total[m]) return false;
    uint64_t lines[SCP_MAX_METRICS] = {0};
    for (uint32_t l = 0; l < p->nodes[i].nlines; l++)
      for (unsigned m = 0; m < p->nmetrics; m++) lines[m] += p->lines[p->nodes[i].lines_first + l].cost[m];
    for (unsigned m = 0; m < p->nmetrics; m++)
      if (lines[m] != p->nodes[i].self[m]) return false;
  }
  return true;
}

int scp_prof_part_add(scp_profile *p, unsigned metric, const char *title, const char *name,
                      const char *amount, uint64_t cost) {
  if (p->nparts && p->parts_metric != metric) return SCP_ERR_ARG;
  uint32_t t = scp_strtab_intern(&p->strs, title), n = scp_strtab_intern(&p->strs, name),
           a = scp_strtab_intern(&p->strs, amount);
  if (t == UINT32_MAX || n == UINT32_MAX || a == UINT32_MAX ||
      !scp_grow(&p->parts, &p->capparts, p->nparts + 1, sizeof *p->parts))
    return SCP_ERR_NOMEM;
  p->parts_title = t;
  p->parts_metric = metric;
  p->parts[p->nparts++] = (scp_prof_part){.name = n, .amount = a, .cost = cost};
  return SCP_OK;
}

int scp_prof_table_begin(scp_profile *p, const char *title, const char *item, unsigned ncols,
                         const char *const *cols, const int *col_metric) {
  if (!ncols || ncols > SCP_PROF_TABLE_COLS) return SCP_ERR_ARG;
  scp_prof_table t = {.ncols = ncols, .first = p->ntrows};
  for (unsigned i = 0; i < ncols; i++) {
    if (col_metric[i] >= (int)p->nmetrics || col_metric[i] < -1) return SCP_ERR_ARG;
    t.col_metric[i] = col_metric[i];
    if ((t.col[i] = scp_strtab_intern(&p->strs, cols[i])) == UINT32_MAX) return SCP_ERR_NOMEM;
  }
  t.title = scp_strtab_intern(&p->strs, title);
  t.item = scp_strtab_intern(&p->strs, item);
  if (t.title == UINT32_MAX || t.item == UINT32_MAX ||
      !scp_grow(&p->tables, &p->captables, p->ntables + 1, sizeof *p->tables))
    return SCP_ERR_NOMEM;
  p->tables[p->ntables++] = t;
  return SCP_OK;
}

int scp_prof_table_row(scp_profile *p, const char *name, const uint64_t *v) {
  const scp_prof_row_in in = {.name = name, .note = NULL, .node = SCP_NODE_NONE, .v = v};
  return scp_prof_table_row_ex(p, &in);
}

int scp_prof_table_row_ex(scp_profile *p, const scp_prof_row_in *in) {
  if (!p->ntables || (in->node != SCP_NODE_NONE && in->node >= p->nnodes)) return SCP_ERR_ARG;
  scp_prof_table *t = &p->tables[p->ntables - 1];
  scp_prof_trow r = {.name = scp_strtab_intern(&p->strs, in->name),
                     .note = scp_strtab_intern(&p->strs, in->note ? in->note : ""),
                     .node = in->node == SCP_NODE_NONE ? 0 : in->node,
                     .has_node = in->node != SCP_NODE_NONE};
  if (r.name == UINT32_MAX || r.note == UINT32_MAX ||
      !scp_grow(&p->trows, &p->captrows, p->ntrows + 1, sizeof *p->trows))
    return SCP_ERR_NOMEM;
  memcpy(r.v, in->v, t->ncols * sizeof *in->v);
  p->trows[p->ntrows++] = r;
  t->nrows++;
  return SCP_OK;
}

int scp_prof_table_footnote(scp_profile *p, const char *text) {
  if (!p->ntables) return SCP_ERR_ARG;
  uint32_t id = scp_strtab_intern(&p->strs, text);
  if (id == UINT32_MAX) return SCP_ERR_NOMEM;
  p->tables[p->ntables - 1].footnote = id;
  return SCP_OK;
}

int scp_prof_table_note_title(scp_profile *p, const char *title) {
  if (!p->ntables) return SCP_ERR_ARG;
  uint32_t id = scp_strtab_intern(&p->strs, title);
  if (id == UINT32_MAX) return SCP_ERR_NOMEM;
  p->tables[p->ntables - 1].note_title = id;
  return SCP_OK;
}

int scp_prof_table_col_part(scp_profile *p, unsigned col, size_t part) {
  if (!p->ntables || part >= p->nparts) return SCP_ERR_ARG;
  scp_prof_table *t = &p->tables[p->ntables - 1];
  if (col >= t->ncols) return SCP_ERR_ARG;
  t->part_cols |= 1u << col;
  t->col_part[col] = (uint32_t)part;
  return SCP_OK;
}

int scp_prof_table_per_node(scp_profile *p) {
  if (!p->ntables) return SCP_ERR_ARG;
  p->tables[p->ntables - 1].per_node = true;
  return SCP_OK;
}

uint32_t scp_prof_node_of_raw(const scp_profile *p, uint32_t raw) {
  return raw < p->nraw ? p->raw_node[raw] : SCP_NODE_NONE;
}

uint32_t scp_prof_node_of_raw_pc(const scp_profile *p, uint32_t raw, uint64_t pc) {
  for (size_t i = 0; i < p->nraw_pcs; i++)
    if (p->raw_pcs[i].raw == raw && p->raw_pcs[i].pc == pc) return p->raw_pcs[i].node;
  return scp_prof_node_of_raw(p, raw);
}

uint64_t scp_prof_table_sum(const scp_profile *p, const scp_prof_table *t, unsigned col) {
  uint64_t s = 0;
  for (size_t i = 0; i < t->nrows && col < t->ncols; i++) {
    uint64_t v = p->trows[t->first + i].v[col];
    s = s + v < s ? UINT64_MAX : s + v;
  }
  return s;
}

/* A per-node table: each node's rows sum to its self cost in every
 * metric column (nodes without rows have none of those costs). */
static bool per_node_check(const scp_profile *p, const scp_prof_table *t) {
  for (unsigned c = 0; c < t->ncols; c++) {
    if (t->col_metric[c] < 0) continue;
    unsigned m = (unsigned)t->col_metric[c];
    uint64_t *sum = calloc(p->nnodes ? p->nnodes : 1, sizeof *sum);
    if (!sum) return false;
    bool ok = true;
    for (size_t i = 0; i < t->nrows && ok; i++) {
      const scp_prof_trow *r = &p->trows[t->first + i];
      ok = r->has_node && r->node < p->nnodes;
      if (ok) sum[r->node] += r->v[c];
    }
    for (size_t n = 0; n < p->nnodes && ok; n++) ok = sum[n] == p->nodes[n].self[m];
    free(sum);
    if (!ok) return false;
  }
  return true;
}

bool scp_prof_tables_check(const scp_profile *p) {
  for (size_t k = 0; k < p->ntables; k++) {
    const scp_prof_table *t = &p->tables[k];
    for (size_t i = 0; i < t->nrows; i++) {
      const scp_prof_trow *r = &p->trows[t->first + i];
      if (r->has_node && r->node >= p->nnodes) return false;
    }
    if (t->per_node && !per_node_check(p, t)) return false;
    for (unsigned c = 0; c < t->ncols; c++) {
      if (!t->per_node && t->col_metric[c] >= 0 &&
          scp_prof_table_sum(p, t, c) != scp_profile_total(p, (unsigned)t->col_metric[c]))
        return false;
      if ((t->part_cols >> c & 1u) &&
          (t->col_part[c] >= p->nparts ||
           scp_prof_table_sum(p, t, c) != p->parts[t->col_part[c]].cost))
        return false;
    }
  }
  return true;
}

void scp_profile_destroy(scp_profile *p) {
  if (!p) return;
  scp_strtab_free(&p->strs);
  free(p->tables);
  free(p->trows);
  free(p->parts);
  free(p->frames);
  free(p->nodes);
  free(p->lines);
  free(p->pcs);
  free(p->meta);
  free(p->raw_node);
  free(p->raw_pcs);
  free(p);
}

uint64_t scp_profile_total(const scp_profile *p, unsigned metric) {
  return p && metric < p->nmetrics && p->nnodes ? p->nodes[0].total[metric] : 0;
}

_Static_assert(SCP_MAX_METRICS <= 32, "enforced_set has a bit per metric");

int scp_prof_enforced(scp_profile *p, unsigned m, uint64_t v) {
  if (m >= p->nmetrics || m >= SCP_MAX_METRICS) return SCP_ERR_ARG;
  p->enforced[m] = v;
  p->enforced_set |= 1u << m;
  return SCP_OK;
}

uint64_t scp_prof_checked(const scp_profile *p, unsigned m) {
  if (m < SCP_MAX_METRICS && (p->enforced_set >> m & 1u)) return p->enforced[m];
  return p->nnodes && m < SCP_MAX_METRICS ? p->nodes[0].total[m] : 0;
}
