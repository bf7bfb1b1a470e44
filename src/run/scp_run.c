/*
 * scp_run.c — the run core (scp_run.h): cursor booking, the node stack, the
 * invariant and the profile's metadata, for any chain.
 *
 * The stack never fails to push: past what could be allocated, entries are
 * only counted (`excess`) and the last stored node stands in for them, so
 * every enter still pairs with one leave and no cost is lost.
 */
#include "run/scp_run.h"

#include <stdlib.h>
#include <string.h>

struct scp_run {
  scp_tree tree;
  unsigned nmetrics;
  scp_metric metrics[SCP_MAX_METRICS];
  scp_run_meter_fn meter;
  void *meter_ctx;
  const uint64_t *totals;
  uint64_t cursor[SCP_MAX_METRICS];   /* per metric, the amount already booked */
  uint32_t *stack;                    /* entered nodes; the root is below them */
  size_t depth, cap;
  size_t excess;                      /* entries past the stack's storage */
  scp_run_book_fn hook;               /* scp_run_set_book_hook */
  void *hook_ctx;
};

int scp_run_create(const scp_run_opts *o, scp_run **out, scp_error *err) {
  *out = NULL;
  if (!o->nmetrics || o->nmetrics > SCP_MAX_METRICS || !o->metrics || (!o->meter && !o->totals))
    return scp_fail(err, SCP_ERR_ARG, "run: %u metrics, a meter or totals and their names are needed",
                    o->nmetrics);
  scp_run *r = calloc(1, sizeof *r);
  if (!r || scp_tree_init(&r->tree, o->nmetrics)) {
    free(r);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  r->tree.max_nodes = SCP_DEFAULT_MAX_NODES;
  r->nmetrics = o->nmetrics;
  memcpy(r->metrics, o->metrics, o->nmetrics * sizeof *o->metrics);
  r->meter = o->meter;
  r->meter_ctx = o->meter_ctx;
  r->totals = o->totals;
  *out = r;
  return SCP_OK;
}

void scp_run_destroy(scp_run *r) {
  if (!r) return;
  scp_tree_free(&r->tree);
  free(r->stack);
  free(r);
}

void scp_run_set_shape(scp_run *r, const scp_tree_opts *shape) {
  r->tree.max_nodes = shape->max_nodes == UINT64_MAX ? 0
                      : shape->max_nodes ? (size_t)shape->max_nodes
                                         : SCP_DEFAULT_MAX_NODES;
  r->tree.fold_recursion = shape->fold_recursion;
}

scp_tree *scp_run_tree(scp_run *r) { return &r->tree; }

static void read_meter(scp_run *r, uint64_t *now) {
  if (r->meter) r->meter(r->meter_ctx, now);
  else memcpy(now, r->totals, r->nmetrics * sizeof *now);
}

bool scp_run_take(scp_run *r, uint64_t *delta) {
  uint64_t now[SCP_MAX_METRICS];
  uint64_t any = 0;
  read_meter(r, now);
  for (unsigned m = 0; m < r->nmetrics; m++) {
    delta[m] = now[m] - r->cursor[m];
    any |= delta[m];
    r->cursor[m] = now[m];
  }
  return any != 0;
}

void scp_run_add(scp_run *r, uint32_t node, const uint64_t *delta) {
  uint64_t *self = r->tree.nodes[node].self;
  for (unsigned m = 0; m < r->nmetrics; m++) self[m] += delta[m];
}

/* The hot path: every boundary books once, so one loop, no copies. */
static inline void book(scp_run *r, uint32_t node) {
  if (r->hook) r->hook(r->hook_ctx, node, UINT64_MAX);
  uint64_t now[SCP_MAX_METRICS];
  read_meter(r, now);
  uint64_t *self = r->tree.nodes[node].self;
  for (unsigned m = 0; m < r->nmetrics; m++) {
    self[m] += now[m] - r->cursor[m];
    r->cursor[m] = now[m];
  }
}

void scp_run_book(scp_run *r, uint32_t node) { book(r, node); }

bool scp_run_book_pc(scp_run *r, uint32_t node, uint64_t pc) {
  if (r->hook) r->hook(r->hook_ctx, node, pc);
  uint64_t d[SCP_MAX_METRICS] = {0};
  scp_run_take(r, d);
  return scp_tree_add_pc(&r->tree, node, pc, d);
}

void scp_run_skip(scp_run *r) {
  if (r->hook) r->hook(r->hook_ctx, SCP_NODE_NONE, UINT64_MAX);
  read_meter(r, r->cursor);
}

void scp_run_set_book_hook(scp_run *r, scp_run_book_fn fn, void *ctx) {
  r->hook = fn;
  r->hook_ctx = ctx;
}

uint32_t scp_run_top(const scp_run *r) {
  size_t stored = r->depth - r->excess;
  return stored ? r->stack[stored - 1] : 0;
}

size_t scp_run_depth(const scp_run *r) { return r->depth; }

static __attribute__((noinline)) void push_grow(scp_run *r, uint32_t node) {
  if (!r->excess && scp_grow(&r->stack, &r->cap, r->depth + 1, sizeof *r->stack))
    r->stack[r->depth] = node;
  else
    r->excess++;
  r->depth++;
}

/* Once per host call: the common case inline, growing out of line. */
static inline void push(scp_run *r, uint32_t node) {
  if (r->depth < r->cap && !r->excess) r->stack[r->depth++] = node;
  else push_grow(r, node);
}

uint32_t scp_run_enter(scp_run *r, uint32_t parent, uint64_t callsite, scp_kind kind,
                       uint32_t module, uint32_t callee) {
  uint32_t top = scp_run_top(r);
  book(r, top);
  uint32_t node = scp_tree_enter(&r->tree, parent, callsite, kind, module, callee);
  push(r, node == SCP_NODE_NONE ? top : node);
  return node;
}

uint32_t scp_run_enter_from_guest(scp_run *r, uint32_t parent, uint64_t callsite, scp_kind kind,
                                  uint32_t module, uint32_t callee) {
  scp_run_skip(r);
  uint32_t node = scp_tree_enter(&r->tree, parent, callsite, kind, module, callee);
  push(r, node == SCP_NODE_NONE ? scp_run_top(r) : node);
  return node;
}

void scp_run_leave(scp_run *r) {
  book(r, scp_run_top(r));
  if (!r->depth) return;
  if (r->excess) r->excess--;
  r->depth--;
}

void scp_run_unwind(scp_run *r) {
  do scp_run_leave(r);
  while (r->depth);
}

uint64_t scp_run_total(scp_run *r, unsigned m) {
  uint64_t now[SCP_MAX_METRICS];
  read_meter(r, now);
  return m < r->nmetrics ? now[m] : 0;
}

int scp_run_check(scp_run *r, scp_error *err) {
  uint64_t now[SCP_MAX_METRICS];
  read_meter(r, now);
  for (unsigned m = 0; m < r->nmetrics; m++) {
    uint64_t sum = scp_tree_total(&r->tree, m);
    if (sum != now[m])
      return scp_fail(err, SCP_ERR_INTERNAL,
                      "internal error: the profile's %s sums to %llu %s, the meter counted %llu",
                      r->metrics[m].name, (unsigned long long)sum, r->metrics[m].unit,
                      (unsigned long long)now[m]);
  }
  return SCP_OK;
}

static int oom(scp_error *err) { return scp_fail(err, SCP_ERR_NOMEM, "out of memory"); }

/* The tree's shape, said in the profile: what the node budget merged and
 * whether recursion was folded, so a reader knows the tree is not whole. */
static int shape_meta(const scp_run *r, scp_profile *p) {
  scp_tree_trunc tr = scp_tree_truncated(&r->tree);
  if (tr.markers) {
    scp_buf s = {0};
    scp_buf_puts(&s, "node budget of ");
    scp_buf_put_grouped(&s, r->tree.max_nodes);
    scp_buf_puts(&s, " reached: ");
    scp_buf_put_grouped(&s, tr.calls);
    scp_buf_printf(&s, " call%s on paths past it merged into %zu [truncated] frame%s "
                   "(costs exact; raise --max-nodes to see them)",
                   tr.calls == 1 ? "" : "s", tr.markers, tr.markers == 1 ? "" : "s");
    int rc = s.oom ? SCP_ERR_NOMEM : scp_prof_meta(p, "call tree", s.data);
    scp_buf_free(&s);
    if (rc) return rc;
  }
  if (r->tree.fold_recursion)
    return scp_prof_meta(p, "recursion", "folded: a recursive call re-enters its caller's frame");
  return SCP_OK;
}

int scp_run_build(scp_run *r, const scp_run_report *rep, scp_profile **out, scp_error *err) {
  *out = NULL;
  scp_run_unwind(r);
  int rc = scp_run_check(r, err);
  if (rc) return rc;
  unsigned keep = rep->nmetrics && rep->nmetrics < r->nmetrics ? rep->nmetrics : r->nmetrics;
  unsigned all = r->tree.nmetrics;
  r->tree.nmetrics = keep;
  scp_profile *p = NULL;
  rc = scp_prof_build(&r->tree, r->metrics, rep->resolver, &p, err);
  r->tree.nmetrics = all;
  if (rc) return rc;
  p->status = rep->status;
  const char *ttl = rep->title ? rep->title : "";
  uint32_t title = scp_strtab_intern_safe(&p->strs, ttl, strlen(ttl));
  if (title == UINT32_MAX) {
    rc = oom(err);
    goto fail;
  }
  p->title = title;
  if (rep->add_meta && (rc = rep->add_meta(rep->ctx, p, err))) goto fail;
  if (shape_meta(r, p)) {
    rc = oom(err);
    goto fail;
  }
  if (rep->status) {
    const char *msg = rep->status_msg ? rep->status_msg : "";
    uint32_t sid = scp_strtab_intern_safe(&p->strs, msg, strlen(msg));
    if (sid == UINT32_MAX) {
      rc = oom(err);
      goto fail;
    }
    p->status_msg = sid;
  }
  if (!scp_prof_check(p)) {
    rc = scp_fail(err, SCP_ERR_INTERNAL, "internal error: inclusive costs do not add up");
    goto fail;
  }
  *out = p;
  return SCP_OK;
fail:
  scp_profile_destroy(p);
  return rc;
}
