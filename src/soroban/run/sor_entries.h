#ifndef SOR_ENTRIES_H
#define SOR_ENTRIES_H
/* sor_entries.h — the ledger-entry table of a run (sor_entries.c). */
#include "soroban/run/sor_vm.h"

/* After the profile is built from a run whose fee was computed
 * (vm->fee.done): the "Ledger entries" table (one row per footprint entry:
 * its key as the contract names it, its kind, sizes, TTLs, the ledgers
 * its rent paid for, its part of each fee component, the node that wrote
 * or read it) and the "ledger entries" metadata line that reconciles the
 * storage line, the footprint and the fee's entry counts.  SCP_OK,
 * SCP_ERR_NOMEM, SCP_ERR_INTERNAL (a column that does not sum to its fee
 * row); err says why. */
SCP_HIDDEN int scp_sor_entries_table(sor_vm *vm, scp_profile *p, scp_error *err);

/* After a run that succeeded without a network: the entries of the table
 * above (vm->fee.tx.entries, no fee: vm->fee.entries_only), so that the
 * table has the columns that need no fee rates.  SCP_OK or SCP_ERR_NOMEM. */
SCP_HIDDEN int scp_sor_entries_collect(sor_vm *vm, scp_error *err);

#endif
