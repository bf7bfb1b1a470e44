/*
 * scp_tree.c — the raw calling-context tree: find-or-create children by
 * key with a hash table over all nodes, per-node self costs and per-pc
 * costs.
 */
#include "profile/scp_tree.h"

#include <stdlib.h>
#include <string.h>

static const char *const kind_names[SCP_KIND_COUNT] = {
  "root", "guest", "inlined", "host", "contract", "vm", "truncated",
};

const char *scp_kind_name(scp_kind k) {
  return k < SCP_KIND_COUNT ? kind_names[k] : "unknown";
}

/* Called once per guest call while profiling: one multiply-xorshift
 * round over the mixed key is enough to spread it over the buckets. */
static inline uint64_t key_hash(uint32_t parent, uint64_t callsite, uint32_t kind,
                                uint32_t module, uint32_t callee) {
  uint64_t h = (uint64_t)parent * 0x9e3779b97f4a7c15ULL ^ callsite * 0xc2b2ae3d27d4eb4fULL ^
               ((uint64_t)callee << 32 | (uint64_t)module << 8 | kind);
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 32);
}

static bool rehash(scp_tree *t, size_t nb) {
  uint32_t *b = malloc(nb * sizeof *b);
  if (!b) return false;
  memset(b, 0xff, nb * sizeof *b);
  for (size_t i = 1; i < t->n; i++) {
    scp_tree_node *n = &t->nodes[i];
    size_t h = key_hash(n->parent, n->callsite, n->kind, n->module, n->callee) & (nb - 1);
    n->hash_next = b[h];
    b[h] = (uint32_t)i;
  }
  free(t->buckets);
  t->buckets = b;
  t->nbuckets = nb;
  return true;
}

int scp_tree_init(scp_tree *t, unsigned nmetrics) {
  memset(t, 0, sizeof *t);
  if (nmetrics == 0 || nmetrics > SCP_MAX_METRICS) return SCP_ERR_ARG;
  t->nmetrics = nmetrics;
  if (!scp_grow(&t->nodes, &t->cap, 64, sizeof *t->nodes) || !rehash(t, 256)) {
    scp_tree_free(t);
    return SCP_ERR_NOMEM;
  }
  memset(&t->nodes[0], 0, sizeof t->nodes[0]);
  t->nodes[0].parent = t->nodes[0].first_child = t->nodes[0].next_sibling = SCP_NODE_NONE;
  t->nodes[0].hash_next = SCP_NODE_NONE;
  t->nodes[0].marker = SCP_NODE_NONE;
  t->root_marker = SCP_NODE_NONE;
  t->nodes[0].kind = SCP_KIND_ROOT;
  t->nodes[0].calls = 1;
  t->n = 1;
  return SCP_OK;
}

/* n bytes (a multiple of 16 at most n + 15) from the tree's chunks, not
 * zeroed; NULL on OOM.  They stay put until the tree is freed. */
static void *arena_take(scp_tree *t, size_t n) {
  enum { CHUNK = 32768, HEAD = 16 };
  n = (n + 15) & ~(size_t)15;
  if (n > t->arena_left) {
    size_t size = n > CHUNK ? n : CHUNK;
    if (size > SIZE_MAX - HEAD) return NULL;
    char *c = malloc(HEAD + size);
    if (!c) return NULL;
    *(char **)(void *)c = t->arena;
    t->arena = c;
    t->arena_at = c + HEAD;
    t->arena_left = size;
  }
  void *at = t->arena_at;
  t->arena_at += n;
  t->arena_left -= n;
  return at;
}

void scp_tree_free(scp_tree *t) {
  for (size_t i = 0; i < t->n; i++)
    if (!t->nodes[i].pcs_in_arena) free(t->nodes[i].pcs);
  for (char *c = t->arena; c;) {
    char *prev = *(char **)(void *)c;
    free(c);
    c = prev;
  }
  free(t->nodes);
  free(t->buckets);
  free(t->more);
  memset(t, 0, sizeof *t);
}

/* Inlined: a guest's host calls reach the tree on every call (no call
 * cache on that path), so the lookup is the hot path. */
static inline __attribute__((always_inline)) uint32_t find(const scp_tree *t, uint32_t parent,
                                                             uint64_t callsite, scp_kind kind,
                                                             uint32_t module, uint32_t callee) {
  size_t h = key_hash(parent, callsite, kind, module, callee) & (t->nbuckets - 1);
  for (uint32_t i = t->buckets[h]; i != SCP_NODE_NONE; i = t->nodes[i].hash_next) {
    const scp_tree_node *n = &t->nodes[i];
    if (n->parent == parent && n->callsite == callsite && n->kind == (uint32_t)kind &&
        n->module == module && n->callee == callee)
      return i;
  }
  return SCP_NODE_NONE;
}

/* A new node with calls == 0 (the caller counts the call). */
static uint32_t create(scp_tree *t, uint32_t parent, uint64_t callsite, scp_kind kind,
                       uint32_t module, uint32_t callee) {
  if (t->n >= SCP_NODE_NONE - 1) return SCP_NODE_NONE;
  if (!scp_grow(&t->nodes, &t->cap, t->n + 1, sizeof *t->nodes)) return SCP_NODE_NONE;
  size_t h = key_hash(parent, callsite, kind, module, callee) & (t->nbuckets - 1);
  uint32_t id = (uint32_t)t->n++;
  scp_tree_node *n = &t->nodes[id];
  memset(n, 0, sizeof *n);
  n->parent = parent;
  n->callsite = callsite;
  n->kind = kind;
  n->module = module;
  n->callee = callee;
  n->first_child = SCP_NODE_NONE;
  n->marker = kind == SCP_KIND_TRUNCATED ? id : t->nodes[parent].marker;
  n->next_sibling = t->nodes[parent].first_child;
  t->nodes[parent].first_child = id;
  n->hash_next = t->buckets[h];
  t->buckets[h] = id;
  if (t->n * 2 > t->nbuckets) rehash(t, t->nbuckets * 2);  /* failure only slows lookups */
  return id;
}

static uint32_t find_or_create(scp_tree *t, uint32_t parent, uint64_t callsite, scp_kind kind,
                               uint32_t module, uint32_t callee) {
  uint32_t id = find(t, parent, callsite, kind, module, callee);
  return id != SCP_NODE_NONE ? id : create(t, parent, callsite, kind, module, callee);
}

/* With fold_recursion: the node of the same callee on the path above
 * parent, up to the nearest contract entry, or SCP_NODE_NONE. */
static uint32_t recursion_of(const scp_tree *t, uint32_t parent, scp_kind kind, uint32_t module,
                             uint32_t callee) {
  if (kind != SCP_KIND_GUEST) return SCP_NODE_NONE;
  for (uint32_t a = parent; a != SCP_NODE_NONE; a = t->nodes[a].parent) {
    const scp_tree_node *n = &t->nodes[a];
    if (n->kind == (uint32_t)kind && n->module == module && n->callee == callee) return a;
    if (n->kind == SCP_KIND_CONTRACT || n->kind == SCP_KIND_TRUNCATED) break;
  }
  return SCP_NODE_NONE;
}

/* A key past the budget: its flat node under the marker of parent (or,
 * past 1.5 x the budget, under the root's marker).  A marker is only made
 * with room for its first child, so none stays empty. */
static uint32_t truncated(scp_tree *t, uint32_t parent, scp_kind kind, uint32_t module,
                          uint32_t callee) {
  size_t room = t->max_nodes + t->max_nodes / 2;
  uint32_t mk = t->nodes[parent].marker;
  if (mk == SCP_NODE_NONE) {
    mk = find(t, parent, 0, SCP_KIND_TRUNCATED, 0, 0);
    if (mk == SCP_NODE_NONE && t->n + 2 <= room)
      mk = create(t, parent, 0, SCP_KIND_TRUNCATED, 0, 0);
  }
  if (mk != SCP_NODE_NONE) {
    uint32_t id = find(t, mk, 0, kind, module, callee);
    if (id != SCP_NODE_NONE) return id;
    if (t->n < room) return create(t, mk, 0, kind, module, callee);
  }
  /* the root's marker has the key of a marker made under the root as a
   * parent: one node serves both, so a key's answer never changes */
  if (t->root_marker == SCP_NODE_NONE &&
      (t->root_marker = find_or_create(t, 0, 0, SCP_KIND_TRUNCATED, 0, 0)) == SCP_NODE_NONE)
    return SCP_NODE_NONE;
  return find_or_create(t, t->root_marker, 0, kind, module, callee);
}

/* A key not in the tree: folded into an ancestor, merged past the
 * budget, or a new node.  Counts no call. */
static uint32_t enter_new(scp_tree *t, uint32_t parent, uint64_t callsite, scp_kind kind,
                          uint32_t module, uint32_t callee) {
  uint32_t id = t->fold_recursion ? recursion_of(t, parent, kind, module, callee) : SCP_NODE_NONE;
  if (id != SCP_NODE_NONE) return id;
  if (t->max_nodes && t->n >= t->max_nodes) return truncated(t, parent, kind, module, callee);
  return create(t, parent, callsite, kind, module, callee);
}

uint32_t scp_tree_enter(scp_tree *t, uint32_t parent, uint64_t callsite,
                        scp_kind kind, uint32_t module, uint32_t callee) {
  /* under a marker, paths are flat: one node per callee */
  if (SCP_UNLIKELY(t->nodes[parent].marker != SCP_NODE_NONE)) {
    parent = t->nodes[parent].marker;
    callsite = 0;
  }
  uint32_t id = find(t, parent, callsite, kind, module, callee);
  if (SCP_UNLIKELY(id == SCP_NODE_NONE)) id = enter_new(t, parent, callsite, kind, module, callee);
  if (id != SCP_NODE_NONE) t->nodes[id].calls++;
  return id;
}

uint32_t scp_tree_enter_child(scp_tree *t, uint32_t parent, uint64_t callsite,
                              scp_kind kind, uint32_t module, uint32_t callee) {
  uint32_t id = find_or_create(t, parent, callsite, kind, module, callee);
  if (id != SCP_NODE_NONE) t->nodes[id].calls++;
  return id;
}

uint64_t *scp_tree_counters(scp_tree *t, uint32_t id, uint32_t n) {
  scp_tree_node *node = &t->nodes[id];
  if (node->counters) return node->counters;
  node->counters = arena_take(t, n * sizeof *node->counters);
  if (!node->counters) return NULL;
  memset(node->counters, 0, n * sizeof *node->counters);
  node->ncounters = n;
  return node->counters;
}

bool scp_tree_add_pc(scp_tree *t, uint32_t id, uint64_t pc, const uint64_t *cost) {
  return scp_tree_add_pc_ahead(t, id, pc, cost, 0);
}

/* The side-table row of entry e, made on first use; NULL on OOM. */
static uint64_t *more_of(scp_tree *t, scp_pc_cost *e) {
  if (e->more) return t->more[e->more - 1];
  if (t->nmore >= UINT32_MAX - 1 || !scp_grow(&t->more, &t->capmore, t->nmore + 1, sizeof *t->more))
    return NULL;
  memset(t->more[t->nmore], 0, sizeof *t->more);
  e->more = (uint32_t)++t->nmore;
  return t->more[e->more - 1];
}

bool scp_tree_pc_add(scp_tree *t, uint32_t id, uint32_t i, unsigned m, uint64_t amount) {
  scp_pc_cost *e = &t->nodes[id].pcs[i];
  if (m == 0) {
    e->cost0 += amount;
    return true;
  }
  uint64_t *row = amount ? more_of(t, e) : NULL;
  if (row) row[m] += amount;
  return row || !amount;
}

/* Adds the metrics past 0 of cost to entry e; false on OOM. */
static bool add_more(scp_tree *t, scp_pc_cost *e, const uint64_t *cost) {
  bool any = false;
  for (unsigned m = 1; m < t->nmetrics; m++) any |= cost[m] != 0;
  if (!any) return true;
  uint64_t *row = more_of(t, e);
  if (!row) return false;
  for (unsigned m = 1; m < t->nmetrics; m++) row[m] += cost[m];
  return true;
}

/* Room for need per-pc entries on n; the tree's chunk they were in is
 * left behind (it is freed with the tree). */
static bool pcs_room(scp_tree_node *n, size_t need) {
  if (need <= n->cappcs) return true;
  if (need > UINT32_MAX) return false;
  if (!n->pcs_in_arena) {
    size_t cap = n->cappcs;
    if (!scp_grow(&n->pcs, &cap, need, sizeof *n->pcs)) return false;
    n->cappcs = (uint32_t)(cap < UINT32_MAX ? cap : UINT32_MAX);
    return true;
  }
  size_t cap = (size_t)n->cappcs * 2 > need ? (size_t)n->cappcs * 2 : need;
  if (cap > UINT32_MAX) cap = UINT32_MAX;
  scp_pc_cost *v = malloc(cap * sizeof *v);
  if (!v) return false;
  memcpy(v, n->pcs, n->npcs * sizeof *v);
  n->pcs = v;
  n->cappcs = (uint32_t)cap;
  n->pcs_in_arena = false;
  return true;
}

static bool add_pc(scp_tree *t, uint32_t id, uint64_t pc, const uint64_t *cost, uint64_t ahead,
                   uint64_t runs) {
  scp_tree_node *n = &t->nodes[id];
  for (unsigned m = 0; m < t->nmetrics; m++) n->self[m] += cost[m];
  /* per-pc entries: most recent first is the common hit (same pc again) */
  for (uint32_t i = n->npcs; i-- > 0;)
    if (n->pcs[i].pc == pc) {
      n->pcs[i].cost0 += cost[0];
      n->pcs[i].ahead += ahead;
      n->pcs[i].runs += runs;
      return add_more(t, &n->pcs[i], cost);
    }
  if (!pcs_room(n, (size_t)n->npcs + 1)) return false;
  scp_pc_cost *e = &n->pcs[n->npcs++];
  memset(e, 0, sizeof *e);
  e->pc = pc;
  e->ahead = ahead;
  e->runs = runs;
  e->cost0 = cost[0];
  return add_more(t, e, cost);
}

bool scp_tree_add_pc_ahead(scp_tree *t, uint32_t id, uint64_t pc, const uint64_t *cost,
                           uint64_t ahead) {
  return add_pc(t, id, pc, cost, ahead, 0);
}

bool scp_tree_add_pc_runs(scp_tree *t, uint32_t id, uint64_t pc, const uint64_t *cost,
                          uint64_t ahead, uint64_t runs) {
  t->pc_runs = true;
  return add_pc(t, id, pc, cost, ahead, runs);
}

bool scp_tree_add_pcs(scp_tree *t, uint32_t id, const uint64_t *pcs, const uint64_t *amount, size_t n,
                      unsigned metric) {
  uint64_t cost[SCP_MAX_METRICS] = {0};
  scp_tree_node *nd = &t->nodes[id];
  bool ok = true;
  if (nd->npcs || metric != 0) {
    for (size_t i = 0; i < n; i++) {
      cost[metric] = amount[i];
      ok &= scp_tree_add_pc(t, id, pcs[i], cost);
    }
    return ok;
  }
  if (!n) return true;
  /* a node's first entries, all at once: from the tree's chunks */
  scp_pc_cost *v = n > UINT32_MAX - 1 || nd->pcs ? NULL : arena_take(t, n * sizeof *v);
  if (v) {
    nd->pcs = v;
    nd->cappcs = (uint32_t)n;
    nd->pcs_in_arena = true;
  } else if (!pcs_room(nd, n)) {
    for (size_t i = 0; i < n; i++) nd->self[0] += amount[i];
    return false;
  }
  for (size_t i = 0; i < n; i++) {
    nd->self[0] += amount[i];
    nd->pcs[i] = (scp_pc_cost){.pc = pcs[i], .cost0 = amount[i]};
  }
  nd->npcs = (uint32_t)n;
  return true;
}

scp_tree_trunc scp_tree_truncated(const scp_tree *t) {
  scp_tree_trunc r = {.calls = 0, .markers = 0};
  for (size_t i = 1; i < t->n; i++) {
    const scp_tree_node *n = &t->nodes[i];
    if (n->kind == SCP_KIND_TRUNCATED) r.markers++;
    else if (n->marker != SCP_NODE_NONE) r.calls += n->calls;
  }
  return r;
}

uint64_t scp_tree_total(const scp_tree *t, unsigned metric) {
  uint64_t s = 0;
  for (size_t i = 0; i < t->n; i++) s += t->nodes[i].self[metric];
  return s;
}
