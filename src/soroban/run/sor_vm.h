/*
 * sor_vm.h — private to src/soroban: the VM glue (sor_vm.c: contract code,
 * nested VMs, host calls, the meter the run core reads) as the profiled run
 * (sor_run.c) drives it.
 */
#ifndef SCP_SOR_VM_H
#define SCP_SOR_VM_H

#include "soroban/run/sor_costs.h"
#include "soroban/core/scp_host.h"
#include "soroban/core/host_private.h"
#include "run/scp_run.h"
#include "soroban/fee/scp_fee_tx.h"
#include "soroban/run/sor_modcache.h"
#include "symbols/scp_sym.h"
#include "wasm/scp_wasm.h"

/* The run core's metrics, in this order; with a fee (scp_sor_vm_fee) the
 * Fee metric comes third, SOR_METRIC_FEE, and the storage metrics one
 * later, so a run without storage keeps the first three. */
enum { SOR_METRIC_CPU, SOR_METRIC_MEM, SOR_METRIC_READS, SOR_METRIC_WRITES, SOR_METRIC_RBYTES,
       SOR_METRIC_WBYTES, SOR_NMETRICS };
#define SOR_METRIC_FEE 2

/* Host-node callees that are no host function: Host::set_authorization_
 * entries (auth:entries) and recording mode's emulated authentication at
 * the last frame's pop (auth:emulate). */
#define SOR_AUTH_EMULATE 0xFFFFFFF0u
#define SOR_AUTH_ENTRIES 0xFFFFFFF1u
/* An authentication's signature check (auth:verify(ed25519)) or a custom
 * account's __check_auth (auth:verify(__check_auth)), under the
 * require_auth that caused it. */
#define SOR_AUTH_VERIFY_ED25519 0xFFFFFFF2u
#define SOR_AUTH_VERIFY_CONTRACT 0xFFFFFFF3u
/* A transaction's set-up as the network's invocation makes it before the
 * call: its inputs decoded, its footprint and storage map built
 * (tx:decode, sor_tx_enforce.c). */
#define SOR_TX_DECODE 0xFFFFFFF4u
/* Its teardown after the call: the events externalized, the result, the
 * ledger changes and the events encoded (tx:encode, sor_tx_enforce.c). */
#define SOR_TX_ENCODE 0xFFFFFFF5u

#define SOR_MAX_DEPTH 128

/* One contract of the run: its id and name, its code (mod, import_fn,
 * sym: owned's, or borrowed from the VM's module cache). */
typedef struct sor_module {
  uint8_t id[32];
  uint8_t code_hash[32];
  const uint8_t *code_at;      /* the ledger's code bytes last found to be this
                                  module's (find_module: hashed once) */
  size_t len;                  /* the Wasm's bytes */
  const scp_wasm_module *mod;
  const int *import_fn;        /* host function id per import */
  scp_sym *sym;
  char *label;                 /* "contract:demo.wasm" */
  sor_code *owned;             /* the code, when no cache holds it */
} sor_module;

/* One running VM. */
typedef struct sor_frame {
  uint32_t module;
  scp_wasm_instance *inst;
  uint64_t fuel_flushed;       /* fuel already charged as WasmInsnExec */
  uint64_t linear_mem;         /* memory charged for its linear memory */
  uint32_t node;               /* its contract node (the root for the called contract) */
  bool nested;                 /* node was entered on the run core's stack */
  bool instantiating;
} sor_frame;

typedef struct sor_vm {
  scp_budget budget;
  scp_host *host;
  scp_run *run;                /* the tree, the cursor and the node stack */
  sor_module *mods;
  size_t nmods, capmods;
  sor_frame frames[SOR_MAX_DEPTH];
  unsigned depth;
  uint64_t refunded;
  uint64_t late_refund;        /* linear memory charged to the host-function frame */
  scp_error run_err;           /* innermost failure */
  char trap_trace[2048];       /* its guest backtrace: "#N frame" lines */
  const char *title;           /* the root's name */
  char frame_name[160];
  char frame_body[65];         /* the guest frame's body hash, hex (node_frame) */
  char sac_names[8][64];       /* contract:SAC(...) names, by SOR_CALLEE_SAC0 + k */
  unsigned nsac;
  scp_fee_run fee;             /* the network's fee (fee.on), booked after the call */
  uint64_t fee_total;          /* the meter's Fee: 0 until booked */
  bool emulating;              /* the last pop's emulated authentication runs */
  bool test_env;               /* a soroban-sdk test's call: no frame below the top contract */
  const scp_sym_file *symbols; /* files a module's mapper may read instead (borrowed) */
  size_t nsymbols;
  sor_modcache *cache;         /* borrowed (a scenario ledger's), or NULL: each module loaded here */
  sor_costs costs;             /* the Budget by cost type per node (sor_costs.c) */
} sor_vm;

/* (sor_vm.c) what the meter counted since the cursor, booked to a new
 * root child of callee (SOR_AUTH_*); with only_if_any not when all zero.
 * *node is the child (0: none).  SCP_OK or SCP_ERR_NOMEM. */
int scp_sor_book_root_child(sor_vm *vm, uint32_t callee, bool only_if_any, uint32_t *node);

/* The charges of creating a contract VM from module m (vm.rs,
 * vm/parsed_module.rs), linear memory aside: with parse, the ParseWasm*
 * cost inputs and the linker's import-symbol set; always the
 * InstantiateWasm* cost inputs and the import protocol check's symbol set.
 * SCP_OK or SCP_ERR_BUDGET. */
int scp_soroban_vm_charges(scp_budget *b, const scp_wasm_module *m, bool parse);

/* Set vm up: a Budget of cpu_limit / mem_limit, a host with options ho
 * whose contract calls run in this VM glue, and a run core with the six
 * metrics.  Returns SCP_OK or SCP_ERR_NOMEM ("out of memory" in err); on
 * failure the caller still calls scp_sor_vm_close. */
SCP_HIDDEN int scp_sor_vm_open(sor_vm *vm, uint64_t cpu_limit, uint64_t mem_limit,
                               const scp_host_opts *ho, scp_error *err);
/* After open, with vm->fee set up (scp_fee_run_init, fee.on): the run core
 * gets the Fee metric and the host's storage and event notes go to the
 * fee tracker, each booked to the node on top.  SCP_OK or SCP_ERR_NOMEM. */
SCP_HIDDEN int scp_sor_vm_fee(sor_vm *vm, scp_error *err);

/* Free everything vm holds (also after a failed open). */
SCP_HIDDEN void scp_sor_vm_close(sor_vm *vm);

/* Load wasm as module index *out of contract id, labelled
 * contract:<basename of path>; errors name path.  With vm->cache, the code
 * comes from it (loaded there on its first use).  Its mapper reads the
 * first of vm->symbols whose code is wasm's (scp_sym_wasm_matches), else
 * wasm itself (such a module is loaded for this VM alone). */
SCP_HIDDEN int scp_sor_add_module(sor_vm *vm, const uint8_t id[32], const uint8_t *wasm,
                                  size_t len, const char *path, uint32_t *out, scp_error *err);
/* The same for the ledger's file `file` (its bytes wasm, len), found in
 * vm->cache by its index, without hashing it again (without a cache, as
 * scp_sor_add_module). */
SCP_HIDDEN int scp_sor_add_file_module(sor_vm *vm, size_t file, const uint8_t id[32], const uint8_t *wasm,
                                       size_t len, const char *path, uint32_t *out, scp_error *err);

/* The contract's interface protocol (contractenvmetav0), UINT32_MAX when
 * it has none. */
SCP_HIDDEN uint32_t scp_sor_module_protocol(const scp_wasm_module *mod);

/* Refuse a module importing a host function that its protocol or the
 * ledger's does not have. */
SCP_HIDDEN int scp_sor_check_import_protocols(const sor_module *m, uint32_t ledger, scp_error *err);

/* Names the tree's nodes and inline chains for the profile. */
SCP_HIDDEN void scp_sor_resolver(sor_vm *vm, scp_resolver *out);

SCP_HIDDEN const char *scp_sor_basename(const char *path);

/* e's message for a run stopped by the Budget: "Error(Budget,
 * ExceededLimit): CPU used of limit, memory used of limit".  Returns
 * SCP_ERR_BUDGET. */
SCP_HIDDEN int scp_sor_budget_message(const sor_vm *vm, scp_error *e);

#endif
