#ifndef SOR_COSTS_H
#define SOR_COSTS_H
/* sor_costs.h — the Budget by cost type per node (sor_costs.c). */
#include "profile/scp_prof.h"
#include "soroban/core/scp_budget.h"

/* What each booking of the run core carried, by cost type: the Budget's
 * per-type trackers read at every booking (scp_run_set_book_hook) and the
 * change since the last one kept per (raw node, pc, cost type). */
typedef struct sor_cost_cell {
  uint32_t raw, type;
  uint64_t pc;                 /* UINT64_MAX: the node's own */
  scp_cost_tracker t;
} sor_cost_cell;

typedef struct sor_costs {
  const scp_budget *b;
  scp_cost_tracker cursor[SCP_COST_COUNT];
  sor_cost_cell *cells;
  size_t n, cap;
  uint32_t *slots;             /* open addressing: cell index + 1, 0 empty */
  size_t nslots;
  bool oom;
} sor_costs;

/* The run core's hook (ctx: the sor_costs): books what the Budget's
 * trackers moved since the last booking to (node, pc); SCP_NODE_NONE
 * moves the cursor only (guest fuel, booked per node by the engine). */
SCP_HIDDEN void scp_sor_costs_book(void *ctx, uint32_t node, uint64_t pc);
SCP_HIDDEN void scp_sor_costs_free(sor_costs *c);

/* The "Budget by cost type per node" table (a per-node profile table, for
 * report.json): for every profile node, each cost type's iterations,
 * inputs, CPU and memory, the guest's WasmInsnExec being what the engine
 * booked to the node beyond the host-side charges (its CPU / the type's
 * constant).  Checked: every node's rows sum to its self CPU and memory,
 * and every type's rows to the Budget's tracker.  SCP_OK, SCP_ERR_NOMEM,
 * SCP_ERR_INTERNAL (a sum that does not hold); err says which. */
SCP_HIDDEN int scp_sor_costs_table(const sor_costs *c, scp_profile *p, unsigned cpu,
                                   unsigned mem, scp_error *err);

#endif
