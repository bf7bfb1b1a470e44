/*
 * sbpf_private.h — engine internals shared by the loader, the decoder and
 * verifier, the VM and the interpreter.  Not a public header.
 */
#ifndef SCP_SBPF_PRIVATE_H
#define SCP_SBPF_PRIVATE_H

#include "sbpf/scp_sbpf.h"

/* Version masks of sbpf_ops.def. */
enum { V0 = 1, V1 = 2, V2 = 4, V3 = 8, ALL = 15, V013 = V0 | V1 | V3 };

typedef enum sbpf_flow { PLAIN, JUMP, GOTO, CALL, EXIT, TRAP } sbpf_flow;

typedef enum sbpf_check {
  CHK_NONE, CHK_STORE, CHK_DIVZ, CHK_SH32, CHK_SH64, CHK_END, CHK_LDDW, CHK_JMP, CHK_CALLX
} sbpf_check;

typedef enum sbpf_op {
#define BODY(name, flow) OP_##name,
#include "sbpf/sbpf_ops.def"
  OP_COUNT
} sbpf_op;

/* One decoded instruction slot.  aux: jump/call target pc, memory offset,
 * syscall index into the loader's table; imm: the sign-extended immediate
 * (lddw: the whole 64-bit value).  CALLX keeps its register in src.
 * op is what the instruction is; xop is the body the interpreter runs for
 * it: op, a fused pair's body (sbpf_fuse, sbpf_prog.c), or METER_OUT while
 * the meter runs short there (sbpf_meter_short). */
typedef struct sbpf_insn {
  uint8_t op, dst, src, xop;
  int32_t aux;
  int64_t imm;
} sbpf_insn;

typedef struct sbpf_syscall {
  uint32_t key;                /* first, as key_lower reads it */
  char *name;
  scp_sbpf_syscall_fn fn;
  void *ctx;
} sbpf_syscall;

struct scp_sbpf_loader {
  scp_sbpf_loader_opts opts;
  sbpf_syscall *sys;          /* sorted by key */
  size_t nsys, capsys;
};

typedef struct sbpf_key {
  uint32_t key, pc;            /* key first, as key_lower reads it */
} sbpf_key;

struct scp_sbpf_prog {
  const scp_sbpf_loader *loader;
  char *name;                  /* for messages */
  scp_sbpf_version version;
  uint16_t machine;
  uint32_t ninsns, entry;
  uint8_t *text;               /* relocated .text (owned) */
  uint64_t text_len_bytes;
  uint64_t text_addr;          /* ELF sh_addr / p_vaddr of .text */
  uint64_t text_vaddr;         /* VM address of slot 0 */
  uint8_t *ro;                 /* read-only region bytes (owned) */
  uint64_t ro_len, ro_vaddr;
  /* Function registry (v0-v2 keys; v3 labels), sorted by key. */
  sbpf_key *keys;
  size_t nkeys, capkeys;
  /* Functions by pc (distinct pcs), names owned. */
  scp_sbpf_func *funcs;
  size_t nfuncs, capfuncs;
  scp_sbpf_syscall_use *uses;
  size_t nuses, capuses;
  /* Decoded form: ninsns + 1 slots (the last one is OVERRUN). */
  sbpf_insn *code;
  uint32_t *cnt;               /* instructions from pc to the end of its block */
  uint32_t *blk;               /* block index at a leader, UINT32_MAX elsewhere */
  uint64_t *cntblk;            /* cnt | blk << 32: what the interpreter reads on entering a block */
  uint32_t *block_pc;          /* leader pc of each block */
  uint32_t nblocks;
  uint32_t *func_block;        /* first block of each function (nfuncs + 1) */
};

/* Fill err with "<kind> error: <text> (<variant>)" -- solana-sbpf's
 * ElfError / VerifierError as the loader reports them -- and return code. */
int sbpf_fail(scp_error *err, int code, const char *kind, const char *variant, const char *fmt,
              ...) SCP_PRINTF(5, 6);

/* Loader internals. */
const sbpf_syscall *sbpf_loader_find(const scp_sbpf_loader *l, uint32_t key);
uint32_t sbpf_loader_index(const scp_sbpf_loader *l, const sbpf_syscall *s);

/* ELF parsing, relocation and registry (sbpf_elf.c): fills p's text, ro,
 * entry, keys, funcs (names), version, machine.  err->msg without the file
 * prefix. */
int sbpf_elf_load(scp_sbpf_prog *p, const uint8_t *elf, size_t len, scp_error *err);

/* Registry helpers (sbpf_prog.c). */
int sbpf_register_key(scp_sbpf_prog *p, uint32_t key, uint32_t pc, scp_error *err);
const sbpf_key *sbpf_lookup_key(const scp_sbpf_prog *p, uint32_t key);
int sbpf_add_func(scp_sbpf_prog *p, uint32_t pc, const char *name, size_t nlen);
/* key = murmur3(le64(pc)) unless the name is "entrypoint"; fails with
 * SymbolHashCollision against the loader's syscalls. */
int sbpf_register_hashed(scp_sbpf_prog *p, uint32_t pc, bool entry, uint32_t *key,
                         scp_error *err);

/* Verify (RequisiteVerifier, and LocalVerifier for v3), decode into the
 * internal form and find basic blocks (sbpf_verify.c). */
int sbpf_verify(const scp_sbpf_prog *p, scp_error *err);
int sbpf_decode(scp_sbpf_prog *p, scp_error *err);

/* Build a program straight from .text bytes (solana-sbpf's
 * Executable::new_from_text_bytes): entrypoint at pc 0, text at
 * MM_BYTECODE, no rodata.  For tests and the fuzzer. */
int sbpf_load_text(const scp_sbpf_loader *l, const uint8_t *text, size_t len,
                   scp_sbpf_version v, scp_sbpf_prog **out, scp_error *err);

/* ---- VM ------------------------------------------------------------------ */

typedef struct sbpf_region {
  uint8_t *host;
  uint64_t vaddr, len;
  bool writable;
  unsigned gap_shift;          /* 0 = contiguous; else frame/gap size log2 */
} sbpf_region;

/* The host address of [a, a+len) in the regions (indexed by a >> 32), or
 * NULL when it is not mapped, not writable for a write, or falls in a gap
 * of a gapped stack.  Inline: the interpreter's loads and stores use it. */
static inline uint8_t *sbpf_xlate(const sbpf_region *rg, unsigned nreg, uint64_t a, uint64_t len,
                                  bool write) {
  uint64_t i = a >> 32;
  if (SCP_UNLIKELY(i >= nreg)) return NULL;
  const sbpf_region *r = &rg[i];
  if (SCP_UNLIKELY((write && !r->writable) || a < r->vaddr)) return NULL;
  uint64_t off = a - r->vaddr;
  if (r->gap_shift) {
    if ((off >> r->gap_shift) & 1) return NULL;
    uint64_t mask = (1ull << r->gap_shift) - 1;
    off = ((off & ~mask) >> 1) | (off & mask);
  }
  if (SCP_UNLIKELY(off > r->len || len > r->len - off)) return NULL;
  return r->host + off;
}

typedef struct sbpf_frame {
  uint64_t saved[5];           /* r6..r9, r10 */
  const struct sbpf_insn *rip; /* where the call this frame made returns */
  uint32_t node, fb, fnb;
  uint64_t *ctr;
  /* The call that set node..ctr: the caller's node and its `call imm`
   * (NULL: none, or a callx), so the same call again finds them still
   * here (sbpf_interp.c).  kcalls: calls made through the key since its
   * node last had them added (the interpreter adds them before anything
   * may read the tree). */
  uint32_t knode;
  const struct sbpf_insn *kip;
  uint64_t kcalls;
  /* Set with the key on every call into this frame: what entering the
   * callee's first block (e) and, on its return, the caller's block at
   * rip (r) charge and which counter they count, so neither looks
   * them up again.  A charge of UINT64_MAX sends the entry down the
   * general path (a block no counter of the frame covers). */
  uint64_t ecnt, rcnt;
  uint64_t *ectr, *rctr;
  const struct sbpf_insn *eip; /* the callee's first instruction */
} sbpf_frame;

/* Entries that no per-node counter covers: a block entered outside its
 * function's block range, or entered mid-block (callx). */
typedef struct sbpf_stray {
  uint32_t node, pc;
  uint64_t count;
} sbpf_stray_entry;

#define SBPF_CALL_CACHE 256

/* gen: the VM's cache_gen when the entry was made; any other value is
 * an empty entry (a pooled VM's struct is reused, its cache not cleared). */
typedef struct sbpf_call_cache {
  uint32_t node, pc, target, child;
  uint32_t fb, fnb;            /* the callee's block range, as func_at gives it */
  uint64_t *ctr;
  uint32_t gen;
} sbpf_call_cache;

/* Block counters of the guest nodes a VM entered, out of chunks kept from
 * one VM to the next (a pool slot's, or the VM's own): settling reads and
 * clears every counter, so the chunks are all zero whenever no VM holds
 * them and handing out counters is a bump of the cursor.  of[id] is node
 * id's entry + 1 (0: none yet), entries those nodes in the order they got
 * counters; both are emptied when the VM settles. */
typedef struct sbpf_ctr_node {
  uint32_t node, fb, fnb;      /* fb, fnb: the callee's block range */
  uint64_t *ctr;
} sbpf_ctr_node;

typedef struct sbpf_ctr_chunk {
  uint64_t *p;                 /* zero outside a VM's run */
  size_t n;
} sbpf_ctr_chunk;

typedef struct sbpf_ctrs {
  sbpf_ctr_chunk *chunk;
  size_t nchunk, capchunk;
  size_t cur, used;            /* the chunk handing out, its entries taken */
  uint32_t *of;
  size_t capof;
  sbpf_ctr_node *entries;
  size_t n, cap;
} sbpf_ctrs;

/* Entries per chunk (a function with more blocks gets a chunk its size). */
#define SBPF_CTR_CHUNK 4096

/* A pooled VM's struct is its slot's, reused: the fields up to `frames`
 * start zeroed; frames need only their keys reset (the interpreter does
 * that) and the call cache its generation bumped. */
struct scp_sbpf_vm {
  const scp_sbpf_prog *prog;
  scp_sbpf_vm_config cfg;
  uint64_t reg[11];
  sbpf_region regions[5];
  unsigned nregions;
  uint8_t *stack, *heap;
  uint64_t stack_len;
  uint32_t depth;
  uint32_t pc, node;           /* spilled at syscalls and traps */
  uint64_t insns;              /* instructions executed */
  bool ran, switch_dispatch, settled;
  scp_sbpf_trap trap;
  uint32_t trap_pc;
  int syscall_status;
  /* Meter stop: the op replaced by METER_OUT while the meter runs short. */
  uint32_t patch_pc;
  uint8_t patch_op, patch_head; /* xop of patch_pc and of the slot before it */
  bool patched;
  uint64_t *scratch;           /* block counters when no tree is attached */
  sbpf_stray_entry *strays;
  size_t nstrays, capstrays;
  bool oom;
  /* With a pool, the memory is its slot's: regions 2 and 3 then map only
   * the prefix reached so far (grown by sbpf_xlate_reach), which is what
   * the slot zeroes when the VM ends. */
  scp_sbpf_pool *pool;
  size_t slot;
  bool windowed;
  sbpf_ctrs own;               /* without a slot (sbpf_vm_ctrs) */
  /* kept from one use of a pooled struct to the next */
  sbpf_frame frames[SCP_SBPF_MAX_CALL_DEPTH];
  sbpf_call_cache cache[SBPF_CALL_CACHE];
  uint32_t cache_gen;
};

/* One set of VM memory in a pool (sbpf_pool.c). */
typedef struct sbpf_mem {
  uint8_t *stack, *heap;       /* SCP_SBPF_FRAME_SIZE * MAX_CALL_DEPTH, SCP_SBPF_HEAP_MAX; zero */
  uint64_t *scratch;           /* block counters nobody reads: never zeroed */
  size_t nscratch;
  uint64_t *pcs, *amount;      /* settling: a node's pcs with their CU */
  size_t nacc;
  bool busy;
  sbpf_ctrs ctrs;
  scp_sbpf_vm *vm;             /* the struct of the slot's VMs (NULL until one) */
} sbpf_mem;

struct scp_sbpf_pool {
  sbpf_mem *slots;
  size_t n, cap;
};

/* The block counters of vm's guest nodes: its slot's, or its own.  Not
 * kept as a pointer: the pool's slots move when a nested VM adds one. */
static inline sbpf_ctrs *sbpf_vm_ctrs(scp_sbpf_vm *vm) {
  return vm->pool ? &vm->pool->slots[vm->slot].ctrs : &vm->own;
}

/* A free slot of pool for a VM of p, its scratch counters and settling
 * tables sized to p; SIZE_MAX when out of memory. */
size_t sbpf_pool_take(scp_sbpf_pool *pool, const scp_sbpf_prog *p);
/* Slot back, its stack zeroed up to stack_used bytes and its heap up to
 * heap_used. */
void sbpf_pool_give(scp_sbpf_pool *pool, size_t slot, uint64_t stack_used, uint64_t heap_used);

/* Counters (zero) for n blocks of node id, the same ones each time the
 * node is asked for with the same n; NULL when out of memory or when the
 * node already has a different number (sbpf_ctrs.c). */
uint64_t *sbpf_ctrs_get(sbpf_ctrs *c, uint32_t id, uint32_t fb, uint32_t n);
/* The entries back, the nodes forgotten; clear: zero their counters
 * (settling has not read them all). */
void sbpf_ctrs_reset(sbpf_ctrs *c, bool clear);
void sbpf_ctrs_free(sbpf_ctrs *c);

/* A guest access outside the mapped prefix of a windowed VM's stack or
 * heap: when the full region holds it, the prefix grows (page by page)
 * to cover it and the host address is returned; NULL otherwise (the
 * access violation it is). */
uint8_t *sbpf_xlate_reach(scp_sbpf_vm *vm, uint64_t a, uint64_t len, bool write);

/* Interpreter entry points (sbpf_interp.c, compiled twice). */
int scp_sbpf_exec_goto(scp_sbpf_vm *vm, uint64_t *r0, scp_error *err);
int scp_sbpf_exec_switch(scp_sbpf_vm *vm, uint64_t *r0, scp_error *err);

/* Slow paths the interpreter calls (sbpf_vm.c). */
/* The access-violation trap for [addr, addr+len): fills err with the
 * message MemoryMapping::generate_access_violation makes and returns
 * ACCESS_VIOLATION or STACK_ACCESS_VIOLATION. */
scp_sbpf_trap sbpf_access_violation(scp_sbpf_vm *vm, uint64_t addr, uint64_t len, bool write,
                                    scp_error *err);
/* A block entered where no node counter covers it (mid-block, or outside
 * the frame's function). */
void sbpf_stray(scp_sbpf_vm *vm, uint32_t node, uint32_t pc);
/* Enter the node of a call at byte address callsite to target pc: fills
 * cur's node, counters and block range.  sbpf_call_cached is its fast
 * path, inline for the interpreter's calls: true when the call cache
 * holds the node (and cur is filled), false when sbpf_enter_call must run. */
static inline sbpf_call_cache *sbpf_call_slot(scp_sbpf_vm *vm, uint32_t parent, uint64_t callsite,
                                              uint32_t target) {
  uint32_t h = (uint32_t)((callsite >> 3) * 0x9e3779b1u) ^ parent * 0x85ebca6bu ^ target;
  return &vm->cache[(h ^ h >> 12) & (SBPF_CALL_CACHE - 1)];
}

static inline bool sbpf_call_cached(scp_sbpf_vm *vm, sbpf_frame *cur, uint32_t parent,
                                    uint64_t callsite, uint32_t target) {
  const sbpf_call_cache *e = sbpf_call_slot(vm, parent, callsite, target);
  if (e->gen != vm->cache_gen || e->node != parent || e->pc != (uint32_t)callsite || e->target != target ||
      vm->oom)
    return false;
  vm->cfg.tree->nodes[e->child].calls++;
  cur->node = e->child;
  cur->ctr = e->ctr;
  cur->fb = e->fb;
  cur->fnb = e->fnb;
  return true;
}
void sbpf_enter_call(scp_sbpf_vm *vm, sbpf_frame *cur, uint32_t parent, uint64_t callsite,
                     uint32_t target);
/* The meter (m) cannot pay for the block entered at pc: put METER_OUT on
 * the instruction where step() fails. */
void sbpf_meter_short(scp_sbpf_vm *vm, uint32_t pc, uint64_t m);
void sbpf_unpatch(scp_sbpf_vm *vm);
/* A trap at pc in the block entered at bpc after `executed` instructions of
 * it: only those count in the profile.  Fills err (when non-NULL) with the
 * trap's text. */
void sbpf_trap(scp_sbpf_vm *vm, scp_sbpf_trap t, uint32_t pc, uint32_t bpc, uint64_t executed,
               const sbpf_frame *cur, scp_error *err);

/* murmur3 of a pc's 8 little-endian bytes. */
uint32_t sbpf_hash_pc(uint64_t pc);

#endif
