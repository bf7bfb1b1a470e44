/* sol_txprof.h — a transaction's profile put together from its
 * instructions: the root, one "instruction #k" node each, under it the
 * program's profile grafted whole (frames, lines, calls) or a builtin's
 * single program node. */
#ifndef SOL_TXPROF_H
#define SOL_TXPROF_H

#include "profile/scp_prof.h"

/* A profile with only its root (one CU metric with the limit). */
int sol_txprof_new(uint64_t limit, scp_profile **out);
/* Append "instruction #k" ("instruction #k LABEL" when label is not NULL)
 * under the root; *node is its id. */
int sol_txprof_ix(scp_profile *p, size_t k, const char *label, uint32_t *node);
/* Graft sub's whole tree under node (sub's root becomes node's child). */
int sol_txprof_graft(scp_profile *p, uint32_t node, const scp_profile *sub);
/* Graft sub's root into node (its self cost, lines and children). */
int sol_txprof_merge(scp_profile *p, uint32_t node, const scp_profile *sub);
/* A frame (found or added) named name, of a program node. */
int sol_txprof_frame(scp_profile *p, const char *name, uint32_t *frame);
/* Inclusive totals and depths from self costs; nodes renumbered in
 * preorder (after grafts into a built profile). */
int sol_txprof_settle(scp_profile *p);
/* A leaf "name" under node holding cu as its self cost. */
int sol_txprof_leaf(scp_profile *p, uint32_t node, const char *name, uint64_t cu);
/* Totals, depths; SCP_ERR_INTERNAL when Σ self != cu or inclusive sums fail. */
int sol_txprof_finish(scp_profile *p, uint64_t cu);

#endif
