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
 *
 * Memory is bounded by a node budget (max_nodes, 0 = none).  Past it, a
 * call path never seen before is not given its own nodes: it is merged
 * into a "[truncated]" node (kind SCP_KIND_TRUNCATED) under its deepest
 * kept ancestor, whose children are flat, one per callee (kind, module,
 * callee), whatever the path between them.  A node under such a marker
 * still stands for one callee, so engines' per-function counters and
 * per-pc costs stay valid, and every unit is still booked exactly once.
 * Markers and their children may take the tree to 1.5 x max_nodes; past
 * that, new callees go under one marker below the root.  The number of
 * callees (the code's size) bounds what that one can hold.
 *
 * fold_recursion: a call to a callee that already has a node on the path
 * above (up to the nearest contract entry) re-enters that node, so direct
 * and indirect recursion show as one frame whose self holds every level.
 * Engines see the same stable answer for the same key, as they must for
 * their call caches.
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
  SCP_KIND_TRUNCATED, /* "[truncated]": call paths past the node budget */
  SCP_KIND_COUNT
} scp_kind;

const char *scp_kind_name(scp_kind k);

/* A guest node's cost at one pc.  There are millions of these in a large
 * profile and nearly all cost only metric 0 (the engine's instructions),
 * so the other metrics live in the tree's side table, only for the pcs
 * that have them (read through scp_tree_pc_cost). */
typedef struct scp_pc_cost {
  uint64_t pc;
  uint64_t cost0;                    /* metric 0 */
  uint64_t ahead;                    /* of cost0: charged, did not run */
  uint32_t more;                     /* 0, or 1 + its row in the tree's `more` */
  uint64_t runs;                     /* times the instruction at pc ran (when
                                        the tree's pc_runs says they are kept) */
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
  uint32_t marker;                   /* the [truncated] node this is, or is
                                        under; SCP_NODE_NONE for kept paths */
  bool pcs_in_arena;                 /* pcs is the tree's (scp_tree.arena), not malloc's */
} scp_tree_node;

typedef struct scp_tree {
  scp_tree_node *nodes;
  size_t n, cap;
  uint32_t *buckets;                 /* hash of the node key -> first node */
  size_t nbuckets;
  unsigned nmetrics;
  size_t max_nodes;                  /* node budget; 0 = unbounded */
  bool fold_recursion;
  uint32_t root_marker;              /* the marker past 1.5 x max_nodes */
  uint64_t (*more)[SCP_MAX_METRICS]; /* per-pc costs of metrics 1.. (see scp_pc_cost) */
  size_t nmore, capmore;
  bool pc_runs;                      /* an engine counted runs per pc (scp_tree_add_pc_runs) */
  /* where the nodes' counters and first per-pc arrays come from: chunks
   * freed with the tree, each starting with the address of the one
   * before (a malloc and a free per guest node were a tenth of building
   * a small program's profile) */
  char *arena, *arena_at;
  size_t arena_left;
} scp_tree;

/* Create/destroy.  A new tree holds only the root (id 0). */
int scp_tree_init(scp_tree *t, unsigned nmetrics);
void scp_tree_free(scp_tree *t);

static inline scp_tree_node *scp_tree_at(scp_tree *t, uint32_t id) {
  return &t->nodes[id];
}

/* Find or create the child of `parent` with this key; counts one call.
 * Past the node budget, or with fold_recursion, the node returned may be
 * a merged one (see the head comment): the answer for a key never
 * changes once given.  Returns its id, or SCP_NODE_NONE on OOM. */
uint32_t scp_tree_enter(scp_tree *t, uint32_t parent, uint64_t callsite,
                        scp_kind kind, uint32_t module, uint32_t callee);

/* The same, but the child is `parent`'s own whatever the budget and the
 * folding: for a node a caller must find under `parent` again (a Solana
 * CPI's placeholder under its invoke syscall, replaced by the callee's
 * tree).  One node more than the budget per such key at most. */
uint32_t scp_tree_enter_child(scp_tree *t, uint32_t parent, uint64_t callsite,
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

/* The same, and the instruction at pc ran `runs` more times; marks the
 * tree as keeping run counts per pc (pc_runs), so that a pc with cost and
 * no runs reads as one that never ran, not as one nobody counted. */
bool scp_tree_add_pc_runs(scp_tree *t, uint32_t id, uint64_t pc, const uint64_t *cost,
                          uint64_t ahead, uint64_t runs);

/* scp_tree_add_pc for n distinct pcs, pcs[i] costing amount[i] of metric
 * (the others 0), in that order, with the same result; without searching
 * the node's entries when it has none yet (an engine settling a node's
 * counters once), so the cost is linear in n.  false on OOM. */
bool scp_tree_add_pcs(scp_tree *t, uint32_t id, const uint64_t *pcs, const uint64_t *amount, size_t n,
                      unsigned metric);

/* What the node budget merged: calls entered into nodes under a
 * [truncated] marker, and how many markers there are. */
typedef struct scp_tree_trunc {
  uint64_t calls;
  size_t markers;
} scp_tree_trunc;
scp_tree_trunc scp_tree_truncated(const scp_tree *t);

/* The cost of metric m at per-pc entry e of t. */
static inline uint64_t scp_tree_pc_cost(const scp_tree *t, const scp_pc_cost *e, unsigned m) {
  return m == 0 ? e->cost0 : e->more ? t->more[e->more - 1][m] : 0;
}

/* Add amount of metric m to per-pc entry i of node id (not to its self:
 * the caller books that).  Returns false on OOM (nothing added). */
bool scp_tree_pc_add(scp_tree *t, uint32_t id, uint32_t i, unsigned m, uint64_t amount);

/* Sum of self costs of one metric over the whole tree. */
uint64_t scp_tree_total(const scp_tree *t, unsigned metric);

#endif
