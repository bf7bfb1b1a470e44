/*
 * scp_sol_feature.h — the runtime feature gates scprof's Solana model
 * depends on, as one table (sol_feature.c: id, name, litesvm 1.5.0's
 * state, what the gate changes).  A run starts from litesvm 1.5.0's feature
 * set; `--feature ID|NAME=on|off` and a scenario's "features" object
 * change gates of the table, and the run changes exactly as the runtime
 * does (tests/e2e/sol_feature.sh compares each with litesvm given the same
 * feature set).  Two gates agave 4.3 no longer reads
 * (increase_cpi_account_info_limit, provide_instruction_data_offset_in_vm_r2)
 * are taken in either state and change nothing, as in agave 4.3 and
 * litesvm.  A gate the table does not model is refused with its name.
 */
#ifndef SCP_SOL_FEATURE_H
#define SCP_SOL_FEATURE_H

#include <stdbool.h>
#include "scprof.h"

typedef enum scp_sol_feature {
  SCP_SOL_F_DEPLETE_ON_FAULT,      /* deplete_cu_meter_on_vm_failure */
  SCP_SOL_F_REMAINING_CU_SYSCALL,  /* remaining_compute_units_syscall_enabled */
  SCP_SOL_F_GET_SYSVAR_SYSCALL,    /* get_sysvar_syscall_enabled */
  SCP_SOL_F_CPI_NESTING_8,         /* raise_cpi_nesting_limit_to_8 (SIMD-0268) */
  SCP_SOL_F_COUNT
} scp_sol_feature;

typedef struct scp_sol_features {
  bool on[SCP_SOL_F_COUNT];
} scp_sol_features;

/* litesvm 1.5.0's states. */
void scp_sol_features_default(scp_sol_features *f);
/* Whether gate k is on; f NULL: litesvm's default. */
bool scp_sol_feature_on(const scp_sol_features *f, scp_sol_feature k);
const char *scp_sol_feature_name(scp_sol_feature k);
const char *scp_sol_feature_id(scp_sol_feature k);

/* Set the gate named by its base58 id or its name (a gate agave 4.3 no
 * longer reads: SCP_OK, f unchanged).  SCP_ERR_ARG (err: "feature NAME:
 * ..." naming the gate) when the table does not model it. */
int scp_sol_feature_set(scp_sol_features *f, const char *gate, size_t len, bool on, scp_error *err);
/* "ID|NAME=on|off", as --feature takes it. */
int scp_sol_feature_parse(scp_sol_features *f, const char *spec, scp_error *err);
/* A scenario's "features" object ({"NAME|ID": true|false}, json a jansson
 * json_t *); errors name file and the JSON path, SCP_ERR_MALFORMED. */
int scp_sol_features_json(scp_sol_features *f, const void *json, const char *file, scp_error *err);

/* Whether the runtime registers syscall name under f. */
bool scp_sol_features_syscall(const scp_sol_features *f, const char *name);

#endif
