/*
 * scp_tree.h — stage 3, the aggregator: the raw calling-context tree (CCT)
 * that an engine fills while a program runs.
 *
 * Chain-neutral: nothing here knows about WASM, Soroban or sBPF.  A node is
 * keyed by (parent, callsite, kind, module, callee).  `module` names the
 * binary the callee's code lives in (for symbolization later) and `callee`
 * is engine-defined (function index, host-function id, contract id...).
 *
 * Costs are exclusive ("self") vectors of up to SCP_MAX_METRICS metrics.
 * Guest nodes additionally keep per-pc self costs, so the source mapper can
 * split them by line and inline chain after the run; their `self` is always
 * the sum of their per-pc costs plus any cost added without a pc.
 *
 * Node ids are stable; node pointers are not (the node array grows), so an
 * engine keeps ids and may cache the `counters` pointer, which is stable.
 */
#ifndef SCP_TREE_H
#define SCP_TREE_H

#include "util/scp_util.h"

#define SCP_MAX_METRICS 8
#define SCP_NODE_NONE UINT32_MAX

typedef enum scp_kind {
  SCP_KIND_ROOT,      /* the whole run */
  SCP_KIND_GUEST,     /* a guest function (WASM function, sBPF function) */
  SCP_KIND_INLINED,   /* a guest function inlined by the compiler (stage 2) */
  SCP_KIND_HOST,      /* a host function / syscall */
  SCP_KIND_CONTRACT,  /* a contract / program entry (cross-contract, CPI) */
  SCP_KIND_VM,        /* VM set-up work: parse, instantiate, load */
  SCP_KIND_COUNT
} scp_kind;

const char *scp_kind_name(scp_kind k);

typedef struct scp_pc_cost {
  uint64_t pc;
  uint64_t cost[SCP_MAX_METRICS];
  uint64_t ahead;                    /* of cost[0]: charged, did not run */
} scp_pc_cost;

typedef struct scp_tree_node {
  uint32_t parent, first_child, next_sibling;
  uint32_t kind, module, callee;
  uint64_t callsite;                 /* pc in the parent where it was called */
  uint64_t calls;                    /* times entered */
  uint64_t self[SCP_MAX_METRICS];
  uint64_t *counters;                /* engine-owned (e.g. region entries) */
  uint32_t ncounters;
  uint32_t npcs, cappcs;
  scp_pc_cost *pcs;                  /* per-pc self costs, unsorted */
  uint32_t hash_next;                /* child-lookup chain */
} scp_tree_node;

typedef struct scp_tree {
  scp_tree_node *nodes;
  size_t n, cap;
  uint32_t *buckets;                 /* hash of the node key -> first node */
  size_t nbuckets;
  unsigned nmetrics;
} scp_tree;

/* Create/destroy.  A new tree holds only the root (id 0). */
int scp_tree_init(scp_tree *t, unsigned nmetrics);
void scp_tree_free(scp_tree *t);

static inline scp_tree_node *scp_tree_at(scp_tree *t, uint32_t id) {
  return &t->nodes[id];
}

/* Find or create the child of `parent` with this key; counts one call.
 * Returns its id, or SCP_NODE_NONE on OOM. */
uint32_t scp_tree_enter(scp_tree *t, uint32_t parent, uint64_t callsite,
                        scp_kind kind, uint32_t module, uint32_t callee);

/* Give node `id` n zeroed engine counters (idempotent once allocated).
 * Returns the stable counter array or NULL on OOM. */
uint64_t *scp_tree_counters(scp_tree *t, uint32_t id, uint32_t n);

/* Add `amount` of `metric` to node's self cost. */
static inline void scp_tree_add(scp_tree *t, uint32_t id, unsigned metric,
                                uint64_t amount) {
  t->nodes[id].self[metric] += amount;
}

/* Add a cost vector (nmetrics entries) to node's self, attributed to pc.
 * Returns false on OOM (the self cost is still added). */
bool scp_tree_add_pc(scp_tree *t, uint32_t id, uint64_t pc, const uint64_t *cost);

/* The same, `ahead` of cost[0] being "charged ahead": paid for code at pc
 * that did not run (an engine that charges a block on entry and leaves it
 * early).  It is part of cost[0], not an extra cost. */
bool scp_tree_add_pc_ahead(scp_tree *t, uint32_t id, uint64_t pc, const uint64_t *cost,
                           uint64_t ahead);

/* Sum of self costs of one metric over the whole tree. */
uint64_t scp_tree_total(const scp_tree *t, unsigned metric);

#endif
