/*
 * prof_same.h — what the profile builder tests (tests/profile) share: a profile
 * built from a tree with one metric, and two profiles compared string
 * table, node frames and instruction rows, id by id, or by their strings.
 */
#ifndef PROF_SAME_H
#define PROF_SAME_H

#include <string.h>

#include "profile/scp_prof.h"

static inline scp_profile *prof_build(const scp_tree *t, const scp_resolver *r) {
  scp_metric m[1] = {{.name = "CPU", .unit = "instructions"}};
  scp_profile *p = NULL;
  scp_error err = {0};
  assert_int_equal(scp_prof_build(t, m, r, &p, &err), SCP_OK);
  return p;
}

/* parent's child whose frame is named name (the test fails without one) */
static inline uint32_t prof_child_named(const scp_profile *p, uint32_t parent, const char *name) {
  for (uint32_t c = p->nodes[parent].first_child; c != SCP_NODE_NONE; c = p->nodes[c].next_sibling)
    if (!strcmp(scp_prof_str(p, p->frames[p->nodes[c].frame].name), name)) return c;
  fail_msg("no child %s", name);
  return SCP_NODE_NONE;
}

static inline void prof_assert_same(const scp_profile *a, const scp_profile *b) {
  assert_int_equal(a->strs.n, b->strs.n);
  for (uint32_t i = 0; i < a->strs.n; i++) assert_string_equal(scp_prof_str(a, i), scp_prof_str(b, i));
  assert_int_equal(a->nnodes, b->nnodes);
  for (size_t i = 0; i < a->nnodes; i++)
    assert_int_equal(a->frames[a->nodes[i].frame].name, b->frames[b->nodes[i].frame].name);
  assert_int_equal(a->npcs, b->npcs);
  for (size_t i = 0; i < a->npcs; i++) {
    assert_int_equal(a->pcs[i].pc, b->pcs[i].pc);
    assert_int_equal(a->pcs[i].node, b->pcs[i].node);
    assert_int_equal(a->pcs[i].text, b->pcs[i].text);
    assert_int_equal(a->pcs[i].cost[0], b->pcs[i].cost[0]);
  }
}

/* The same read through the strings: node frames by name, rows by text,
 * for a build whose table holds its strings in another order (a memo's
 * texts first) or holds more of them. */
static inline void prof_assert_reads_same(const scp_profile *a, const scp_profile *b) {
  assert_int_equal(a->nnodes, b->nnodes);
  for (size_t i = 0; i < a->nnodes; i++)
    assert_string_equal(scp_prof_str(a, a->frames[a->nodes[i].frame].name),
                        scp_prof_str(b, b->frames[b->nodes[i].frame].name));
  assert_int_equal(a->npcs, b->npcs);
  for (size_t i = 0; i < a->npcs; i++) {
    assert_int_equal(a->pcs[i].pc, b->pcs[i].pc);
    assert_int_equal(a->pcs[i].node, b->pcs[i].node);
    assert_string_equal(scp_prof_str(a, a->pcs[i].text), scp_prof_str(b, b->pcs[i].text));
    assert_int_equal(a->pcs[i].cost[0], b->pcs[i].cost[0]);
  }
}

#endif
