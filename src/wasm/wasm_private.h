/*
 * wasm_private.h — engine internals shared by the decoder, compiler,
 * interpreter and instance code.  Not a public header.
 */
#ifndef SCP_WASM_PRIVATE_H
#define SCP_WASM_PRIVATE_H

#include "wasm/scp_wasm.h"

/* wasmi 0.31 FuelCosts as Soroban calibrates them
 * (budget/wasmi_helper.rs load_calibrated_fuel_costs). */
enum {
  FUEL_BASE = 1, FUEL_ENTITY = 3, FUEL_LOAD = 2, FUEL_STORE = 1, FUEL_CALL = 67,
  FUEL_LOCALS_PER = 8, FUEL_BYTES_PER = 64, FUEL_ELEMS_PER = 8
};

typedef struct wasm_functype {
  uint32_t nparams, nresults;
  uint8_t params[16], results[1];  /* Soroban: no multi-value */
  uint8_t *params_big;             /* when nparams > 16 */
} wasm_functype;

static inline const uint8_t *functype_params(const wasm_functype *t) {
  return t->params_big ? t->params_big : t->params;
}

/* One internal instruction.  `op` indexes the handler table; `a` and `b`
 * are immediates whose meaning depends on op (see wasm_ops.def). */
#define SCP_WASM_TRACE_MAX 64   /* guest frames kept for a trap's backtrace */

typedef struct scp_ins {
  uint32_t op;
  uint32_t a;
  uint64_t b;
} scp_ins;

/* What a region's fuel is made of, per wasm pc, for settling counters into
 * exact per-pc costs after a run. */
typedef struct wasm_fuel_meta {
  uint32_t pc;        /* code-section payload offset */
  uint32_t region;
  uint64_t fuel;
  uint32_t ins;       /* the internal instruction that runs the operator */
} wasm_fuel_meta;

typedef struct wasm_func {
  uint32_t type;
  uint32_t body_start, body_end;   /* code-section payload offsets (locals decl .. end) */
  uint32_t nlocals;                /* declared locals, params excluded */
  uint32_t max_height;             /* operand stack slots needed beyond locals */
  uint32_t nregions;
  uint32_t ncounters;              /* nregions + one per conditional branch target */
  scp_ins *code;
  uint32_t ncode;
  uint32_t body_len;               /* code[body_len..ncode): branch-count stubs */
  wasm_fuel_meta *meta;
  uint32_t nmeta;
  /* read by every call and return, kept here so neither goes through the
   * type table: the signature's arity, and the cells a frame needs above
   * its params (locals and operand stack) */
  uint32_t nparams, nresults;
  uint32_t frame_need;
} wasm_func;

typedef struct wasm_global {
  uint8_t type;
  bool mut;
  bool imported;
  uint32_t import_index;            /* among imported globals */
  /* init: constant value, or get of an imported global */
  uint64_t init_value;
  int32_t init_global;              /* -1 = constant */
} wasm_global;

typedef struct wasm_export {
  char *name;
  size_t len;
  uint8_t kind;
  uint32_t index;
} wasm_export;

typedef struct wasm_segment {
  bool active;
  bool declarative;                 /* elem: dropped at instantiation */
  uint64_t offset_value;            /* i32.const offset (or from global) */
  int32_t offset_global;            /* -1 = constant */
  const uint8_t *data;              /* data: bytes (point into module copy) */
  uint32_t len;                     /* data: bytes; elem: entries */
  uint32_t *funcs;                  /* elem: function indices */
} wasm_segment;

typedef struct wasm_custom {
  char *name;
  const uint8_t *data;
  size_t len;
} wasm_custom;

struct scp_wasm_module {
  uint8_t *bytes;                   /* our copy */
  size_t len;
  wasm_functype *types;    uint32_t ntypes;
  scp_wasm_import *imports; uint32_t nimports;
  uint32_t nfunc_imports, nglobal_imports;
  uint32_t *func_import;            /* function index -> index among all imports */
  uint32_t *func_types;             /* every function's type (imports first) */
  uint32_t nfuncs;                  /* imports + defined */
  wasm_func *funcs;                 /* defined functions only */
  bool has_table; uint32_t table_min, table_max; bool table_has_max;
  bool table_imported;
  bool has_memory; uint32_t mem_min, mem_max; bool mem_has_max;
  bool mem_imported;
  wasm_global *globals;    uint32_t nglobals;
  wasm_export *exports;    uint32_t nexports;
  bool has_start; uint32_t start;
  wasm_segment *elems;     uint32_t nelems;
  wasm_segment *datas;     uint32_t ndatas;
  bool has_datacount; uint32_t datacount;
  wasm_custom *customs;    uint32_t ncustoms;
  size_t capcustoms;       /* grown by doubling: 100k sections stay linear */
  uint32_t code_offset;             /* file offset of the code section payload */
  uint64_t n_instructions;          /* wasm operators, for the cost model */
};

/* Direct-mapped cache of calling-context children, so a profiled call
 * finds its tree node without a hash-table walk: keyed by the caller's
 * node, the call instruction and the callee (call_indirect varies it). */
#define SCP_CALL_CACHE 1024
typedef struct wasm_call_cache {
  const void *ip;
  uint32_t node, callee, child;
  uint64_t *counters;
} wasm_call_cache;

/* frames[d] keeps the caller's state of the d-th call, and the callee's
 * tree node that call found: a call made again from the same node at the
 * same instruction to the same function (a loop calling a function, a
 * recursion going down the same path) finds it there without a lookup.
 * child_callee is UINT32_MAX when the slot holds no node for the tree
 * attached now (set when a call first reaches the slot after an attach:
 * the slots from frames_ready up are not read before that). */
typedef struct wasm_frame {
  const scp_ins *ret_ip;
  uint64_t *fp;
  const wasm_func *func;
  uint64_t *counters;
  uint32_t node;
  uint32_t child_callee;
  uint32_t child;
  uint64_t *child_counters;
} wasm_frame;

struct scp_wasm_instance {
  const scp_wasm_module *mod;
  scp_wasm_env env;
  uint8_t *mem; uint64_t mem_len; uint32_t mem_pages, mem_max_pages;
  uint32_t *table; uint32_t table_len;   /* function index + 1; 0 = null */
  uint64_t *globals;
  bool *data_dropped, *elem_dropped;
  uint64_t *stack;                    /* SCP_WASM_STACK_CELLS + slack */
  wasm_frame *frames; uint32_t max_frames;
  /* frames below it have had child_callee set since the last attach, the
   * rest are readied one by one as calls first reach them */
  wasm_frame *frames_ready;
  /* metering */
  uint64_t fuel, tank, consumed_acc;
  /* profiling */
  scp_tree *tree;
  uint32_t root_node, module_id;
  unsigned fuel_scale;
  uint64_t **scratch_counters;        /* per defined function, when no tree */
  uint32_t cur_node; uint64_t cur_pc;
  uint64_t ops_settled;
  wasm_call_cache *call_cache;        /* SCP_CALL_CACHE entries, when profiling */
  bool switch_dispatch;
  /* last trap */
  scp_trap trap;
  uint32_t trap_func;   /* the function index the trap happened in */
  /* the guest stack at the trap, innermost first: function index and
   * code-section pc of the trapping operator, then of each caller's call */
  struct { uint32_t func, pc, node, ins; } trace[SCP_WASM_TRACE_MAX];
  uint32_t ntrace;
  bool trace_unsettled;  /* scp_wasm_settle has not used the trace's stops */
  int host_status;
  scp_error host_err;
};

/* wasm_compile.c: validate and translate one function body. */
int scp_wasm_compile_func(scp_wasm_module *m, uint32_t def_index,
                          const uint8_t *body, const uint8_t *end,
                          scp_error *err) SCP_HIDDEN;

/* wasm_interp.c (computed goto) and wasm_interp_switch.c (switch): run
 * function f with its args already at args on the value stack. */
int scp_wasm_exec_goto(scp_wasm_instance *inst, uint32_t f, uint64_t *args,
                       scp_error *err) SCP_HIDDEN;
int scp_wasm_exec_switch(scp_wasm_instance *inst, uint32_t f, uint64_t *args,
                         scp_error *err) SCP_HIDDEN;

/* True for the internal branches that may fall through (br_if and its
 * fused forms, the `if` test); their target is a TAKEN stub. */
bool wasm_iop_is_cond_branch(uint32_t op);

#endif
