/* sol_txprof.h — a transaction's profile put together from its
 * instructions: the root, one "instruction #k" node each, under it the
 * program's profile grafted whole (frames, lines, calls) or a builtin's
 * single program node. */
#ifndef SOL_TXPROF_H
#define SOL_TXPROF_H

#include "profile/scp_prof.h"
#include "solana/scp_sol_names.h"

struct scp_sol_idls;

/* A program's frame: "program:NAME" or "program:NAME INSTRUCTION", and
 * what the profile's frame keeps beside (scp_prof_frame's owner fields). */
typedef struct sol_progframe {
  char name[2 * SCP_SOL_NAME_MAX + 16];
  char owner[SCP_SOL_NAME_MAX];         /* NAME */
  char owner_id[SCP_SOL_B58_KEY_MAX];   /* the program id */
  char detail[SCP_SOL_NAME_MAX];        /* INSTRUCTION, "" none */
} sol_progframe;

/* The frame of program id (given: the name its input gives, may be NULL)
 * running data (scp_sol_names.h). */
void sol_progframe_of(sol_progframe *f, const uint8_t id[32], const char *given, const uint8_t *data,
                      size_t len, const struct scp_sol_idls *idls);
/* A program's own profile: every frame without an owner becomes pf's, and
 * the root's frame gets pf's instruction. */
int sol_txprof_own(scp_profile *p, const sol_progframe *pf);

/* A profile with only its root (one CU metric with the limit). */
int sol_txprof_new(uint64_t limit, scp_profile **out);
/* Append "instruction #k" ("instruction #k LABEL" when label is not NULL)
 * under the root; *node is its id. */
int sol_txprof_ix(scp_profile *p, size_t k, const char *label, uint32_t *node);
/* Graft sub's whole tree under node (sub's root becomes node's child). */
int sol_txprof_graft(scp_profile *p, uint32_t node, const scp_profile *sub);
/* The same, and when sub's strings begin with all of p's, id for id (its
 * build was seeded with p's table: scp_resolver.seed), p takes sub's table
 * whole rather than interning sub's strings one by one, and when p has
 * no rows or lines yet, sub's too (each node keeps its ranges in them);
 * sub is left with p's old ones and is fit only to be destroyed. */
int sol_txprof_graft_take(scp_profile *p, uint32_t node, scp_profile *sub);
/* Graft sub's root into node (its self cost, lines and children). */
int sol_txprof_merge(scp_profile *p, uint32_t node, const scp_profile *sub);
/* A program node's frame (found or added). */
int sol_txprof_frame(scp_profile *p, const sol_progframe *pf, uint32_t *frame);
/* Inclusive totals and depths from self costs; nodes renumbered in
 * preorder (after grafts into a built profile). */
int sol_txprof_settle(scp_profile *p);
/* A leaf of program frame pf under node holding cu as its self cost. */
int sol_txprof_leaf(scp_profile *p, uint32_t node, const sol_progframe *pf, uint64_t cu);
/* The "Programs" table (scp_prof_table): per program frame ("program:NAME
 * INSTRUCTION") its invocations, self CU (its own code, syscalls and
 * charges, not its callees') and total CU, by total.  After the totals.
 * SCP_OK (no table when no node is a program's), SCP_ERR_NOMEM. */
int sol_txprof_programs(scp_profile *p);
/* Totals, depths; SCP_ERR_INTERNAL when Σ self != cu or inclusive sums fail. */
int sol_txprof_finish(scp_profile *p, uint64_t cu);

#endif
