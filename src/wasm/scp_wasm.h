/*
 * scp_wasm.h — the WASM engine: decoder, validator, compiler to an internal
 * form, and an interpreter with Soroban's exact wasmi 0.31 fuel metering.
 *
 * Feature set = Soroban's wasmi configuration: integer MVP, mutable
 * globals, sign-extension, bulk memory; at most one memory and one table.
 * Floats, SIMD, multi-value, reference types and the rest are rejected at
 * load time with the feature and byte offset named.
 *
 * Metering (docs/reference/metering.txt): each region (function
 * body, loop, if-arm, else-arm) charges its whole static fuel on entry.
 * When a tree is attached, the interpreter counts region entries per
 * calling-context node instead of emitting per-instruction events;
 * scp_wasm_settle() turns those counts into exact per-pc costs.
 */
#ifndef SCP_WASM_H
#define SCP_WASM_H

#include "profile/scp_tree.h"

typedef struct scp_wasm_module scp_wasm_module;
typedef struct scp_wasm_instance scp_wasm_instance;

enum {
  SCP_WASM_I32 = 0x7f, SCP_WASM_I64 = 0x7e,
  SCP_WASM_F32 = 0x7d, SCP_WASM_F64 = 0x7c
};

enum { SCP_EXT_FUNC = 0, SCP_EXT_TABLE = 1, SCP_EXT_MEMORY = 2, SCP_EXT_GLOBAL = 3 };

/* Limits we enforce (documented in README). */
/* wasmi 0.31's default StackLimits, which Soroban keeps: at most 1024
 * callers below the running frame (1025 live frames), and 1 MiB of 8-byte
 * value cells; a call needs its callee's max operand height + declared
 * locals free.  Beyond either: "call stack exhausted". */
#define SCP_WASM_MAX_CALL_DEPTH 1024
#define SCP_WASM_STACK_CELLS 131072
#define SCP_WASM_MAX_TABLE 1000          /* Soroban's ResourceLimiter */
#define SCP_WASM_MAX_PAGES 65536

/* ---- loading ----------------------------------------------------------- */

/* Decode, validate and compile.  On SCP_ERR_MALFORMED / SCP_ERR_INVALID /
 * SCP_ERR_UNSUPPORTED, err says what and at which byte offset; *out is
 * NULL.  bytes are copied (the module does not borrow them). */
int scp_wasm_load(const uint8_t *bytes, size_t len, scp_wasm_module **out,
                  scp_error *err);
void scp_wasm_module_free(scp_wasm_module *m);

typedef struct scp_wasm_import {
  const char *module, *field;   /* NUL-terminated copies (may hold NULs: see *_len) */
  size_t module_len, field_len;
  uint8_t kind;                 /* SCP_EXT_* */
  uint32_t type;                /* func: type index; global: valtype */
  bool mut;                     /* global mutability */
} scp_wasm_import;

uint32_t scp_wasm_import_count(const scp_wasm_module *m);
const scp_wasm_import *scp_wasm_import_get(const scp_wasm_module *m, uint32_t i);

/* Export lookup by exact name (len bytes).  Returns true and sets kind and
 * index (function index counts imports first). */
bool scp_wasm_export_find(const scp_wasm_module *m, const char *name, size_t len,
                          uint8_t *kind, uint32_t *index);

/* Export i (0 <= i < count) in module order: name (len bytes, not
 * NUL-terminated), kind (0 = function) and index. */
uint32_t scp_wasm_export_count(const scp_wasm_module *m);
bool scp_wasm_export_get(const scp_wasm_module *m, uint32_t i, const char **name, size_t *len,
                         uint8_t *kind, uint32_t *index);

/* Signature of function index f: params/results as valtype bytes. */
bool scp_wasm_func_sig(const scp_wasm_module *m, uint32_t f,
                       const uint8_t **params, uint32_t *nparams,
                       const uint8_t **results, uint32_t *nresults);

uint32_t scp_wasm_func_count(const scp_wasm_module *m);     /* imports included */

/* The bytes of defined function f's body as the Code section holds them
 * (locals declaration .. end), pointing into the module's copy.  Returns
 * false (and sets nothing) for an imported or out-of-range f. */
bool scp_wasm_func_body(const scp_wasm_module *m, uint32_t f, const uint8_t **body, size_t *len);
uint32_t scp_wasm_import_func_count(const scp_wasm_module *m);

/* What Soroban's cost model counts when it parses/instantiates a module
 * (rs-soroban-env vm/parsed_module.rs, VersionedContractCodeCostInputs). */
typedef struct scp_wasm_cost_inputs {
  uint32_t n_instructions, n_functions, n_globals, n_table_entries, n_types,
           n_data_segments, n_elem_segments, n_imports, n_exports,
           n_data_segment_bytes;
} scp_wasm_cost_inputs;
void scp_wasm_cost_inputs_get(const scp_wasm_module *m, scp_wasm_cost_inputs *ci);

/* What the Soroban host checks of contract code when it is uploaded
 * (vm/parsed_module.rs extract_refined_contract_cost_inputs, check_max_args)
 * beyond what wasmi validates. */
typedef struct scp_wasm_code_facts {
  bool has_start;                 /* a start section */
  bool global_in_const_expr;      /* a global.get in a global/segment initialiser */
  uint64_t memory_bytes;          /* initial memory, bytes */
  uint64_t data_bytes;            /* all data segments' bytes */
  uint64_t table_entries;         /* initial table size */
  uint64_t elem_entries;          /* all element segments' entries */
  uint32_t max_export_params, max_export_results;
} scp_wasm_code_facts;
void scp_wasm_code_facts_get(const scp_wasm_module *m, scp_wasm_code_facts *f);

/* Initial memory pages (0 when there is no memory). */
uint32_t scp_wasm_initial_pages(const scp_wasm_module *m);

/* Custom section by name (first match), for the source mapper. */
bool scp_wasm_custom_section(const scp_wasm_module *m, const char *name,
                             const uint8_t **data, size_t *len);

/* The operator at code-section offset pc (the pc profiles keep) as the
 * text format writes it: "i32.add", "local.get 2", "i64.load offset=8",
 * "call 5"; a call of an import names it in parentheses, by what
 * name_import returns for it ("call 0 (host:vec_new)"), or when that is
 * NULL or returns NULL by module.field ("call 0 (import v._)").  A body's
 * first byte (its locals declaration, where a call's entry fuel is
 * booked) reads "(function entry, N locals)".  Into buf (size bytes, cut
 * to fit); returns the length, 0 with buf "" when pc is in no function
 * body. */
typedef const char *(*scp_wasm_import_namer)(void *ctx, const scp_wasm_import *im);
size_t scp_wasm_disasm(const scp_wasm_module *m, uint64_t pc, scp_wasm_import_namer name_import,
                       void *ctx, char *buf, size_t size);

/* ---- instantiation ----------------------------------------------------- */

/* Import calls go to the embedder.  args holds the params; the embedder
 * writes the results over args[0..nresults).  Returns SCP_OK, or any error
 * status, which becomes a trap of kind SCP_TRAP_HOST carrying err. */
typedef int (*scp_wasm_host_call)(void *ctx, scp_wasm_instance *inst,
                                  uint32_t import_index, uint64_t *args,
                                  scp_error *err);

/* Called by memory.grow (delta > 0) before the engine checks the memory's
 * maximum, as wasmi's ResourceLimiter is, and once at instantiation with
 * (0, initial bytes) for the initial memory (wasmi's MemoryEntity::new):
 * the embedder may charge for the growth (Soroban's MemAlloc).  Return SCP_OK to go on, SCP_ERR_LIMIT to
 * make memory.grow yield -1, any other status to trap (SCP_TRAP_HOST).
 * NULL = always go on.  cur_pc/current_node tell where the grow is. */
typedef int (*scp_wasm_grow_hook)(void *ctx, scp_wasm_instance *inst,
                                  uint64_t cur_bytes, uint64_t desired_bytes);

typedef struct scp_wasm_env {
  scp_wasm_host_call call;
  scp_wasm_grow_hook grow;
  void *ctx;
  const uint64_t *global_imports;  /* values for imported globals, in order */
} scp_wasm_env;

/* Allocate memory/table/globals, apply data/elem segments, run the start
 * function (under the current fuel; infinite fuel until set).  Returns
 * SCP_OK; SCP_ERR_INVALID when an import kind cannot be provided; traps as
 * scp_wasm_call.  On failure *out is NULL. */
int scp_wasm_instantiate(const scp_wasm_module *m, const scp_wasm_env *env,
                         scp_wasm_instance **out, scp_error *err);
void scp_wasm_instance_free(scp_wasm_instance *inst);

typedef enum scp_trap {
  SCP_TRAP_NONE,
  SCP_TRAP_UNREACHABLE,
  SCP_TRAP_MEM_OOB,
  SCP_TRAP_TABLE_OOB,          /* call_indirect past the table: "undefined element" */
  SCP_TRAP_TABLE_ACCESS,       /* table.init/copy or an element segment out of bounds */
  SCP_TRAP_NULL_ELEM,          /* "uninitialized element" */
  SCP_TRAP_SIG_MISMATCH,       /* "indirect call type mismatch" */
  SCP_TRAP_DIV_ZERO,
  SCP_TRAP_INT_OVERFLOW,
  SCP_TRAP_STACK_EXHAUSTED,
  SCP_TRAP_OUT_OF_FUEL,
  SCP_TRAP_HOST,               /* the embedder's host call failed */
  SCP_TRAP_COUNT
} scp_trap;

/* The spec-test wording of a trap ("integer divide by zero", ...). */
const char *scp_trap_text(scp_trap t);

/* Call function index f.  args: the params; results written to
 * results[0..nresults).  Returns SCP_OK or SCP_ERR_TRAP (err names the trap
 * and function; scp_wasm_last_trap tells the kind; for SCP_TRAP_HOST the
 * embedder's status is in err->code's place via scp_wasm_host_status).
 * After a trap the instance stays usable. */
int scp_wasm_call(scp_wasm_instance *inst, uint32_t f, const uint64_t *args,
                  uint64_t *results, scp_error *err);
scp_trap scp_wasm_last_trap(const scp_wasm_instance *inst);
/* The function index the last trap happened in (not for host traps). */
uint32_t scp_wasm_last_trap_func(const scp_wasm_instance *inst);

/* The guest backtrace of the last trap, innermost first: entry i's
 * function index and code-section pc (the trapping operator, then each
 * caller's call).  Returns the number of entries (up to 64; 0 when the
 * trap was outside guest code); *func and *pc are set when i is below it. */
size_t scp_wasm_trap_trace(const scp_wasm_instance *inst, size_t i, uint32_t *func, uint64_t *pc);
int scp_wasm_host_status(const scp_wasm_instance *inst);

/* ---- metering & profiling -------------------------------------------- */

#define SCP_FUEL_INFINITE UINT64_MAX

/* Set the fuel tank (Soroban refills it from the CPU budget at every host
 * boundary).  Read what is left, and the total consumed since creation. */
void scp_wasm_set_fuel(scp_wasm_instance *inst, uint64_t fuel);
uint64_t scp_wasm_fuel(const scp_wasm_instance *inst);
uint64_t scp_wasm_fuel_consumed(const scp_wasm_instance *inst);

/* Attach a tree: calls made from now on are recorded under node `at`
 * (guest calls, import calls -> embedder decides host nodes).  module_id is
 * stored in the nodes this instance creates.  Pass NULL to detach. */
void scp_wasm_attach(scp_wasm_instance *inst, scp_tree *t, uint32_t at,
                     uint32_t module_id, unsigned fuel_metric_scale);

/* The tree node of the innermost running guest frame and the pc (code-
 * section offset) of the instruction being executed: for the embedder's
 * host-call nodes. */
uint32_t scp_wasm_current_node(const scp_wasm_instance *inst);
uint64_t scp_wasm_current_pc(const scp_wasm_instance *inst);

/* Turn region-entry counters of every node this instance touched into
 * per-pc costs: metric 0 gets fuel*scale for each instruction (scale = the
 * fuel_metric_scale given to attach, 4 for Soroban CPU).  Dynamic fuel
 * (memory.grow, bulk memory) was already added at its pc.  Idempotent:
 * counters are zeroed after settling. */
int scp_wasm_settle(scp_wasm_instance *inst);

/* Operators charged so far by settled regions: each region entry counts
 * every operator of the region (as its fuel does, early exits included).
 * For benchmarks' instructions-per-second; approximate by design. */
uint64_t scp_wasm_ops_settled(const scp_wasm_instance *inst);

/* Linear memory (NULL/0 when none).  The pointer changes on memory.grow. */
uint8_t *scp_wasm_memory(scp_wasm_instance *inst, uint64_t *len);

/* Exported/any global by index. */
bool scp_wasm_global_get(const scp_wasm_instance *inst, uint32_t g, uint64_t *v);

/* Use the portable switch dispatch instead of computed goto (both are
 * always built; tests run the opcode suites in both). */
void scp_wasm_set_switch_dispatch(scp_wasm_instance *inst, bool on);

/* The module of an instance. */
const scp_wasm_module *scp_wasm_instance_module(const scp_wasm_instance *inst);

#endif
