/* sol_trunc.c — one "call tree" note for a profile of several program
 * invocations (see sol_trunc.h).  Each invocation ran with its own node
 * budget and its profile says what that budget merged; grafted together,
 * those notes were a line per invocation, in the report and on stderr.
 * The count comes from the grafted nodes, not from the notes' text: a
 * graft copies a [truncated] frame and its children whole. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "solana/sol_trunc.h"
#include "util/scp_util.h"

static const char key[] = "call tree";

/* a program's node: "program:NAME ..." under a transaction or a CPI's
 * invoke, or an instruction profile's root, whose frame names its owner */
static bool program_node(const scp_profile *p, uint32_t n) {
  const scp_prof_frame *f = &p->frames[p->nodes[n].frame];
  return (f->kind == SCP_KIND_CONTRACT || f->kind == SCP_KIND_ROOT) && scp_prof_str(p, f->owner_id)[0];
}

static bool truncated(const scp_profile *p, uint32_t n) {
  return p->frames[p->nodes[n].frame].kind == SCP_KIND_TRUNCATED;
}

typedef struct tally {
  uint64_t calls;
  size_t markers, invocations;
  uint32_t *owner;   /* the programs cut, by owner name (string id), in node order */
  size_t *count;     /* their invocations cut */
  size_t nowners;
} tally;

static void count_owner(tally *t, uint32_t owner) {
  size_t i = 0;
  while (i < t->nowners && t->owner[i] != owner) i++;
  if (i == t->nowners) {
    t->owner[t->nowners] = owner;
    t->count[t->nowners++] = 0;
  }
  t->count[i]++;
  t->invocations++;
}

/* The calls booked under marker m: every node below it in its own
 * invocation, a CPI's program node included (its invoke was one of the
 * caller's calls past the budget), the callee's nodes not (its budget is
 * its own).  Inlined frames' nodes count 0 calls. */
static uint64_t merged_calls(const scp_profile *p, uint32_t m) {
  uint64_t calls = 0;
  uint32_t n = p->nodes[m].first_child;
  while (n != SCP_NODE_NONE) {
    const scp_prof_node *x = &p->nodes[n];
    calls += x->calls;
    if (x->first_child != SCP_NODE_NONE && !program_node(p, n)) {
      n = x->first_child;
      continue;
    }
    while (n != m && p->nodes[n].next_sibling == SCP_NODE_NONE) n = p->nodes[n].parent;
    n = n == m ? SCP_NODE_NONE : p->nodes[n].next_sibling;
  }
  return calls;
}

/* cut[n]: program node n has a [truncated] frame of its own below it */
static void count(const scp_profile *p, bool *cut, tally *t) {
  for (uint32_t n = 0; n < p->nnodes; n++) {
    if (!truncated(p, n)) continue;
    t->markers++;
    t->calls += merged_calls(p, n);
    uint32_t at = p->nodes[n].parent;
    while (at != SCP_NODE_NONE && !program_node(p, at)) at = p->nodes[at].parent;
    cut[at == SCP_NODE_NONE ? 0 : at] = true;
  }
  for (uint32_t n = 0; n < p->nnodes; n++)
    if (cut[n]) count_owner(t, p->frames[p->nodes[n].frame].owner);
}

static void say(const scp_profile *p, const tally *t, const scp_tree_opts *shape, scp_buf *s) {
  scp_buf_puts(s, "node budget of ");
  scp_buf_put_grouped(s, shape->max_nodes ? shape->max_nodes : SCP_DEFAULT_MAX_NODES);
  scp_buf_printf(s, " reached in %zu program invocation%s (", t->invocations, t->invocations == 1 ? "" : "s");
  for (size_t i = 0; i < t->nowners; i++)
    scp_buf_printf(s, "%s%s %zu", i ? ", " : "", scp_prof_str(p, t->owner[i]), t->count[i]);
  scp_buf_puts(s, "): ");
  scp_buf_put_grouped(s, t->calls);
  scp_buf_printf(s, " call%s on paths past it merged into %zu [truncated] frame%s "
                 "(costs exact; raise --max-nodes to see them)",
                 t->calls == 1 ? "" : "s", t->markers, t->markers == 1 ? "" : "s");
}

int sol_trunc_note(scp_profile *p, const scp_tree_opts *shape) {
  size_t first = 0;
  while (first < p->nmeta && strcmp(scp_prof_str(p, p->meta[first].key), key)) first++;
  if (first == p->nmeta) return SCP_OK;
  size_t n = p->nnodes ? p->nnodes : 1;
  bool *cut = calloc(n, sizeof *cut);
  tally t = {.owner = malloc(n * sizeof *t.owner), .count = malloc(n * sizeof *t.count)};
  scp_buf s = {0};
  int rc = cut && t.owner && t.count ? SCP_OK : SCP_ERR_NOMEM;
  if (!rc) {
    count(p, cut, &t);
    say(p, &t, shape, &s);
  }
  uint32_t value = rc || s.oom ? UINT32_MAX : scp_strtab_intern_safe(&p->strs, s.data, s.len);
  if (value == UINT32_MAX) rc = SCP_ERR_NOMEM;
  if (!rc) {
    p->meta[first].value = value;
    size_t kept = first + 1;
    for (size_t i = first + 1; i < p->nmeta; i++)
      if (strcmp(scp_prof_str(p, p->meta[i].key), key)) p->meta[kept++] = p->meta[i];
    p->nmeta = kept;
  }
  scp_buf_free(&s);
  free(cut);
  free(t.owner);
  free(t.count);
  return rc;
}
