/*
 * sor_costs.c — the Budget by cost type per node.
 *
 * The run core books each boundary's costs to one node; at each booking
 * the Budget's per-type trackers are read and what moved since the last
 * booking is kept for that node (and pc, for a guest's memory.grow, which
 * the profile puts under the inlined frame at the pc).  Guest fuel is not
 * booked but skipped (the engine gives each guest node its instructions'
 * CPU), so a node's WasmInsnExec is its self CPU beyond its host-side
 * charges.  The table is checked both ways: per node against the node's
 * self CPU and memory, per cost type against the Budget's own tracker.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/run/sor_costs.h"

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

static void tracker_add(scp_cost_tracker *to, const scp_cost_tracker *d) {
  to->iterations = sat_add(to->iterations, d->iterations);
  to->inputs = sat_add(to->inputs, d->inputs);
  to->cpu = sat_add(to->cpu, d->cpu);
  to->mem = sat_add(to->mem, d->mem);
}

static size_t slot_of(uint32_t raw, uint32_t type, uint64_t pc, size_t nslots) {
  uint64_t h = (raw * 0x9e3779b97f4a7c15ull) ^ (type * 0xc2b2ae3d27d4eb4full) ^ (pc * 0x165667b19e3779f9ull);
  return (size_t)(h ^ (h >> 29)) & (nslots - 1);
}

static bool rehash(sor_costs *c, size_t nslots) {
  uint32_t *s = calloc(nslots, sizeof *s);
  if (!s) return false;
  for (size_t i = 0; i < c->n; i++) {
    size_t k = slot_of(c->cells[i].raw, c->cells[i].type, c->cells[i].pc, nslots);
    while (s[k]) k = (k + 1) & (nslots - 1);
    s[k] = (uint32_t)(i + 1);
  }
  free(c->slots);
  c->slots = s;
  c->nslots = nslots;
  return true;
}

static sor_cost_cell *cell(sor_costs *c, uint32_t raw, uint32_t type, uint64_t pc) {
  if (2 * (c->n + 1) > c->nslots && !rehash(c, c->nslots ? 2 * c->nslots : 256)) return NULL;
  size_t k = slot_of(raw, type, pc, c->nslots);
  for (; c->slots[k]; k = (k + 1) & (c->nslots - 1)) {
    sor_cost_cell *e = &c->cells[c->slots[k] - 1];
    if (e->raw == raw && e->type == type && e->pc == pc) return e;
  }
  if (!scp_grow(&c->cells, &c->cap, c->n + 1, sizeof *c->cells)) return NULL;
  c->cells[c->n] = (sor_cost_cell){.raw = raw, .type = type, .pc = pc};
  c->slots[k] = (uint32_t)++c->n;
  return &c->cells[c->n - 1];
}

void scp_sor_costs_book(void *ctx, uint32_t node, uint64_t pc) {
  sor_costs *c = ctx;
  if (!c->b) return;
  for (unsigned t = 0; t < SCP_COST_COUNT; t++) {
    const scp_cost_tracker *now = &c->b->tracker[t];
    scp_cost_tracker *cur = &c->cursor[t];
    if (!memcmp(now, cur, sizeof *now)) continue;
    if (node != SCP_NODE_NONE && !c->oom) {
      const scp_cost_tracker d = {.iterations = now->iterations - cur->iterations,
                                  .inputs = now->inputs - cur->inputs,
                                  .cpu = now->cpu - cur->cpu, .mem = now->mem - cur->mem};
      sor_cost_cell *e = cell(c, node, t, pc);
      if (e) tracker_add(&e->t, &d);
      else c->oom = true;
    }
    *cur = *now;
  }
}

void scp_sor_costs_free(sor_costs *c) {
  free(c->cells);
  free(c->slots);
  memset(c, 0, sizeof *c);
}

/* ---- the table ----------------------------------------------------------------- */

typedef struct row { uint32_t node, type; scp_cost_tracker t; } row;

static int by_node_type(const void *a, const void *b) {
  const row *x = a, *y = b;
  if (x->node != y->node) return x->node < y->node ? -1 : 1;
  return x->type < y->type ? -1 : x->type > y->type;
}

/* The cells on profile nodes, sorted and merged, plus each node's
 * WasmInsnExec; *n rows.  SCP_ERR_INTERNAL when a node's host-side
 * charges exceed its self costs or its remainder is not whole fuel. */
static int node_rows(const sor_costs *c, const scp_profile *p, unsigned cpu, unsigned mem, row **out,
                     size_t *n, scp_error *err) {
  row *r = malloc((c->n + p->nnodes + 1) * sizeof *r);
  if (!r) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  size_t k = 0;
  for (size_t i = 0; i < c->n; i++) {
    const sor_cost_cell *e = &c->cells[i];
    uint32_t node = e->pc == UINT64_MAX ? scp_prof_node_of_raw(p, e->raw)
                                        : scp_prof_node_of_raw_pc(p, e->raw, e->pc);
    if (node != SCP_NODE_NONE) r[k++] = (row){.node = node, .type = e->type, .t = e->t};
  }
  /* each node's guest instructions: its self cost beyond the charges */
  uint64_t *hcpu = calloc(p->nnodes + 1, sizeof *hcpu), *hmem = calloc(p->nnodes + 1, sizeof *hmem);
  int rc = SCP_OK;
  if (!hcpu || !hmem) rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  for (size_t i = 0; !rc && i < k; i++) {
    hcpu[r[i].node] = sat_add(hcpu[r[i].node], r[i].t.cpu);
    hmem[r[i].node] = sat_add(hmem[r[i].node], r[i].t.mem);
  }
  uint64_t per = c->b->model[SCP_COST_WasmInsnExec].cpu_const;
  for (uint32_t id = 0; !rc && id < p->nnodes; id++) {
    const scp_prof_node *pn = &p->nodes[id];
    if (hcpu[id] > pn->self[cpu] || hmem[id] != pn->self[mem] ||
        (per && (pn->self[cpu] - hcpu[id]) % per))
      rc = scp_fail(err, SCP_ERR_INTERNAL,
                    "internal error: node %u's charges by cost type (CPU %llu, memory %llu) do not "
                    "fit its self cost (CPU %llu, memory %llu)", id, (unsigned long long)hcpu[id],
                    (unsigned long long)hmem[id], (unsigned long long)pn->self[cpu],
                    (unsigned long long)pn->self[mem]);
    else if (pn->self[cpu] > hcpu[id])
      r[k++] = (row){.node = id, .type = SCP_COST_WasmInsnExec,
                     .t = {.iterations = per ? (pn->self[cpu] - hcpu[id]) / per : 0,
                           .cpu = pn->self[cpu] - hcpu[id]}};
  }
  free(hcpu);
  free(hmem);
  if (rc) {
    free(r);
    return rc;
  }
  if (k) qsort(r, k, sizeof *r, by_node_type);
  size_t m = 0;
  for (size_t i = 0; i < k; i++) {
    if (m && r[m - 1].node == r[i].node && r[m - 1].type == r[i].type) tracker_add(&r[m - 1].t, &r[i].t);
    else r[m++] = r[i];
  }
  *out = r;
  *n = m;
  return SCP_OK;
}

/* Every cost type's rows add up to the Budget's own tracker. */
static int check_types(const sor_costs *c, const row *r, size_t n, scp_error *err) {
  scp_cost_tracker sum[SCP_COST_COUNT];
  memset(sum, 0, sizeof sum);
  for (size_t i = 0; i < n; i++) tracker_add(&sum[r[i].type], &r[i].t);
  for (unsigned t = 0; t < SCP_COST_COUNT; t++)
    if (memcmp(&sum[t], &c->b->tracker[t], sizeof sum[t]))
      return scp_fail(err, SCP_ERR_INTERNAL,
                      "internal error: the nodes' %s (CPU %llu, memory %llu) differs from the Budget's "
                      "(CPU %llu, memory %llu)", scp_cost_type_name((scp_cost_type)t),
                      (unsigned long long)sum[t].cpu, (unsigned long long)sum[t].mem,
                      (unsigned long long)c->b->tracker[t].cpu, (unsigned long long)c->b->tracker[t].mem);
  return SCP_OK;
}

int scp_sor_costs_table(const sor_costs *c, scp_profile *p, unsigned cpu, unsigned mem,
                        scp_error *err) {
  if (!c->b) return SCP_OK;
  if (c->oom) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  row *r = NULL;
  size_t n = 0;
  int rc = node_rows(c, p, cpu, mem, &r, &n, err);
  if (rc) return rc;
  if ((rc = check_types(c, r, n, err))) {
    free(r);
    return rc;
  }
  static const char *const cols[] = {"iterations", "input", "CPU", "memory"};
  const int col_metric[] = {-1, -1, (int)cpu, (int)mem};
  rc = scp_prof_table_begin(p, "Budget by cost type per node", "cost type", 4, cols, col_metric);
  if (!rc) rc = scp_prof_table_per_node(p);
  for (size_t i = 0; !rc && i < n; i++) {
    const uint64_t v[] = {r[i].t.iterations, r[i].t.inputs, r[i].t.cpu, r[i].t.mem};
    const scp_prof_row_in in = {.name = scp_cost_type_name((scp_cost_type)r[i].type), .note = NULL,
                                .node = r[i].node, .v = v};
    rc = scp_prof_table_row_ex(p, &in);
  }
  free(r);
  if (rc == SCP_ERR_NOMEM) return scp_fail(err, rc, "out of memory");
  if (rc) return scp_fail(err, SCP_ERR_INTERNAL, "internal error: the budget table per node");
  return SCP_OK;
}
