/* sol_txprof.c — a transaction's profile from its instructions' profiles
 * (see sol_txprof.h).  Nodes are appended in preorder, children in call
 * order, so instruction #k stays the k-th child of the root. */
#include <stdlib.h>
#include <string.h>
#include "solana/sol_txprof.h"

/* the text rule of every profile string (scp_prof.c), so names match */
static uint32_t str(scp_profile *p, const char *s) {
  if (!s) s = "";
  return scp_strtab_intern_safe(&p->strs, s, strlen(s));
}

static int frame(scp_profile *p, const char *name, const char *file, uint32_t decl, uint8_t kind,
                 uint8_t source, uint32_t *out) {
  uint32_t n = str(p, name), f = str(p, file);
  if (n == UINT32_MAX || f == UINT32_MAX) return SCP_ERR_NOMEM;
  for (size_t i = 0; i < p->nframes; i++) {
    const scp_prof_frame *x = &p->frames[i];
    if (x->name == n && x->file == f && x->decl_line == decl && x->kind == kind && x->source == source) {
      *out = (uint32_t)i;
      return SCP_OK;
    }
  }
  if (!scp_grow(&p->frames, &p->capframes, p->nframes + 1, sizeof *p->frames)) return SCP_ERR_NOMEM;
  p->frames[p->nframes] = (scp_prof_frame){.name = n, .file = f, .decl_line = decl, .kind = kind,
                                           .source = source};
  *out = (uint32_t)p->nframes++;
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
  p->metrics[0] = (scp_metric){"CU", "compute units", limit};
  p->status_msg = str(p, "");
  int rc = p->status_msg == UINT32_MAX ? SCP_ERR_NOMEM : frame(p, "transaction", "", 0, SCP_KIND_ROOT, SCP_SRC_HOST, &fr);
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
  int rc = frame(p, name, "", 0, SCP_KIND_CONTRACT, SCP_SRC_HOST, &fr);
  if (!rc) rc = node(p, 0, fr, id);
  if (!rc) p->nodes[*id].calls = 1;
  return rc;
}

int sol_txprof_leaf(scp_profile *p, uint32_t at, const char *name, uint64_t cu) {
  uint32_t fr, id;
  int rc = frame(p, name, "", 0, SCP_KIND_CONTRACT, SCP_SRC_HOST, &fr);
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

static int graft(scp_profile *p, uint32_t at, const scp_profile *sub, bool merge_root);

int sol_txprof_graft(scp_profile *p, uint32_t at, const scp_profile *sub) {
  return graft(p, at, sub, false);
}

int sol_txprof_merge(scp_profile *p, uint32_t at, const scp_profile *sub) {
  return graft(p, at, sub, true);
}

int sol_txprof_frame(scp_profile *p, const char *name, uint32_t *fr) {
  return frame(p, name, "", 0, SCP_KIND_CONTRACT, SCP_SRC_HOST, fr);
}

static int graft(scp_profile *p, uint32_t at, const scp_profile *sub, bool merge_root) {
  uint32_t *map = malloc((sub->nnodes ? sub->nnodes : 1) * sizeof *map);
  if (!map) return SCP_ERR_NOMEM;
  int rc = SCP_OK;
  /* sub's nodes are in preorder: a parent is mapped before its children */
  for (size_t i = 0; i < sub->nnodes && !rc; i++) {
    const scp_prof_node *s = &sub->nodes[i];
    const scp_prof_frame *sf = &sub->frames[s->frame];
    uint32_t fr, id = at;
    uint8_t kind = i == 0 ? SCP_KIND_CONTRACT : sf->kind;
    if (!(merge_root && i == 0) &&
        ((rc = frame(p, scp_prof_str(sub, sf->name), scp_prof_str(sub, sf->file), sf->decl_line, kind,
                     sf->source, &fr)) ||
         (rc = node(p, i == 0 ? at : map[s->parent], fr, &id))))
      break;
    map[i] = id;
    scp_prof_node *n = &p->nodes[id];
    n->calls = i == 0 ? 1 : s->calls;
    n->self[0] += s->self[0];
    n->call_line = s->call_line;
    n->call_file = str(p, scp_prof_str(sub, s->call_file));
    if (s->nlines && n->nlines) {
      rc = SCP_ERR_INTERNAL;   /* a placeholder has no lines of its own */
      break;
    }
    if (s->nlines) {
      if (!scp_grow(&p->lines, &p->caplines, p->nlines + s->nlines, sizeof *p->lines)) {
        rc = SCP_ERR_NOMEM;
        break;
      }
      n->lines_first = (uint32_t)p->nlines;
      n->nlines = s->nlines;
      for (uint32_t l = 0; l < s->nlines; l++) {
        scp_prof_line x = sub->lines[s->lines_first + l];
        x.file = str(p, scp_prof_str(sub, x.file));
        p->lines[p->nlines++] = x;
      }
    }
    if (n->call_file == UINT32_MAX) rc = SCP_ERR_NOMEM;
  }
  free(map);
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
