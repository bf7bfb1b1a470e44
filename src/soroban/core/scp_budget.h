/*
 * scp_budget.h — Soroban's Budget: the 86 cost types, their default linear
 * models, the per-type tracker and the CPU/memory limits (rs-soroban-env
 * v28 budget.rs; parameters in cost_types.def).
 *
 * cost(iterations, input) = iterations*const + ((lin * input * iterations) >> 7)
 * with saturating u64 arithmetic; the linear term applies only when the
 * cost type takes an input.
 */
#ifndef SCP_BUDGET_H
#define SCP_BUDGET_H

#include "util/scp_util.h"
#include "wasm/scp_wasm.h"

typedef enum scp_cost_type {
#define X(id, name, has_input, cc, cl, mc, ml) SCP_COST_##name = id,
#include "soroban/core/cost_types.def"
#undef X
  SCP_COST_COUNT
} scp_cost_type;

#define SCP_BUDGET_DEFAULT_CPU 100000000ULL
#define SCP_BUDGET_DEFAULT_MEM 41943040ULL

typedef struct scp_cost_model {
  uint64_t cpu_const, cpu_lin;   /* lin scaled by 2^7 */
  uint64_t mem_const, mem_lin;
  bool has_input;
} scp_cost_model;

typedef struct scp_cost_tracker {
  uint64_t iterations;
  uint64_t inputs;     /* sum of inputs (saturating) */
  uint64_t cpu, mem;
} scp_cost_tracker;

typedef struct scp_budget {
  uint64_t cpu_limit, mem_limit;
  uint64_t cpu, mem;              /* consumed */
  uint64_t mem_peak;              /* highest mem seen (v28 reports peak) */
  scp_cost_model model[SCP_COST_COUNT];
  scp_cost_tracker tracker[SCP_COST_COUNT];
  bool exceeded;                  /* a limit was crossed (sticky) */
} scp_budget;

/* Reset to the host defaults with these limits (0 = default limit). */
void scp_budget_init(scp_budget *b, uint64_t cpu_limit, uint64_t mem_limit);

/* Charge one cost type.  input < 0 means "no input" (constant model).
 * The cost is recorded, then the limits are checked exactly as the
 * reference host does; returns SCP_OK or SCP_ERR_BUDGET.  (Added:) an input
 * that does not match the type's model (input given to a constant type or
 * missing for a linear one) is a host bug: SCP_ERR_INTERNAL, nothing charged,
 * as the reference's Budget/InternalError. */
int scp_budget_charge(scp_budget *b, scp_cost_type type, uint64_t iterations,
                      int64_t input);

/* CPU and memory a charge would cost (no side effects). */
uint64_t scp_budget_cpu_cost(const scp_budget *b, scp_cost_type type,
                             uint64_t iterations, int64_t input);
uint64_t scp_budget_mem_cost(const scp_budget *b, scp_cost_type type,
                             uint64_t iterations, int64_t input);

static inline uint64_t scp_budget_cpu_remaining(const scp_budget *b) {
  return b->cpu >= b->cpu_limit ? 0 : b->cpu_limit - b->cpu;
}
static inline uint64_t scp_budget_mem_remaining(const scp_budget *b) {
  return b->mem >= b->mem_limit ? 0 : b->mem_limit - b->mem;
}

/* Return `amount` bytes to the memory budget: lowers the net count
 * b->mem (saturating at 0), never b->mem_peak.  v28 refunds a popped VM
 * frame's linear memory this way (Budget::refund_mem_bytes). */
void scp_budget_refund_mem(scp_budget *b, uint64_t amount);

const char *scp_cost_type_name(scp_cost_type t);

/* The ParseWasm* cost types with their inputs from a module's cost inputs,
 * in charge_for_parsing's order (vm/parsed_module.rs): the list the VM
 * charges on parsing and the fee's module-memory size both follow. */
typedef struct scp_cost_input { scp_cost_type t; int64_t n; } scp_cost_input;
enum { SCP_PARSE_WASM_NCOSTS = 10 };
void scp_budget_parse_wasm_costs(const scp_wasm_cost_inputs *ci,
                                 scp_cost_input out[SCP_PARSE_WASM_NCOSTS]);

#endif
