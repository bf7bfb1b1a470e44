/*
 * scp_sbpf.h — the sBPF engine: ELF loader (the lenient path of sBPF v0-v2
 * and the strict v3 path), verifier, and an interpreter whose compute-unit
 * meter runs out at exactly the instruction where solana-sbpf 0.23's does.
 *
 * Three objects, as in solana-sbpf:
 *   scp_sbpf_loader  the syscall registry and loader configuration
 *                    (solana-sbpf's BuiltinProgram);
 *   scp_sbpf_prog    one loaded, relocated and verified program
 *                    (its Executable); immutable after loading;
 *   scp_sbpf_vm      one invocation: registers, stack, heap, the input
 *                    region the runtime supplies, and the meter (its EbpfVm).
 *
 * Metering (../shared/spec/sbpf/sbpf.txt §5): every executed instruction is
 * 1 CU (lddw once).  The CU meter lives in the runtime (one uint64_t shared by
 * every VM of a transaction, CPI included); the VM charges it per basic
 * block and, before a syscall body runs, the meter already holds every
 * instruction executed so far, the `call` included — as solana-sbpf's
 * dispatch_syscall flushes its due instruction count.  That flushed count is
 * guest work: the runtime's syscall node gets only "meter before the body
 * minus meter after it".
 *
 * Profiling: with a tree attached the VM creates a guest node per
 * (caller node, callsite, callee) and counts basic-block entries per node;
 * scp_sbpf_vm_settle() expands the counts into exact per-pc CU.  A guest
 * node's callee is the pc (slot index) the call went to; its callsite and
 * its per-pc costs are mapper addresses (text_addr + 8 * pc); the entry
 * function's node hangs under cfg->node with callsite 0.  No event exists
 * per instruction; the hooks fire only at calls, returns, syscalls and
 * traps.
 *
 * pcs are instruction-slot indices into .text (an lddw takes two slots).
 * The mapper's address of pc i is scp_sbpf_prog_text_addr() + 8*i.
 */
#ifndef SCP_SBPF_H
#define SCP_SBPF_H

#include "profile/scp_tree.h"

typedef struct scp_sbpf_loader scp_sbpf_loader;
typedef struct scp_sbpf_prog scp_sbpf_prog;
typedef struct scp_sbpf_vm scp_sbpf_vm;

/* ---- the address space (solana-sbpf ebpf.rs) ------------------------- */
#define SCP_SBPF_MM_RODATA   0x000000000ULL   /* v3 rodata */
#define SCP_SBPF_MM_BYTECODE 0x100000000ULL   /* text (and v0-v2 rodata) */
#define SCP_SBPF_MM_STACK    0x200000000ULL
#define SCP_SBPF_MM_HEAP     0x300000000ULL
#define SCP_SBPF_MM_INPUT    0x400000000ULL
#define SCP_SBPF_MM_REGION   0x100000000ULL   /* each region is 4 GiB */

#define SCP_SBPF_MAX_CALL_DEPTH 64
#define SCP_SBPF_FRAME_SIZE     4096
#define SCP_SBPF_HEAP_DEFAULT   (32u * 1024)
#define SCP_SBPF_HEAP_MAX       (256u * 1024)

/* e_machine values a program may carry. */
#define SCP_SBPF_EM_BPF  247
#define SCP_SBPF_EM_SBPF 263

/* sBPF version = ELF e_flags (program.rs SBPFVersion). */
typedef enum scp_sbpf_version {
  SCP_SBPF_V0 = 0, SCP_SBPF_V1 = 1, SCP_SBPF_V2 = 2, SCP_SBPF_V3 = 3
} scp_sbpf_version;

/* murmur3-32, seed 0: the key of a syscall name (and, over the 8
 * little-endian bytes of a pc, of a v0-v2 function). */
uint32_t scp_sbpf_hash(const void *data, size_t len);

/* ---- traps -------------------------------------------------------------
 * Named as solana-sbpf's EbpfError variants (error.rs); the message a trap
 * leaves in scp_error is the variant's Display text, as the runtime logs it
 * ("Access violation in input region at address 0x... of size 8" style: see
 * sbpf_traps.def for each). */
typedef enum scp_sbpf_trap {
#define X(id, variant, text) SCP_SBPF_TRAP_##id,
#include "sbpf/sbpf_traps.def"
#undef X
  SCP_SBPF_TRAP_COUNT
} scp_sbpf_trap;

/* "CallDepthExceeded", ... ("None" for SCP_SBPF_TRAP_NONE). */
const char *scp_sbpf_trap_name(scp_sbpf_trap t);

/* ---- loader: syscall registry ----------------------------------------- */

/* A syscall body.  args are r1..r5; write the result to *r0.  Return SCP_OK,
 * or an error status with err filled (the run then ends with trap
 * SCP_SBPF_TRAP_SYSCALL and that message; the status is kept, see
 * scp_sbpf_vm_syscall_status).  On entry the meter already holds every
 * guest instruction executed so far.  Costs are charged with
 * scp_sbpf_vm_consume(). */
typedef int (*scp_sbpf_syscall_fn)(void *ctx, scp_sbpf_vm *vm,
                                   const uint64_t args[5], uint64_t *r0,
                                   scp_error *err);

typedef struct scp_sbpf_loader_opts {
  /* Versions that load (agave: v0..v3 with litesvm's features). */
  scp_sbpf_version min_version, max_version;
  /* Config::reject_broken_elfs: what deployment checks on top of what
   * execution accepts (sh_addr == sh_offset, known syscall names). */
  bool reject_broken_elfs;
} scp_sbpf_loader_opts;

/* Default options: v0..v3, reject_broken_elfs off (execution). */
void scp_sbpf_loader_opts_default(scp_sbpf_loader_opts *o);

/* opts may be NULL (defaults).  Returns SCP_OK or SCP_ERR_NOMEM. */
int scp_sbpf_loader_create(const scp_sbpf_loader_opts *opts, scp_sbpf_loader **out);
void scp_sbpf_loader_destroy(scp_sbpf_loader *l);

/* Register a syscall under key murmur3(name) (the name is copied).  Must
 * happen before programs are loaded (the loader checks function keys
 * against syscall keys).  Returns SCP_OK; SCP_ERR_INVALID when the key is
 * taken (err names both); SCP_ERR_NOMEM. */
int scp_sbpf_loader_register(scp_sbpf_loader *l, const char *name,
                             scp_sbpf_syscall_fn fn, void *ctx, scp_error *err);

/* Name of a registered syscall key, or NULL. */
const char *scp_sbpf_loader_syscall_name(const scp_sbpf_loader *l, uint32_t key);

/* ---- programs ----------------------------------------------------------- */

/* Parse, relocate and verify an ELF under loader l (which must outlive the
 * program).  `name` (the file, for messages) may be NULL.  The bytes are
 * copied.  On failure *out is NULL, the status is SCP_ERR_MALFORMED (not a
 * loadable ELF), SCP_ERR_INVALID (the verifier), SCP_ERR_UNSUPPORTED (a
 * version outside the loader's range) or SCP_ERR_NOMEM, and err->msg is one
 * line "NAME: ELF error: <text> (ElfErrorVariant)" or "NAME: Verifier
 * error: <text> (VerifierErrorVariant)" with solana-sbpf's wording. */
int scp_sbpf_load(const scp_sbpf_loader *l, const uint8_t *elf, size_t len,
                  const char *name, scp_sbpf_prog **out, scp_error *err);
void scp_sbpf_prog_free(scp_sbpf_prog *p);

scp_sbpf_version scp_sbpf_prog_version(const scp_sbpf_prog *p);
uint16_t scp_sbpf_prog_machine(const scp_sbpf_prog *p);     /* e_machine */
/* Instruction slots in .text, and the entrypoint pc. */
uint32_t scp_sbpf_prog_ninsns(const scp_sbpf_prog *p);
uint32_t scp_sbpf_prog_entry(const scp_sbpf_prog *p);
/* ELF address of .text's first byte (what DWARF and .symtab use). */
uint64_t scp_sbpf_prog_text_addr(const scp_sbpf_prog *p);
/* Where text and read-only data sit in the VM: [*vaddr, *vaddr + *len). */
void scp_sbpf_prog_text_range(const scp_sbpf_prog *p, uint64_t *vaddr, uint64_t *len);
void scp_sbpf_prog_ro_range(const scp_sbpf_prog *p, uint64_t *vaddr, uint64_t *len);

/* The function registry, sorted by pc: the entrypoint, every call target,
 * and (names only) .symtab FUNC symbols.  name is "" when none is known. */
typedef struct scp_sbpf_func {
  uint32_t pc;
  uint32_t key;          /* the call imm that reaches it (v0-v2), else pc */
  const char *name;
} scp_sbpf_func;
uint32_t scp_sbpf_prog_nfuncs(const scp_sbpf_prog *p);
const scp_sbpf_func *scp_sbpf_prog_func(const scp_sbpf_prog *p, uint32_t i);
/* Index of the function whose range holds pc (UINT32_MAX when none). */
uint32_t scp_sbpf_prog_func_at(const scp_sbpf_prog *p, uint32_t pc);

/* Instruction pc (an index) as text into buf, as it runs in the program's
 * sBPF version: the mnemonic of its interpreter body (sbpf_ops.def,
 * lower-cased), registers, immediates, memory operands as [rN+off], jump
 * and call targets as byte addresses, a syscall by name ("add64i r1, 5",
 * "ldxdw r2, [r1+8]", "jnei r3, 0, 0x2c8", "syscall sol_log_").  Returns
 * the length written (cut to size - 1); 0 and "" for a pc past the end. */
size_t scp_sbpf_prog_disasm(const scp_sbpf_prog *p, uint32_t pc, char *buf, size_t size);

/* Syscall keys the program calls, sorted; name NULL when unregistered. */
typedef struct scp_sbpf_syscall_use {
  uint32_t key;
  const char *name;
} scp_sbpf_syscall_use;
uint32_t scp_sbpf_prog_nsyscalls(const scp_sbpf_prog *p);
const scp_sbpf_syscall_use *scp_sbpf_prog_syscall(const scp_sbpf_prog *p, uint32_t i);

/* ---- VMs -----------------------------------------------------------------*/

/* Boundary notifications for the profiler/runtime; any may be NULL.
 * node is the calling-context node (SCP_NODE_NONE without a tree). */
typedef struct scp_sbpf_hooks {
  /* A bpf-to-bpf call (call imm / callx) has pushed its frame. */
  void (*call)(void *ctx, scp_sbpf_vm *vm, uint32_t callsite_pc,
               uint32_t target_pc, uint32_t node);
  /* An exit returned to its caller (not the final exit). */
  void (*ret)(void *ctx, scp_sbpf_vm *vm, uint32_t return_pc, uint32_t node);
  /* Around a syscall body: the meter is already flushed at enter. */
  void (*syscall_enter)(void *ctx, scp_sbpf_vm *vm, uint32_t key, uint32_t pc,
                        uint32_t node);
  void (*syscall_exit)(void *ctx, scp_sbpf_vm *vm, uint32_t key, uint32_t pc,
                       int status);
  /* The run ends with a trap at pc (the meter is final). */
  void (*trap)(void *ctx, scp_sbpf_vm *vm, scp_sbpf_trap t, uint32_t pc);
} scp_sbpf_hooks;

/* One host buffer mapped in the input region (MM_INPUT). */
typedef struct scp_sbpf_region {
  uint64_t vaddr;     /* must lie in [MM_INPUT, MM_INPUT + 4 GiB) */
  uint8_t *host;      /* borrowed: must outlive the VM */
  uint64_t len;
  bool writable;
} scp_sbpf_region;

/* Memory the VMs of one runtime reuse (every invocation of a session,
 * nested ones included, one thread): a VM's stack and heap start zeroed
 * as the runtime's fresh ones do, but when it ends only what it reached is
 * zeroed again (the stack frames and heap pages up to the furthest
 * address it touched), not the whole 256 KiB; the VM struct, the block
 * counters (an unprofiled run's, and a profiled one's per guest node) and
 * the settling tables are allocated once.  Free it after its last VM. */
typedef struct scp_sbpf_pool scp_sbpf_pool;
/* NULL when out of memory. */
scp_sbpf_pool *scp_sbpf_pool_new(void);
void scp_sbpf_pool_free(scp_sbpf_pool *pool);

typedef struct scp_sbpf_vm_config {
  uint64_t *meter;           /* remaining CU, shared with the runtime (required) */
  uint32_t heap_size;        /* bytes; 0 = 32 KiB; at most 256 KiB */
  const scp_sbpf_region *input;  /* aligned mapping: at most one region */
  uint32_t ninput;
  const scp_sbpf_hooks *hooks;   /* may be NULL */
  void *hooks_ctx;
  /* Profiling: guest nodes are created under `node` of `tree` with
   * `module` and CU added to metric `cu_metric`.  tree NULL = no profile. */
  scp_tree *tree;
  uint32_t node, module;
  unsigned cu_metric;
  scp_sbpf_pool *pool;       /* borrowed; NULL: the VM allocates its own memory */
} scp_sbpf_vm_config;

/* Create a VM for p (p and the config's borrowed buffers must outlive it).
 * Registers start as the VM would: r10 the frame pointer, others 0 (set r1,
 * r2 with scp_sbpf_vm_set_reg).  Returns SCP_OK, SCP_ERR_ARG (bad config,
 * err says what), SCP_ERR_NOMEM. */
int scp_sbpf_vm_create(const scp_sbpf_prog *p, const scp_sbpf_vm_config *cfg,
                       scp_sbpf_vm **out, scp_error *err);
void scp_sbpf_vm_destroy(scp_sbpf_vm *vm);

void scp_sbpf_vm_set_reg(scp_sbpf_vm *vm, unsigned r, uint64_t v);
uint64_t scp_sbpf_vm_reg(const scp_sbpf_vm *vm, unsigned r);

/* Run from the entrypoint.  SCP_OK: *r0 is the program's return value.
 * SCP_ERR_TRAP: err holds the runtime's message for the trap,
 * scp_sbpf_vm_trap() its kind; the meter holds every CU the real VM
 * consumed up to the trap (for ExceededMaxInstructions: all of it).
 * SCP_ERR_NOMEM while profiling.  A VM runs once. */
int scp_sbpf_vm_run(scp_sbpf_vm *vm, uint64_t *r0, scp_error *err);

scp_sbpf_trap scp_sbpf_vm_trap(const scp_sbpf_vm *vm);
uint32_t scp_sbpf_vm_trap_pc(const scp_sbpf_vm *vm);
/* The status a failing syscall returned (SCP_OK otherwise). */
int scp_sbpf_vm_syscall_status(const scp_sbpf_vm *vm);
/* Instructions executed (lddw counts once), the CU the guest itself used. */
uint64_t scp_sbpf_vm_insns(const scp_sbpf_vm *vm);

/* ---- inside a syscall body ------------------------------------------- */

/* The program being run. */
const scp_sbpf_prog *scp_sbpf_vm_prog(const scp_sbpf_vm *vm);
/* The config's hooks_ctx: how a body registered once per loader (shared
 * by every program and VM it loads) finds the invocation it serves. */
void *scp_sbpf_vm_hooks_ctx(const scp_sbpf_vm *vm);

/* Translate guest [vaddr, vaddr+len) for reading (write=false) or writing,
 * as MemoryMapping::map does (the range must lie in one region; a store
 * needs a writable one; len 0 is fine anywhere inside a region).  SCP_OK
 * with *host set, or SCP_ERR_TRAP with err holding the VM's access-violation
 * message (address, size and region) and *host NULL. */
int scp_sbpf_vm_translate(scp_sbpf_vm *vm, uint64_t vaddr, uint64_t len,
                          bool write, uint8_t **host, scp_error *err);

/* The meter: what is left, and consume_checked (saturating at 0; returns
 * SCP_ERR_BUDGET when amount exceeded what was left, SCP_OK otherwise). */
uint64_t scp_sbpf_vm_remaining(const scp_sbpf_vm *vm);
int scp_sbpf_vm_consume(scp_sbpf_vm *vm, uint64_t amount);

/* Call depth (0 in the entrypoint's frame), the pc of the syscall's call
 * instruction and the calling-context node running it. */
uint32_t scp_sbpf_vm_depth(const scp_sbpf_vm *vm);
uint32_t scp_sbpf_vm_pc(const scp_sbpf_vm *vm);
uint32_t scp_sbpf_vm_node(const scp_sbpf_vm *vm);

/* ---- after a run ------------------------------------------------------- */

/* Turn the block-entry counters of every node this VM touched into per-pc
 * CU on metric cfg->cu_metric (a trapping block counts only the
 * instructions it executed).  Called by scp_sbpf_vm_run at its end;
 * idempotent.  Returns SCP_OK or SCP_ERR_NOMEM. */
int scp_sbpf_vm_settle(scp_sbpf_vm *vm);

/* Portable switch dispatch instead of computed goto (tests use both). */
void scp_sbpf_vm_set_switch_dispatch(scp_sbpf_vm *vm, bool on);

#endif
