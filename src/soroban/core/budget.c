/*
 * budget.c — the Soroban Budget (rs-soroban-env v28 budget.rs,
 * budget/dimension.rs, budget/model.rs).
 *
 * A charge updates the per-type tracker, adds the CPU cost, checks the CPU
 * limit, and only then adds the memory cost and checks the memory limit —
 * the reference's order (BudgetImpl::charge), so a charge that crosses the
 * CPU limit leaves memory untouched.  A limit is crossed when the count is
 * strictly greater than the limit (BudgetDimension::check_budget_limit).
 */
#include <string.h>

#include "soroban/core/scp_budget.h"

static const scp_cost_model default_models[SCP_COST_COUNT] = {
#define X(id, name, input, cc, cl, mc, ml) \
  [id] = { .cpu_const = cc, .cpu_lin = cl, .mem_const = mc, .mem_lin = ml, .has_input = input },
#include "soroban/core/cost_types.def"
#undef X
};

static const char *const cost_names[SCP_COST_COUNT] = {
#define X(id, name, has_input, cc, cl, mc, ml) [id] = #name,
#include "soroban/core/cost_types.def"
#undef X
};

_Static_assert(SCP_COST_COUNT == 86, "ContractCostType has 86 variants in v28");

static inline uint64_t sat_add(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

static inline uint64_t sat_mul(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* MeteredCostComponent::evaluate (budget/model.rs): the linear term is
 * applied only when an input is given and lin != 0; it is scaled by 2^7
 * and unscaled after the saturating multiplications. */
static uint64_t evaluate(uint64_t cst, uint64_t lin, uint64_t iterations,
                         int64_t input) {
  uint64_t res = sat_mul(cst, iterations);
  if (input >= 0 && lin != 0)
    res = sat_add(res, sat_mul(sat_mul(lin, (uint64_t)input), iterations) >> 7);
  return res;
}

void scp_budget_init(scp_budget *b, uint64_t cpu_limit, uint64_t mem_limit) {
  memset(b, 0, sizeof *b);
  b->cpu_limit = cpu_limit ? cpu_limit : SCP_BUDGET_DEFAULT_CPU;
  b->mem_limit = mem_limit ? mem_limit : SCP_BUDGET_DEFAULT_MEM;
  memcpy(b->model, default_models, sizeof default_models);
}

uint64_t scp_budget_cpu_cost(const scp_budget *b, scp_cost_type type,
                             uint64_t iterations, int64_t input) {
  if ((unsigned)type >= SCP_COST_COUNT) return 0;
  const scp_cost_model *m = &b->model[type];
  return evaluate(m->cpu_const, m->cpu_lin, iterations, input);
}

uint64_t scp_budget_mem_cost(const scp_budget *b, scp_cost_type type,
                             uint64_t iterations, int64_t input) {
  if ((unsigned)type >= SCP_COST_COUNT) return 0;
  const scp_cost_model *m = &b->model[type];
  return evaluate(m->mem_const, m->mem_lin, iterations, input);
}

int scp_budget_charge(scp_budget *b, scp_cost_type type, uint64_t iterations,
                      int64_t input) {
  if ((unsigned)type >= SCP_COST_COUNT) return SCP_ERR_INTERNAL;
  const scp_cost_model *m = &b->model[type];
  /* The reference rejects an input that does not match the type's model
   * (Budget/InternalError): it is a host bug, never a contract's doing. */
  if (m->has_input != (input >= 0)) return SCP_ERR_INTERNAL;

  scp_cost_tracker *t = &b->tracker[type];
  t->iterations = sat_add(t->iterations, iterations);
  if (input >= 0) t->inputs = sat_add(t->inputs, sat_mul((uint64_t)input, iterations));

  uint64_t cpu = evaluate(m->cpu_const, m->cpu_lin, iterations, input);
  b->cpu = sat_add(b->cpu, cpu);
  t->cpu = sat_add(t->cpu, cpu);
  if (b->cpu > b->cpu_limit) {
    b->exceeded = true;
    return SCP_ERR_BUDGET;
  }

  uint64_t mem = evaluate(m->mem_const, m->mem_lin, iterations, input);
  b->mem = sat_add(b->mem, mem);
  if (b->mem > b->mem_peak) b->mem_peak = b->mem;
  t->mem = sat_add(t->mem, mem);
  if (b->mem > b->mem_limit) {
    b->exceeded = true;
    return SCP_ERR_BUDGET;
  }
  return SCP_OK;
}

void scp_budget_refund_mem(scp_budget *b, uint64_t amount) {
  b->mem = b->mem > amount ? b->mem - amount : 0;
}

const char *scp_cost_type_name(scp_cost_type t) {
  return (unsigned)t < SCP_COST_COUNT ? cost_names[t] : "?";
}

void scp_budget_parse_wasm_costs(const scp_wasm_cost_inputs *ci,
                                 scp_cost_input out[SCP_PARSE_WASM_NCOSTS]) {
  const scp_cost_input list[SCP_PARSE_WASM_NCOSTS] = {
    {.t = SCP_COST_ParseWasmInstructions, .n = ci->n_instructions},
    {.t = SCP_COST_ParseWasmFunctions, .n = ci->n_functions},
    {.t = SCP_COST_ParseWasmGlobals, .n = ci->n_globals},
    {.t = SCP_COST_ParseWasmTableEntries, .n = ci->n_table_entries},
    {.t = SCP_COST_ParseWasmTypes, .n = ci->n_types},
    {.t = SCP_COST_ParseWasmDataSegments, .n = ci->n_data_segments},
    {.t = SCP_COST_ParseWasmElemSegments, .n = ci->n_elem_segments},
    {.t = SCP_COST_ParseWasmImports, .n = ci->n_imports},
    {.t = SCP_COST_ParseWasmExports, .n = ci->n_exports},
    {.t = SCP_COST_ParseWasmDataSegmentBytes, .n = ci->n_data_segment_bytes},
  };
  memcpy(out, list, sizeof list);
}
